"""A house ruling: a point the sources leave open, chosen at a game's creation."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HouseRuling:
    """A point the sources leave open (melee-sources.md §6): a setting of the
    game chosen at its creation, ``default`` unless the players chose another
    of ``choices``. ``question`` and ``reason`` are English, marked for
    translation."""

    default: str
    choices: tuple[str, ...]
    section: str
    question: str
    reason: str


__all__ = ["HouseRuling"]
