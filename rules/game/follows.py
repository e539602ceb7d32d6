"""What follows a finished roll, or a finished phase: a table the phases fill.

A roll is carried through by the module of rolls (``rules.game.table_rolls``,
``rules.game.pending``), a state is folded by ``rules.game.evolve``; what a
roll leads to belongs to the phase that asked for it (a parry's end to the
combat, a Courage test's to fear, a spell's to magic, a rally's to the
upkeep). Each phase module puts its answers here as it is imported, the way
its commands register in ``rules.game.commands``; the lower modules ask this
table, and never import the phases back (no import circle, nothing running
back up). ``rules.game`` imports every phase module before any game is
played (``rules.game.engine``), so the table is full when it is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FOLLOWS: dict[str, Callable[..., Any]] = {}


def follows(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as what follows ``name``."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        FOLLOWS[name] = function
        return function

    return register


def then(name: str) -> Callable[..., Any]:
    """What follows ``name``, as the phase that owns it registered it."""
    return FOLLOWS[name]


__all__ = ["FOLLOWS", "follows", "then"]
