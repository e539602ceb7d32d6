"""A game's board as one phone sees it, assembled from small pure parts.

``build_board(game, viewer, read)`` is a function of the game's state and of
one service read (``battles.services.boards.board_read``: the log's tail,
the undo and its requests, the results to confirm, the players' names): the
status line and panel (``battles.presenters.game``), the fighters, the log's
lines (``battles.presenters.log``), the tools at the table. ``whole_log_page``
presents the log page from ``log_read``. Views run no query of their own:
they read, then call these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.live.push import tap_keys
from battles.presenters.game import (
    activation,
    build_panel,
    combat,
    status_line,
    table_rolls,
)
from battles.presenters.game.common import (
    Panel,
    changed_fighters,
    fighters_by_side,
    flee_choices,
)
from battles.presenters.game.floor import Offers
from battles.presenters.log import log_lines
from battles.presenters.log_page import log_page
from battles.presenters.rulings import conventions, rulings_in_force
from battles.presenters.urls import game_address

LOG_ON_BOARD = 6

# Panels that show a side's private cards (IV-A-1: the sequence; IV-B-1: the
# top card and the reserve): on one phone, a hand-over screen comes first.
PRIVATE_PANELS = {"strategic", "draw", "activation"}
FLEE_TYPES = ("set_routed",)


def build_board(
    game,
    viewer,
    read,
    *,
    side: str | None = None,
    holding: str | None = None,
    draft: Sequence[str] | None = None,
    own_draft: bool = False,
    error: str = "",
    error_field: str = "",
    since: int | None = None,
    before: Mapping[str, Any] | None = None,
    undo_confirm: str = "",
    open_tool: str = "",
    refused: str = "",
    added: Sequence[Any] = (),
    posted: Mapping[str, str] | None = None,
    tap: Any = None,
) -> dict[str, Any]:
    """The board of ``game`` as ``viewer`` may see it, as a template context:
    a pure assembly of the state and ``read`` (``battles.services.boards.
    board_read``: the log's tail, the undo, the requests, the names).

    ``side``: the side this phone acts for now; ``holding``: on one phone
    passed between the players, the side that said it holds it. ``draft``:
    the order the side's sequence is shown in until it is set; ``own_draft``:
    moved on this phone (its session's), which no push knows. ``since``
    and ``before`` (the version and snapshot this phone showed) make a small
    answer: only the fighters that changed and the log lines after ``since``.
    ``undo_confirm``: on one phone, the question before undoing a roll.
    ``open_tool``: the tool at the table the player opened (its form);
    ``refused``: the type of a refused tap (its tool opens with the message).
    ``added``: the events this phone's tap just appended (with ``since``).
    ``posted``: the refused tap's fields, which its form shows again (a
    shot's distance is not typed twice). ``tap``: what the forms' tap keys
    are (a shared render's placeholder); by default, fresh ones.
    """
    state = game.state
    offers = Offers(state, side)
    panel = build_panel(state, side, draft=draft, offers=offers)
    if viewer.holds_both_sides:
        combat.add_other_pursuits(panel, state, side)
    combat.refill_placements(panel, refused, posted or {})
    handover = _handover(viewer, panel, side, holding)
    private_to = viewer.sides
    if viewer.holds_both_sides:
        private_to = [] if handover or side is None else [side]
    only = changed_fighters(before, state) if before is not None else None
    piles = activation.pile_counts(state, private_to)
    flee = _flee(state, viewer.sides, side, offers)
    return {
        "game": game,
        "state": state,
        "viewer": viewer,
        "side": side,
        "own_draft": own_draft,
        "panel": panel,
        "handover": handover,
        "status": status_line(state, viewer.sides, side),
        "sides": read.sides,
        "piles": piles,
        "fighters": fighters_by_side(state, only),
        "changed": only,
        "flee": flee,
        # Like the draws, sent again only when its choices changed (a mark
        # made from it changes them): its form posts the version the board
        # shows (live.js). A refusal changes nothing: the form stays as the
        # player left it, and its message goes by it.
        "flee_changed": before is None or _flee(before, viewer.sides) != flee,
        # A small answer sends the parts outside the panel only when they
        # changed: their forms post the version the board shows (live.js).
        **_parts_changed(game, viewer, before, piles, private_to),
        **_log_part(state, read, private_to, since),
        "tap": tap_keys() if tap is None else tap,
        "act_url": game_address("game_act", game.public_id),
        "error": error,
        "error_field": error_field,
        "refused": refused,
        "posted": posted or {},
        "error_at_shot": _error_at_shot(panel, refused, posted or {}),
        "can_undo": read.can_undo,
        "summary": read.summary,
        "agreed_result": read.agreed_result,
        "to_confirm": read.to_confirm,
        "can_share": "a" in viewer.roles and game.mode != "one_phone",
        **_tools_part(state, side, offers, handover, open_tool, refused, added),
        "effects": table_rolls.effects_view(state, offers),
        "undo_request": read.undo_request,
        "dice_mode_request": read.dice_mode_request,
        "time_call_request": read.time_call_request,
        "can_switch_dice": viewer.is_player and not game.finished,
        "undo_confirm": undo_confirm,
        "rulings": rulings_in_force(state) if since is None else [],
        "conventions": conventions() if since is None else [],
    }


def _parts_changed(game, viewer, before, piles, private_to) -> dict[str, bool]:
    """Which parts outside the panel a small answer (``before`` given) sends
    again: the draws when their counts moved (on one phone, always: whose
    reserve is named follows who holds it); the dice when the game ended (a
    switch of dice is a meta event, after which a phone gets its whole
    board: ``services.state_at``)."""
    if before is None:
        return {"draws_changed": True, "dice_changed": True}
    return {
        "draws_changed": viewer.holds_both_sides
        or activation.pile_counts(before, private_to) != piles,
        "dice_changed": game.finished,
    }


def _handover(viewer, panel: Panel, side: str | None, holding: str | None):
    """One phone passed between the players: the private sequence, top card
    and reserve of the side taking the floor wait behind a hand-over."""
    if (
        viewer.holds_both_sides
        and (panel.kind in PRIVATE_PANELS or panel.data.get("private"))
        and side is not None
        and holding != side
    ):
        return side
    return None


def _log_part(state, read, private_to, since: int | None) -> dict[str, Any]:
    """The log's lines this board shows: its last lines, or those after
    ``since``; and the latest action's (where a tap's answer shows)."""
    events = read.events
    shown = events if since is None else [e for e in events if e["seq"] > since]
    lines = log_lines(
        shown,
        private_to,
        disputed=[e["seq"] for e in shown if e["disputed"]],
        state=state,
        typed=[e["action"] for e in shown if e.get("dice_source") == "entered"],
        players={side: n["name"] for side, n in read.sides.items()},
    )
    last_action = events[-1]["action"] if events and events[-1]["seq"] > 1 else None
    return {
        "log": [] if since is not None else list(reversed(lines[-LOG_ON_BOARD:])),
        "new_lines": None if since is None else list(reversed(lines)),
        "latest": [line for line in lines if last_action and line.seq >= last_action],
    }


def _tools_part(state, side, offers, handover, open_tool, refused, added):
    """Tests at the table, scatters and lasting effects: what legal_actions
    lists for this side at any time (none behind a hand-over screen). A
    tool's form is built when it is opened, or refused a tap; the mystic
    action just declared opens the spell or miracle test, its caster chosen."""
    tools = [] if handover else table_rolls.table_tools(offers, side)
    open_tool = open_tool or table_rolls.TOOL_OF_COMMAND.get(refused, "")
    caster = next(
        (
            e.payload["fighter"]
            for e in added
            if e.kind == "action_declared" and e.payload.get("action") == "mystic"
        ),
        "",
    )
    if caster and state["fighters"][caster].get("gems") is not None:
        # Mana in gems: the panel's spell forms cast (a known spell, or one
        # named with its gems and difficulty), not the single-number test.
        caster = ""
    open_tool = open_tool or ("test" if caster else "")
    opened = next((tool for tool in tools if tool["name"] == open_tool), None)
    return {
        "table_tools": tools,
        "open_tool": opened["name"] if opened else "",
        "tool_body": opened["body"] if opened else None,
        "tool_form": opened
        and table_rolls.tool_form(state, side, opened["name"], caster=caster),
    }


def _flee(
    state, sides, side: str | None = None, offers: Offers | None = None
) -> dict[str, Any]:
    """ "A fighter flees", for each side this phone holds: the fighters
    ``legal_actions`` lets it mark as routed (``offers``: ``side``'s, known)."""
    return {
        s: flee_choices(
            state,
            offers
            if s == side and offers is not None
            else Offers(state, s, FLEE_TYPES),
        )
        for s in sides
    }


def _error_at_shot(panel: Panel, refused: str, posted: Mapping[str, str]) -> str:
    """The shooter whose refused shot's message stands next to its form (the
    form is on the panel), rather than at the panel's top; "" if none."""
    if refused != "shoot" or panel.kind != "activation":
        return ""
    shooter = posted.get("fighter", "")
    shown = any(f["id"] == shooter and f["shoot_at"] for f in panel.data["fighters"])
    return shooter if shown else ""


def whole_log_page(read, viewer, *, order: str = "", fighter: str = "") -> dict:
    """The log page's lines, ordered and filtered (``presenters.log_page``),
    from ``read`` (``battles.services.boards.log_read``) and the state now."""
    return log_page(
        read.events,
        viewer.sides,
        disputed=read.disputed,
        typed=read.typed,
        now=read.state,
        order=order,
        fighter=fighter,
        players={side: n["name"] for side, n in read.sides.items()},
    )


__all__ = ["build_board", "whole_log_page"]
