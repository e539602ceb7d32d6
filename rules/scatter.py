"""Scatter of an impact point (II-C-5).

One d6 gives the distance (1 -> 4 cm ... 6 -> 14 cm, 2 cm a step), a second
d6 the direction, read on the numbered arrows of the scatter template (or any
equivalent method the players agree on).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Scatter", "roll_scatter", "scatter_distance_cm", "scatter_from_faces"]

_DISTANCES_CM = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12, 6: 14}


def _face(face: int) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or face not in range(1, 7):
        raise ValueError(f"A d6 shows 1 to 6, not {face!r}.")
    return face


def scatter_distance_cm(face: int) -> int:
    """How far the impact point moves for a d6 ``face`` (II-C-5).

    '1' 4 cm, '2' 6, '3' 8, '4' 10, '5' 12, '6' 14; ``ValueError`` outside 1..6.
    """
    return _DISTANCES_CM[_face(face)]


@dataclass(frozen=True)
class Scatter:
    """A scatter: the faces rolled, the distance in cm and the template arrow."""

    distance_face: int
    direction: int
    distance_cm: int


def scatter_from_faces(distance_face: int, direction_face: int) -> Scatter:
    """The scatter given by two faces: distance first, then direction (II-C-5)."""
    return Scatter(
        distance_face=_face(distance_face),
        direction=_face(direction_face),
        distance_cm=scatter_distance_cm(distance_face),
    )


def roll_scatter(dice) -> Scatter:
    """Roll the distance die, then the direction die (II-C-5)."""
    distance_face = dice.d6()
    return scatter_from_faces(distance_face, dice.d6())
