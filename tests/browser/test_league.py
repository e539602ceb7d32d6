"""The club league on three phones: A reports a result, B sees it waiting and
confirms it, and the standings change on a third phone without a reload."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from battles.models.league import LeagueResult, ResultStatus
from battles.services import league as services
from tests.browser.conftest import open_phone, serious_accessibility_violations
from tests.support.club import club_in_season
from tests.support.phone_page import hold_session
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(page, live_server, user) -> None:
    """The phone's browser holds a session of ``user`` (no password typed)."""
    client = Client()
    client.force_login(user)
    hold_session(page, live_server.url, client.cookies["sessionid"].value)


def hang_up(pages, problems) -> None:
    """Leave the pages, and forget the event streams aborted by leaving a page.

    An open event stream is a request that never ends: leaving its page (a
    tap on a link) aborts it, which the watcher reports as a failed request.
    That is the stream hanging up as it should, not a fault.
    """
    for page in pages:
        page.goto("about:blank")
    problems.items[:] = [
        item
        for item in problems.items
        if not (
            item.startswith("request failed")
            and "/stream" in item
            and "ERR_ABORTED" in item
        )
    ]


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.fixture
def league(quick_passwords):
    league = club_in_season(
        "Alix",
        ("Bertrand", "Camille", "Dominique"),
        season="Saison d’automne",
        began_days_ago=20,
        ends_in_days=40,
    )
    # One confirmed game already: Camille beat Dominique.
    earlier = services.report_result(
        league["season"],
        league["Camille"],
        opponent_id=league["Dominique"].pk,
        played_on=timezone.localdate() - timedelta(days=3),
        result="won",
        score_for=250,
        score_against=90,
        people_for="Wolfen d’Yllia",
        people_against="Griffons d’Akkylannie",
    )
    services.confirm_result(earlier, league["Dominique"])
    return league


def test_a_reports_b_confirms_and_the_standings_change_on_a_third_phone(
    phone, second_phone, browser, page_problems, live_server, league
):
    season = league["season"]
    reporter, opponent = phone, second_phone
    board_context, board = open_phone(browser, page_problems)
    try:
        for page, name in (
            (reporter, "Bertrand"),
            (opponent, "Camille"),
            (board, "Alix"),
        ):
            signed_in(page, live_server, league[name])

        # The third phone: the season's standings, live.
        board.goto(f"{live_server.url}/league/{season.pk}/")
        expect(board.locator(".league-live-status[data-state=live]")).to_be_visible()
        bertrand_row = board.locator("#standings tr", has_text="Bertrand")
        expect(bertrand_row.locator(".points")).to_have_text("0")
        board.evaluate("window.notReloaded = true")
        fits_the_phone(board)
        shot(board, "14", "1-standings-before", full_page=True)

        # B's phone: the home page, nothing waits yet.
        opponent.goto(f"{live_server.url}/")
        expect(opponent.locator("#league-waiting")).to_contain_text(
            "Rien ne vous attend"
        )

        # A reports the game played without the app.
        reporter.goto(f"{live_server.url}/league/{season.pk}/report/")
        fits_the_phone(reporter)
        reporter.locator("#id_opponent").select_option(label="Camille")
        reporter.get_by_label("J’ai gagné").check()
        reporter.locator("#id_score_for").fill("180")
        reporter.locator("#id_score_against").fill("60")
        reporter.locator("#id_people_for").fill("Griffons d’Akkylannie")
        reporter.locator("#id_people_against").fill("Wolfen d’Yllia")
        shot(reporter, "14", "2-report-form", full_page=True)
        assert serious_accessibility_violations(reporter) == []
        reporter.get_by_role("button", name="Déclarer").click()
        expect(reporter.locator("#result-status")).to_have_text(
            "En attente de confirmation"
        )
        shot(reporter, "14", "3-reported", full_page=True)

        # B's home page shows it without a reload; the standings do not count it.
        waiting = opponent.locator("#league-waiting")
        expect(waiting).to_contain_text("Bertrand 180–60 Camille", timeout=20_000)
        shot(opponent, "14", "4-waiting-on-home", full_page=True)
        expect(bertrand_row.locator(".points")).to_have_text("0")

        # B confirms from the result's page.
        waiting.get_by_role("link", name="Bertrand 180–60 Camille").click()
        fits_the_phone(opponent)
        assert serious_accessibility_violations(opponent) == []
        opponent.get_by_role("button", name="Confirmer").click()
        expect(opponent.locator("#result-status")).to_have_text("Confirmé")
        shot(opponent, "14", "5-confirmed", full_page=True)

        # The third phone's standings changed by themselves.
        expect(bertrand_row.locator(".points")).to_have_text("3")
        assert board.evaluate("window.notReloaded") is True
        camille_row = board.locator("#standings tr", has_text="Camille")
        expect(camille_row.locator(".wdl")).to_have_text("1-0-1")
        fits_the_phone(board)
        assert serious_accessibility_violations(board) == []
        shot(board, "14", "6-standings-after", full_page=True)
    finally:
        hang_up([reporter, opponent, board], page_problems)
        board_context.close()

    assert LeagueResult.objects.filter(status=ResultStatus.CONFIRMED).count() == 2


