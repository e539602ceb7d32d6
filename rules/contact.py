"""Contact between fighters (II-E; the older chapter VI-B).

Contact is always mutual (II-E): if one of two fighters counts as in contact,
both are. A fighter on a square base is in contact when at least half of one
side of its base touches the other's base (II-E-1); on a round base, as soon
as one point touches (II-E-2). The number of adversaries in contact is capped
by Size (II-E-3). "Libre de tout contact": in contact with no enemy fighter.
Contact only exists between fighters on the same altitude level (II-F-1).

The older text VI-B-1 says "plus de la moitié" (more than half); II-E-1, the
current text, says "au moins la moitié" (at least half). II-E-1 wins: exactly
half a side is contact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import IllegalAction, _
from rules.size import Size, parse_size

__all__ = [
    "BaseShape",
    "BaseTouch",
    "can_add_adversary",
    "check_contact_placement",
    "free_of_contact",
    "in_contact",
    "max_adversaries",
    "touches",
]

_MAX_ADVERSARIES = {
    Size.SMALL: 3,
    Size.NORMAL: 4,
    Size.LARGE: 6,
    Size.VERY_LARGE: 8,  # also "Énorme/X"
    Size.TITAN: 16,
}


def max_adversaries(size: str) -> int:
    """How many adversaries may be in contact with a fighter of ``size`` (II-E-3).

    small 3, normal 4, large 6, very_large (or "Énorme/X") 8, titan 16,
    whatever the real size of its base. ``ValueError`` for an unknown size.
    """
    return _MAX_ADVERSARIES[parse_size(size)]


def can_add_adversary(size: str, adversaries_in_contact: int) -> bool:
    """Whether one more adversary may come into contact (II-E-3)."""
    return adversaries_in_contact < max_adversaries(size)


class BaseShape(StrEnum):
    """Square or round base (II-E-1, II-E-2)."""

    SQUARE = "square"
    ROUND = "round"


@dataclass(frozen=True)
class BaseTouch:
    """How one fighter's base meets another's.

    For a square base: ``side_cm`` is the length of one side and
    ``touching_cm`` the length of its longest side segment touching the other
    base. For a round base only whether any point touches matters
    (``touching``).
    """

    shape: BaseShape | str
    touching: bool = True
    touching_cm: float = 0.0
    side_cm: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", BaseShape(self.shape))
        if self.shape is BaseShape.SQUARE and self.side_cm <= 0:
            raise ValueError("A square base has a side length.")
        if self.touching_cm < 0:
            raise ValueError("A touching length cannot be negative.")


def touches(base: BaseTouch) -> bool:
    """Whether this base, on its own, meets its contact rule (II-E-1, II-E-2).

    Square: at least half of one side touches (II-E-1, not "more than half" as
    in the older VI-B-1). Round: any point touches.
    """
    if not base.touching:
        return False
    if base.shape is BaseShape.ROUND:
        return True
    return base.touching_cm * 2 >= base.side_cm


def in_contact(
    a: BaseTouch, b: BaseTouch, *, level_a: int = 0, level_b: int = 0
) -> bool:
    """Whether fighters ``a`` and ``b`` are in contact (II-E, II-F-1).

    Mutual: enough if either base meets its rule (II-E-1's example: X touches
    C with less than half a side, yet C touches X with half or more, so both
    are in contact). Never between different altitude levels (II-F-1).
    """
    if level_a != level_b:
        return False
    return touches(a) or touches(b)


def free_of_contact(enemies_in_contact: int | Iterable[object]) -> bool:
    """ "Libre de tout contact": in contact with no enemy fighter (II-E-3).

    Friends in contact do not count; pass the enemies (a count or a list).
    """
    count = (
        enemies_in_contact
        if isinstance(enemies_in_contact, int)
        else len(list(enemies_in_contact))
    )
    if count < 0:
        raise ValueError("A number of enemies cannot be negative.")
    return count == 0


def check_contact_placement(mire_touches_target: bool) -> None:
    """Raise ``IllegalAction`` unless the mover's mire touches the target (II-E-1).

    A fighter placed in contact after a move MUST have the front of its base
    (its "mire") against its adversary's base (or one of them).
    """
    if not mire_touches_target:
        raise IllegalAction(
            _(
                "A fighter that moves into contact must have the front of its base "
                "against its adversary's base (II-E-1)."
            )
        )
