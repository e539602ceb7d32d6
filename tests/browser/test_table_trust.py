"""Issue 23 on a phone at 360x740: the whole log readable on its page, and the
small things a player saw (tap targets, wording), in real Chromium."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore

from tests.browser.conftest import PageProblems, open_phone
from tests.support.live import OPPONENT, OWNER, new_game, play, seat
from tests.support.phone_page import hold_session
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def session_of(owner) -> str:
    session = SessionStore()
    session["guest_key"] = owner.guest_key
    session.create()
    return session.session_key


@pytest.fixture
def phone(browser):
    problems = PageProblems()
    context, page = open_phone(browser, problems, locale="fr-FR")
    yield page
    page.goto("about:blank")
    context.close()
    # Leaving the board hangs up its event stream: not a problem.
    real = [
        p
        for p in problems.items
        if not ("/stream" in p and "ABORTED" in p)
        # The 404s a test asks for on purpose (the "not found" page).
        and not ("HTTP 404" in p and ("nothere" in p or "nowhere" in p))
        and "the server responded with a status of 404" not in p
    ]
    assert real == [], "\n".join(real)


@pytest.fixture
def played(live_server):
    game = new_game(OWNER)
    seat(game, OPPONENT, "b")
    play(game, 60, seed=2)
    game.refresh_from_db()
    return game


def test_the_whole_log_shows_every_line_by_turn_and_for_one_fighter(
    phone, live_server, played
):
    base = live_server.url
    hold_session(phone, base, session_of(OWNER))
    phone.goto(f"{base}/games/{played.public_id}/")
    # The board keeps its last six lines; its link opens the whole log.
    assert phone.locator("#log-lines li:visible").count() <= 6
    link = phone.get_by_role("link", name="Tout le journal")
    assert link.bounding_box()["height"] >= 44
    link.click()
    phone.wait_for_url("**/log")
    lines = phone.locator(".log-lines li")
    total = lines.count()
    assert total > 6
    assert phone.locator(".log-lines li:visible").count() == total
    shot(phone, "23", "log-newest-first")
    phone.get_by_label("Par tour").check()
    phone.get_by_role("button", name="Afficher").click()
    phone.wait_for_url("**order=turn**")
    assert phone.locator(".log-turn h2").first.inner_text() == "Tour 1"
    assert phone.locator(".log-lines li:visible").count() == total
    label = played.state["fighters"]["a1.1"]["label"]
    phone.select_option("#log-fighter", "a1.1")
    phone.get_by_role("button", name="Afficher").click()
    phone.wait_for_url("**fighter=a1.1**")
    shown = phone.locator(".log-lines li")
    assert 0 < shown.count() < total
    assert label in shown.first.inner_text()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # nothing wider than the phone
    shot(phone, "23", "log-by-turn-one-fighter", full_page=True)


def test_make_run_serves_a_stranger_the_apps_own_404_not_djangos_debug_page(
    phone, tmp_path
):
    from tests.support.served import served
    from tests.support.servers import manage, server_env

    env = server_env(
        PLAIN_HTTP="true", DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}"
    )
    env["DEBUG"] = "false"  # as `make run` serves, unless DEBUG=true is asked
    env.pop("SECRET_KEY", None)
    manage("migrate", "--noinput", env=env)
    with served(env) as base:
        for path in ("/games/nothere/log", "/games/nothere/verify", "/nowhere"):
            response = phone.goto(base + path)
            assert response.status == 404
            text = phone.locator("body").inner_text()
            assert "Page introuvable" in text
            assert "URLconf" not in phone.content() and "DEBUG" not in text
        shot(phone, "23", "run-404")
        # The app's own style and a session over plain HTTP (no "Secure").
        phone.goto(base + "/")
        color = phone.evaluate("getComputedStyle(document.body).backgroundColor")
        assert color != "rgba(0, 0, 0, 0)"
        phone.goto(base + "/games/new/")
        cookies = phone.context.cookies(base)
        assert any(c["name"] == "csrftoken" and not c["secure"] for c in cookies)


def test_the_small_things_seen_on_the_game_screen(phone, live_server, played):
    base = live_server.url
    hold_session(phone, base, session_of(OWNER))
    phone.goto(f"{base}/games/")
    tile = phone.locator(".game-line").first
    assert "contre" in tile.inner_text() and "tour 1 sur 6" in tile.inner_text()
    shot(phone, "23", "your-games")
    phone.goto(f"{base}/games/{played.public_id}/")
    # Tap targets: the links alone in their line are a finger's size.
    for name in ("Tout le journal", "Vérifier les dés"):
        box = phone.get_by_role("link", name=name).bounding_box()
        assert box["height"] >= 44, (name, box)
    # The results' live region is outside the board a tap's answer swaps.
    assert phone.locator("#board #results-live").count() == 0
    assert phone.locator("#results-live[role=status]").count() == 1
    # The undo button does not touch the card after it.
    undo = phone.locator(".undo-form")
    if undo.count():
        below = phone.evaluate(
            """() => {
              const form = document.querySelector('.undo-form');
              const next = form.nextElementSibling;
              if (!next) return 99;
              return next.getBoundingClientRect().top
                - form.getBoundingClientRect().bottom;
            }"""
        )
        assert below >= 8
    # The flee control says what it does.
    assert phone.locator("summary", has_text="un combattant fuit").count() == 0
    shot(phone, "23", "board-small-things", full_page=True)
    # The log page's radio lines take the whole line's tap.
    phone.goto(f"{base}/games/{played.public_id}/log")
    box = phone.get_by_label("Par tour").locator("xpath=..").bounding_box()
    assert box["height"] >= 44


def test_a_shot_into_a_melee_asks_the_nearest_friend_and_keeps_the_distance(
    phone, live_server
):
    from battles.services import games as services
    from tests.support.game_steps import to_activation

    game = new_game(OWNER)
    seat(game, OPPONENT, "b")
    game = to_activation(game)
    services.perform_action(game, "a", {"type": "draw", "action": "draw"})
    for friend in ("a2.1", "a2.2"):
        game.refresh_from_db()
        services.perform_action(
            game,
            "a",
            {"type": "set_contact", "one": friend, "two": "b1.1", "contact": True},
        )
    game.refresh_from_db()
    base = live_server.url
    hold_session(phone, base, session_of(OWNER))
    phone.goto(f"{base}/games/{game.public_id}/")
    form = phone.locator(".shot-form").first
    form.locator("select[name=target]").select_option("b1.1")
    form.locator("input[name=distance_cm]").fill("12,5")
    form.get_by_role("button", name="Tirer").click()
    refusal = phone.locator(".shot-form .field-error")
    refusal.wait_for()
    assert "le plus proche du tireur" in refusal.inner_text()
    form = phone.locator(".shot-form").first
    assert form.locator("input[name=distance_cm]").input_value() == "12,5"
    assert phone.locator("#tap-feedback .message-error").count() == 0
    refusal.scroll_into_view_if_needed()
    shot(phone, "23", "melee-shot-refused")
    form.locator("select[name=nearest_friend]").select_option("a2.2")
    form.get_by_role("button", name="Tirer").click()
    phone.locator(".panel-roll, .panel-table_roll").first.wait_for()
    game.refresh_from_db()
    assert game.state["pending"]["context"]["nearest_friend"] == "a2.2"


def test_the_verify_page_shows_each_roll_and_fits_the_phone(phone, live_server):
    import random

    from battles.services import games as services
    from tests.support.game_bot import next_command

    game = new_game(OWNER, turns=1)
    seat(game, OPPONENT, "b")
    rng = random.Random(5)
    while not game.finished:
        side, command = next_command(game.state, rng)
        game = services.perform_action(game, side, command).game
    base = live_server.url
    hold_session(phone, base, session_of(OWNER))
    phone.goto(f"{base}/games/{game.public_id}/verify")
    first = phone.locator(".roll-check").first
    assert "Jet numéro 0" in first.inner_text()
    assert "HMAC-SHA256" in first.inner_text()
    assert phone.locator(".roll-check.mismatch").count() == 0
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    link = phone.get_by_role("link", name="Télécharger le journal (JSON)")
    assert link.bounding_box()["height"] >= 44
    first.scroll_into_view_if_needed()
    shot(phone, "23", "verify")
