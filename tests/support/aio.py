"""Running a test's coroutine on its own event loop, in its own thread.

Playwright's sync API keeps an event loop running in the test thread once a
browser has started (the session-wide ``browser`` fixture), and
``asyncio.run`` refuses to start inside a running loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T], timeout: float = 120) -> T:
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, name="test-event-loop")
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"the scenario took more than {timeout} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


async def hang_up(task: asyncio.Task) -> None:
    """Cancel ``task`` (a stream being read) and wait until it has stopped, as
    a client hanging up does."""
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
