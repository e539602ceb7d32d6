"""Whose turn it is and what a side may do now: ``waiting_for``, ``legal_actions``.

These are the one answer the app, its screens and the tests ask of the rules
(RULES_API "The game"); nothing outside ``rules/`` decides legality or whose
turn it is.

``waiting_for(state)`` is the set of sides the game waits on: the sides still
building a sequence or choosing a Tactics fighter, the Tactics winner choosing
who speaks first, the side that has the floor, the side that must roll or
decide about a six, the sides still fighting the combat under way, ...

``legal_actions(state, side)`` lists the commands ``decide`` would accept
from ``side`` now: one entry per ``type`` (and per ``fighter``, ``attacker``
and ``action`` where the command names them), in the shape ``decide`` takes.
Fields the player picks from a known list are given as ``"choices": {field:
[allowed values]}``; fields the player types (a distance, a mystic reserve,
the order of a sequence's cards) are omitted or listed with the values they
are made of. While a side waits the list holds only what it may do at any
time (conceding, keeping its own fighters' contacts, rout and mana/faith up
to date).

Extension point: the command table. Every command kind is one class
(``rules.game.commands.CommandKind``) declared in its phase's module beside
its rule: its fields, its ``legal(state, side)`` listing the entries of that
kind, its ``apply``. ``legal_actions`` simply asks every kind in the table,
in order; ``decide`` refuses what its legality function would not list
because both share the same checks (``check_declaration``, ``check_shot``,
...). The property test ``tests/rules/test_legal_actions.py`` holds the two
together. A field a command leaves out is read as its declaration says
(``when_left_out``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rules.activation import DrawPhase
from rules.game import state as st
from rules.game.combat import combat_waits_for
from rules.game.commands import COMMAND_TABLE, when_left_out
from rules.game.common import State
from rules.game.rolling import six_decider
from rules.game.upkeep_phase import upkeep_waits_for

Entry = dict[str, Any]


def waiting_for(state: State) -> set[str]:
    """The sides (``"a"``, ``"b"``) the game waits on now."""
    phase = state["phase"]
    if phase == "finished":
        return set()
    pending = state["pending"]
    if pending:
        if pending.get("roll"):
            decider = six_decider(state)
            return {decider} if decider else set()
        if pending["side"] is None:
            return set(st.SIDES)  # the Tactics roll: either phone rolls it
        return {pending["side"]}
    if phase == "strategic":
        if state["step"] == "first_choice":
            return {state["tactics"]["winner"]}
        return {
            side
            for side in st.SIDES
            if state["sequences"][side] is None
            or state["tactics"]["fighters"][side] is None
        }
    if phase == "activation":
        if state["active"] is not None:
            return {state["active"]["side"]}
        speaker = DrawPhase.from_dict(state["draw"]).speaker
        return {speaker} if speaker else set()
    if phase == "combat":
        return combat_waits_for(state)
    if phase == "upkeep":
        # IV-D: each side ticks its own fighters' items; a marker, either.
        return upkeep_waits_for(state)
    return set()


def legal_actions(
    state: State, side: str, *, types: Collection[str] | None = None
) -> list[Entry]:
    """What ``side`` may do now, as commands in the shape ``decide`` takes.
    ``types``: only the entries of those command types (the whole list
    filtered, without building the rest)."""
    if side not in st.SIDES or state["phase"] == "finished":
        return []
    waited = side in waiting_for(state)
    result: list[Entry] = []
    for kind in COMMAND_TABLE.values():
        if types is not None and kind.type not in types:
            continue
        if not waited and not kind.anytime:
            continue
        result.extend(kind.legal(state, side))
    return result


def _among(value: Any, allowed: list[Any]) -> bool:
    return any(type(value) is type(v) and value == v for v in allowed)


def matches(entry: Entry, command: dict[str, Any]) -> bool:
    """Whether ``command`` is one ``entry`` allows (its choices respected)."""
    if command.get("type") != entry["type"]:
        return False
    if entry["type"] == "set_contact" and "one" in command and "two" in command:
        swapped = {**command, "one": command["two"], "two": command["one"]}
        return _matches_fields(entry, command) or _matches_fields(entry, swapped)
    return _matches_fields(entry, command)


def _matches_fields(entry: Entry, command: dict[str, Any]) -> bool:
    for key in ("fighter", "attacker", "action"):
        if key in entry and command.get(key) != entry[key]:
            return False
    for field, allowed in entry.get("choices", {}).items():
        if field == "order":
            value = command.get("order")
            if not isinstance(value, list) or sorted(map(str, value)) != sorted(
                allowed
            ):
                return False
        elif field == "targets":
            value = command.get("targets")
            if not isinstance(value, list) or not value:
                return False
            if not all(isinstance(v, str) and v in allowed for v in value):
                return False
        elif not _among(
            command.get(field, when_left_out(entry["type"], field)), allowed
        ):
            return False
    return True


def is_listed(state: State, side: str, command: dict[str, Any]) -> bool:
    """Whether ``command`` by ``side`` is among ``legal_actions``."""
    return any(matches(entry, command) for entry in legal_actions(state, side))


__all__ = ["is_listed", "legal_actions", "matches", "waiting_for"]
