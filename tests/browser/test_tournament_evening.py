"""A Swiss evening run by its organiser (issue #29), clicked as people do:
round 1 from a seed shown to all, a table's result entered by the organiser,
a forfeit, a result reported on a phone and confirmed by the organiser, a
drop after round 2, a late entry for round 3, bonus points and a re-pair,
the final standings. Tables, results and the "pair round N" button arrive on
the phones by themselves; the standings after each round are rules.league's."""

from __future__ import annotations

import re
import time

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from battles.league import services as league_services
from battles.league.models.tournament import Tournament, TournamentPairing
from battles.league.services import tournament as tournament_services
from tests.battles.test_tournament_field import rules_standings
from tests.browser.conftest import serious_accessibility_violations
from tests.browser.test_league import fits_the_phone, hang_up, signed_in
from tests.support.club import club_in_season
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("ines", "chloe", "bruno", "damien", "elsa")


def tables_of(tournament, number):
    return list(
        TournamentPairing.objects.filter(
            round__tournament=tournament, round__number=number
        )
        .exclude(player_b=None)
        .select_related("player_a", "player_b")
        .order_by("table")
    )


def shown(page, number):
    """The standings after round ``number`` as the page shows them."""
    rows = page.locator(f"section:has(#standings-{number}) tbody tr")
    out = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        player = cells.nth(1).inner_text().split(" (")[0].strip()
        points = int(cells.nth(2).inner_text().split(" ")[0])
        out.append((cells.nth(0).inner_text(), player, points))
    return out


def expected(tournament, number):
    return [
        (f"{x.rank}=" if x.shared else str(x.rank), x.player, x.points)
        for x in rules_standings(tournament, number)
    ]


def enter_result(page, pairing, score_a, score_b, shot_name=""):
    """The organiser's taps for a table: open it, the winner, two scores, record."""
    row = page.locator(f'.tournament-tables li[data-table="{pairing.table}"]')
    row.locator("summary").click()
    if shot_name:
        fits_the_phone(page)
        shot(page, "29", shot_name, full_page=True)
    winner = pairing.player_a if score_a > score_b else pairing.player_b
    row.get_by_label(winner.username, exact=True).check()
    row.get_by_label(f"Score de {pairing.player_a.username}").fill(str(score_a))
    row.get_by_label(f"Score de {pairing.player_b.username}").fill(str(score_b))
    row.get_by_role("button", name="Enregistrer le résultat").click()


