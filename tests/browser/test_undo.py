"""Two phones: undoing a roll asks the other phone, and gives the same faces.

Issue #10: "Undoing an action that rolled dice needs the other side's agreement
in a two-phone game: it is asked on the other phone and shown in the log [...]
After an undo, the same roll gives the same faces again."
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    serious_accessibility_violations,
)
from tests.support.servers import shell_json
from tests.support.shots import shot

pytestmark = pytest.mark.browser

LIVE_MS = 5000


def shell(code: str, site) -> dict:
    return shell_json(f"from tests.support.live_setup import *; {code}", site["env"])


def board_text(page) -> str:
    return page.locator("#board").inner_text()


def wait_for_text(page, text: str) -> None:
    page.locator("#board", has_text=text).wait_for(timeout=LIVE_MS)


def click_and_settle(page, locator) -> None:
    with page.expect_response(lambda response: response.request.method == "POST"):
        locator.click()
    page.wait_for_timeout(150)


def test_undoing_a_roll_asks_the_other_phone_and_the_same_faces_come_back(site, phones):
    game = shell("setup_game()", site)
    public_id = game["public_id"]
    shooter = shell(f"play_until_a_shot({public_id!r})", site)["side"]
    roller = phones[shooter]
    other = phones["b" if shooter == "a" else "a"]
    for side, page in (("a", phones["a"]), ("b", phones["b"])):
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": game["sessions"][side],
                    "url": site["base"],
                }
            ]
        )
        page.goto(f"{site['base']}/games/{public_id}/")
        page.locator("#live-status[data-state='live']").wait_for(timeout=LIVE_MS)

    # The shooter rolls the test on its phone.
    click_and_settle(
        roller, roller.locator(".panel").get_by_role("button", name="Roll")
    )
    faces = shell(f"last_faces({public_id!r})", site)["faces"]
    assert faces

    # Undo: the roll cannot simply be taken back, the other phone is asked.
    click_and_settle(roller, roller.get_by_role("button", name="Undo my last action"))
    assert "must agree" in board_text(roller)
    shot(roller, "10", "undo-asked")
    wait_for_text(other, "Agree to the undo")
    assert "asks to undo its last action, which rolled dice" in board_text(other)
    shot(other, "10", "undo-consent")
    assert serious_accessibility_violations(other) == []

    # The other phone agrees: the roll is back where it was, shown in the log.
    click_and_settle(other, other.get_by_role("button", name="Agree to the undo"))
    wait_for_text(roller, "with Side")
    assert "the same roll gives the same faces" in board_text(roller)
    roller.locator(".panel").get_by_role("button", name="Roll").wait_for(
        timeout=LIVE_MS
    )
    shot(roller, "10", "undo-agreed")

    # Rolled again: the same faces, not new dice.
    click_and_settle(
        roller, roller.locator(".panel").get_by_role("button", name="Roll")
    )
    assert shell(f"last_faces({public_id!r})", site)["faces"] == faces
    assert phones["problems"].items == [], "\n".join(phones["problems"].items)
