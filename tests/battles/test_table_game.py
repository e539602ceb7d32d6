"""Issue #29: a shared game started from a tournament table is linked to that
table, seats the opponent at once, and counts for the table once both phones
agree its result (one step); time called and conceding end it early."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from battles.league import services as league_services
from battles.league.models.league import ResultStatus
from battles.league.services import tournament as services
from battles.models.games import Game, GameSeat
from battles.services import games as game_services
from tests.support.club import club_in_season
from tests.support.live import demo_armies

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

PLAYERS = ("bob", "carol", "dave", "erin")


@pytest.fixture
def cast():
    return club_in_season("alice", PLAYERS, ("olga",), password="a long passphrase 1")


@pytest.fixture
def table(cast):
    tournament = services.create_tournament(
        cast["season"],
        cast["alice"],
        name="Tournoi de printemps",
        played_on=timezone.localdate(),
        players={cast[n].pk: "" for n in PLAYERS},
    )
    first = services.create_round(tournament, cast["alice"])
    return first.pairings.get(table=1)  # bob – carol


def phone(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def start(client, pairing):
    army_a, army_b = demo_armies()
    url = f"/league/tournaments/{pairing.round.tournament_id}/tables/{pairing.pk}/play"
    return client.post(
        url, {"army_a": army_a.pk, "army_b": army_b.pk, "turns": 6, "dice_mode": "app"}
    )


def test_a_game_started_from_the_table_seats_both_players_and_counts_in_one_step(
    cast, table
):
    bob, carol = phone(cast["bob"]), phone(cast["carol"])
    page = bob.get(f"/league/tournaments/{table.round.tournament_id}/")
    assert "Play this table in the app" in page.content.decode()
    answer = start(bob, table)
    game = Game.objects.get()
    assert answer.url == f"/games/{game.public_id}/"
    table.refresh_from_db()
    assert table.game == game
    seats = {s.role: s.user_id for s in GameSeat.objects.filter(game=game)}
    assert seats == {"a": cast["bob"].pk, "b": cast["carol"].pk}
    # Carol's table box opens the same game; so does Bob starting it again.
    box = carol.get(f"/league/tournaments/{table.round.tournament_id}/")
    assert "Open your table's game" in box.content.decode()
    assert start(bob, table).url == answer.url and Game.objects.count() == 1
    assert carol.get(f"/games/{game.public_id}/board").status_code == 200

    # Carol concedes; the end-of-game form proposes the table's season.
    game_services.perform_action(game, "b", {"type": "concede"})
    game.refresh_from_db()
    proposal = league_services.default_outcome(game)
    assert proposal["season"] == cast["season"].pk and proposal["outcome"] == "a"
    league_services.propose_game_outcome(
        game,
        "a",
        outcome="a",
        score_a=proposal["score_a"],
        score_b=proposal["score_b"],
        season_id=cast["season"].pk,
    )
    table.refresh_from_db()
    assert table.result is None  # one phone alone counts nothing
    league_services.confirm_game_outcome(game, "b")
    table.refresh_from_db()
    assert table.result.game == game
    assert table.result.status == ResultStatus.CONFIRMED
    view = services.tournament_view(table.round.tournament)
    points = {r["line"].player: r["line"].points for r in view.rounds[0].standings}
    assert points["bob"] == 3 and points["carol"] == 0


def test_time_called_at_a_table_counts_the_log_s_score(cast, table):
    start(phone(cast["bob"]), table)
    game = Game.objects.get()
    game_services.request_time_call(game, "a")
    game_services.answer_time_call(game, "b", agree=True)
    game.refresh_from_db()
    assert game.state["finished"]["reason"] == "time_called"
    proposal = league_services.default_outcome(game)
    assert proposal["outcome"] == "draw"  # nothing destroyed: equal points
    league_services.propose_game_outcome(
        game, "b", outcome="draw", score_a=0, score_b=0, season_id=cast["season"].pk
    )
    league_services.confirm_game_outcome(game, "a")
    table.refresh_from_db()
    assert table.result.outcome == "draw"


def test_only_the_table_s_players_start_its_game(cast, table):
    for name in ("dave", "olga"):
        answer = start(phone(cast[name]), table)
        assert answer.status_code in (403, 404)
    assert not Game.objects.exists()
