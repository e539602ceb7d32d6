"""A tap's answer as the phone puts it in (static/js/live.js, issue 33): the
panel and the parts that changed, swapped without htmx's own swap; the forms
outside the panel, no longer sent with every answer, still act at once."""

from __future__ import annotations

import pytest

from tests.browser.test_game_screen import open_game, phones, two_phone_game  # noqa: F401
from tests.support.live import OPPONENT, OWNER
from tests.support.phone_page import board_version, settled, wait_for_version
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_after_taps_the_forms_outside_the_panel_act_at_once(phones, live_server):  # noqa: F811
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    dice_before = a.locator("#game-dice").inner_html()
    settled(a, a.get_by_role("button", name="Confirm this sequence").click)
    first = board_version(a)
    # A button of that tap's answer (a fragment: no CSRF field in its form).
    settled(a, a.get_by_role("button", name="Choose this fighter").click)
    version = board_version(a)
    wait_for_version(b, version, 5000)
    # The tap's answer is in: its panel's buttons act,
    # the log shows the new lines (six at most), the dice part is untouched.
    assert "set its activation sequence" in a.locator("#game-log").inner_text()
    assert a.locator("#log-lines > li").count() <= 6
    assert a.locator("#game-dice").inner_html() == dice_before
    # The answer's forms carry no CSRF field (live.js sends the page's token in
    # a header), yet its tap was taken: the version moved on.
    assert a.locator("#game-panel input[name=csrfmiddlewaretoken]").count() == 0
    assert version > first
    shot(a, "tap_answer", "a-after-two-taps")
    shot(b, "tap_answer", "b-pushed")
    # The game's end, rendered with the page (an older version): calling time
    # is asked of the other phone at once, not refused as "the game moved on".
    a.locator("#game-ending > summary").click()
    call = a.locator("#game-ending").get_by_role("button", name="Call time")
    call.scroll_into_view_if_needed()
    settled(a, call.click)
    assert "moved on" not in a.locator("#board").inner_text()
    assert a.locator("[data-time-call-request=a]").count() == 1
    wait_for_version(b, version + 1, 5000)
    assert b.locator("[data-time-call-request=a]").count() == 1


EARLY_TAP = """(shown) => {
  window.earlyTap = null;
  const board = document.getElementById("board");
  new MutationObserver((records, observer) => {
    const status = document.getElementById("game-status");
    if (Number(status.dataset.version) <= shown) return;
    const button = [...document.querySelectorAll("#game-panel button")].find(
      (b) => b.textContent.trim() === "Choose this fighter");
    if (!button) return;
    observer.disconnect();
    // The answer is in, its frame not yet painted: tap its button now.
    window.earlyTap = {processed: "htmx-internal-data" in button.form};
    button.click();
  }).observe(board, {subtree: true, childList: true});
}"""


def test_a_tap_on_the_answer_before_its_frame_carries_the_token(phones, live_server):  # noqa: F811
    """The answer's parts are processed by htmx once its frame is painted; a
    second tap landing on them before (where the first one landed) is still
    posted with the page's CSRF header (by live.js, as every panel tap is),
    where a plain post of the fragment's form (no token field) would get a
    403 page."""
    game = two_phone_game()
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    page_url = a.url
    first = board_version(a)
    a.evaluate(EARLY_TAP, first)
    a.get_by_role("button", name="Confirm this sequence").click()
    wait_for_version(a, first + 2, 5000)
    assert a.evaluate("() => window.earlyTap") == {"processed": False}
    assert a.url == page_url
    game.refresh_from_db()
    assert game.state["tactics"]["fighters"]["a"] is not None  # the second tap's
    assert a.get_by_role("button", name="Choose this fighter").count() == 0


def test_a_strategic_panel_comes_pushed_once_its_sequence_is_set(phones, live_server):  # noqa: F811
    """A's sequence is set: B's tap moves A's board with no request of A's
    (the push is what A would fetch), while B, building its own sequence (a
    draft kept on its phone), fetched its board after A's tap."""
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    fetched = {"a": 0, "b": 0}
    for side, page in (("a", a), ("b", b)):
        page.on(
            "request",
            lambda request, side=side: (
                fetched.__setitem__(side, fetched[side] + 1)
                if "/board?since=" in request.url
                else None
            ),
        )
    settled(a, a.get_by_role("button", name="Confirm this sequence").click)
    wait_for_version(b, board_version(a), 5000)
    assert fetched["b"] == 1
    settled(b, b.get_by_role("button", name="Confirm this sequence").click)
    wait_for_version(a, board_version(b), 5000)
    assert fetched["a"] == 0
    pushed = board_version(a)
    shot(a, "tap_answer", "a-strategic-pushed")
    # The pushed panel's buttons act: A's Tactics fighter is taken.
    settled(a, a.get_by_role("button", name="Choose this fighter").first.click)
    assert board_version(a) > pushed
    assert "Choose this fighter" not in a.locator("#game-panel").inner_text()
