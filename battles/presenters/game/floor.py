"""Who has the floor, and what a side may do: the one place the board asks.

The engine's answers are ``rules.game.waiting_for`` and
``rules.game.legal_actions`` (RULES_API "The game"); every presenter asks
through here, so the board follows the rules from one spot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.game import state as st
from rules.game import who_decides


def waiting_for(state: Mapping[str, Any]) -> set[str]:
    """The sides the game waits on now (empty when it is over)."""
    if state["phase"] == "finished":
        return set()
    pending = state.get("pending")
    if pending:
        side = who_decides(pending) if pending.get("roll") else pending.get("side")
        return {side} if side else set(st.SIDES)
    if state["phase"] == "strategic":
        if state["step"] == "first_choice":
            return {state["tactics"]["winner"]}
        return {
            s
            for s in st.SIDES
            if state["sequences"][s] is None or state["tactics"]["fighters"][s] is None
        }
    if state["phase"] == "activation":
        if state["active"]:
            return {state["active"]["side"]}
        return {state["draw"]["speaker"]}
    if state["phase"] == "combat" and state["combat"]:
        if state["combat"]["current"] is None:
            return {state["combat"]["picker"]}
    return set(st.SIDES)


def floor_side(state: Mapping[str, Any]) -> str | None:
    """The one side the game waits on, or None when it waits on both (or none)."""
    sides = waiting_for(state)
    return next(iter(sides)) if len(sides) == 1 else None
