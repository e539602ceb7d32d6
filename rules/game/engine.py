"""Deciding what a player's action does: ``decide(state, side, command, dice)``.

Each tap on a phone is one command. ``decide`` checks it against the rules
and returns the events it produces (``IllegalAction`` otherwise, with nothing
changed). Every die comes from ``dice`` (the game's seeded dice, or the faces a
player entered from real dice) and every face is written into the events, so
``rules.game.evolve`` can replay the game without dice.

The turn (chapter 4): strategic phase (IV-A-1 sequences, IV-A-2 Tactics
roll), activation phase (IV-B-1 draws, IV-B-2 actions; shooting, movement and
disengagement from the initiation rules), combat phase (IV-C and the melee of
``rules.game.combat``, from rules-data/melee-sources.md), upkeep (IV-D).
Tests follow II-A, wounds II-B.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.dice import DiceSource
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game import upkeep_phase
from rules.game.activation_phase import movement_cm
from rules.game.commands import (
    COMMAND_TABLE,
    CommandKind,
    Field,
    bool_field,
    check,
    gems_field,
    id_field,
    int_field,
)
from rules.game.common import Batch, Command, CountingDice, State, own_fighter
from rules.game.pending import choice_odds, who_decides
from rules.game.roll_numbers import roll_key, roll_number
from rules.game.strategic_phase import tactics_candidates
from rules.magic import MAX_GEMS, normal_reserve
from rules.melee import house_rulings

TURN_PLACE = 70  # its commands' place in legal_actions (a side's own fighters)


def _set_routed(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = own_fighter(state, side, command.get("fighter"))
    routed = bool(command.get("routed"))
    if fighter["routed"] == routed:
        raise IllegalAction(_("Nothing to change."))
    payload = {
        "fighter": command["fighter"],
        "label": fighter["label"],
        "changes": {"routed": routed},
    }
    if routed and state["phase"] == "upkeep":
        # Routed during the upkeep: its rally joins the checklist (IV-D-1).
        upkeep = upkeep_phase.with_rally_item(state, command["fighter"])
        if upkeep:
            payload["upkeep"] = upkeep
    batch.emit("fighter_changed", payload)


def _set_mystic(batch: Batch, side: str, command: Command) -> None:
    """Keep a magician's mana or a faithful's temporary faith up to date."""
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = own_fighter(state, side, command.get("fighter"))
    changes: dict[str, Any] = {}
    if command.get("gems") is not None:
        changes["gems"] = _gems_given(state, command["fighter"], command["gems"])
        if not fighter.get("gems_max"):
            # HR-M1: a reserve first given at the table is its maximum.
            changes["gems_max"] = sum(changes["gems"].values())
        if not st.card_of(state, command["fighter"]).get("elements"):
            # A card that names no element: the elements given are mastered.
            given = {e for e, n in changes["gems"].items() if n}
            known = set(fighter.get("elements") or [])
            if given - known:
                changes["elements"] = sorted(known | given)
    for key in ("mana", "faith"):
        if command.get(key) is None:
            continue
        value = command[key]
        if fighter[key] is None:
            raise IllegalAction(
                _("{fighter} has no such reserve."), fighter=fighter["label"]
            )
        if key == "mana" and (fighter.get("gems") is not None or "gems" in changes):
            raise IllegalAction(
                _("{fighter}'s mana is counted in gems: give them by element (X)."),
                fighter=fighter["label"],
            )
        changes[key] = value
    if not changes:
        raise IllegalAction(_("Nothing to change."))
    batch.emit(
        "fighter_changed",
        {"fighter": command["fighter"], "label": fighter["label"], "changes": changes},
    )


def _gems_given(state: State, fighter_id: str, gems: Any) -> dict[str, int]:
    """A magician's reserve of gems as the player gives it (X, HR-M1)."""
    fighter = state["fighters"][fighter_id]
    if fighter.get("gems") is None and st.base_value(state, fighter_id, "POU") is None:
        raise IllegalAction(
            _("{fighter} is not a magician: no gems of mana."),
            fighter=fighter["label"],
        )
    try:
        reserve = normal_reserve(gems)
    except ValueError:
        raise IllegalAction(
            _(
                "Give 0 to 99 gems of each element (light, darkness, air, water, "
                "fire, earth)."
            )
        ) from None
    if any(count > MAX_GEMS for count in reserve.values()):
        raise IllegalAction(
            _(
                "Give 0 to 99 gems of each element (light, darkness, air, water, "
                "fire, earth)."
            )
        )
    return reserve


def _legal_set_routed(state: State, side: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "set_routed",
            "fighter": fighter_id,
            "choices": {"routed": [not state["fighters"][fighter_id]["routed"]]},
        }
        for fighter_id in st.fighters_of(state, side)
    ]


def _legal_set_mystic(state: State, side: str) -> list[dict[str, Any]]:
    result = []
    for fighter_id in st.fighters_of(state, side):
        data = state["fighters"][fighter_id]
        fields = [key for key in ("mana", "faith") if data[key] is not None]
        if fields or data.get("gems") is not None:
            # The reserve itself (0 to 99) is typed by the player.
            result.append({"type": "set_mystic", "fighter": fighter_id})
    return result


def _legal_concede(state: State, side: str) -> list[dict[str, Any]]:
    return [{"type": "concede"}]


