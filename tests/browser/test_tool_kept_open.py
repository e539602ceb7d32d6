"""A tool at the table opened on the idle phone stays open, as the player
filled it in, when the other phone's tap comes live; its form is the game's
as it is now, so the test it rolls is accepted (II-A), in real Chromium at
360 px on two browser contexts."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PageProblems
from tests.support.phone_page import board_version, hold_session, wait_for_version
from tests.support.servers import shell_json
from tests.support.shots import shot

pytestmark = pytest.mark.browser

LIVE_MS = 5000


def _at_a_draw(site, phones, seen: list[str]) -> tuple:
    """A two-phone game at a side's first activation draw, both phones open
    and live: (the drawer's phone, the idle phone, the version shown). Every
    URL the idle phone requests goes into ``seen``."""
    base = site["base"]
    game = shell_json(
        "from tests.support.live_setup import setup_game; setup_game()", site["env"]
    )
    public_id = game["public_id"]
    ready = shell_json(
        f"from tests.support.live_setup import play_until_draw; "
        f"play_until_draw({public_id!r})",
        site["env"],
    )
    drawing = ready["speaker"]
    idle_side = "b" if drawing == "a" else "a"
    drawer, idle = phones[drawing], phones[idle_side]
    idle.on("request", lambda request: seen.append(request.url))
    for side, page in ((drawing, drawer), (idle_side, idle)):
        hold_session(page, base, game["sessions"][side])
        page.goto(f"{base}/games/{public_id}/")
        page.locator("#live-status[data-state='live']").wait_for(timeout=LIVE_MS)
        page.evaluate("window.notReloaded = true")
    assert board_version(idle) == ready["version"]
    return drawer, idle, ready["version"]


def test_a_test_being_set_up_on_the_idle_phone_survives_the_other_phones_draw(
    site, phones
):
    problems: PageProblems = phones["problems"]
    requests: list[str] = []
    drawer, idle, shown = _at_a_draw(site, phones, requests)

    def tool_fetches() -> list[str]:
        return [url for url in requests if "/tools/" in url]

    # The idle player opens "Roll a test" and fills it in; nothing is focused.
    tool = idle.locator("#table-test")
    tool.locator("summary").click()
    idle.locator("#test-characteristic").wait_for()
    assert len(tool_fetches()) == 1
    codes = idle.locator("#test-characteristic option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    chosen = next(code for code in codes if code != "COU")
    idle.select_option("#test-characteristic", chosen)
    idle.locator("#test-label").fill("Banner rally")
    idle.locator("#test-difficulty").fill("7")
    idle.locator("#panel-title").click()  # the field is left

    # The other phone draws its card: the idle phone shows it live...
    drawer.locator("form button[name='action']").first.click()
    wait_for_version(drawer, shown + 1, LIVE_MS)
    wait_for_version(idle, shown + 1, LIVE_MS)
    now = board_version(idle)
    # ...with the test still open, its form fetched again for that version,
    # what was chosen and typed kept.
    tool.locator(f"form input[name='version'][value='{now}']").wait_for(
        state="attached", timeout=LIVE_MS
    )
    assert tool.get_attribute("open") is not None
    assert idle.locator("#test-characteristic").input_value() == chosen
    assert idle.locator("#test-label").input_value() == "Banner rally"
    assert idle.locator("#test-difficulty").input_value() == "7"
    assert idle.locator("#test-dice").input_value() == "1"  # the form's own default
    assert len(tool_fetches()) == 2  # one fetch per news while a tool is open
    assert idle.locator("#table-test").count() == 1
    assert idle.evaluate("window.notReloaded") is True
    shot(idle, "tools", "idle-tool-kept-open")

    # The drawer takes its draw back: an undo's news is the whole board,
    # swapped by htmx, and the test stays open and filled in all the same,
    # fetched once more (not a second time by the tool's own toggle).
    drawer.get_by_role("button", name="Undo my last action").click()
    wait_for_version(idle, now + 1, LIVE_MS)
    now = board_version(idle)
    tool.locator(f"form input[name='version'][value='{now}']").wait_for(
        state="attached", timeout=LIVE_MS
    )
    assert tool.get_attribute("open") is not None
    assert idle.locator("#test-label").input_value() == "Banner rally"
    assert idle.locator("#test-characteristic").input_value() == chosen
    assert len(tool_fetches()) == 3
    assert idle.evaluate("window.notReloaded") is True

    # The test asked for is the one filled in, on the game as it is now:
    # accepted, never refused as stale.
    tool.get_by_role("button", name="Show the odds").click()
    panel = idle.locator("#game-panel")
    panel.get_by_text("Banner rally").first.wait_for(timeout=LIVE_MS)
    assert "The game moved on" not in panel.inner_text()
    assert chosen in panel.inner_text()
    shot(idle, "tools", "idle-test-asked")
    assert problems.items == [], "\n".join(problems.items)


def test_no_tool_open_means_no_fetch_when_news_comes(site, phones):
    problems: PageProblems = phones["problems"]
    requests: list[str] = []
    drawer, idle, shown = _at_a_draw(site, phones, requests)
    requests.clear()
    drawer.locator("form button[name='action']").first.click()
    wait_for_version(idle, shown + 1, LIVE_MS)
    # The push alone: no tool fetched, no board fetched, the tools closed.
    assert requests == []
    assert idle.locator("details.table-tool[open]").count() == 0
    assert problems.items == [], "\n".join(problems.items)
