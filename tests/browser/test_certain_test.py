"""A Courage test set up at the table that the dice cannot miss is passed at
once, without a Roll tap, and read live on the other phone; one a '1' could
fail still waits for its roll (II-A-1, II-A-3), in real Chromium at 360 px on
two browser contexts."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PageProblems
from tests.support.phone_page import board_version, hold_session, wait_for_version
from tests.support.servers import shell_json
from tests.support.shots import shot

pytestmark = pytest.mark.browser

LIVE_MS = 5000


def _courage_test(page, difficulty: int, label: str) -> tuple[str, int]:
    """Open "Roll a test" and set up a Courage test of the first fighter the
    form shows with COU (its current value read where the player reads it):
    (the fighter's label, its COU)."""
    tool = page.locator("#table-test")
    if tool.get_attribute("open") is None:
        tool.locator("summary").click()
    page.locator("#test-fighter").wait_for()
    current = tool.locator("form details")
    if current.get_attribute("open") is None:
        current.locator("summary").click()
    values = current.locator("li", has_text="COU").first
    fighter_label = values.locator("strong").inner_text()
    courage = int(re.search(r"COU (-?\d+)", values.inner_text()).group(1))
    page.select_option("#test-fighter", label=fighter_label)
    page.select_option("#test-characteristic", "COU")
    page.select_option("#test-use", "courage")
    page.fill("#test-difficulty", str(courage + difficulty))
    page.fill("#test-label", label)
    return fighter_label, courage


def test_a_courage_test_that_cannot_fail_takes_no_roll_on_either_phone(site, phones):
    problems: PageProblems = phones["problems"]
    base = site["base"]
    game = shell_json(
        "from tests.support.live_setup import setup_game; setup_game()", site["env"]
    )
    public_id = game["public_id"]
    phone_a, phone_b = phones["a"], phones["b"]
    for side, page in (("a", phone_a), ("b", phone_b)):
        hold_session(page, base, game["sessions"][side])
        page.goto(f"{base}/games/{public_id}/")
        page.locator("#live-status[data-state='live']").wait_for(timeout=LIVE_MS)
        page.evaluate("window.notReloaded = true")
    shown = board_version(phone_a)

    # COU against COU + 1: the lowest final result (a '1') is enough.
    fighter, courage = _courage_test(phone_a, 1, "Hurlement")
    shot(phone_a, "certain", "a-courage-form")
    phone_a.get_by_role("button", name="Show the odds").click()
    wait_for_version(phone_a, shown + 1, LIVE_MS)
    line = (
        f"{courage} against {courage + 1} cannot fail (its lowest final result is"
        f" {courage + 1}): passed, no roll needed."
    )
    latest = phone_a.locator("#game-panel .latest")
    assert line in latest.inner_text()
    assert fighter in latest.inner_text() and "Hurlement" in latest.inner_text()
    assert phone_a.locator("#game-panel button", has_text="Roll").count() == 0
    assert phone_a.locator("#table-test").get_attribute("open") is None
    shot(phone_a, "certain", "a-passed-without-a-roll")

    # The other phone reads it live, and has nothing to answer.
    wait_for_version(phone_b, shown + 1, LIVE_MS)
    assert line in phone_b.locator(".log-lines li").first.inner_text()
    assert phone_b.locator("#game-panel button", has_text="Roll").count() == 0
    assert phone_b.evaluate("window.notReloaded") is True
    shot(phone_b, "certain", "b-reads-it-live")

    # COU against COU + 2: a '1' fails, so the roll is asked, with its odds.
    _courage_test(phone_a, 2, "Hurlement")
    phone_a.get_by_role("button", name="Show the odds").click()
    wait_for_version(phone_a, shown + 2, LIVE_MS)
    panel = phone_a.locator("#game-panel")
    assert "83.3" in panel.locator(".odds").first.inner_text()
    panel.get_by_role("button", name="Roll").click()
    wait_for_version(phone_a, shown + 3, LIVE_MS)
    assert phone_a.locator("#game-panel .latest", has_text="against").count() == 1
    shot(phone_a, "certain", "a-rolled-when-it-could-fail")
    assert problems.items == [], "\n".join(problems.items)
