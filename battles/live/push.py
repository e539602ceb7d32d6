"""What a pushed board carries: the placeholders of a shared render, made each
phone's own, and the ``event: board`` message.

After an action commits, a process renders the answer a phone showing the
previous version would fetch (``game_board?since=``: the panel, then the
status line, the draws, the fighters that changed and the new log lines out
of band) once for each *viewpoint* watching it: side A, side B, the
spectators, each in its language. Every stream of that viewpoint then sends
it (DESIGN: "Live updates"); a spectator's render is the spectators' view
(no private card), however many they are. The render itself is a
presenter's (``battles.presenters.push.render_changes``), handed to the
stream by the view that opens it: ``live/`` carries messages, it renders
nothing.

A render is shared, so what is personal to one phone is left as a
placeholder and filled in per stream, which costs a string replacement:
the tap keys (each form a fresh one). A pushed board, like a tap's answer,
goes to htmx only, which sends the page's CSRF token in a header
(``base.html``'s ``hx-headers``): its forms carry no token field.
A phone holding both sides (one phone passed between the players) gets no
render: its stream says "version N" and the phone fetches its board. A side
building its sequence is pushed the order every phone of it starts from; a
phone where cards were moved (a draft in its session) fetches instead
(``live.js``).
"""

from __future__ import annotations

import base64
import itertools
import os
import re
import threading
from collections.abc import Callable

from battles.identity import Viewer

# The render of what changed past a version, per viewpoint (a presenter's):
# the game, that version, the viewpoints, the state at that version when the
# room kept it and the events past it when an action of this process handed
# them over (each else None: the log is asked).
Render = Callable[
    [object, int, set[Viewer], dict | None, list | None], dict[Viewer, str]
]

TAP_PLACEHOLDER = "live-tap-placeholder"
_TAP = re.compile(re.escape(TAP_PLACEHOLDER))


# The system's randomness, drawn a few kilobytes at a time. Each draw lets go
# of the interpreter's lock, which a busy server gives back late (up to its
# switch interval, 5 ms): on the event loop, every stream waits meanwhile.
# An action with a spectator drew six times (the tap's answer, each
# viewpoint's render, each stream's message); now a render draws none (its
# keys are placeholders) and the others one draw in 341.
_DRAW_BYTES = 4096
_KEY_BYTES = 12
_drawn = threading.Lock()
_pool = memoryview(b"")


def _forget_pool() -> None:
    global _drawn, _pool
    _drawn = threading.Lock()  # not held by a thread the child does not have
    _pool = memoryview(b"")


os.register_at_fork(after_in_child=_forget_pool)  # a child never repeats a key


def _random_prefix() -> str:
    """16 characters of URL-safe base64 from the system's randomness (as
    ``secrets.token_urlsafe(12)``), each drawn once."""
    global _pool
    with _drawn:
        if len(_pool) < _KEY_BYTES:
            _pool = memoryview(os.urandom(_DRAW_BYTES))
        taken, _pool = _pool[:_KEY_BYTES], _pool[_KEY_BYTES:]
    return base64.urlsafe_b64encode(taken).decode("ascii")


def tap_keys() -> Callable[[], str]:
    """Idempotency keys for one render's buttons (a double tap applies once),
    each a new one: one random prefix per render, then a count."""
    prefix = _random_prefix()
    count = itertools.count()
    return lambda: f"{prefix}{next(count):x}"


def personal(page: str) -> str:
    """A shared render made this phone's: fresh tap keys."""
    key = tap_keys()
    return _TAP.sub(lambda _match: key(), page)


def board_message(base: int, version: int, page: str) -> str:
    """``event: board``: the version it shows (the id), then the version it
    applies to, then the HTML, one ``data:`` line each line."""
    lines = "\n".join(f"data: {line}" for line in page.replace("\r", "").split("\n"))
    return f"id: {version}\nevent: board\ndata: {base}\n{lines}\n\n"
