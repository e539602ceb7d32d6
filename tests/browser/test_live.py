"""Two phones and a spectator share one live game in real Chromium.

The server is a real uvicorn process on a SQLite file (pytest-django's
``live_server`` is a threaded WSGI server that cannot hold event streams).
Side A's phone shares the game; B claims side B through the link and the
spectator through the spectator link, all in the browser; when one phone
draws a card, the other phone and the spectator show it without a reload,
by the event stream alone (polling starts only after the stream fails
three times, far later than these checks).
"""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import (
    PageProblems,
    serious_accessibility_violations,
)
from tests.support.phone_page import board_version, hold_session, wait_for_version
from tests.support.servers import shell_json

pytestmark = pytest.mark.browser

LIVE_MS = 3000
PHONES = ("a", "b", "spectator")


def test_a_draw_on_one_phone_shows_on_the_other_and_the_spectators(site, phones):
    problems: PageProblems = phones["problems"]
    game = shell_json(
        "from tests.support.live_setup import setup_shared_game; setup_shared_game()",
        site["env"],
    )
    base, public_id = site["base"], game["public_id"]
    phone_a, phone_b, watcher = phones["a"], phones["b"], phones["spectator"]
    # The set-up to the first activation draw is played by the bot in another
    # process (no phone is open yet: the in-process bus could not tell them).
    ready = shell_json(
        f"from tests.support.live_setup import play_until_draw; "
        f"play_until_draw({public_id!r})",
        site["env"],
    )

    # Side A opens the share page: a QR code and a link for each role.
    hold_session(phone_a, site["base"], game["session"])
    phone_a.goto(f"{base}/games/{public_id}/share")
    assert phone_a.locator("img.share-qr").first.evaluate("i => i.naturalWidth") > 0
    link_b = phone_a.locator("#share-url-b").input_value()
    link_spectator = phone_a.locator("#share-url-spectator").input_value()
    assert serious_accessibility_violations(phone_a) == []

    # B claims side B through the link (a form post under no-referrer).
    phone_b.goto(link_b)
    assert serious_accessibility_violations(phone_b) == []
    phone_b.get_by_label("Your name (shown to the other players)").fill("Bruno")
    phone_b.get_by_role("button", name="Join as side B").click()
    phone_b.wait_for_url(f"{base}/games/{public_id}/")
    assert "/join/" not in phone_b.url

    watcher.goto(link_spectator)
    watcher.get_by_role("button", name="Watch the game").click()
    watcher.wait_for_url(f"{base}/games/{public_id}/")

    phone_a.goto(f"{base}/games/{public_id}/")
    for page in (phone_a, phone_b, watcher):
        page.locator("#live-status[data-state='live']").wait_for(timeout=LIVE_MS)
        page.evaluate("window.notReloaded = true")

    for page in (phone_a, phone_b, watcher):
        assert board_version(page) == ready["version"]

    # The side whose turn it is draws a card on its phone...
    drawer = phone_a if ready["speaker"] == "a" else phone_b
    others = [phone_b if drawer is phone_a else phone_a, watcher]
    drawer.locator("form button[name='action']").first.click()
    wait_for_version(drawer, ready["version"] + 1, LIVE_MS)
    drawn = board_version(drawer)
    newest = drawer.locator(".log-lines li").first.inner_text()

    # ...and the other phone and the spectator show it, without a reload.
    for page in others:
        wait_for_version(page, drawn, LIVE_MS)
        assert page.locator(".log-lines li").first.inner_text() == newest
        assert page.evaluate("window.notReloaded") is True
        assert page.locator("#live-status").get_attribute("data-state") == "live"

    # The screen stays awake: a toggle that says whether it is on.
    pressed = drawer.locator("#wake-lock").get_attribute("aria-pressed")
    assert pressed in ("true", "false")
    assert problems.items == [], "\n".join(problems.items)


def test_a_second_phone_cannot_claim_side_b_twice(site, phones):
    game = shell_json(
        "from tests.support.live_setup import setup_shared_game; setup_shared_game()",
        site["env"],
    )
    base = site["base"]
    phone_a, phone_b, late = phones["a"], phones["b"], phones["spectator"]
    hold_session(phone_a, site["base"], game["session"])
    phone_a.goto(f"{base}/games/{game['public_id']}/share")
    link_b = phone_a.locator("#share-url-b").input_value()
    phone_b.goto(link_b)
    phone_b.get_by_role("button", name="Join as side B").click()
    phone_b.wait_for_url(f"{base}/games/{game['public_id']}/")
    response = late.goto(link_b)
    assert response.status == 409
    assert "already been claimed" in late.locator(".message-error").inner_text()
    # The refusal is the expected answer here, not a page problem.
    problems = [p for p in phones["problems"].items if "409" not in p]
    assert problems == [], "\n".join(problems)


def test_json_of_the_version_endpoint_is_what_polling_reads(site, phones):
    game = shell_json(
        "from tests.support.live_setup import setup_shared_game; setup_shared_game()",
        site["env"],
    )
    page = phones["a"]
    hold_session(page, site["base"], game["session"])
    page.goto(f"{site['base']}/games/{game['public_id']}/version")
    assert json.loads(page.locator("body").inner_text()) == {"version": 1}
