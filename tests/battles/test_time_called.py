"""Issue #29: "time called" ends a shared game early with both phones'
agreement, scored from the log (army points destroyed); conceding ends it at
once. Through the services and the phones' pages."""

from __future__ import annotations

import pytest

from battles.models import Fighter
from battles.services import games as services
from tests.support.game_steps import act

pytestmark = pytest.mark.django_db


def eliminate(game, fighter_id):
    """A fighter of the log's rows counted as fallen (its card's share of points)."""
    Fighter.objects.filter(game=game, key=fighter_id).update(eliminated=True)


def test_time_called_by_one_phone_waits_for_the_other_and_scores_from_the_log(
    game, owner_client, opponent_client
):
    eliminate(game, "b1.1")
    owner_client.post(f"/games/{game.public_id}/time-call", {"side": "a"})
    game.refresh_from_db()
    assert not game.finished
    asked = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Side A calls time" in asked
    assert "Agree: end the game" in asked
    mine = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "side B must agree" in mine

    opponent_client.post(
        f"/games/{game.public_id}/time-call/answer", {"side": "b", "agree": "1"}
    )
    game.refresh_from_db()
    assert game.finished
    finished = game.state["finished"]
    destroyed = services.army_points_destroyed(game)
    assert destroyed["a"] > 0 == destroyed["b"]
    assert finished["reason"] == "time_called"
    assert finished["winner"] == "a"
    assert (finished["score_a"], finished["score_b"]) == (destroyed["a"], 0)
    page = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "time called" in page


def test_a_refused_call_of_time_lets_the_game_go_on(game):
    services.request_time_call(game, "b")
    game.refresh_from_db()
    with pytest.raises(services.GameError):  # asked once at a time
        services.request_time_call(game, "b")
    with pytest.raises(services.GameError):  # not by the asker
        services.answer_time_call(game, "b", agree=True)
    services.answer_time_call(game, "a", agree=False)
    game.refresh_from_db()
    assert not game.finished
    assert game.events.last().kind == "time_call_refused"
    assert services.pending_time_call_request(game) is None


def test_equal_points_when_time_is_called_are_a_draw(game):
    services.request_time_call(game, "a")
    services.answer_time_call(game, "b", agree=True)
    game.refresh_from_db()
    assert game.state["finished"]["reason"] == "time_called"
    assert game.state["finished"]["winner"] is None


def test_one_phone_cannot_end_the_game_on_time_alone_by_posting_the_command(
    game, owner_client
):
    eliminate(game, "b1.1")
    with pytest.raises(services.GameError):
        services.perform_action(game, "a", {"type": "call_time", "score_a": 400})
    act(owner_client, game, side="a", type="call_time", score_a="400")
    game.refresh_from_db()
    assert not game.finished


def test_on_one_phone_time_is_called_at_once(demo_armies):
    from tests.support.live import new_game

    game = new_game(mode="one_phone")
    services.request_time_call(game, "a")
    game.refresh_from_db()
    assert game.finished
    assert game.state["finished"]["reason"] == "time_called"


def test_a_player_concedes_from_the_end_the_game_box(game, owner_client):
    board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "End the game early" in board and "Concede" in board
    act(owner_client, game, side="a", type="concede")
    game.refresh_from_db()
    finished = game.state["finished"]
    assert (finished["reason"], finished["winner"]) == ("conceded", "b")
    board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "End the game early" not in board
