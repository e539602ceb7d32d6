"""The game's log in words: one line per event, with turn, phase and section.

"Tour 2 · Activation · Garde d'Alahan : Blessure légère à l'abdomen (II-B-1)".
Hidden information stays hidden: a reserved card or an activation sequence is
named only to the side that owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from battles.presenters.game import (
    activation,
    combat,
    magic,
    rolls,
    strategic,
    table_rolls,
    upkeep,
)
from battles.presenters.rulings import ruling_note
from battles.presenters.words import phase_word, side_word
from rules.game import undone_actions


@dataclass(frozen=True)
class LogLine:
    seq: int
    turn: int
    phase: str
    side: str | None
    text: str
    section: str
    undone: bool
    disputed: bool
    faces: tuple[int, ...] = ()
    typed: bool = False  # its action's faces were typed from real dice


def _game_started(p, who, names, players=None):
    """The first line names the sides as they are now (``players``: a player
    who joined after the start replaces the army's name), else as created."""
    sides = p["state"]["sides"]
    values = {side: (players or {}).get(side) or sides[side]["name"] for side in "ab"}
    turns = p["state"]["turns"]
    text = ngettext(
        "Game started: %(a)s against %(b)s, %(turns)s turn.",
        "Game started: %(a)s against %(b)s, %(turns)s turns.",
        turns,
    )
    return text % {**values, "turns": turns}, ""


def _step_changed(p, who, names):
    if "phase" in p:
        return _("%(phase)s begins.") % {"phase": phase_word(p["phase"])}, ""
    return None


def _game_finished(p, who, names):
    reason = p.get("reason")
    if reason == "wiped_out":
        return _("Game over: an army was wiped out."), ""
    if reason == "conceded":
        loser = {"a": "b", "b": "a"}.get(p.get("winner") or "", "")
        side = side_word(loser, mid=True) if loser else who
        return _("Game over: %(side)s conceded.") % {"side": side}, ""
    if reason == "time_called":
        text = _("Game over: time called, %(a)s–%(b)s in army points destroyed.")
        return text % {"a": p.get("score_a", 0), "b": p.get("score_b", 0)}, ""
    return _("Game over after the last turn."), ""


def _undone(p, who, names):
    if p.get("agreed_by"):
        text = _(
            "%(side)s undid its last action, which rolled dice, with "
            "%(other)s's agreement: the same roll gives the same faces."
        )
        return text % {"side": who, "other": side_word(p["agreed_by"], mid=True)}, ""
    return _("%(side)s undid its last action.") % {"side": who}, ""


def _undo_requested(p, who, names):
    text = _("%(side)s asks to undo its last action, which rolled dice.")
    return text % {"side": who}, ""


def _undo_refused(p, who, names):
    return _("%(side)s refused the undo: the roll stands.") % {"side": who}, ""


def _dice_mode_word(mode: str) -> str:
    if mode == "entered":
        return _("faces typed from real dice")
    return _("the app's seeded dice")


def _dice_mode_requested(p, who, names):
    text = _("%(side)s asks to switch the dice to %(mode)s.")
    return text % {"side": who, "mode": _dice_mode_word(p["mode"])}, ""


def _dice_mode_changed(p, who, names):
    mode = _dice_mode_word(p["mode"])
    if p.get("agreed_by"):
        text = _("%(side)s agreed: the game now rolls %(mode)s.")
        return text % {"side": who, "mode": mode}, ""
    text = _("%(side)s switched the dice to %(mode)s.")
    return text % {"side": who, "mode": mode}, ""


def _dice_mode_refused(p, who, names):
    text = _("%(side)s refused to switch the dice: they stay as they were.")
    return text % {"side": who}, ""


def _time_call_requested(p, who, names):
    text = _("%(side)s calls time: the game would end %(a)s–%(b)s.")
    return text % {"side": who, "a": p["score_a"], "b": p["score_b"]}, ""


def _time_call_refused(p, who, names):
    return _("%(side)s refused to call time: the game goes on.") % {"side": who}, ""


# Each phase's presenter words its own events; the game's own are here.
WORDING: dict[str, Callable[..., tuple[str, str] | None]] = {
    "game_started": _game_started,
    "step_changed": _step_changed,
    "game_finished": _game_finished,
    "undone": _undone,
    "undo_requested": _undo_requested,
    "undo_refused": _undo_refused,
    "dice_mode_requested": _dice_mode_requested,
    "dice_mode_changed": _dice_mode_changed,
    "dice_mode_refused": _dice_mode_refused,
    "time_call_requested": _time_call_requested,
    "time_call_refused": _time_call_refused,
    **strategic.EVENTS,
    **activation.EVENTS,
    **combat.EVENTS,
    **upkeep.EVENTS,
    **rolls.EVENTS,
    **magic.EVENTS,
}


def _describe(
    event: Mapping[str, Any],
    labels: Mapping[str, str],
    rulings: Mapping[str, str] | None = None,
) -> tuple[str, str] | None:
    """(text, section) for an event, or None for bookkeeping events."""
    payload = event.get("payload") or {}
    described = table_rolls.describe(event, labels)  # tests, scatter, effects
    if described is None:
        wording = WORDING.get(event["kind"])
        if wording is None:
            return None
        side = event.get("side")
        described = wording(payload, side_word(side) if side else "", labels)
    note = ruling_note(payload, rulings)
    if described and described[0] and note:
        # A result a house ruling decided says so (rules.melee.HOUSE_RULINGS).
        return f"{described[0]} ({note})", described[1]
    return described


# The phase before a step_changed into each phase (chapter 4: the phases of a
# turn always come in this order; an empty combat phase still opens and closes).
PREVIOUS_PHASE = {"activation": "strategic", "combat": "activation", "upkeep": "combat"}


def _forward_positions(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """(turn, phase) after each event, read from the start of the log."""
    positions = []
    turn, phase = 1, "strategic"
    for event in events:
        payload = event.get("payload") or {}
        if event["kind"] == "turn_started":
            turn, phase = payload["turn"], "strategic"
        elif event["kind"] == "step_changed" and "phase" in payload:
            phase = payload["phase"]
        positions.append((turn, phase))
    return positions


def _backward_positions(
    events: Sequence[Mapping[str, Any]], state: Mapping[str, Any]
) -> list[tuple[int, str]]:
    """(turn, phase) after each of the latest events, read back from the state.

    Lets the board show its last lines without reading the whole log.
    """
    turn, phase = state["turn"], state["phase"]
    if phase == "finished":
        phase = state["finished"]["in_phase"]
    positions = []
    for event in reversed(events):
        positions.append((turn, phase))
        payload = event.get("payload") or {}
        if event["kind"] == "turn_started":
            turn, phase = turn - 1, "upkeep"
        elif event["kind"] == "step_changed" and "phase" in payload:
            phase = PREVIOUS_PHASE.get(payload["phase"], phase)
    return list(reversed(positions))


def log_lines(
    events: Sequence[Mapping[str, Any]],
    viewer_sides: Sequence[str],
    *,
    disputed: Iterable[int] = (),
    state: Mapping[str, Any] | None = None,
    typed: Iterable[int] = (),
    now: Mapping[str, Any] | None = None,
    players: Mapping[str, str] | None = None,
) -> list[LogLine]:
    """The events worth a line, oldest first, with their turn and phase.

    ``events`` is the whole log, or with ``state`` (the game's snapshot) only
    its latest events: turn and phase are then read back from the state.
    ``typed``: the actions whose faces were typed from real dice (marked).
    ``now``: the game as it is (``state`` if given), for what stays hidden
    for now (the other side's combat dice placed in secret). ``players``:
    each side's name as it is now, for the first line.
    """
    typed_actions = set(typed)
    undone = undone_actions(events)
    disputed_seqs = set(disputed)
    if state is not None:
        fighters = state["fighters"]
        rulings = state.get("house_rulings")
        positions = _backward_positions(events, state)
    else:
        first = events[0]["payload"]["state"] if events else {}
        fighters = first.get("fighters", {})
        rulings = first.get("house_rulings")
        positions = _forward_positions(events)
    labels = {f: data["label"] for f, data in fighters.items()}
    hidden = combat.hidden_placements(now or state, viewer_sides)
    lines = []
    for event, (turn, phase) in zip(events, positions, strict=True):
        payload = event.get("payload") or {}
        described = _describe(event, labels, rulings)
        if event["kind"] == "combat_updated" and hidden(payload):
            described = combat.placed_in_secret(payload)
        if event["kind"] == "game_started" and players:
            described = _game_started(payload, "", labels, players)
        if not described or not described[0]:
            continue
        text, section = described
        faces = (
            tuple(payload.get("faces", ())) if event["kind"] == "roll_updated" else ()
        )
        lines.append(
            LogLine(
                seq=event["seq"],
                turn=turn,
                phase=phase_word(phase),
                side=event.get("side"),
                text=text,
                section=section,
                undone=event["action"] in undone,
                disputed=event["seq"] in disputed_seqs,
                faces=faces,
                typed=event["action"] in typed_actions and _shows_dice(event),
            )
        )
    return lines


# The events that say what dice gave (a roll, a result): marked "typed" when
# their action's faces were typed from real dice.
DICE_KINDS = frozenset(
    {
        "roll_updated",
        "tactics_won",
        "test_resolved",
        "opposed_resolved",
        "scatter_rolled",
        "split_rolled",
        "wound_rolled",
        "upkeep_ticked",
        "combat_updated",
    }
)


def _shows_dice(event: Mapping[str, Any]) -> bool:
    return event["kind"] in DICE_KINDS
