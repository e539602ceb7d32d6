"""What the browser tests do on a phone's page: sign it in, tap and wait for
htmx to settle, read and wait for the board's version."""

from __future__ import annotations


def hold_session(page, base: str, session: str) -> None:
    """The phone's browser holds the session ``session`` (its key) on ``base``:
    signed in without typing anything."""
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": base}])


def settled(page, click) -> None:
    """Click, wait for htmx's answer and for the swap to settle."""
    with page.expect_response(lambda response: response.request.method == "POST"):
        click()
    # wait_for_function would evaluate a string, which the strict CSP forbids.
    for _ in range(250):
        if not page.locator(".htmx-request").count():
            break
        page.wait_for_timeout(20)
    page.wait_for_timeout(80)


def board_version(page) -> int:
    return int(page.locator("#game-status").get_attribute("data-version"))


def wait_for_version(page, version: int, timeout_ms: int) -> None:
    """Until the board shows ``version`` or a later one (the live stream's work)."""
    page.wait_for_function(
        "v => Number(document.querySelector('#game-status')?.dataset.version) >= v",
        arg=version,
        timeout=timeout_ms,
    )
