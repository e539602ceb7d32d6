"""A tournament day on two phones: the admin creates the day and pairs round 1;
a player sees their table on their phone, and the notice board lists the tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.league.models.tournament import TournamentPairing
from tests.browser.conftest import serious_accessibility_violations
from tests.browser.test_league import fits_the_phone, hang_up, signed_in
from tests.support.club import club_in_season
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_pairs_a_round_and_a_player_sees_the_table_on_the_phone(
    phone, second_phone, page_problems, live_server, quick_passwords
):
    cast = club_in_season("Alix", ("Bertrand", "Camille", "Dominique", "Eloi"))
    season = cast["season"]
    admin, player = phone, second_phone
    signed_in(admin, live_server, cast["Alix"])
    signed_in(player, live_server, cast["Eloi"])

    admin.goto(f"{live_server.url}/league/{season.pk}/")
    new_day = "Nouvelle journée de tournoi (rondes suisses)"
    admin.get_by_role("link", name=new_day).click()
    admin.get_by_label("Nom").fill("Tournoi de printemps")
    for name in ("Bertrand", "Camille", "Dominique", "Eloi"):
        admin.get_by_label(name, exact=True).check()
    admin.get_by_label("Peuple de Bertrand").select_option("Wolfen d'Yllia")
    admin.get_by_label("Peuple de Camille").select_option("Wolfen d'Yllia")
    # No seed: round 1 by name (a seed would shuffle it).
    admin.get_by_label("Graine de la ronde 1 (montrée à tous)").fill("")
    fits_the_phone(admin)
    assert serious_accessibility_violations(admin) == []
    shot(admin, "24", "tournament-1-new", full_page=True)
    admin.get_by_role("button", name="Créer la journée de tournoi").click()

    expect(admin.locator("h1")).to_have_text("Tournoi de printemps")
    # The player's phone is on the page before the round is paired.
    player.goto(admin.url)
    expect(player.locator("h1")).to_have_text("Tournoi de printemps")
    admin.get_by_role("button", name="Apparier la ronde 1").click()
    expect(admin.locator(".messages")).to_contain_text("La ronde 1 est appariée.")
    tables = admin.locator(".tournament-tables li")
    expect(tables).to_have_count(2)
    # Bertrand and Camille (both Wolfen) are kept apart on round 1.
    expect(tables.nth(0)).to_contain_text("Bertrand – Dominique")
    expect(tables.nth(1)).to_contain_text("Camille – Eloi")
    expect(tables.nth(0).locator(".table-number")).to_have_text("1")
    fits_the_phone(admin)
    shot(admin, "24", "tournament-2-round-1-admin", full_page=True)

    # The player's phone learns of it by itself: the day's stream pushes it.
    # The player's phone: their table, and the form to report it.
    expect(player.locator(".tournament-mine")).to_have_text("Votre table : 2")
    expect(player.get_by_role("button", name="Apparier la ronde 1")).to_have_count(0)
    fits_the_phone(player)
    assert serious_accessibility_violations(player) == []
    shot(player, "24", "tournament-3-round-1-player", full_page=True)

    # The notice board, from the player's phone.
    player.get_by_role("link", name="Tableau d’affichage (imprimable)").click()
    expect(player.locator(".tournament-board-table tbody tr")).to_have_count(2)
    fits_the_phone(player)
    shot(player, "24", "tournament-4-notice-board", full_page=True)
    hang_up([admin, player], page_problems)
    assert TournamentPairing.objects.count() == 2
