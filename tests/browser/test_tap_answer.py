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


def test_a_sequence_being_built_comes_pushed_until_a_card_is_moved(phones, live_server):  # noqa: F811
    """A confirms its sequence: B, building its own with no card moved yet,
    has its board pushed (no request of its own). B moves a card (a draft
    kept on its phone): A's next tap makes B fetch its board, which keeps
    B's order. B confirms, then chooses its Tactics fighter: A's panel comes
    pushed each time, and its buttons act."""
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
    assert fetched["b"] == 0
    shot(b, "tap_answer", "b-sequence-pushed")
    names = b.locator(".sequence-name").all_inner_texts()
    down = b.get_by_role("button", name=f"Move {names[0].split(' ×')[0]} down")
    settled(b, down.click)
    moved = b.locator(".sequence-name").all_inner_texts()
    assert moved == [names[1], names[0], *names[2:]]
    assert b.locator("#game-panel [data-own-draft]").count() == 1
    settled(a, a.get_by_role("button", name="Choose this fighter").first.click)
    assert "Choose this fighter" not in a.locator("#game-panel").inner_text()
    wait_for_version(b, board_version(a), 5000)
    assert fetched["b"] == 1
    assert b.locator(".sequence-name").all_inner_texts() == moved
    settled(b, b.get_by_role("button", name="Confirm this sequence").click)
    wait_for_version(a, board_version(b), 5000)
    assert fetched["a"] == 0
    game.refresh_from_db()
    confirmed = [game.state["cards"][c]["name"] for c in game.state["sequences"]["b"]]
    assert confirmed == [name.split(" ×")[0] for name in moved]
    # B's Tactics fighter: A's panel comes pushed with the roll, which acts.
    settled(b, b.get_by_role("button", name="Choose this fighter").first.click)
    wait_for_version(a, board_version(b), 5000)
    assert fetched["a"] == 0
    shot(a, "tap_answer", "a-strategic-pushed")
    pushed = board_version(a)
    settled(a, a.get_by_role("button", name="Roll").first.click)
    assert board_version(a) > pushed