def test_the_public_standings_and_the_player_page_fit_a_phone(
    phone, page_problems, live_server, league
):
    season = league["season"]
    phone.goto(f"{live_server.url}/league/public/{season.public_key}/")
    expect(phone.locator("#standings")).to_contain_text("Camille")
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "14", "7-public-standings", full_page=True)
    signed_in(phone, live_server, league["Dominique"])
    phone.goto(f"{live_server.url}/league/{season.pk}/players/{league['Camille'].pk}/")
    expect(phone.locator("h1")).to_have_text("Camille")
    expect(phone.locator(".league-chart").first).to_be_visible()
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "14", "8-player-page", full_page=True)
    hang_up([phone], page_problems)


def test_a_finished_shared_game_counts_for_the_season_when_both_phones_confirm(
    phone, second_phone, page_problems, live_server, league
):
    from battles.models.armies import Owner
    from battles.models.games import SeatRole
    from battles.services.games import perform_action
    from tests.support.live import new_game, seat

    game = new_game(Owner(user_id=league["Bertrand"].pk))
    seat(game, Owner(user_id=league["Camille"].pk), SeatRole.SIDE_B)
    perform_action(game, "b", {"type": "concede"})
    side_a, side_b = phone, second_phone
    signed_in(side_a, live_server, league["Bertrand"])
    signed_in(side_b, live_server, league["Camille"])
    url = f"{live_server.url}/games/{game.public_id}/"

    side_a.goto(url)
    outcome = side_a.locator("#game-outcome")
    expect(outcome).to_contain_text("Points d’armée détruits")
    outcome.locator("#id_season").select_option(
        label="Les Griffons de Lyon · Saison d’automne"
    )
    fits_the_phone(side_a)
    outcome.get_by_role("button", name="Proposer à l’autre téléphone").click()
    expect(side_a.locator("#game-outcome-status")).to_contain_text(
        "en attente de l’autre téléphone"
    )
    # (A screenshot leaves style attributes that htmx's settling would copy
    # into swapped elements, against the CSP: shots come after the swaps.)
    shot(outcome, "14", "9-game-result-proposed")

    side_b.goto(url)
    side_b.get_by_role("button", name="Confirmer ce résultat").click()
    expect(side_b.locator("#outcome-settled")).to_be_visible()
    assert serious_accessibility_violations(side_b) == []
    shot(side_b.locator("#game-outcome"), "14", "10-game-result-agreed")
    # Side A's phone learns it by itself (the status refreshes every 4 s).
    expect(side_a.locator("#outcome-settled")).to_be_visible(timeout=10_000)
    hang_up([side_a, side_b], page_problems)

    result = LeagueResult.objects.get(game=game)
    assert result.status == ResultStatus.CONFIRMED
    assert (result.player_a, result.player_b) == (league["Bertrand"], league["Camille"])
