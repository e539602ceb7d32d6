"""What a game's screens need from the database, read in one place.

The presenters are pure functions of a game's state and of what these reads
gather (``battles.presenters.game``): a board (``board_read``: the log's
tail, the undo and its requests, the results to confirm, the summary, the
players' names) and the whole log page (``log_read``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.identity import Viewer
from battles.models import GameOutcome
from battles.models.games import Game, GameEvent
from battles.services import games as services
from battles.services.agreement import pending_confirmation
from rules.game.evolve import META_KINDS

RECENT_EVENTS = 40  # enough for the board's last lines, whatever the log's length


@dataclass(frozen=True)
class BoardRead:
    """Everything a board shows that is not the game's state."""

    events: list[dict[str, Any]]  # the log's tail (or a tap's own events)
    sides: dict[str, dict[str, str]]  # each side's name
    can_undo: bool = False
    summary: dict[str, Any] | None = None
    to_confirm: list[dict[str, Any]] = field(default_factory=list)
    undo_request: dict[str, Any] | None = None
    dice_mode_request: dict[str, Any] | None = None
    time_call_request: dict[str, Any] | None = None
    # The result both phones agreed ("a", "b", "draw"), None before (issue 31).
    agreed_result: str | None = None


@dataclass(frozen=True)
class LogRead:
    """The whole log, and what marks its lines."""

    events: list[dict[str, Any]]
    state: dict[str, Any]  # the game now
    disputed: list[int]
    typed: list[int]
    sides: dict[str, dict[str, str]]


def side_names(game: Game) -> dict[str, dict[str, str]]:
    """Each side's name: the player's own, once they gave it, else the army's."""
    names = {side: {"name": data["name"]} for side, data in game.state["sides"].items()}
    for seat in game.seat_list:
        if seat.role in names and seat.player_name:
            names[seat.role]["name"] = seat.player_name
    return names


def board_read(
    game: Game,
    viewer: Viewer,
    side: str | None,
    *,
    since: int | None = None,
    added: Sequence[GameEvent] = (),
    tail: list[dict[str, Any]] | None = None,
) -> BoardRead:
    """One read of what ``viewer``'s board needs beside the state.

    One read of the log's tail serves the log lines, the undo button and the
    undo request; a tap's answer (``added``: the events it appended) words
    only those events, which alone settle the undo button (``undo_target``
    stops at the latest action) and the undo request (superseded). ``tail``:
    ``log_tail(game, since)`` read already (the live push reads it once for
    every viewpoint it renders).
    """
    if added and any(e.kind not in META_KINDS for e in added):
        events = services.board_events(added)
    else:
        events = log_tail(game, since) if tail is None else tail
    to_confirm = []
    if game.require_confirmation and viewer.is_player:
        # Results on my fighters the other phone made, awaiting my word.
        to_confirm = [
            {"side": s, "event": event, "payload": event.payload}
            for s in viewer.sides
            for event in pending_confirmation(game, s)
        ]
    return BoardRead(
        events=events,
        sides=side_names(game),
        can_undo=viewer.is_player and services.may_undo(game, side, events),
        summary=services.game_summary(game) if game.finished else None,
        to_confirm=to_confirm,
        undo_request=services.pending_undo_request(game, latest=events),
        dice_mode_request=services.pending_dice_mode_request(game, latest=events),
        time_call_request=services.pending_time_call_request(game, latest=events),
        agreed_result=agreed_result(game) if game.finished else None,
    )


def log_tail(
    game: Game, since: int | None = None, past: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The log's last events a board shows (its lines, the undo button, the
    requests), with payloads past ``since`` only when given; the same for
    every viewpoint.

    A phone behind the game (``since``) is given the events past ``since``
    alone when none of them is about the log itself (an undo, a request): as
    a tap's answer, they hold its new lines, and their latest settles the
    undo button (``undo_target`` stops at the latest action) and the
    requests (superseded). A few rows instead of forty: the live push's
    read (profiled: a fifth of a push). With one of those past ``since``,
    the forty (the phone will fetch its whole board: ``state_at``).
    ``past``: those events past ``since``, handed over by the action that
    appended them (not read again)."""
    if since is not None and since < game.version:
        fresh = services.events_after(game, since) if past is None else past
        if services.catches_up_through([event["kind"] for event in fresh]):
            return fresh
    window = max(RECENT_EVENTS, services.UNDO_WINDOW)
    if since is not None:
        window = max(window, game.version - since)
    return services.latest_events(game, window, payloads_after=since)


def agreed_result(game: Game) -> str | None:
    """The finished game's result both phones agreed (``GameOutcome``
    settled), as "Your games" reads it; None while none is agreed."""
    return (
        GameOutcome.objects.filter(game=game, agreed_a=True, agreed_b=True)
        .values_list("outcome", flat=True)
        .first()
    )


def log_read(game: Game) -> LogRead:
    """The whole log, its disputed results and typed dice, the players."""
    return LogRead(
        events=services.rules_events(game),
        state=game.state,
        disputed=list(game.events.filter(disputed=True).values_list("seq", flat=True)),
        typed=list(
            game.events.filter(dice_source="entered").values_list("action", flat=True)
        ),
        sides=side_names(game),
    )


__all__ = [
    "BoardRead",
    "LogRead",
    "agreed_result",
    "board_read",
    "log_read",
    "log_tail",
    "side_names",
]
