"""Helpers shared by the phases of ``rules.game``: the event batch, checks."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.dice import DiceExhausted, DiceSource
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.evolve import evolve

State = st.State
Command = Mapping[str, Any]


class Batch:
    """The events of one command, applied to a working copy as they are made."""

    def __init__(self, state: State, side: str | None):
        self.state = state
        self.side = side
        self.events: list[dict[str, Any]] = []

    def emit(self, kind: str, payload: Mapping[str, Any] | None = None) -> None:
        event = {"kind": kind, "side": self.side, "payload": dict(payload or {})}
        self.state = evolve(self.state, event)
        self.events.append(event)


class CountingDice:
    """Wraps the dice of one command and keeps the faces it drew, in order."""

    def __init__(self, source: DiceSource):
        self.source = source
        self.faces: list[int] = []

    def d6(self) -> int:
        face = self.source.d6()
        self.faces.append(face)
        return face


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def faces_from(dice: DiceSource, count: int) -> list[int]:
    try:
        return [dice.d6() for _face in range(count)]
    except DiceExhausted:
        if count == 1:
            raise IllegalAction(_("Enter 1 die for this roll.")) from None
        raise IllegalAction(
            _("Enter {count} dice for this roll."), count=count
        ) from None


def require_phase(state: State, phase: str, step: str | None = None) -> None:
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    if state["phase"] != phase or (step is not None and state["step"] != step):
        raise IllegalAction(_("That cannot be done now: the game moved on."))


def tactics_winner_at(state: State, side: str, phase: str, step: str) -> bool:
    """Whether the game is at ``phase``/``step`` and ``side`` won the Tactics."""
    return (
        state["phase"] == phase
        and state["step"] == step
        and state["tactics"]["winner"] == side
    )


def require_tactics_winner(state: State, side: str, message: str) -> str:
    """The Tactics winner, when ``side`` is it; else ``IllegalAction(message)``
    naming the winner's ``side``."""
    winner = state["tactics"]["winner"]
    if side != winner:
        raise IllegalAction(message, side=winner.upper())
    return winner


def require_no_pending(state: State) -> None:
    pending = state["pending"]
    if pending:
        raise IllegalAction(
            _("Finish what is under way first: the roll or choice on the board.")
        )


def own_fighter(state: State, side: str, fighter_id: Any) -> dict[str, Any]:
    found = st.living_fighter(state, fighter_id)
    if found["side"] != side:
        raise IllegalAction(_("That fighter is not yours."))
    return found


def label_of(state: State, fighter_id: str) -> str:
    return state["fighters"][fighter_id]["label"]


def dice_left(combat: Mapping[str, Any], fighter_id: str, kind: str) -> int:
    return combat["dice"][fighter_id][kind] - combat["used"][fighter_id][kind]


def wound_modifiers(command: Command) -> tuple[int, int]:
    """A blow's steps as declared (``commands.WOUND_MODIFIERS``, checked
    before the handler runs); a step left out counts 0."""
    return command.get("amplified") or 0, command.get("attenuated") or 0
