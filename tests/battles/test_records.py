"""Records that tell the true story (issue 31): the games list shows the
agreed result, the log's filter by fighter keeps the lines naming it."""

from __future__ import annotations

import re

import pytest

from battles.services import games as services
from battles.services import league

pytestmark = pytest.mark.django_db


def perform(game, side, command, **kwargs):
    game.refresh_from_db()
    result = services.perform_action(game, side, command, **kwargs)
    game.refresh_from_db()
    return result


# --- "Your games" -------------------------------------------------------------------


def _status_line(page: str, opponent: str) -> str:
    (line,) = [li for li in re.findall(r"<li.*?</li>", page, re.S) if opponent in li]
    return line


def test_your_games_says_no_result_yet_until_both_phones_agree_then_who_won(
    game, owner_client
):
    perform(game, "a", {"type": "concede"})  # the engine's winner: B
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "no result yet" in line
    assert "won" not in line and "draw" not in line
    # Anne proposes that she won after all (the table's call), Bruno agrees.
    league.propose_game_outcome(game, "a", outcome="a", score_a=3, score_b=0)
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "no result yet" in line  # a proposal is no agreement
    league.confirm_game_outcome(game, "b")
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "Anne won" in line and "Bruno won" not in line


def test_your_games_shows_an_agreed_draw_as_a_draw(game, owner_client):
    perform(game, "b", {"type": "concede"})
    league.propose_game_outcome(game, "b", outcome="draw", score_a=1, score_b=1)
    league.confirm_game_outcome(game, "a")
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "a draw" in line


# --- the log's filter by fighter ----------------------------------------------------


def _line_texts(page: str) -> list[str]:
    return re.findall(r"<br>(.*?)(?: <span|</li>)", page)


def test_the_filter_by_fighter_keeps_exactly_the_lines_that_name_it(game, owner_client):
    from tests.support.live import play

    play(game, 260, seed=2)
    game.refresh_from_db()
    kinds = set(game.events.values_list("kind", flat=True))
    assert "combat_updated" in kinds  # the melee was reached
    url = f"/games/{game.public_id}/log"
    every = _line_texts(owner_client.get(url).content.decode())
    for fighter in ("a1.1", "b1.1"):
        label = game.state["fighters"][fighter]["label"]
        named = re.compile(rf"(?<!\w){re.escape(label)}(?![\w])")
        only = _line_texts(owner_client.get(url, {"fighter": fighter}).content.decode())
        assert only, fighter
        assert all(named.search(text) for text in only)
        assert len(only) == sum(1 for text in every if named.search(text))
