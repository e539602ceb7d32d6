"""What one phone shows of a game, split by phase as ``rules/game/`` is.

``build_board(game, viewer)`` assembles everything a game view renders: the
status line (turn, phase, who has the floor), the panel for this phase (in
``strategic``, ``activation``, ``combat``, ``upkeep``, ``rolls``; each
module also words its own events in the log), the draws, the fighters and
the last lines of the log. Views run no query of their own: they call this.

Adding a panel (a new kind of pending roll or choice): write one module here
with ``panel(state, side) -> Panel`` and register it in ``PENDING_PANELS``
under the pending ``purpose`` it answers; its template is
``templates/battles/games/panels/<kind>.html``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from battles.live.push import new_tap_key
from battles.presenters.game import (
    activation,
    combat,
    magic,
    rolls,
    strategic,
    table_rolls,
    upkeep,
)
from battles.presenters.game.common import (
    FighterView,
    Panel,
    changed_fighters,
    fighters_by_side,
    flee_choices,
    percent,
    waiting_on,
)
from battles.presenters.game.floor import Offers, floor_side, waiting_for
from battles.presenters.rulings import conventions, rulings_in_force
from battles.presenters.words import PHASE_SECTIONS, phase_word, side_word
from rules.game.evolve import META_KINDS

LOG_ON_BOARD = 6
RECENT_EVENTS = 40  # enough for the board's last lines, whatever the log's length

# Panels that show a side's private cards (IV-A-1: the sequence; IV-B-1: the
# top card and the reserve): on one phone, a hand-over screen comes first.
PRIVATE_PANELS = {"strategic", "draw", "activation"}

# A pending roll or choice's panel, by its purpose (before the phase's own).
PENDING_PANELS: dict[str, Callable[[Mapping[str, Any], str, Offers], Panel]] = {
    "parry": combat.panel,
    "ambidextrous": combat.panel,
    "form_combats": combat.panel,
    "counter": magic.counter_panel,  # X: the adversary may counter a spell
}


def build_panel(
    state: Mapping[str, Any],
    side: str | None,
    *,
    draft: Sequence[str] | None = None,
    offers: Offers | None = None,
) -> Panel:
    """What ``side`` (None for a spectator) sees in the action panel now
    (``offers``: what ``legal_actions`` lists for ``side``, if known)."""
    phase = state["phase"]
    pending = state.get("pending")
    if phase == "finished":
        return Panel("finished", title=_("Game over"))
    if side is None:
        floor = floor_side(state)
        if floor:
            return Panel(
                "watch",
                side=floor,
                title=_("You are watching this game: %(side)s has the floor.")
                % {"side": side_word(floor, mid=True)},
            )
        return Panel("watch", title=_("You are watching this game."))
    offers = offers or Offers(state, side)
    if pending:
        if pending.get("purpose") == "characteristic" or pending["kind"] == "check":
            # a test at the table, or a test of several dice (a parry, VII-C-4)
            panel = table_rolls.pending_panel(state, pending)
        elif pending["kind"] in rolls.KINDS:
            panel = rolls.panel(state, pending)
        elif pending.get("purpose") in PENDING_PANELS:
            panel = PENDING_PANELS[pending["purpose"]](state, side, offers)
        else:
            panel = combat.panel(state, side, offers)
        if panel.data.get("pursuits"):
            return panel  # a freed fighter's pursuit: either side records it
        if panel.side not in (None, side) or side not in waiting_for(state):
            return waiting_on(panel)
        return panel
    if phase == "strategic":
        return strategic.panel(state, side, offers, draft)
    if phase == "activation":
        return activation.panel(state, side, offers)
    if phase == "combat":
        panel = combat.panel(state, side, offers)
        if side not in waiting_for(state) and panel.kind != "combat":
            return waiting_on(panel)
        return panel  # a combat under way: the waiting phone sees it too
    return upkeep.panel(state, side, offers)


def status_line(
    state: Mapping[str, Any], viewer_sides: Sequence[str], side: str | None
) -> dict[str, Any]:
    """Turn, phase and who has the floor, in words for this phone."""
    phase = state["phase"]
    floor = waiting_for(state)
    if phase == "finished":
        who = ""
    elif len(floor) == 1:
        (only,) = floor
        if only == side and len(viewer_sides) == 1:
            who = _("Your turn")
        else:
            who = _("%(side)s has the floor") % {"side": side_word(only)}
    elif side in floor and len(viewer_sides) == 1:
        who = _("Your turn (both sides act)")
    else:
        who = _("Both sides act")
    return {
        "turn": state["turn"],
        "turns": state["turns"],
        "phase": phase_word(phase),
        "section": PHASE_SECTIONS.get(phase, ""),
        "floor": sorted(floor),
        "who": who,
        "mine": bool(side and side in floor),
    }


def build_board(
    game,
    viewer,
    *,
    side: str | None = None,
    holding: str | None = None,
    draft: Sequence[str] | None = None,
    error: str = "",
    error_field: str = "",
    since: int | None = None,
    before: Mapping[str, Any] | None = None,
    undo_confirm: str = "",
    open_tool: str = "",
    refused: str = "",
    added: Sequence[Any] = (),
    posted: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The board of ``game`` as ``viewer`` may see it, as a template context.

    ``side``: the side this phone acts for now; ``holding``: on one phone
    passed between the players, the side that said it holds it. ``since``
    and ``before`` (the version and snapshot this phone showed) make a small
    answer: only the fighters that changed and the log lines after ``since``.
    ``undo_confirm``: on one phone, the question before undoing a roll.
    ``open_tool``: the tool at the table the player opened (its form);
    ``refused``: the type of a refused tap (its tool opens with the message).
    ``added``: the events this phone's tap just appended (with ``since``).
    ``posted``: the refused tap's fields, which its form shows again (a
    shot's distance is not typed twice).
    """
    from battles.services import games as services
    from battles.services.agreement import pending_confirmation

    state = game.state
    offers = Offers(state, side)
    panel = build_panel(state, side, draft=draft, offers=offers)
    combat.refill_placements(panel, refused, posted or {})
    handover = None
    if (
        viewer.holds_both_sides
        and (panel.kind in PRIVATE_PANELS or panel.data.get("private"))
        and side is not None
        and holding != side
    ):
        # One phone passed between the players: the private sequence, top card
        # and reserve of the side taking the floor wait behind a hand-over.
        handover = side
    private_to = viewer.sides
    if viewer.holds_both_sides:
        private_to = [] if handover or side is None else [side]
    # One read of the log's tail serves the log lines, the undo button and
    # the undo request; a tap's answer words only the events it added.
    if added and any(e.kind not in META_KINDS for e in added):
        # This phone's own action: the newest events are all its answer
        # words, and they alone settle the undo button (undo_target stops at
        # the latest action) and the undo request (superseded).
        events = [
            {**e.as_rules_event(), "disputed": False, "dice_source": e.dice_source}
            for e in added
        ]
    else:
        window = max(RECENT_EVENTS, services.UNDO_WINDOW)
        if since is not None:
            window = max(window, game.version - since)
        events = services.latest_events(game, window, payloads_after=since)
    shown = events if since is None else [e for e in events if e["seq"] > since]
    disputed = [e["seq"] for e in shown if e["disputed"]]
    typed = [e["action"] for e in shown if e.get("dice_source") == "entered"]
    players = {side: n["name"] for side, n in _side_names(game).items()}
    # Imported here: the log words events through this package's presenters,
    # so it may be imported first (the log page), and this package then.
    from battles.presenters.log import log_lines

    lines = log_lines(
        shown, private_to, disputed=disputed, state=state, typed=typed, players=players
    )
    last_action = events[-1]["action"] if events and events[-1]["seq"] > 1 else None
    latest = [line for line in lines if last_action and line.seq >= last_action]
    only = changed_fighters(before, state) if before is not None else None
    # Tests at the table, scatters and lasting effects: what legal_actions
    # lists for this side at any time (none behind a hand-over screen). A
    # tool's form is built when it is opened, or refused a tap.
    tools = [] if handover else table_rolls.table_tools(offers, side)
    open_tool = open_tool or table_rolls.TOOL_OF_COMMAND.get(refused, "")
    # The mystic action just declared opens the spell or miracle test, its
    # caster chosen (issue 23).
    caster = next(
        (
            e.payload["fighter"]
            for e in added
            if e.kind == "action_declared" and e.payload.get("action") == "mystic"
        ),
        "",
    )
    open_tool = open_tool or ("test" if caster else "")
    opened = next((tool for tool in tools if tool["name"] == open_tool), None)
    # "A fighter flees", for each side this phone holds (sent with every
    # answer: its choices and its version follow the game).
    flee = {
        s: flee_choices(state, offers if s == side else Offers(state, s))
        for s in viewer.sides
    }
    new_lines = None
    if since is not None:
        new_lines = list(reversed(lines))
    return {
        "game": game,
        "state": state,
        "viewer": viewer,
        "side": side,
        "panel": panel,
        "handover": handover,
        "status": status_line(state, viewer.sides, side),
        "sides": _side_names(game),
        "piles": activation.pile_counts(state, private_to),
        "fighters": fighters_by_side(state, only),
        "changed": only,
        "flee": flee,
        # A refusal leaves the game as it was: the forms outside the panel
        # stay (the tapped one keeps its choice, and its message goes by it).
        "moved": since is None or game.version != since,
        "log": [] if since is not None else list(reversed(lines[-LOG_ON_BOARD:])),
        "new_lines": new_lines,
        "latest": latest,
        "tap": new_tap_key,
        "act_url": reverse("game_act", args=[game.public_id]),
        "error": error,
        "error_field": error_field,
        "refused": refused,
        "posted": posted or {},
        "error_at_shot": _error_at_shot(panel, refused, posted or {}),
        "can_undo": viewer.is_player and services.may_undo(game, side, events),
        "summary": services.game_summary(game) if game.finished else None,
        "to_confirm": _results_to_confirm(game, viewer, pending_confirmation),
        "can_share": "a" in viewer.roles and game.mode != "one_phone",
        "table_tools": tools,
        "open_tool": opened["name"] if opened else "",
        "tool_body": opened["body"] if opened else None,
        "tool_form": opened
        and table_rolls.tool_form(state, side, opened["name"], caster=caster),
        "effects": table_rolls.effects_view(state, offers),
        "undo_request": services.pending_undo_request(game, latest=events),
        "dice_mode_request": services.pending_dice_mode_request(game, latest=events),
        "can_switch_dice": viewer.is_player and not game.finished,
        "undo_confirm": undo_confirm,
        "rulings": rulings_in_force(state) if since is None else [],
        "conventions": conventions() if since is None else [],
    }