def _concede(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    batch.emit("game_finished", {"reason": "conceded", "winner": st.other(side)})


class SetRouted(CommandKind):
    """IV-D-1: keep a fighter's rout up to date (its rally joins the upkeep)."""

    type = "set_routed"
    section = "IV-D-1"
    anytime = True
    fields = (id_field("fighter"), bool_field("routed"))
    legal = staticmethod(_legal_set_routed)
    apply = staticmethod(_set_routed)


_RESERVE = _("A mystic reserve counts 0 to 99.")
_GEMS_GIVEN = _(
    "Give 0 to 99 gems of each element (light, darkness, air, water, fire, earth)."
)


class SetMystic(CommandKind):
    """X, XI: keep a magician's mana (gems by element) or a faithful's
    temporary faith up to date."""

    type = "set_mystic"
    section = "X"
    anytime = True
    fields = (
        id_field("fighter"),
        Field("mana", "int", required=False, low=0, high=MAX_GEMS, message=_RESERVE),
        Field("faith", "int", required=False, low=0, high=MAX_GEMS, message=_RESERVE),
        replace(gems_field("gems", "gems:", MAX_GEMS), message=_GEMS_GIVEN),
    )
    legal = staticmethod(_legal_set_mystic)
    apply = staticmethod(_set_mystic)


class Concede(CommandKind):
    """A side concedes: the other wins."""

    type = "concede"
    section = ""
    anytime = True
    legal = staticmethod(_legal_concede)
    apply = staticmethod(_concede)


MAX_ARMY_POINTS = 9999  # an army's points destroyed (time called)


def _legal_call_time(state: State, side: str) -> list[dict[str, Any]]:
    # Like conceding, any time; the app sends it once both phones agreed.
    return [{"type": "call_time"}]


def _call_time(batch: Batch, side: str, command: Command) -> None:
    if batch.state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    score_a, score_b = command.get("score_a", 0), command.get("score_b", 0)
    winner = "a" if score_a > score_b else "b" if score_b > score_a else None
    payload = {"reason": "time_called", "winner": winner}
    batch.emit("game_finished", {**payload, "score_a": score_a, "score_b": score_b})


class CallTime(CommandKind):
    """The game ends before its last turn (issue #29): the side that destroyed
    more army points wins, equal points are a draw. The points are the app's
    count from its fighter rows (the state holds no card costs); the app sends
    this once both phones agreed."""

    type = "call_time"
    section = ""
    anytime = True
    fields = (
        int_field("score_a", 0, MAX_ARMY_POINTS, required=False, default=0),
        int_field("score_b", 0, MAX_ARMY_POINTS, required=False, default=0),
    )
    legal = staticmethod(_legal_call_time)
    apply = staticmethod(_call_time)


def decide(
    state: State, side: str, command: Command, dice: DiceSource
) -> list[dict[str, Any]]:
    """The events a command by ``side`` produces; ``IllegalAction`` if illegal.

    ``command`` is ``{"type": ..., ...}`` (see ``COMMAND_TABLE``). Events come as
    ``{"kind", "side", "payload"}``; the caller numbers them.
    """
    return decide_and_fold(state, side, command, dice)[0]


def decide_and_fold(
    state: State, side: str, command: Command, dice: DiceSource
) -> tuple[list[dict[str, Any]], State]:
    """``decide``'s companion: the events and the state they lead to.

    The state is folded once, while the events are made: the caller stores
    it instead of folding the events a second time.
    """
    if side not in st.SIDES:
        raise IllegalAction(_("Only the two players act in a game."))
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    kind = command.get("type") if isinstance(command, Mapping) else None
    entry = COMMAND_TABLE.get(kind) if isinstance(kind, str) else None
    if entry is None:
        raise IllegalAction(_("Unknown action."))
    check(entry, command, state, side)
    batch = Batch(state, side)
    counted = CountingDice(dice)
    entry.handle(batch, side, command, counted)
    if counted.faces:
        # The game's dice are seeded by the roll's number (rules.game.
        # roll_numbers): a fresh one, or the number of the very roll an undo
        # took back when it is made again; logged with the roll's key.
        batch.emit(
            "dice_drawn",
            {
                "roll": roll_number(state, side, command),
                "faces": list(counted.faces),
                "key": roll_key(state, side, command),
            },
        )
    return batch.events, batch.state


def new_game_event(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The first event of a game's log: its whole initial state."""
    initial = st.new_state(setup)
    # The melee's house rulings in force (rules.melee.HOUSE_RULINGS): the
    # players' choices, the sources' default for the others.
    initial["house_rulings"] = house_rulings(setup.get("house_rulings"))
    initial.setdefault("engaged", [])
    initial.setdefault("defence_only", [])
    initial.setdefault("effects", [])
    initial.setdefault("rolls", 0)  # the next fresh roll number (never rewound)
    initial.setdefault("taken_back", [])  # rolls undone, kept for the same roll
    initial.setdefault("casts", {})
    return {"kind": "game_started", "side": None, "payload": {"state": initial}}


__all__ = [
    "COMMAND_TABLE",
    "CommandKind",
    "decide_and_fold",
    "choice_odds",
    "decide",
    "movement_cm",
    "new_game_event",
    "tactics_candidates",
    "who_decides",
]
