"""The tapping phone's answer first, then the pushes to the other phones.

An action commits (and is announced) before its answer is rendered; a look
of the game's streams (``battles.live.stream``) would then render the other
phones' boards at the same moment, and the two renders would share the
process's one interpreter lock: the tapping phone would wait for the others'
boards. So a game's look waits while a tap on that game is being answered in
this process, up to ``MOST_SECONDS``. Only that game's: the other games'
looks go on (past saturation, a look that waited for every tap under way
would fall behind the taps for good).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

MOST_SECONDS = 0.05

_answering: Counter[int] = Counter()
_changed = threading.Condition()


@contextmanager
def answering_tap(game_id: int) -> Iterator[None]:
    """Around a tap's handling on ``game_id``, until its answer is rendered."""
    with _changed:
        _answering[game_id] += 1
    try:
        yield
    finally:
        with _changed:
            _answering[game_id] -= 1
            if not _answering[game_id]:
                del _answering[game_id]
                _changed.notify_all()


def after_answers(game_id: int, most_seconds: float | None = None) -> None:
    """Wait (in the look thread) until no tap on ``game_id`` is being
    answered, or at most ``most_seconds`` (``MOST_SECONDS`` by default)."""
    most = MOST_SECONDS if most_seconds is None else most_seconds
    with _changed:
        _changed.wait_for(lambda: game_id not in _answering, timeout=most)


def taps_being_answered(game_id: int) -> int:
    with _changed:
        return _answering[game_id] if game_id in _answering else 0
