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
    # The tap's answer is in: its panel's buttons act (processed by htmx),
    # the log shows the new lines (six at most), the dice part is untouched.
    assert "set its activation sequence" in a.locator("#game-log").inner_text()
    assert a.locator("#log-lines > li").count() <= 6
    assert a.locator("#game-dice").inner_html() == dice_before
    # The answer's forms carry no CSRF field (htmx sends the page's token in
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
