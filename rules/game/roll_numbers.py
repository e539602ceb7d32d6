"""Which roll number seeds a roll (DESIGN "Dice"; issue 30).

A game's dice are derived from its secret seed and a roll's number
(``rules.dice.roll_seed``). A face shown is spent:

- ``state["rolls"]`` is the next fresh roll number. It only grows: an undo
  does not rewind it, so no roll made after an undo can draw faces that were
  shown before it.
- ``state["taken_back"]`` lists the rolls an undo took back, each with the
  key of the roll it was (``roll_key``: who rolled, the command with its
  fighter and parameters, and the moment of the game it was made in). The
  same roll made again gets its number back, hence the same faces: an undo
  corrects a mistake, it never buys a new roll. Any other roll gets a fresh
  number; the taken-back faces never reach it.

Pure: the engine, the app and the fold of the log share these functions, so
``replay`` gives the state the game stored, and ``rules.verify`` recomputes
every face from the numbers logged in ``dice_drawn`` events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from rules.game.state import State

# What places a roll in the game: restored exactly by an undo, changed by
# whatever moves the game on.
_MOMENT = ("turn", "phase", "step", "active", "pending", "combat", "upkeep")


def roll_key(state: State, side: str, command: Mapping[str, Any]) -> str:
    """What makes two rolls the same roll: the side, the command (its kind,
    fighter and parameters) and the moment of the game it is made in."""
    what = {
        "side": side,
        "command": command,
        "moment": {name: state.get(name) for name in _MOMENT},
    }
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def roll_number(state: State, side: str, command: Mapping[str, Any]) -> int:
    """The number of the roll ``command`` would make: a roll an undo took back
    when it is that very roll again, else the next fresh number."""
    key = roll_key(state, side, command)
    for entry in state.get("taken_back") or ():
        if entry.get("key") == key:
            return entry["roll"]
    return state.get("rolls", 0)


def drawn(state: State, roll: int) -> None:
    """Fold a roll of number ``roll`` into ``state`` (a copy the caller owns):
    its number is spent, no longer waiting for the same roll again."""
    state["rolls"] = max(state.get("rolls", 0), roll + 1)
    if state.get("taken_back"):
        state["taken_back"] = [e for e in state["taken_back"] if e["roll"] != roll]


def taken_back(
    state: State, restored: State, draws: Iterable[Mapping[str, Any]]
) -> State:
    """The state an undo gives: ``restored`` (the state before the action
    undone) with ``state``'s roll numbers kept, and the undone action's
    ``draws`` (its ``dice_drawn`` payloads) set aside for the same roll."""
    restored = dict(restored)
    restored["rolls"] = max(state.get("rolls", 0), restored.get("rolls", 0))
    waiting = list(state.get("taken_back") or ())
    for draw in draws:
        if draw.get("key") and all(e["roll"] != draw["roll"] for e in waiting):
            waiting.append({"roll": draw["roll"], "key": draw["key"]})
    restored["taken_back"] = waiting
    return restored


def ledger(events: Iterable[Mapping[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """``(rolls, taken_back)`` after the whole log, undone actions included:
    what ``drawn`` and ``taken_back`` made of them, one event after another."""
    state: State = {"rolls": 0, "taken_back": []}
    draws: dict[int, list[Mapping[str, Any]]] = {}
    for event in events:
        if event["kind"] == "dice_drawn":
            payload = event.get("payload") or {}
            draws.setdefault(event["action"], []).append(payload)
            drawn(state, payload["roll"])
        elif event["kind"] == "undone":
            target = (event.get("payload") or {}).get("action")
            state = taken_back(state, state, draws.get(target, ()))
    return state["rolls"], state["taken_back"]


__all__ = ["drawn", "ledger", "roll_key", "roll_number", "taken_back"]