def test_an_organiser_runs_a_swiss_evening(
    phone, second_phone, page_problems, live_server, quick_passwords
):
    cast = club_in_season("alix", (*PLAYERS, "gus"))
    organiser, player = phone, second_phone
    signed_in(organiser, live_server, cast["alix"])
    signed_in(player, live_server, cast["ines"])

    # The day and its rules.
    organiser.goto(f"{live_server.url}/league/{cast['season'].pk}/")
    organiser.get_by_role(
        "link", name="Nouvelle journée de tournoi (rondes suisses)"
    ).click()
    organiser.get_by_label("Nom").fill("Nuit suisse")
    for name in PLAYERS:
        organiser.get_by_label(name, exact=True).check()
    organiser.get_by_label("Combien de rondes").fill("3")
    organiser.get_by_label("Graine de la ronde 1 (montrée à tous)").fill("griffons")
    organiser.get_by_label("Score d’une victoire par forfait").fill("100")
    fits_the_phone(organiser)
    shot(organiser, "29", "evening-1-new-day", full_page=True)
    organiser.get_by_role("button", name="Créer la journée de tournoi").click()
    expect(organiser.locator("h1")).to_have_text("Nuit suisse")
    expect(organiser.locator(".tournament-seed")).to_have_text("griffons")
    tournament = Tournament.objects.get()
    day_url = organiser.url

    # ines's phone is on the page before round 1 is paired.
    player.goto(day_url)
    expect(player.locator(".tournament-seed")).to_have_text("griffons")
    expect(player.locator(".league-live-status")).to_have_text("En direct")

    # Round 1: one tap; ines's phone shows her table by itself.
    organiser.get_by_role("button", name="Apparier la ronde 1").click()
    expect(organiser.locator(".messages")).to_contain_text("La ronde 1 est appariée.")
    mine = TournamentPairing.objects.get(
        Q(player_a=cast["ines"]) | Q(player_b=cast["ines"]),
        round__tournament=tournament,
        round__number=1,
    )
    wanted = (
        "Vous êtes exempt cette ronde."
        if mine.is_bye
        else f"Votre table : {mine.table}"
    )
    expect(player.locator(".tournament-mine")).to_have_text(wanted, timeout=20_000)
    first, second = tables_of(tournament, 1)
    # The organiser enters table 1 (a player without a phone), the second
    # player winning: the board names the winner, in the pairing's order.
    enter_result(organiser, first, 190, 210, "evening-1b-organiser-table")
    expect(organiser.locator(".messages")).to_contain_text(
        "Le résultat de la table compte."
    )
    board = organiser.locator('.tournament-tables li[data-table="1"]')
    expect(board).to_contain_text(f"{first.player_b.username} gagne 210–190")
    # Table 2: a forfeit, with the day's forfeit score (typed by nobody).
    row = organiser.locator('.tournament-tables li[data-table="2"]')
    row.locator("summary").click()
    row.get_by_label("Qui déclare forfait").select_option(
        label=second.player_a.username
    )
    row.get_by_role("button", name="Enregistrer un forfait (100–0)").click()
    expect(row).to_contain_text(
        f"{second.player_b.username} gagne : {second.player_a.username} déclare forfait"
    )
    # ines's phone got both results by itself.
    expect(player.locator(".tournament-tables .table-result")).to_have_count(
        2, timeout=20_000
    )
    assert shown(organiser, 1) == expected(tournament, 1)
    fits_the_phone(player)
    shot(player, "29", "evening-2-round-1-player", full_page=True)

    # Between two rounds: one tap.
    organiser.get_by_role("button", name="Apparier la ronde 2").click()
    expect(organiser.locator(".messages")).to_contain_text("La ronde 2 est appariée.")
    first, second = tables_of(tournament, 2)
    # Table 1's first player reports on her phone; the organiser confirms it
    # for the opponent, who has no phone: the button comes to her by itself.
    reporter = first.player_a
    signed_in(player, live_server, reporter)
    # Her home page says where she plays, and leads to the day.
    player.goto(f"{live_server.url}/")
    home_box = player.locator(".tournament-home")
    expect(home_box).to_contain_text(f"Ronde 2 : votre table {first.table}")
    fits_the_phone(player)
    shot(player, "29", "evening-2b-home", full_page=False)
    home_box.click()
    player.get_by_label("J’ai gagné").check()
    player.get_by_label("Votre score").fill("230")
    player.get_by_label("Score de l’adversaire").fill("80")
    player.get_by_role("button", name="Déclarer").click()
    table_one = organiser.locator('.tournament-tables li[data-table="1"]')
    table_one.get_by_role("button", name="Confirmer ce résultat").click(timeout=20_000)
    expect(organiser.locator(".messages")).to_contain_text(
        "Le résultat de la table compte."
    )
    expect(table_one).to_contain_text(f"{reporter.username} gagne 230–80")
    # Table 2: the players report and confirm on their own phones (the
    # confirmation here is the opponent's own action, through the service);
    # the organiser's page offers round 3 by itself, with no reload.
    row = tournament_services.report_pairing_result(
        second, second.player_a, result="lost", score_for=120, score_against=150
    )
    confirmed = time.monotonic()
    league_services.confirm_result(row, second.player_b)
    # (A push, not a poll: the wait is only for a busy machine.)
    expect(organiser.get_by_role("button", name="Apparier la ronde 3")).to_be_visible(
        timeout=20_000
    )
    # Reported, not asserted: how soon the organiser's button came.
    print(f"pair button shown {time.monotonic() - confirmed:.2f} s after the result")
    assert shown(organiser, 2) == expected(tournament, 2)

    # The field: a drop after round 2 and a late entry for round 3.
    organiser.locator("summary", has_text="Organisateur : les joueurs").click()
    leaving = first.player_b.username
    drop = organiser.locator("form", has_text="Retirer un joueur")
    drop.get_by_label("Joueur").select_option(label=leaving)
    drop.get_by_role("button", name="Retirer").click()
    expect(organiser.locator(".messages")).to_contain_text("Le joueur a abandonné")
    organiser.locator("summary", has_text="Organisateur : les joueurs").click()
    late = organiser.locator("form", has_text="Arrivée tardive")
    late.get_by_label("Joueur").select_option(label="gus")
    late.get_by_role("button", name="Ajouter le joueur").click()
    expect(organiser.locator(".messages")).to_contain_text("Arrivée tardive")
    organiser.get_by_role("button", name="Apparier la ronde 3").click()
    expect(organiser.locator(".messages")).to_contain_text("La ronde 3 est appariée.")
    # A fair-play bonus given after the pairing: the round is paired again.
    organiser.locator("summary", has_text="Organisateur : les joueurs").click()
    bonus = organiser.locator("form", has_text="Points de bonus ou de pénalité")
    bonus.get_by_label("Joueur").select_option(label="gus")
    bonus.get_by_label("Points (sous 0 : une pénalité)").fill("1")
    bonus.get_by_label("Motif").fill("Fair-play")
    bonus.get_by_role("button", name="Enregistrer les points").click()
    organiser.get_by_role(
        "button", name="Supprimer la ronde 3 et l’apparier de nouveau"
    ).click()
    expect(organiser.locator(".messages")).to_contain_text(
        "La ronde est appariée de nouveau."
    )
    in_round_3 = {
        p.username
        for pairing in TournamentPairing.objects.filter(
            round__tournament=tournament, round__number=3
        ).select_related("player_a", "player_b")
        for p in (pairing.player_a, pairing.player_b)
        if p is not None
    }
    assert leaving not in in_round_3 and "gus" in in_round_3
    organiser.get_by_role("button", name=re.compile("Lancer la pendule")).click()
    expect(organiser.locator(".tournament-clock")).to_contain_text("La ronde finit à")
    for pairing in tables_of(tournament, 3):
        enter_result(organiser, pairing, 200, 150)
        expect(organiser.locator(".messages")).to_contain_text(
            "Le résultat de la table compte."
        )
    organiser.get_by_role("button", name="Le classement est définitif").click()
    expect(organiser.locator(".tournament-final")).to_have_text(
        "Le classement est définitif."
    )
    assert shown(organiser, 3) == expected(tournament, 3)
    expect(organiser.get_by_text("Fair-play")).to_be_visible()
    fits_the_phone(organiser)
    assert serious_accessibility_violations(organiser) == []
    shot(organiser, "29", "evening-3-final", full_page=True)
    # The dropped player stays in the standings.
    expect(organiser.locator("#standings-3").locator("xpath=..")).to_contain_text(
        leaving
    )
    hang_up([organiser, player], page_problems)
