"""Issue #29's "Done when": a 9-player, 4-round Swiss evening run from the
organiser's desktop and nine phones (360x740), clicked as people do.

Round 1: a table entered by the organiser (a player without a phone), a
forfeit, the other tables reported on a phone and confirmed on the
opponent's. After round 2: a drop, then a late entry (gus, who has no phone)
for round 3. Round 3 paired, a round-2 result is corrected and round 3 is
paired again. Round 4: a table plays its game in the app, started from the
table; one player concedes and both phones agree the result, which counts for
the table in one step. After each round the standings the page shows are
``rules.league``'s over the results. The organiser's taps between two rounds
are counted and printed (reported, not asserted)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.league.models.league import LeagueResult
from battles.league.models.tournament import Tournament, TournamentPairing
from tests.browser.conftest import PageProblems, open_phone
from tests.browser.test_league import fits_the_phone, hang_up, signed_in
from tests.browser.test_tournament_evening import expected, shown, tables_of
from tests.support.club import club_in_season
from tests.support.live import demo_armies
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("ines", "chloe", "bruno", "damien", "elsa", "farid", "gael", "hugo", "jade")
LATE = "gus"  # enters in round 3, without a phone: the organiser enters his tables


class Organiser:
    """The organiser's desktop page, counting the taps (clicks, ticks, choices)."""

    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, locator, option: str | None = None) -> None:
        self.taps += 1
        if option is not None:
            locator.select_option(label=option)
        else:
            locator.click()

    def message(self, text: str) -> None:
        expect(self.page.locator(".messages")).to_contain_text(text)

    def row(self, pairing):
        return self.page.locator(f'.tournament-tables li[data-table="{pairing.table}"]')

    def enter_result(self, pairing, score_a: int, score_b: int) -> None:
        """A table without phones: open it, the winner, two scores, record."""
        row = self.row(pairing)
        self.tap(row.locator("summary"))
        winner = pairing.player_a if score_a > score_b else pairing.player_b
        self.tap(row.get_by_label(winner.username, exact=True))
        row.get_by_label(f"Score de {pairing.player_a.username}").fill(str(score_a))
        row.get_by_label(f"Score de {pairing.player_b.username}").fill(str(score_b))
        self.tap(row.get_by_role("button", name="Enregistrer le résultat"))
        self.message("Le résultat de la table compte.")

    def pair(self, number: int) -> None:
        button = self.page.get_by_role("button", name=f"Apparier la ronde {number}")
        expect(button).to_be_visible(timeout=20_000)  # pushed, no reload
        self.tap(button)
        self.message(f"La ronde {number} est appariée.")


def report_and_confirm(phones, day_url, pairing, score_for=250, score_against=150):
    """The table's first player reports her win on her phone; her opponent
    opens the result from the table on his and confirms it."""
    reporter = phones[pairing.player_a.username]
    reporter.goto(day_url)
    reporter.get_by_label("J’ai gagné").check()
    reporter.get_by_label("Votre score").fill(str(score_for))
    reporter.get_by_label("Score de l’adversaire").fill(str(score_against))
    reporter.get_by_role("button", name="Déclarer").click()
    expect(reporter.locator(".messages")).to_be_visible()
    opponent = phones[pairing.player_b.username]
    opponent.goto(day_url)
    row = opponent.locator(f'.tournament-tables li[data-table="{pairing.table}"]')
    row.locator(".table-result").click()
    opponent.get_by_role("button", name="Confirmer", exact=True).click()
    expect(opponent.locator(".messages")).to_be_visible()


def with_phones(tables, phoneless=(LATE,)):
    return [
        p
        for p in tables
        if p.player_a.username not in phoneless and p.player_b.username not in phoneless
    ]


