"""Sizes of fighters and scenery, in order (II-D-3, II-E-3, disengagement).

Sizes are compared in several rules: line of sight (II-D-3: an obstacle hides a
target only if it is at least as large as source and target), the number of
adversaries in contact (II-E-3) and the disengagement by strength (initiation
rules: larger than every adversary in contact). The scale is
``small < normal < large < very_large < titan``; "Énorme/X" counts as
``very_large`` (II-E-3).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Size", "parse_size"]


class Size(StrEnum):
    """A Size on the scale of II-E-3, compared by rank, not alphabetically.

    It is a ``str`` so that JSON and the app see ``"small"``, ``"normal"``...;
    the comparison operators are overridden because ``str`` order would put
    ``"large" < "normal" < "small"``.
    """

    SMALL = "small"
    NORMAL = "normal"
    LARGE = "large"
    VERY_LARGE = "very_large"
    TITAN = "titan"

    @property
    def rank(self) -> int:
        """0 for small up to 4 for titan."""
        return _RANKS[self]

    def _other_rank(self, other: object) -> int:
        if isinstance(other, Size):
            return other.rank
        if isinstance(other, str):
            return parse_size(other).rank
        return NotImplemented  # type: ignore[return-value]

    def __lt__(self, other: object) -> bool:
        rank = self._other_rank(other)
        return NotImplemented if rank is NotImplemented else self.rank < rank

    def __le__(self, other: object) -> bool:
        rank = self._other_rank(other)
        return NotImplemented if rank is NotImplemented else self.rank <= rank

    def __gt__(self, other: object) -> bool:
        rank = self._other_rank(other)
        return NotImplemented if rank is NotImplemented else self.rank > rank

    def __ge__(self, other: object) -> bool:
        rank = self._other_rank(other)
        return NotImplemented if rank is NotImplemented else self.rank >= rank

    # Overriding comparisons must not lose hashing (dict keys, sets).
    __hash__ = str.__hash__


_RANKS = {size: rank for rank, size in enumerate(Size)}

# French names as printed on reference cards, and "Énorme/X" (II-E-3).
_ALIASES = {
    "petite": Size.SMALL,
    "petite taille": Size.SMALL,
    "normale": Size.NORMAL,
    "taille normale": Size.NORMAL,
    "moyenne": Size.NORMAL,
    "taille moyenne": Size.NORMAL,
    "grande": Size.LARGE,
    "grande taille": Size.LARGE,
    "très grande": Size.VERY_LARGE,
    "très grande taille": Size.VERY_LARGE,
    "énorme": Size.VERY_LARGE,
}


def parse_size(value: str | Size) -> Size:
    """The Size named ``value`` (English identifier or French card wording).

    Raises ``ValueError`` for a name that is not a Size (II-E-3 lists them all).
    """
    if isinstance(value, Size):
        return value
    if not isinstance(value, str):
        raise ValueError(f"Unknown size {value!r}.")
    key = value.strip().lower()
    try:
        return Size(key)
    except ValueError:
        pass
    if key.startswith("énorme/"):
        return Size.VERY_LARGE
    try:
        return _ALIASES[key]
    except KeyError:
        raise ValueError(
            f"Unknown size {value!r}: expected small, normal, large, very_large "
            "or titan."
        ) from None
