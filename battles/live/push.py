"""What an action changed, rendered once per viewpoint, to push to the phones.

After an action commits, a process renders the answer a phone showing the
previous version would fetch (``game_board?since=``: the panel, then the
status line, the draws, the fighters that changed and the new log lines out
of band) once for each *viewpoint* watching it: side A, side B, the
spectators, each in its language. Every stream of that viewpoint then sends
it (DESIGN: "Live updates"); a spectator's render is the spectators' view
(no private card), however many they are.

A render is shared, so what is personal to one phone is left as a
placeholder and filled in per stream, which costs a string replacement:
the CSRF token (each phone's own) and the tap keys (each form a fresh one).
A phone holding both sides (one phone passed between the players) and a
player building a sequence (a draft kept in that phone's session) get no
render: their stream says "version N" and the phone fetches its board.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation

from battles.models.games import Game
from battles.presenters.game.common import new_tap_key

SPECTATOR = "spectator"
CSRF_PLACEHOLDER = "live-csrf-placeholder"
TAP_PLACEHOLDER = "live-tap-placeholder"
_TAP = re.compile(re.escape(TAP_PLACEHOLDER))
# Panels that show a draft kept in the phone's session: fetched, never pushed.
SESSION_PANELS = frozenset({"strategic"})
ANSWER_TEMPLATE = "battles/games/answer.html"


@dataclass(frozen=True)
class Viewpoint:
    """What one kind of watcher may see: its seat's roles, in its language."""

    roles: frozenset[str]
    language: str

    @property
    def side(self) -> str | None:
        sides = sorted(role for role in self.roles if role in ("a", "b"))
        return sides[0] if len(sides) == 1 else None


def viewpoint_of(roles: Iterable[str], language: str) -> Viewpoint | None:
    """The viewpoint of a seat's roles; None for a phone holding both sides
    (what it shows depends on who holds it now: its session)."""
    roles = frozenset(roles)
    if {"a", "b"} <= roles or not roles:
        return None
    if not roles & {"a", "b"}:
        roles = frozenset({SPECTATOR})
    return Viewpoint(roles, language or "fr")


def render_changes(
    game: Game, base: int, viewpoints: Iterable[Viewpoint]
) -> dict[Viewpoint, str]:
    """The answer for a phone showing ``base``, per viewpoint; empty when a
    phone at ``base`` must fetch its whole board (too far back, an undo
    since, the game over: as ``game_board`` decides)."""
    from battles.presenters.game import build_board
    from battles.services import games as services
    from battles.views.access import Viewer

    if game.finished or base >= game.version:
        return {}
    before = services.state_at(game, base)
    if before is None:
        return {}
    pages: dict[Viewpoint, str] = {}
    for viewpoint in viewpoints:
        viewer = Viewer(viewpoint.roles)
        side = viewpoint.side
        with translation.override(viewpoint.language):
            context = build_board(game, viewer, side=side, since=base, before=before)
            if side is not None and context["panel"].kind in SESSION_PANELS:
                continue
            context["tap"] = TAP_PLACEHOLDER
            context["csrf_token"] = CSRF_PLACEHOLDER
            pages[viewpoint] = render_to_string(ANSWER_TEMPLATE, context)
    return pages


def personal(page: str, csrf_token: str) -> str:
    """A shared render made this phone's: its CSRF token, fresh tap keys."""
    page = page.replace(CSRF_PLACEHOLDER, csrf_token)
    return _TAP.sub(lambda _match: new_tap_key(), page)


def board_message(base: int, version: int, page: str) -> str:
    """``event: board``: the version it shows (the id), then the version it
    applies to, then the HTML, one ``data:`` line each line."""
    lines = "\n".join(f"data: {line}" for line in page.replace("\r", "").split("\n"))
    return f"id: {version}\nevent: board\ndata: {base}\n{lines}\n\n"
