"""A Courage test prompted by a charge against a fighter with PEUR, rolled on
side A's phone and seen live on side B's phone (II-A, chapter IX's fear being
the table's convention), in real Chromium at 360 px."""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    PageProblems,
    serious_accessibility_violations,
)
from tests.support.phone_page import board_version, wait_for_version
from tests.support.servers import shell_json
from tests.support.shots import shot

pytestmark = pytest.mark.browser

LIVE_MS = 5000


def test_a_courage_test_prompted_by_a_charge_is_seen_live_on_the_other_phone(
    site, phones
):
    problems: PageProblems = phones["problems"]
    game = shell_json(
        "from tests.support.table_rolls_setup import setup_charge_against_fear; "
        "setup_charge_against_fear()",
        site["env"],
    )
    base, public_id = site["base"], game["public_id"]
    phone_a, phone_b = phones["a"], phones["b"]
    for side, page in (("a", phone_a), ("b", phone_b)):
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": game["sessions"][side],
                    "url": base,
                }
            ]
        )
        page.goto(f"{base}/games/{public_id}/")
        page.locator("#live-status[data-state='live']").wait_for(timeout=LIVE_MS)
        page.evaluate("window.notReloaded = true")
    assert serious_accessibility_violations(phone_a) == []
    assert problems.items == [], "\n".join(problems.items)

    # Side A's fighter charges a fighter with PEUR 6.
    charger = game["charger"]
    phone_a.select_option(f"[id='move-{charger}']", "charge")
    phone_a.select_option(f"[id='targets-{charger}']", game["fearsome"])
    phone_a.locator(".panel article", has_text=game["charger_label"]).get_by_role(
        "button", name="Record the action"
    ).click()
    wait_for_version(phone_a, game["version"] + 2, LIVE_MS)

    # The rules offer the charger's Courage test, with its odds, on A's phone.
    panel_a = phone_a.locator(".panel")
    text = panel_a.inner_text()
    assert "COU test (Courage against fear)" in text
    assert "against 6" in text and "%" in text
    assert "or the fighter is routed (IX)" in text
    shot(phone_a, "17", "a-courage-offered")

    # B's phone shows, live, that side A has a Courage test to roll.
    offered = board_version(phone_a)
    wait_for_version(phone_b, offered, LIVE_MS)
    panel_b = phone_b.locator(".panel").inner_text()
    assert "Waiting for side A" in panel_b and "Courage against fear" in panel_b
    assert phone_b.locator(".panel button", has_text="Roll").count() == 0
    shot(phone_b, "17", "b-waiting")

    # The app's dice: no face can be typed on either phone (issue 23).
    assert phone_a.locator("input[name=faces]").count() == 0
    assert "the app's seeded dice" in phone_a.locator("#dice-mode-line").inner_text()
    # Real dice need both phones' word: A asks, B agrees, the log says so.
    asked = board_version(phone_a)
    phone_a.locator(".dice-switch > summary").click()
    phone_a.get_by_role("button", name="Ask to switch the dice").click()
    wait_for_version(phone_b, asked + 1, LIVE_MS)
    assert "asks to switch the dice" in phone_b.locator(".panel").inner_text()
    shot(phone_b, "23", "b-asked-to-switch-dice")
    phone_b.get_by_role("button", name="Agree to switch").click()
    wait_for_version(phone_a, asked + 2, LIVE_MS)
    line = phone_a.locator("#dice-mode-line").inner_text()
    assert "faces typed from real dice" in line
    assert phone_a.locator(".log-lines li", has_text="agreed").count() == 1
    assert problems.items == [], "\n".join(problems.items)

    # A rolls real dice and enters the face; B sees the result in its log.
    panel_a.locator("input[name=faces]").fill("5")  # 5 + COU 2 = 7
    panel_a.get_by_role("button", name="Record these dice").click()
    phone_a.locator(".log-lines li", has_text="against 6, success").first.wait_for(
        timeout=LIVE_MS
    )
    result = phone_a.locator(".log-lines li").first.inner_text()
    shot(phone_a, "17", "a-rolled")
    wait_for_version(phone_b, board_version(phone_a), LIVE_MS)
    assert phone_b.locator(".log-lines li").first.inner_text() == result
    assert "Courage against fear" in result
    assert "typed dice" in result  # marked as typed on both phones
    assert phone_b.evaluate("window.notReloaded") is True
    shot(phone_b, "17", "b-result-live")
    assert problems.items == [], "\n".join(problems.items)

    # An opposed test (II-A-3) set up on A's phone is answered on B's phone.
    phone_a.locator("#table-test > summary").click()
    phone_a.select_option("#test-fighter", charger)
    phone_a.select_option("#test-characteristic", "INI")
    phone_a.select_option("#test-opponent", game["fearsome"])
    phone_a.fill("#test-label", "Qui frappe le premier")
    shot(phone_a, "17", "a-test-form")
    assert problems.items == [], "\n".join(problems.items)
    before = board_version(phone_a)
    phone_a.get_by_role("button", name="Show the odds").click()
    wait_for_version(phone_a, before + 1, LIVE_MS)
    assert "Waiting for side B" in phone_a.locator(".panel").inner_text()
    wait_for_version(phone_b, before + 1, LIVE_MS)
    answer = phone_b.locator(".panel")
    assert "Qui frappe le premier" in answer.inner_text()
    assert "%" in answer.inner_text()
    shot(phone_b, "17", "b-opposed-to-answer")
    assert problems.items == [], "\n".join(problems.items)
    # B's phone answers with real dice: A's INI 3 + 3 against B's INI 4 + 4.
    answer.locator("input[name=faces]").fill("3 4")
    answer.get_by_role("button", name="Record these dice").click()
    phone_a.locator(".log-lines li", has_text="wins").first.wait_for(timeout=LIVE_MS)
    phone_a.locator(".game-status").scroll_into_view_if_needed()
    shot(phone_a, "17", "a-opposed-result-live")

    assert problems.items == [], "\n".join(problems.items)
    # A lasting effect recorded on A's phone is listed on B's (II-C-3).
    effects = phone_a.locator("#table-effect")
    effects.locator("> summary").click()  # its form comes when opened
    phone_a.fill("#effect-name", "Voile de brume")
    phone_a.select_option("#effect-kind", "spell")
    phone_a.select_option("#effect-duration", "turns")
    phone_a.fill("#effect-turns", "2")
    before = board_version(phone_a)
    effects.get_by_role("button", name="Record this effect").click()
    wait_for_version(phone_a, before + 1, LIVE_MS)
    wait_for_version(phone_b, before + 1, LIVE_MS)
    listed = phone_b.locator(".table-effects")
    assert "Voile de brume" in listed.inner_text()
    listed.scroll_into_view_if_needed()
    shot(phone_b, "17", "b-effect-listed")
    assert problems.items == [], "\n".join(problems.items)
