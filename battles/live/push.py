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

import itertools
import re
import secrets
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


def tap_keys() -> Callable[[], str]:
    """Idempotency keys for one render's buttons (a double tap applies once),
    each a new one: one random draw per render, then a count. Each draw of
    the system's randomness lets go of the interpreter's lock, which a busy
    server gives back late: once per render, not once per button."""
    prefix = secrets.token_urlsafe(12)
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
