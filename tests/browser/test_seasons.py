"""A season managed on a phone: the admin closes it from its management page;
a player reads the season's rules (and that it is closed) on its page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.league.models.league import Season
from tests.browser.conftest import serious_accessibility_violations
from tests.browser.test_league import fits_the_phone, hang_up, signed_in
from tests.support.club import club_in_season
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_closes_the_season_and_a_player_reads_its_rules(
    phone, second_phone, page_problems, live_server, quick_passwords
):
    cast = club_in_season("Alix", ("Bertrand", "Camille"))
    season = cast["season"]
    admin, player = phone, second_phone
    signed_in(admin, live_server, cast["Alix"])
    signed_in(player, live_server, cast["Bertrand"])

    admin.goto(f"{live_server.url}/league/{season.pk}/")
    admin.get_by_role("link", name="Gérer la saison (joueurs, règles, clôture)").click()
    expect(admin.locator("#season-state")).to_contain_text("Ouverte")
    fits_the_phone(admin)
    assert serious_accessibility_violations(admin) == []
    shot(admin, "24", "season-1-manage", full_page=True)
    admin.get_by_role("button", name="Clôturer la saison").click()
    expect(admin.locator("#season-state")).to_contain_text("Close")
    expect(admin.get_by_role("button", name="Rouvrir la saison")).to_be_visible()

    player.goto(f"{live_server.url}/league/{season.pk}/")
    rules = player.locator(".season-rules")
    expect(rules).to_contain_text("Victoire 3 · nul 1 · défaite 0")
    expect(rules.locator(".season-tiebreakers li")).to_have_count(4)
    expect(rules).to_contain_text("La saison est close")
    fits_the_phone(player)
    shot(player, "24", "season-2-rules", full_page=True)
    hang_up([admin, player], page_problems)
    assert Season.objects.get(pk=season.pk).closed
