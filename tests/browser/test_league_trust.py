"""No silent change, on a 360x740 phone (issue #29): an admin voids two
members' game; the player sees it on her home page with the reason ("Annulé",
not "Annuler"), disputes it; the clubs page lists only her clubs; a closed
season offers no report."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from battles.league import services
from battles.league.models.league import ResultStatus
from battles.league.services import seasons
from tests.browser.conftest import serious_accessibility_violations
from tests.support.club import club_in_season
from tests.support.phone_page import hold_session
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    hold_session(page, live_server.url, client.cookies["sessionid"].value)


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def leave(pages, problems) -> None:
    """Leave the pages; an event stream aborted by leaving is no fault."""
    for page in pages:
        page.goto("about:blank")
    problems.items[:] = [
        item
        for item in problems.items
        if not ("request failed" in item and "/stream" in item)
    ]


@pytest.fixture
def league(quick_passwords):
    league = club_in_season("Alix", ("Bertrand", "Camille"), ("Olga",))
    result = services.report_result(
        league["season"],
        league["Bertrand"],
        opponent_id=league["Camille"].pk,
        played_on=timezone.localdate() - timedelta(days=1),
        result="won",
        score_for=250,
        score_against=90,
    )
    services.confirm_result(result, league["Camille"])
    league["result"] = result
    return league


def test_an_admins_void_is_told_at_home_and_the_player_disputes_it(
    phone, page_problems, live_server, league
):
    result = league["result"]
    services.admin_void(result, league["Alix"], "Armée non conforme")
    signed_in(phone, live_server, league["Camille"])
    phone.goto(f"{live_server.url}/")
    changed = phone.locator(".league-changed")
    expect(changed).to_contain_text("annulé par un admin (Alix)")
    expect(changed).to_contain_text("Armée non conforme")
    fits_the_phone(phone)
    shot(phone, "29", "5-home-told", full_page=True)
    changed.get_by_role("link").first.click()
    expect(phone.locator("#result-status")).to_have_text("Annulé")
    expect(phone.locator("#admin-change")).to_contain_text(
        "Alix a modifié votre partie"
    )
    phone.locator("#dispute summary").click()
    phone.locator("#dispute_reason").fill("Mon armée faisait 400 points")
    phone.locator("#dispute").get_by_role("button", name="Contester").click()
    expect(phone.locator("#result-status")).to_have_text("Contesté")
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "29", "6-change-disputed", full_page=True)
    result.refresh_from_db()
    assert result.status == ResultStatus.DISPUTED
    leave([phone], page_problems)


def test_the_clubs_page_lists_her_clubs_and_a_closed_season_no_report(
    phone, page_problems, live_server, league
):
    services.create_club(league["Olga"], "Le Club d’Olga")
    seasons.close_season(league["season"], league["Alix"])
    signed_in(phone, live_server, league["Bertrand"])
    phone.goto(f"{live_server.url}/clubs/")
    expect(phone.locator(".tiles")).to_contain_text("Les Griffons de Lyon")
    expect(phone.locator("main")).not_to_contain_text("Le Club d’Olga")
    expect(phone.get_by_label("Lien d’invitation")).to_be_visible()
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "29", "7-clubs", full_page=True)
    phone.goto(f"{live_server.url}/league/{league['season'].pk}/")
    expect(phone.locator("#season-closed")).to_be_visible()
    expect(phone.get_by_role("link", name="Déclarer un résultat")).to_have_count(0)
    leave([phone], page_problems)
