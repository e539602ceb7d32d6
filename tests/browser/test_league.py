"""The club league on three phones: A reports a result, B sees it waiting and
confirms it, and the standings change on a third phone without a reload."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from battles.league import services
from battles.league.models.league import LeagueResult, Membership, ResultStatus
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


WIDE = """() => [...document.querySelectorAll('body *')]
    .filter(el => !el.closest('.table-scroll') || el.matches('.table-scroll'))
    .filter(el => el.getBoundingClientRect().right > 361)
    .map(el => el.tagName + '.' + el.className + ' '
        + Math.round(el.getBoundingClientRect().right))
    .slice(0, 8)"""


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, page.evaluate(WIDE)


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
        reporter.locator("#id_people_for").select_option("Griffons d'Akkylannie")
        reporter.locator("#id_people_against").select_option("Wolfen d'Yllia")
        shot(reporter, "14", "2-report-form", full_page=True)
        assert serious_accessibility_violations(reporter) == []
        opponent.evaluate("window.notReloaded = true")
        reported_at = time.monotonic()
        reporter.get_by_role("button", name="Déclarer").click()
        # B's home page shows it without a reload, as fast as the standings
        # follow (streamed, not polled); the standings do not count it.
        waiting = opponent.locator("#league-waiting")
        expect(waiting).to_contain_text("Bertrand 180–60 Camille", timeout=3_000)
        followed = time.monotonic() - reported_at
        print(f"waiting box followed in {followed:.2f} s")
        assert followed < 3
        assert opponent.evaluate("window.notReloaded") is True
        expect(reporter.locator("#result-status")).to_have_text(
            "En attente de confirmation"
        )
        shot(reporter, "14", "3-reported", full_page=True)
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


# --- joining a club, clicked through in Chromium ----------------------------------
# The invitation page says ``Referrer-Policy: no-referrer``: Chromium posts their forms
# with ``Origin: null`` (battles.views.csrf.no_referrer_page).

NEW_PASSWORD = "griffon-de-braise-77"


def forget_expected(problems, *fragments) -> None:
    """Drop the refusals a step meant to see (a 403 the test asked for)."""
    problems.items[:] = [
        item
        for item in problems.items
        if not any(fragment in item for fragment in fragments)
    ]


def test_a_newcomer_clicks_an_invitation_makes_an_account_and_joins(
    phone, second_phone, page_problems, live_server, league, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    admin, newcomer = phone, second_phone
    club = league["club"]
    signed_in(admin, live_server, league["Alix"])
    admin.goto(f"{live_server.url}/clubs/{club.pk}/")
    admin.get_by_role("link", name="Membres et invitations").click()
    admin.get_by_role("button", name="Nouvelle invitation").click()
    link = admin.locator(".league-invitation input.share-url").first.input_value()
    assert "/clubs/join/" in link
    fits_the_phone(admin)

    newcomer.goto(link)
    expect(newcomer.locator("h1")).to_contain_text("Les Griffons de Lyon")
    newcomer.get_by_role("link", name="Créer un compte").click()
    newcomer.get_by_label("Nom d’utilisateur").fill("Estelle")
    newcomer.locator("#id_password1").fill(NEW_PASSWORD)
    newcomer.locator("#id_password2").fill(NEW_PASSWORD)
    newcomer.get_by_role("button", name="Créer mon compte").click()
    # The recovery codes, shown once; then back to the invitation.
    expect(newcomer.locator(".recovery-codes li")).to_have_count(10)
    newcomer.get_by_role("button", name="Je les ai notés").click()
    # Back on the invitation (its no-referrer page), signed in: join.
    join = newcomer.get_by_role("button", name="Rejoindre en tant que Estelle")
    expect(join).to_be_visible()
    fits_the_phone(newcomer)
    shot(newcomer, "24", "1-invitation", full_page=True)
    join.click()
    expect(newcomer.locator(".messages")).to_contain_text("Bienvenue au club.")
    expect(newcomer.locator("h1")).to_have_text("Les Griffons de Lyon")
    assert Membership.objects.filter(club=club, user__username="Estelle").exists()

    # The admin's page says who used it.
    admin.reload()
    expect(admin.locator(".league-invitation").first).to_contain_text(
        "Utilisée par Estelle"
    )
    hang_up([admin, newcomer], page_problems)


PEOPLES = (
    "Griffons d’Akkylannie",
    "Wolfen d’Yllia",
    "Alchimistes de Dirz",
    "Orques de Bran-Ô-Kor",
    "Nains de Tir-Na-Bor",
    "Elfes Cynwälls",
    "Drunes d’Avagddu",
    "Morts-vivants d’Achéron",
)


def test_the_statistics_and_player_pages_fit_360_px_the_match_ups_scroll_inside(
    phone, page_problems, live_server, league
):
    season, players = league["season"], ("Bertrand", "Camille", "Dominique", "Alix")
    day = timezone.localdate()
    for index, people in enumerate(PEOPLES):
        a, b = players[index % 4], players[(index + 1) % 4]
        result = services.report_result(
            season,
            league[a],
            opponent_id=league[b].pk,
            played_on=day - timedelta(days=index),
            result="won",
            score_for=200 + index,
            score_against=100,
            people_for=people,
            people_against=PEOPLES[(index + 3) % len(PEOPLES)],
            second_game=True,
        )
        services.confirm_result(result, league[b])
    signed_in(phone, live_server, league["Dominique"])
    phone.goto(f"{live_server.url}/league/{season.pk}/peoples/")
    box = phone.locator(".table-scroll").first
    expect(box).to_be_visible()
    fits_the_phone(phone)
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # scrolls inside
    shot(phone, "24", "5-statistics", full_page=True)
    phone.goto(f"{live_server.url}/league/{season.pk}/players/{league['Bertrand'].pk}/")
    expect(phone.locator("h1")).to_have_text("Bertrand")
    fits_the_phone(phone)
    shot(phone, "24", "6-player", full_page=True)
    hang_up([phone], page_problems)


def test_the_printed_page_has_a_qr_and_the_own_row_prints_light(
    phone, page_problems, live_server, league
):
    signed_in(phone, live_server, league["Camille"])
    phone.goto(f"{live_server.url}/league/{league['season'].pk}/print/")
    expect(phone.locator(".league-print-qr img")).to_be_visible()
    phone.emulate_media(media="print")
    mine = phone.locator(".standings tr.me")
    expect(mine).to_contain_text("Camille")
    background = mine.evaluate("el => getComputedStyle(el).backgroundColor")
    channels = [
        int(c) for c in background[background.index("(") + 1 : -1].split(",")[:3]
    ]
    assert min(channels) >= 200, background  # light grey, not black
    shot(phone, "24", "7-print", full_page=True)
    hang_up([phone], page_problems)


def test_a_dispute_says_why_and_the_score_and_the_admin_sees_it_at_home(
    phone, second_phone, page_problems, live_server, league
):
    result = services.report_result(
        league["season"],
        league["Bertrand"],
        opponent_id=league["Camille"].pk,
        played_on=timezone.localdate(),
        result="won",
        score_for=300,
        score_against=50,
    )
    opponent, admin = phone, second_phone
    signed_in(opponent, live_server, league["Camille"])
    signed_in(admin, live_server, league["Alix"])
    admin.goto(f"{live_server.url}/")
    expect(admin.locator("#league-waiting")).to_be_visible()
    opponent.goto(f"{live_server.url}/league/results/{result.pk}/")
    opponent.locator("#dispute summary").click()
    opponent.get_by_label("Ce qui ne va pas (gardé dans l’historique)").fill(
        "J’ai gagné aux objectifs"
    )
    opponent.get_by_label("Le résultat tel que vous l’avez vu").select_option(
        label="Camille a gagné"
    )
    opponent.get_by_label("Score de Bertrand").fill("120")
    opponent.get_by_label("Score de Camille").fill("210")
    fits_the_phone(opponent)
    shot(opponent, "24", "8-dispute", full_page=True)
    opponent.locator("#dispute").get_by_role("button", name="Contester").click()
    expect(opponent.locator("#result-status")).to_have_text("Contesté")
    # The admin's home page lists it without a reload.
    disputes = admin.locator(".league-disputes")
    expect(disputes).to_contain_text("Bertrand 300–50 Camille", timeout=3_000)
    disputes.get_by_role("link").first.click()
    expect(admin.locator(".league-history")).to_contain_text(
        "selon l’adversaire : Camille a gagné 120–210"
    )
    fits_the_phone(admin)
    shot(admin, "24", "9-dispute-seen", full_page=True)
    hang_up([opponent, admin], page_problems)


def test_an_admin_removes_a_member_after_a_confirmation_and_restores_him(
    phone, page_problems, live_server, league
):
    club = league["club"]
    signed_in(phone, live_server, league["Alix"])
    phone.goto(f"{live_server.url}/clubs/{club.pk}/admin/")
    phone.locator(".league-member", has_text="Dominique").get_by_role(
        "button", name="Retirer"
    ).click()
    expect(phone.locator("h1")).to_contain_text("Retirer Dominique")
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "24", "10-remove-confirm", full_page=True)
    phone.get_by_role("button", name="Oui, retirer").click()
    expect(phone.locator(".messages")).to_contain_text("ses résultats restent")
    removed = phone.locator("section", has_text="Membres retirés")
    expect(removed).to_contain_text("Dominique")
    shot(phone, "24", "11-removed", full_page=True)
    removed.get_by_role("button", name="Réintégrer").click()
    expect(phone.locator(".messages")).to_contain_text("Membre réintégré.")
    assert Membership.objects.filter(club=club, user=league["Dominique"]).exists()
    hang_up([phone], page_problems)


def test_an_admins_own_confirm_waits_and_the_opponent_agrees(
    phone, second_phone, page_problems, live_server, league
):
    result = services.report_result(
        league["season"],
        league["Alix"],
        opponent_id=league["Bertrand"].pk,
        played_on=timezone.localdate(),
        result="won",
        score_for=300,
        score_against=50,
    )
    admin, opponent = phone, second_phone
    signed_in(admin, live_server, league["Alix"])
    signed_in(opponent, live_server, league["Bertrand"])
    admin.goto(f"{live_server.url}/league/results/{result.pk}/")
    admin.locator("#settle_reason").fill("J’ai gagné, c’est sûr")
    admin.get_by_role("button", name="Confirmer").first.click()
    expect(admin.locator(".messages")).to_contain_text("Vous avez joué cette partie")
    expect(admin.locator("#result-status")).to_have_text("En attente de confirmation")
    opponent.goto(f"{live_server.url}/")
    link = opponent.locator("#league-waiting").get_by_role("link").first
    expect(link).to_contain_text("Alix 300–50 Bertrand")
    link.click()
    proposal = opponent.locator("#proposal")
    expect(proposal).to_contain_text(
        "Alix, qui a joué cette partie, demande de le confirmer"
    )
    fits_the_phone(opponent)
    shot(opponent, "24", "12-admin-proposal", full_page=True)
    proposal.get_by_role("button", name="D’accord").click()
    expect(opponent.locator("#result-status")).to_have_text("Confirmé")
    expect(opponent.locator(".messages")).to_contain_text(
        "D’accord : la modification de l’admin est faite."
    )
    expect(opponent.locator(".league-history li").last).to_contain_text(
        "confirmé par l’adversaire · Bertrand"
    )
    assert opponent.locator("[id]").evaluate_all(
        "els => els.length === new Set(els.map(e => e.id)).size"
    )
    hang_up([admin, opponent], page_problems)


def test_an_admin_switches_the_public_standings_off_and_on(
    phone, second_phone, page_problems, live_server, league
):
    season = league["season"]
    public = f"{live_server.url}/league/public/{season.public_key}/"
    signed_in(phone, live_server, league["Alix"])
    phone.goto(f"{live_server.url}/league/{season.pk}/share/")
    phone.get_by_role("button", name="Désactiver le classement public").click()
    expect(phone.locator("#public-off")).to_be_visible()
    fits_the_phone(phone)
    shot(phone, "24", "13-public-off", full_page=True)
    response = second_phone.goto(public)
    assert response.status == 404
    forget_expected(page_problems, "HTTP 404: " + public, "status of 404")
    phone.get_by_role("button", name="Activer le classement public").click()
    expect(phone.locator("#public-off")).to_have_count(0)
    response = second_phone.goto(public)
    assert response.status == 200
    assert response.headers["x-robots-tag"] == "noindex, nofollow"
    hang_up([phone, second_phone], page_problems)
