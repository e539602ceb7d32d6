"""A tap on the panel as static/js/live.js posts it (issue 33): one request,
the one htmx would send (the form's fields, the tapped button, the page's
CSRF header, htmx's headers); a double tap sends one; a tap the server
refuses or that never left the phone says so where the finger is and
changes nothing on the board."""

from __future__ import annotations

import pytest

from tests.browser.test_game_screen import (  # noqa: F401
    open_game,
    phones,
    refused_routed_mark,
    two_phone_game,
)
from tests.support.live import OPPONENT, OWNER
from tests.support.phone_page import board_version, settled, wait_for_version
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def posts_of(page) -> list:
    """The POST requests ``page`` sends from now on."""
    posts: list = []
    page.on(
        "request", lambda request: request.method == "POST" and posts.append(request)
    )
    return posts


def no_tap_under_way(page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request')", polling="raf"
    )


def tap_that_fails(page, button, said: str) -> None:
    """Tap ``button``, whose tap fails: the alert says ``said``, and once the
    tap is over its button may be tapped again."""
    button.click()
    alert = page.locator("#connection-alert")
    alert.wait_for(state="visible")
    assert alert.inner_text() == said
    no_tap_under_way(page)
    assert button.is_enabled()


def test_a_panel_tap_is_one_post_with_the_pages_headers(phones, live_server):  # noqa: F811
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    posts = posts_of(a)
    first = board_version(a)
    settled(a, a.get_by_role("button", name="Confirm this sequence").click)
    assert len(posts) == 1  # live.js's, not htmx's too
    headers = posts[0].all_headers()
    assert headers["hx-request"] == "true"
    assert headers["hx-target"] == "game-panel"
    assert headers["hx-current-url"] == a.url
    assert len(headers["x-csrftoken"]) >= 32
    assert headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert "type=set_sequence" in posts[0].post_data
    assert f"version={first}" in posts[0].post_data
    assert board_version(a) == first + 1
    # A double tap (two clicks in one go): its buttons are disabled at the
    # first, so one post; the game moved once.
    a.get_by_role("button", name="Choose this fighter").evaluate(
        "button => { button.click(); button.click(); }"
    )
    wait_for_version(a, first + 2, 5000)
    no_tap_under_way(a)
    assert len(posts) == 2
    game.refresh_from_db()
    assert game.version == first + 2
    wait_for_version(b, first + 2, 5000)
    # B plays its strategic phase; then the roll, a six's choice and who
    # speaks first are forms whose tapped button says what is asked: its
    # name and value are posted.
    b_posts = posts_of(b)
    settled(b, b.get_by_role("button", name="Confirm this sequence").click)
    settled(b, b.get_by_role("button", name="Choose this fighter").click)
    named = {"Keep": "type=keep", "Side A speaks first": "first=a"}
    named["Side B speaks first"] = "first=b"
    spoke = None
    for _ in range(12):
        for page, sent in ((a, posts), (b, b_posts)):
            no_tap_under_way(page)
            panel = page.locator("#game-panel")
            for name in ["Roll", "Keep", "Side A speaks first", "Side B speaks first"]:
                button = panel.get_by_role("button", name=name, exact=False)
                if not button.count():
                    continue
                version = board_version(page)
                settled(page, button.first.click)
                wait_for_version(page, version + 1, 5000)
                if name in named:
                    assert named[name] in sent[-1].post_data
                if name.startswith("Side"):
                    spoke = page
                break
        if spoke is not None:
            break
    assert spoke is not None, "nobody was asked who speaks first"
    shot(spoke, "panel_tap", "who-speaks-first-tapped")


def test_a_tap_the_server_refuses_says_so_and_changes_nothing(phones, live_server):  # noqa: F811
    game = two_phone_game()
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    version = board_version(a)
    panel_before = a.locator("#game-panel").inner_text()
    tap_key = a.locator("#game-panel input[name=tap]").first.input_value()
    a.route("**/act", lambda route: route.fulfill(status=500, body="boom"))
    button = a.get_by_role("button", name="Confirm this sequence")
    tap_that_fails(a, button, "The server could not do that (500).")
    assert board_version(a) == version
    # Nothing swapped: the same panel, the same tap key (a retry counts once).
    assert a.locator("#game-panel").inner_text() == panel_before
    assert a.locator("#game-panel input[name=tap]").first.input_value() == tap_key
    shot(a, "panel_tap", "server-error")
    # The database away: the server's own words (a 503 fragment).
    a.unroute("**/act")
    a.route(
        "**/act",
        lambda route: route.fulfill(
            status=503, body="<p>The game's records are out of reach.</p>"
        ),
    )
    button.click()
    a.wait_for_function(
        "() => document.getElementById('connection-alert').textContent"
        ".includes('out of reach')",
        polling="raf",
    )
    no_tap_under_way(a)
    # The server back: the same tap is taken, and the alert goes.
    a.unroute("**/act")
    settled(a, button.click)
    assert board_version(a) == version + 1
    assert a.locator("#connection-alert").is_hidden()
    phones["problems"].items[:] = [
        problem
        for problem in phones["problems"].items
        if not ("500" in problem or "503" in problem)
    ]


def test_a_tap_without_a_network_says_it_was_not_sent(phones, live_server):  # noqa: F811
    game = two_phone_game()
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    version = board_version(a)
    a.context.set_offline(True)
    button = a.get_by_role("button", name="Confirm this sequence")
    tap_that_fails(a, button, "No connection: your tap was not sent. Try again.")
    shot(a, "panel_tap", "offline-tap")
    a.context.set_offline(False)
    a.wait_for_selector("#live-status[data-state=live]", timeout=10_000)
    settled(a, button.click)
    assert board_version(a) == version + 1
    game.refresh_from_db()
    assert game.version == version + 1


def test_a_refusal_by_a_form_outside_the_panel_goes_with_the_next_answer(
    phones,  # noqa: F811
    live_server,
):
    """A refused routed mark says why by its form, in the fighters' part;
    the next tap's answer brings its own line: the old message does not stay
    by the form, and the page holds one feedback line."""
    game = two_phone_game()
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    refused_routed_mark(a, game)
    refusal = a.locator("#game-fighters #tap-feedback").inner_text().strip()
    assert refusal
    settled(a, a.get_by_role("button", name="Confirm this sequence").click)
    assert a.locator("[id=tap-feedback]").count() == 1
    assert a.locator("#game-panel #tap-feedback").count() == 1
    assert refusal not in a.locator("#game-fighters").inner_text()
    shot(a, "panel_tap", "stale-refusal-gone")
