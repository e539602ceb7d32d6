"""Issue #29: where a league page names a person, it shows her display name
(the account's nickname), her login when she chose none."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league import services as league_services
from battles.league.services import tournament as tournaments
from battles.services.account_security import update_names
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]


@pytest.fixture
def cast():
    cast = club_in_season("alice", ("bob", "carol"), password="a long passphrase 1")
    update_names(cast["bob"], display="Le Roc", first_name="", last_name="")
    return cast


def page(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


def test_the_tournament_page_and_its_board_name_players_by_display_name(cast):
    day = tournaments.create_tournament(
        cast["season"],
        cast["alice"],
        name="Tournoi",
        played_on=timezone.localdate(),
        players={cast["bob"].pk: "", cast["carol"].pk: ""},
    )
    table = tournaments.create_round(day, cast["alice"]).pairings.get()
    winner = cast["bob"]
    loser = cast["carol"]
    result = tournaments.report_pairing_result(
        table, winner, result="won", score_for=300, score_against=100
    )
    league_services.confirm_result(result, loser)
    for url in (
        reverse("tournament", args=[day.pk]),
        reverse("tournament_print", args=[day.pk]),
    ):
        shown = page(cast["carol"], url)
        assert "Le Roc wins 300–100" in shown
        assert "Le Roc – carol" in shown or "carol – Le Roc" in shown
        assert "bob" not in shown
    standings = page(cast["carol"], reverse("tournament", args=[day.pk]))
    assert '<td class="player">Le Roc' in standings


def test_the_season_standings_name_players_by_display_name(cast):
    result = league_services.report_result(
        cast["season"],
        cast["bob"],
        opponent_id=cast["carol"].pk,
        result="won",
        score_for=300,
        score_against=100,
        played_on=timezone.localdate(),
    )
    league_services.confirm_result(result, cast["carol"])
    shown = page(cast["carol"], reverse("season", args=[cast["season"].pk]))
    assert ">Le Roc</a>" in shown
    assert ">carol</a>" in shown


def test_a_result_its_season_s_list_and_a_player_s_page_name_her_so(cast):
    result = league_services.report_result(
        cast["season"],
        cast["bob"],
        opponent_id=cast["carol"].pk,
        result="won",
        score_for=300,
        score_against=100,
        played_on=timezone.localdate(),
    )
    league_services.confirm_result(result, cast["carol"])
    season = cast["season"].pk
    shown = page(cast["carol"], reverse("result", args=[result.pk]))
    assert "<h1>Le Roc – carol</h1>" in shown
    assert "Le Roc won" in shown
    listing = page(cast["carol"], reverse("season_results", args=[season]))
    assert "Le Roc" in listing and ">bob<" not in listing
    player = page(
        cast["carol"], reverse("season_player", args=[season, cast["bob"].pk])
    )
    assert "<h1>Le Roc</h1>" in player


def test_the_home_box_names_the_reporter_by_display_name(cast):
    league_services.report_result(
        cast["season"],
        cast["bob"],
        opponent_id=cast["carol"].pk,
        result="won",
        score_for=300,
        score_against=100,
        played_on=timezone.localdate(),
    )
    box = page(cast["carol"], reverse("league_waiting"))
    assert "Le Roc 300–100 carol" in box
    pending = page(cast["carol"], reverse("season", args=[cast["season"].pk]))
    assert "Le Roc – carol" in pending


def test_the_printable_standings_list_results_by_display_name(cast):
    result = league_services.report_result(
        cast["season"],
        cast["bob"],
        opponent_id=cast["carol"].pk,
        result="won",
        score_for=300,
        score_against=100,
        played_on=timezone.localdate(),
    )
    league_services.confirm_result(result, cast["carol"])
    printed = page(cast["carol"], reverse("season_print", args=[cast["season"].pk]))
    assert "<strong>Le Roc</strong>" in printed