def test_a_nine_player_four_round_evening_on_nine_phones(
    browser, live_server, quick_passwords
):
    cast = club_in_season("alix", (*PLAYERS, LATE))
    demo_armies()  # the library's armies, for the game played in the app
    problems = PageProblems()
    desk = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 800})
    desk_page = desk.new_page()
    desk_page.set_default_timeout(10_000)
    problems.watch(desk_page)
    organiser = Organiser(desk_page)
    contexts = {name: open_phone(browser, problems) for name in PLAYERS}
    phones = {name: page for name, (_context, page) in contexts.items()}
    signed_in(desk_page, live_server, cast["alix"])
    for name in PLAYERS:
        signed_in(phones[name], live_server, cast[name])
    taps = {}

    # The day: nine players, four rounds, round 1 from a seed, forfeits 100–0.
    desk_page.goto(f"{live_server.url}/league/{cast['season'].pk}/")
    desk_page.get_by_role(
        "link", name="Nouvelle journée de tournoi (rondes suisses)"
    ).click()
    desk_page.get_by_label("Nom").fill("Nuit des neuf")
    desk_page.get_by_label("Lieu").fill("Salle des fêtes de Villeurbanne")
    for name in PLAYERS:
        desk_page.get_by_label(name, exact=True).check()
    desk_page.get_by_label("Combien de rondes").fill("4")
    desk_page.get_by_label("Graine de la ronde 1 (montrée à tous)").fill("griffons")
    desk_page.get_by_label("Score d’une victoire par forfait").fill("100")
    desk_page.get_by_role("button", name="Créer la journée de tournoi").click()
    expect(desk_page.locator("h1")).to_have_text("Nuit des neuf")
    tournament = Tournament.objects.get()
    day_url = desk_page.url
    for page in phones.values():
        page.goto(day_url)
    expect(phones["jade"].locator(".league-live-status")).to_have_text("En direct")

    # --- Round 1 ------------------------------------------------------------------
    organiser.pair(1)
    one = tables_of(tournament, 1)
    assert len(one) == 4  # and a bye
    for name in PLAYERS:  # every phone shows its table by itself
        expect(phones[name].locator(".tournament-mine")).to_be_visible(timeout=20_000)
    organiser.enter_result(one[0], 190, 210)  # a player without her phone
    row = organiser.row(one[1])  # a forfeit, the day's score, typed by nobody
    organiser.tap(row.locator("summary"))
    organiser.tap(row.get_by_label("Qui déclare forfait"), one[1].player_a.username)
    organiser.tap(row.get_by_role("button", name="Enregistrer un forfait (100–0)"))
    expect(row).to_contain_text(
        f"{one[1].player_b.username} gagne : {one[1].player_a.username} déclare forfait"
    )
    for pairing in one[2:]:
        report_and_confirm(phones, day_url, pairing)
    organiser.taps = 0  # from the round's last result to the next round
    organiser.pair(2)
    taps["1→2"] = organiser.taps
    assert shown(organiser.page, 1) == expected(tournament, 1)

    # --- Round 2: every table on the phones ---------------------------------------
    two = tables_of(tournament, 2)
    for pairing in two:
        report_and_confirm(phones, day_url, pairing, 300, 100)
    expect(
        organiser.page.get_by_role("button", name="Apparier la ronde 3")
    ).to_be_visible(timeout=20_000)
    assert shown(organiser.page, 2) == expected(tournament, 2)

    # Between rounds 2 and 3: a drop, a late entry, the pairing.
    organiser.taps = 0
    leaving = two[0].player_b.username
    field = "Organisateur : les joueurs"
    organiser.tap(desk_page.locator("summary", has_text=field))
    drop = desk_page.locator("form", has_text="Retirer un joueur")
    organiser.tap(drop.get_by_label("Joueur"), leaving)
    organiser.tap(drop.get_by_role("button", name="Retirer"))
    organiser.message("Le joueur a abandonné")
    organiser.tap(desk_page.locator("summary", has_text=field))
    late = desk_page.locator("form", has_text="Arrivée tardive")
    organiser.tap(late.get_by_label("Joueur"), LATE)
    organiser.tap(late.get_by_role("button", name="Ajouter le joueur"))
    organiser.message("Arrivée tardive")
    organiser.pair(3)
    taps["2→3"] = organiser.taps

    # Round 3 is paired; a round-2 result is corrected (the scores were
    # swapped), then round 3 is paired again on the corrected standings.
    wrong = LeagueResult.objects.get(pairing=two[1])
    desk_page.goto(f"{live_server.url}/league/results/{wrong.pk}/")
    desk_page.locator("summary", has_text="Corriger le résultat").click()
    fix = desk_page.locator("form", has_text="Enregistrer la correction")
    fix.get_by_label("Issue").select_option(label=f"{wrong.player_b.username} a gagné")
    fix.get_by_label(f"Score de {wrong.player_a.username}").fill("100")
    fix.get_by_label(f"Score de {wrong.player_b.username}").fill("300")
    fix.get_by_label("Motif (gardé dans l’historique)").fill("Scores inversés")
    fix.get_by_role("button", name="Enregistrer la correction").click()
    expect(desk_page.locator(".messages")).to_be_visible()
    assert LeagueResult.objects.get(pk=wrong.pk).outcome == "b"
    desk_page.goto(day_url)
    assert shown(desk_page, 2) == expected(tournament, 2)
    desk_page.get_by_role(
        "button", name="Supprimer la ronde 3 et l’apparier de nouveau"
    ).click()
    organiser.message("La ronde est appariée de nouveau.")
    three = tables_of(tournament, 3)
    in_round_3 = {p.username for t in three for p in (t.player_a, t.player_b)}
    bye_3 = TournamentPairing.objects.get(
        round__tournament=tournament, round__number=3, player_b=None
    )
    in_round_3.add(bye_3.player_a.username)
    assert leaving not in in_round_3 and LATE in in_round_3
    assert len(in_round_3) == 9

    # --- Round 3: gus's table entered by the organiser, the rest on phones ----------
    for pairing in three:
        if LATE in (pairing.player_a.username, pairing.player_b.username):
            organiser.enter_result(pairing, 200, 150)
    for pairing in with_phones(three):
        report_and_confirm(phones, day_url, pairing, 220, 180)
    organiser.taps = 0
    organiser.pair(4)
    taps["3→4"] = organiser.taps
    assert shown(organiser.page, 3) == expected(tournament, 3)

    # --- Round 4: one table plays its game in the app, started from the table -------
    four = tables_of(tournament, 4)
    played, *others = with_phones(four)
    starter = phones[played.player_a.username]
    starter.goto(day_url)
    starter.get_by_role("link", name="Jouer cette table dans l’application").click()
    fits_the_phone(starter)
    shot(starter, "29", "night-1-table-game", full_page=False)
    starter.get_by_role("button", name="Lancer la partie de la table").click()
    expect(starter.locator(".game-title")).to_contain_text(played.player_a.username)
    conceder = phones[played.player_b.username]
    conceder.goto(day_url)  # her table now leads to the game
    conceder.get_by_role("link", name="Ouvrir la partie de votre table").click()
    conceder.locator("summary", has_text="Finir la partie plus tôt").click()
    fits_the_phone(conceder)
    shot(conceder, "29", "night-2-end-early", full_page=False)
    conceder.get_by_role("button", name="Abandonner").click()
    expect(conceder.locator(".status-line")).to_contain_text("Partie terminée")
    # The winner's phone proposes the result (the day's season already
    # chosen), the other phone confirms: the table counts, one step.
    propose = starter.get_by_role("button", name="Proposer à l’autre téléphone")
    propose.click(timeout=20_000)
    conceder.get_by_role("button", name="Confirmer ce résultat").click(timeout=20_000)
    expect(conceder.locator("#outcome-settled")).to_be_visible()
    fits_the_phone(conceder)
    shot(conceder.locator("#game-outcome"), "29", "night-3-agreed")
    expect(organiser.row(played)).to_contain_text(
        f"{played.player_a.username} gagne", timeout=20_000
    )
    for pairing in four:
        if LATE in (pairing.player_a.username, pairing.player_b.username):
            organiser.enter_result(pairing, 160, 140)
    for pairing in others:
        report_and_confirm(phones, day_url, pairing, 210, 90)
    final = desk_page.get_by_role("button", name="Le classement est définitif")
    expect(final).to_be_visible(timeout=20_000)
    final.click()
    expect(desk_page.locator(".tournament-final")).to_have_text(
        "Le classement est définitif."
    )
    assert shown(desk_page, 4) == expected(tournament, 4)
    for number in (1, 2, 3):
        assert shown(desk_page, number) == expected(tournament, number)
    expect(desk_page.locator("#standings-4").locator("xpath=..")).to_contain_text(
        leaving
    )
    shot(desk_page, "29", "night-4-final-desktop", full_page=True)
    print(f"organiser's taps between rounds: {taps}")

    hang_up([desk_page, *phones.values()], problems)
    for context, _page in contexts.values():
        context.close()
    desk.close()
    assert problems.items == [], "\n".join(problems.items)
