"""The tapping phone's answer first, then the pushes to the other phones.

An action commits (and is announced) before its answer is rendered; a look
of the streams (``battles.live.stream``) would then render the other phones'
boards at the same moment, and the two renders would share the process's
one interpreter lock: the tapping phone would wait for the others' boards.
So a look waits while taps are being answered in this process, up to
``MOST_SECONDS`` (past saturation, a push is late by that at most, never
starved).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

MOST_SECONDS = 0.05

_answering = 0
_changed = threading.Condition()


@contextmanager
def answering_tap() -> Iterator[None]:
    """Around a tap's handling, from its request to its answer rendered."""
    global _answering
    with _changed:
        _answering += 1
    try:
        yield
    finally:
        with _changed:
            _answering -= 1
            if not _answering:
                _changed.notify_all()


def answered_first(view: Callable) -> Callable:
    """A view that answers taps: the streams' looks wait for it."""

    @functools.wraps(view)
    def answering(*args, **kwargs):
        with answering_tap():
            return view(*args, **kwargs)

    return answering


def after_answers(most_seconds: float | None = None) -> None:
    """Wait (in the look thread) until no tap is being answered, or at most
    ``most_seconds`` (``MOST_SECONDS`` by default)."""
    most = MOST_SECONDS if most_seconds is None else most_seconds
    with _changed:
        _changed.wait_for(lambda: _answering == 0, timeout=most)


def taps_being_answered() -> int:
    return _answering
