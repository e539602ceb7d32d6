"""What an action changed, rendered once per viewpoint, for the live push.

The stream (``battles.live.stream``) is handed ``render_changes`` by the view
that opens it: it renders the answer a phone showing ``base`` would fetch
(``game_board?since=``) once for each viewpoint watching (``battles.identity.
Viewer``: side A, side B, the spectators, each in its language), with the
placeholders ``battles.live.push`` fills in per phone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from battles.identity import Viewer
from battles.live.push import TAP_PLACEHOLDER
from battles.models.games import Game
from battles.presenters.board import build_board
from battles.services import games as services
from battles.services.boards import board_read, log_tail

ANSWER_TEMPLATE = "battles/games/answer.html"


def render_changes(
    game: Game,
    base: int,
    viewpoints: Iterable[Viewer],
    known: dict[str, Any] | None = None,
    past: list[dict[str, Any]] | None = None,
) -> dict[Viewer, str]:
    """The answer for a phone showing ``base``, per viewpoint; empty when a
    phone at ``base`` must fetch its whole board (too far back, an undo
    since, the game over: as ``game_board`` decides). ``known``: the state at
    ``base``, when the stream's room kept it; ``past``: the events past
    ``base``, when the action that appended them handed them over. The
    log's tail is read once for every viewpoint (``past`` stands for its
    read), and says whether an undo came since."""
    viewpoints = list(viewpoints)
    if not viewpoints or game.finished or not services.may_catch_up(game, base):
        # Read no tail: nobody to render for (in this process, only the
        # tapping phone watches: it has its answer), or a whole board to fetch.
        return {}
    tail = log_tail(game, base, past)
    before = services.state_at(game, base, known, tail)
    if before is None:
        return {}
    pages: dict[Viewer, str] = {}
    for viewpoint in viewpoints:
        side = viewpoint.side
        with translation.override(viewpoint.language):
            read = board_read(game, viewpoint, side, since=base, tail=tail)
            # A sequence being built shows the order every phone of the side
            # starts from; a phone whose own draft differs fetches (live.js).
            draft = services.opening_draft(game, side) if side else None
            context = build_board(
                game,
                viewpoint,
                read,
                side=side,
                since=base,
                before=before,
                draft=draft,
                tap=TAP_PLACEHOLDER,
            )
            pages[viewpoint] = render_to_string(ANSWER_TEMPLATE, context)
    return pages


__all__ = ["render_changes"]
