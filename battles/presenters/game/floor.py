"""Who has the floor, and what a side may do: the one place the board asks.

The answers are the engine's, ``rules.game.waiting_for`` and
``rules.game.legal_actions`` (RULES_API "The game"); every presenter asks
through here, so the panels offer exactly what the rules would accept.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rules.game import legal_actions, waiting_for


class Offers:
    """What ``legal_actions`` lists for one side, by command type."""

    def __init__(
        self,
        state: Mapping[str, Any],
        side: str | None,
        types: Collection[str] | None = None,
    ):
        """``types``: only the entries of those command types."""
        self.entries = legal_actions(dict(state), side, types=types) if side else []

    def of(self, command_type: str, **fields: Any) -> list[dict[str, Any]]:
        """The entries of a type (those naming ``fields``' values, if given)."""
        return [
            entry
            for entry in self.entries
            if entry["type"] == command_type
            and all(entry.get(name) == value for name, value in fields.items())
        ]

    def allows(self, command_type: str, **fields: Any) -> bool:
        return bool(self.of(command_type, **fields))

    def choices(self, command_type: str, field: str, **fields: Any) -> list[Any]:
        """The allowed values of ``field`` over the matching entries, in order."""
        found: list[Any] = []
        for entry in self.of(command_type, **fields):
            for value in entry.get("choices", {}).get(field, []):
                if value not in found:
                    found.append(value)
        return found


def floor_side(state: Mapping[str, Any]) -> str | None:
    """The one side the game waits on, or None when it waits on both (or none)."""
    sides = waiting_for(dict(state))
    return next(iter(sides)) if len(sides) == 1 else None


__all__ = ["Offers", "floor_side", "legal_actions", "waiting_for"]
