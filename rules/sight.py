"""Field of vision, line of sight and altitude levels (II-D, II-F; older VI-A).

* Field of vision (II-D-2): 180° from the front of the base (the "mire");
  a fighter at altitude level 1 sees 360° on levels 0 and 1 (II-F-1).
* Line of sight (II-D-3): consider every straight line from the source's
  mire to the target's base. None cut: the source sees the target. Some cut:
  it sees it partly. All cut: if the obstacle's Size is at least that of the
  source and of the target, it does not see it; otherwise it sees it partly.
* A fighter has a line of sight on every fighter in contact with it, even
  outside its field of vision (II-D-4).
* Altitude levels (II-F-1): obstacles on level 0 under 15 cm do not block
  lines between levels 0 and 1; from 15 cm they block them, and lines within
  level 1 too; an obstacle on level 1 never blocks within level 1 nor
  between levels 0 and 1. Contact exists only within one level
  (``rules.contact.in_contact``).

Angles are in degrees, the target's bearing relative to the source's facing
(0 straight ahead, positive or negative to either side).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum

from rules.size import Size, parse_size

__all__ = [
    "LEVEL_BLOCKING_HEIGHT_CM",
    "Cut",
    "Visibility",
    "blocks_between_levels",
    "in_field_of_vision",
    "line_of_sight",
    "sight",
]

# II-F-1: the height from which a level-0 obstacle hides level 1.
LEVEL_BLOCKING_HEIGHT_CM = 15


class Visibility(StrEnum):
    """What the source sees of the target (II-D-3)."""

    SEES = "sees"
    PARTLY = "partly"
    NONE = "none"

    @property
    def visible(self) -> bool:
        """Seen at least partly: enough to be designated as a target."""
        return self is not Visibility.NONE


class Cut(StrEnum):
    """How many of the lines from source to target an obstacle cuts (II-D-3)."""

    NONE = "none"
    SOME = "some"
    ALL = "all"


def _check_level(level: int) -> int:
    if level not in (0, 1):
        raise ValueError(f"An altitude level is 0 or 1, not {level!r}.")
    return level


def in_field_of_vision(angle_deg: float, *, level: int = 0) -> bool:
    """Whether a target at ``angle_deg`` from the facing is in the field (II-D-2).

    180° in front of the base: up to 90° to either side, the edges included
    (they lie along the front edge of the base). At level 1, 360° (II-F-1).
    """
    if _check_level(level) == 1:
        return True
    if math.isnan(angle_deg) or math.isinf(angle_deg):
        raise ValueError("An angle is a finite number of degrees.")
    bearing = (angle_deg + 180.0) % 360.0 - 180.0  # into [-180, 180)
    return abs(bearing) <= 90.0


def line_of_sight(
    source: Size | str,
    target: Size | str,
    cut: Cut | str,
    obstacles: Iterable[Size | str] = (),
) -> Visibility:
    """What ``source`` sees of ``target`` given how the lines are cut (II-D-3).

    ``cut`` says whether none, some or all of the lines from the source's mire
    to the target's base are cut. With ``Cut.ALL``, ``obstacles`` are the
    Sizes of the obstacles that together cut them all: the target is hidden
    only if each of them is at least as large as both source and target (a
    smaller one among them leaves a gap over it, so the target is partly
    seen). Pass only obstacles needed to cut every line.
    """
    source, target, cut = parse_size(source), parse_size(target), Cut(cut)
    sizes = [parse_size(o) for o in obstacles]
    if cut is Cut.NONE:
        return Visibility.SEES
    if cut is Cut.SOME:
        return Visibility.PARTLY
    if not sizes:
        raise ValueError("Lines are all cut: say by which obstacles.")
    if all(o >= source and o >= target for o in sizes):
        return Visibility.NONE
    return Visibility.PARTLY


def blocks_between_levels(
    obstacle_level: int,
    obstacle_height_cm: float,
    source_level: int,
    target_level: int,
) -> bool | None:
    """Whether an obstacle blocks a line once a level-1 fighter is involved (II-F-1).

    Returns ``None`` when both fighters are on level 0 and the obstacle too:
    then the usual size rule of II-D-3 applies. Otherwise:

    * an obstacle on level 1 never blocks (within level 1, or between 0
      and 1); the seeds say nothing of a level-1 obstacle between two
      level-0 fighters: it is in the air above them, so it does not block
      either;
    * an obstacle on level 0 blocks lines between levels 0 and 1 and within
      level 1 if it is 15 cm high or more, and never under 15 cm.
    """
    for level in (obstacle_level, source_level, target_level):
        _check_level(level)
    if obstacle_height_cm < 0:
        raise ValueError("A height cannot be negative.")
    if obstacle_level == 1:
        return False
    if source_level == 0 and target_level == 0:
        return None
    return obstacle_height_cm >= LEVEL_BLOCKING_HEIGHT_CM


def sight(
    source: Size | str,
    target: Size | str,
    *,
    angle_deg: float = 0.0,
    cut: Cut | str = Cut.NONE,
    obstacles: Iterable[Size | str] = (),
    in_contact: bool = False,
    source_level: int = 0,
) -> Visibility:
    """What the source sees of the target, all rules together (II-D, II-F).

    In contact: it sees it, whatever the field of vision (II-D-4). Out of the
    field of vision (II-D-2, 360° at level 1): it does not see it. Otherwise
    the line-of-sight rule of II-D-3 decides. Obstacles that do not block
    between levels (``blocks_between_levels``) should be left out by the
    caller.
    """
    if in_contact:
        return Visibility.SEES
    if not in_field_of_vision(angle_deg, level=source_level):
        return Visibility.NONE
    return line_of_sight(source, target, cut, obstacles)
