"""Deciding what a player's action does: ``decide(state, side, command, dice)``.

Each tap on a phone is one command. ``decide`` checks it against the rules
and returns the events it produces (``IllegalAction`` otherwise, with nothing
changed). Every die comes from ``dice`` (the game's seeded dice, or the faces a
player entered from real dice) and every face is written into the events, so
``rules.game.evolve`` can replay the game without dice.

The turn (chapter 4): strategic phase (IV-A-1 sequences, IV-A-2 Tactics
roll), activation phase (IV-B-1 draws, IV-B-2 actions; shooting, movement and
disengagement from the initiation rules), combat phase (IV-C; the melee
chapter is not among the seeds, see ``COMBAT_CONVENTION``), upkeep (IV-D).
Tests follow II-A, wounds II-B.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.dice import DiceSource
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.activation_phase import (
    declare,
    disengage,
    draw,
    end_activation,
    movement_cm,
    set_contact,
    shoot,
)
from rules.game.combat_phase import (
    COMBAT_CONVENTION,
    attack_difficulty,
    choose_combat,
    declare_attack,
    end_combat,
    form_combats,
    parry,
    set_combat_dice,
    set_difficulty,
)
from rules.game.common import Batch, Command, State, own_fighter
from rules.game.pending import choice_odds, who_decides
from rules.game.rolling import decide_six, roll_dice
from rules.game.strategic_phase import (
    choose_first,
    choose_tactics_fighter,
    set_sequence,
    tactics_candidates,
)
from rules.game.table_rolls import characteristic_test, scatter
from rules.game.upkeep_phase import end_effect, record_effect, tick_upkeep


def _set_routed(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = own_fighter(state, side, command.get("fighter"))
    routed = bool(command.get("routed"))
    if fighter["routed"] == routed:
        raise IllegalAction(_("Nothing to change."))
    batch.emit(
        "fighter_changed",
        {
            "fighter": command["fighter"],
            "label": fighter["label"],
            "changes": {"routed": routed},
        },
    )


def _set_mystic(batch: Batch, side: str, command: Command) -> None:
    """Keep a magician's mana or a faithful's temporary faith up to date."""
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = own_fighter(state, side, command.get("fighter"))
    changes = {}
    for key in ("mana", "faith"):
        if command.get(key) is None:
            continue
        value = command[key]
        if fighter[key] is None:
            raise IllegalAction(
                _("{fighter} has no such reserve."), fighter=fighter["label"]
            )
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= 99
        ):
            raise IllegalAction(_("A mystic reserve counts 0 to 99."))
        changes[key] = value
    if not changes:
        raise IllegalAction(_("Nothing to change."))
    batch.emit(
        "fighter_changed",
        {"fighter": command["fighter"], "label": fighter["label"], "changes": changes},
    )


def _concede(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    batch.emit("game_finished", {"reason": "conceded", "winner": st.other(side)})


HANDLERS: dict[str, Callable[[Batch, str, Command], None]] = {
    "set_sequence": set_sequence,
    "choose_tactics_fighter": choose_tactics_fighter,
    "choose_first": choose_first,
    "draw": draw,
    "end_activation": end_activation,
    "declare": declare,
    "disengage": disengage,
    "shoot": shoot,
    "set_contact": set_contact,
    "form_combats": form_combats,
    "choose_combat": choose_combat,
    "set_combat_dice": set_combat_dice,
    "set_attack_difficulty": set_difficulty,
    "attack": declare_attack,
    "parry": parry,
    "end_combat": end_combat,
    "tick_upkeep": tick_upkeep,
    "characteristic_test": characteristic_test,
    "record_effect": record_effect,
    "end_effect": end_effect,
    "set_routed": _set_routed,
    "set_mystic": _set_mystic,
    "concede": _concede,
}


COMMANDS = frozenset({*HANDLERS, "roll", "reroll", "keep", "scatter"})


def decide(
    state: State, side: str, command: Command, dice: DiceSource
) -> list[dict[str, Any]]:
    """The events a command by ``side`` produces; ``IllegalAction`` if illegal.

    ``command`` is ``{"type": ..., ...}`` (see ``COMMANDS``). Events come as
    ``{"kind", "side", "payload"}``; the caller numbers them.
    """
    if side not in st.SIDES:
        raise IllegalAction(_("Only the two players act in a game."))
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    kind = command.get("type")
    batch = Batch(state, side)
    if kind == "roll":
        roll_dice(batch, side, command, dice)
    elif kind in ("reroll", "keep"):
        decide_six(batch, side, command, dice, kind == "reroll")
    elif kind == "scatter":
        scatter(batch, side, command, dice)
    elif kind == "tick_upkeep":
        tick_upkeep(batch, side, command, dice)
    elif kind in HANDLERS:
        HANDLERS[kind](batch, side, command)
    else:
        raise IllegalAction(_("Unknown action."))

    return batch.events


def new_game_event(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The first event of a game's log: its whole initial state."""
    initial = st.new_state(setup)
    initial.setdefault("engaged", [])
    initial.setdefault("defence_only", [])
    initial.setdefault("effects", [])
    return {"kind": "game_started", "side": None, "payload": {"state": initial}}


__all__ = [
    "COMBAT_CONVENTION",
    "COMMANDS",
    "HANDLERS",
    "attack_difficulty",
    "choice_odds",
    "decide",
    "movement_cm",
    "new_game_event",
    "tactics_candidates",
    "who_decides",
]