def _error_at_shot(panel: Panel, refused: str, posted: Mapping[str, str]) -> str:
    """The shooter whose refused shot's message stands next to its form (the
    form is on the panel), rather than at the panel's top; "" if none."""
    if refused != "shoot" or panel.kind != "activation":
        return ""
    shooter = posted.get("fighter", "")
    shown = any(f["id"] == shooter and f["shoot_at"] for f in panel.data["fighters"])
    return shooter if shown else ""


def _side_names(game) -> dict[str, dict[str, str]]:
    """Each side's name: the player's own, once they gave it, else the army's."""
    names = {side: {"name": data["name"]} for side, data in game.state["sides"].items()}
    for seat in game.seat_list:
        if seat.role in names and seat.player_name:
            names[seat.role]["name"] = seat.player_name
    return names


def _results_to_confirm(game, viewer, pending_confirmation) -> list[dict]:
    """Results on my fighters the other phone made, awaiting my word (optional)."""
    if not game.require_confirmation or not viewer.is_player:
        return []
    return [
        {"side": side, "event": event, "payload": event.payload}
        for side in viewer.sides
        for event in pending_confirmation(game, side)
    ]


def whole_log_page(game, viewer, *, order: str = "", fighter: str = "") -> dict:
    """The log page's lines, ordered and filtered (``presenters.log_page``)."""
    from battles.presenters.log_page import log_page
    from battles.services import games as services

    disputed = game.events.filter(disputed=True).values_list("seq", flat=True)
    typed = game.events.filter(dice_source="entered").values_list("action", flat=True)
    return log_page(
        services.rules_events(game),
        viewer.sides,
        disputed=disputed,
        typed=typed,
        now=game.state,
        order=order,
        fighter=fighter,
        players={side: n["name"] for side, n in _side_names(game).items()},
    )


__all__ = [
    "FighterView",
    "Panel",
    "build_board",
    "build_panel",
    "floor_side",
    "percent",
    "status_line",
    "waiting_for",
    "whole_log_page",
]
