"""The end-of-game summary's headline is the result both phones agreed, not
the engine's winner (issue 31: "Side A wins." over a game both phones agreed
side B won); before any agreement it says none is agreed yet. Two phones at
360x740; the headline follows the agreement without a reload."""

from __future__ import annotations

import pytest

from battles.services.games import perform_action
from tests.browser.test_game_screen import (  # noqa: F401 (the fixture)
    open_game,
    phones,
    two_phone_game,
)
from tests.support.live import OPPONENT, OWNER
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_summary_heads_with_the_agreed_result(phones, live_server):  # noqa: F811
    game = two_phone_game()
    perform_action(game, "b", {"type": "concede"})  # the engine: side A wins
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    for page in (a, b):
        line = page.locator("#game-result-line")
        line.wait_for()
        assert line.inner_text().startswith("No result agreed yet.")
        assert "The app reads side A as the winner" in line.inner_text()
        assert "Side A wins." not in page.locator("#board").inner_text()
    # The players agree otherwise (the concession was a misclick, say).
    a.locator("#game-outcome-status").wait_for()
    a.locator("input[name=outcome][value=b]").check()
    settled(a, a.get_by_role("button", name="Propose to the other phone").click)
    confirm = b.get_by_role("button", name="Confirm this result")
    confirm.wait_for(timeout=3000)
    assert (
        b.locator("#game-result-line").inner_text().startswith("No result agreed yet.")
    )
    settled(b, confirm.click)
    for page in (b, a):
        page.wait_for_function(
            "() => document.querySelector('#game-result-line')"
            ".textContent.includes('Both players agreed: side B wins.')",
            timeout=6000,
        )
        assert page.locator("#game-result-line").count() == 1
    b.locator("#game-result-line").scroll_into_view_if_needed()
    shot(b, "polish", "agreed-result-b")
    # A reload reads it from the database too.
    a.reload()
    assert a.locator("#game-result-line").inner_text() == (
        "Both players agreed: side B wins."
    )
    assert phones["problems"].items == []  # no htmx swap without its target
