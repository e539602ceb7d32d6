"""A house ruling: a point the sources leave open, chosen at a game's creation."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HouseRuling:
    """A point the sources leave open (melee-sources.md §6): a setting of the
    game chosen at its creation, ``default`` unless the players chose another
    of ``choices``. ``question`` and ``reason`` are English, marked for
    translation. ``basis`` says truly where the default comes from: ``"read"``
    (read in the sources), ``"inferred"`` (deduced from them),
    ``"other_edition"`` (read in another edition only), ``"fan"`` (a fan
    text), ``"none"`` (not found in the sources: the app's choice)."""

    default: str
    choices: tuple[str, ...]
    section: str
    question: str
    reason: str
    basis: str = "none"


BASES = ("read", "inferred", "other_edition", "fan", "none")

__all__ = ["BASES", "HouseRuling"]
