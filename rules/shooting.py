"""Shooting (initiation rules, seed 004: "Tir" and "Tir dans la mêlée").

A ranged weapon has three ranges, short-medium-long in cm; the band the
target is in gives the difficulty of the TIR test: 4, 7 or 10. Beyond long
range the shot fails. A hit makes a wound roll with the weapon's strength.
A successful shot at a target in contact with the shooter's own fighters
needs a split roll: 4-6 hits the target, 1-3 the shooter's fighter nearest
to the shooter among those in contact with the target.

Reading fractional distances: the seed's example "20-40-60" says short up to
20 cm, medium "between 21 and 40", long "between 41 and 60". It counts in
whole centimetres; a measured distance is read against the upper bounds, so
anything over 20 (20.5 included) is medium, over 40 is long, over 60 is out
of range. For whole distances this is exactly the seed's reading.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.checks import characteristic_test
from rules.errors import Message, _
from rules.wounds import WoundResult, wound_roll

__all__ = [
    "Shooter",
    "ShotAttempt",
    "SplitResult",
    "Weapon",
    "check_ranges",
    "range_band",
    "resolve_shot",
    "shooting_problems",
    "shot_difficulty",
    "shot_wound",
    "split_roll",
]


class RangeBand(StrEnum):
    """Short, medium and long range, each with its difficulty."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"

    @property
    def difficulty(self) -> int:
        """4, 7 or 10 (initiation rules, "Tir")."""
        return {"short": 4, "medium": 7, "long": 10}[self.value]


def check_ranges(ranges: Sequence[int]) -> tuple[int, int, int]:
    """Validate a weapon's ranges: three numbers, 0 <= short <= medium <= long.

    Raises ``ValueError`` otherwise.
    """
    if len(ranges) != 3:
        raise ValueError("A ranged weapon has three ranges: short, medium, long.")
    short, medium, long_ = ranges
    for value in ranges:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"A range is a number of cm, not {value!r}.")
        if value < 0:
            raise ValueError("A range cannot be negative.")
    if not short <= medium <= long_:
        raise ValueError(
            f"Ranges go short <= medium <= long, not {short}-{medium}-{long_}."
        )
    return short, medium, long_


def range_band(distance_cm: float, ranges: Sequence[int]) -> RangeBand | None:
    """The band ``distance_cm`` falls in, or ``None`` beyond long range.

    See the module docstring for distances between whole centimetres.
    """
    short, medium, long_ = check_ranges(ranges)
    if isinstance(distance_cm, bool) or not isinstance(distance_cm, (int, float)):
        raise ValueError(f"A distance is a number of cm, not {distance_cm!r}.")
    if math.isnan(distance_cm) or distance_cm < 0:
        raise ValueError(f"A distance cannot be {distance_cm!r}.")
    if distance_cm <= short:
        return RangeBand.SHORT
    if distance_cm <= medium:
        return RangeBand.MEDIUM
    if distance_cm <= long_:
        return RangeBand.LONG
    return None


def shot_difficulty(distance_cm: float, ranges: tuple[int, int, int]) -> int | None:
    """Difficulty of the TIR test at ``distance_cm``: 4, 7, 10, or ``None``.

    Initiation rules, "Tir": short range 4, medium 7, long 10; beyond long
    range the shot fails automatically (``None``). With an arc 20-40-60:
    20 cm -> 4, 21 -> 7, 40 -> 7, 41 -> 10, 60 -> 10, 61 -> None.
    """
    band = range_band(distance_cm, ranges)
    return None if band is None else band.difficulty


@dataclass(frozen=True)
class Weapon:
    """A ranged weapon: its three ranges in cm and its strength (FOR)."""

    short: int
    medium: int
    long: int
    strength: int
    name: str = ""

    def __post_init__(self) -> None:
        check_ranges((self.short, self.medium, self.long))

    @property
    def ranges(self) -> tuple[int, int, int]:
        """``(short, medium, long)``."""
        return (self.short, self.medium, self.long)


@dataclass(frozen=True)
class Shooter:
    """What the shooting conditions need to know about a fighter.

    ``tir`` is the TIR on the reference card (``None`` for "-").
    ``engaged_this_turn_of_speech`` and ``ran_this_turn_of_speech`` concern
    the current turn of speech; ``shots_made``/``shots_allowed`` the turn
    ("sauf exception, un combattant ne peut tirer qu'une seule fois par tour").
    """

    tir: int | None
    has_ranged_weapon: bool = True
    activated: bool = True
    free_of_adversaries: bool = True
    engaged_this_turn_of_speech: bool = False
    ran_this_turn_of_speech: bool = False
    shots_made: int = 0
    shots_allowed: int = 1


def shooting_problems(
    shooter: Shooter, *, target_visible: bool | None = None
) -> tuple[str, ...]:
    """Every reason ``shooter`` may not shoot now; empty when it may.

    Initiation rules, "Tir": a TIR of 0 or more (a fighter whose card shows
    no TIR cannot shoot; wounds lowering the current value do not take the
    ability away), a ranged weapon, activated, free of adversaries, and
    neither engaged nor run during this turn of speech. Only a target it
    sees, even partly, may be designated (pass ``target_visible``).
    """
    problems: list[Message] = []
    if shooter.tir is None or shooter.tir < 0:
        problems.append(Message(_("It has no TIR: it cannot shoot.")))
    if not shooter.has_ranged_weapon:
        problems.append(Message(_("It has no ranged weapon.")))
    if not shooter.activated:
        problems.append(Message(_("It has not been activated.")))
    if not shooter.free_of_adversaries:
        problems.append(Message(_("It is in contact with an adversary.")))
    if shooter.engaged_this_turn_of_speech:
        problems.append(
            Message(_("It engaged an adversary during this turn of speech."))
        )
    if shooter.ran_this_turn_of_speech:
        problems.append(Message(_("It ran during this turn of speech.")))
    if shooter.shots_made >= shooter.shots_allowed:
        problems.append(Message(_("It has already shot this turn.")))
    if target_visible is False:
        problems.append(Message(_("It does not see the target, even partly.")))
    return tuple(problems)


@dataclass(frozen=True)
class ShotAttempt:
    """The TIR test of one shot.

    ``difficulty`` is ``None`` and ``test`` is ``None`` when the target is
    beyond long range (automatic failure, no die rolled). On a hit,
    ``wound_strength`` is the weapon's strength for the wound roll.
    """

    distance_cm: float
    difficulty: int | None
    test: Any
    hit: bool
    wound_strength: int | None


def resolve_shot(
    tir: int,
    distance_cm: float,
    weapon: Weapon,
    dice,
    *,
    reroll: str = "if_needed",
) -> ShotAttempt:
    """Roll the TIR test of a shot at ``distance_cm`` (initiation rules, "Tir").

    ``tir`` is the shooter's current TIR.
    """
    difficulty = shot_difficulty(distance_cm, weapon.ranges)
    if difficulty is None:
        return ShotAttempt(distance_cm, None, None, False, None)
    test = characteristic_test(tir, difficulty, dice, reroll=reroll)
    strength = weapon.strength if test.success else None
    return ShotAttempt(distance_cm, difficulty, test, test.success, strength)


def shot_wound(
    faces: Sequence[int], weapon: Weapon, resistance: int, **modifiers: int
) -> WoundResult:
    """The wound roll of a hit: the weapon's strength, not the shooter's FOR.

    Initiation rules, "Tir": "un jet de Blessures d'une Force égale à celle de
    l'arme utilisée". ``modifiers`` go to ``rules.wounds.wound_roll``
    (amplified, attenuated, shifts).
    """
    return wound_roll(faces, weapon.strength, resistance, **modifiers)


@dataclass(frozen=True)
class SplitResult:
    """A split roll ("jet de répartition") after a hit into a melee.

    ``hits_target`` on 4-6. On 1-3 the shot hits one of ``candidates``: the
    shooter's own fighters in contact with the target nearest to the shooter
    (several when at equal distance: their controller picks one).
    """

    face: int
    hits_target: bool
    candidates: tuple[Any, ...]


def split_roll(
    face_or_dice,
    friends_in_contact: Mapping[Any, float] | None = None,
) -> SplitResult:
    """The split roll of a successful shot into a melee ("Tir dans la mêlée").

    ``face_or_dice`` is a rolled face (1..6) or a dice source to roll it;
    ``friends_in_contact`` maps each of the shooter's fighters in contact with
    the target to its distance from the shooter.
    """
    face = face_or_dice if isinstance(face_or_dice, int) else face_or_dice.d6()
    if isinstance(face, bool) or face not in range(1, 7):
        raise ValueError(f"A d6 shows 1 to 6, not {face!r}.")
    if face >= 4:
        return SplitResult(face, True, ())
    friends = dict(friends_in_contact or {})
    if not friends:
        raise ValueError(
            "A split roll is only made when the target is in contact with the "
            "shooter's own fighters."
        )
    nearest = min(friends.values())
    return SplitResult(
        face, False, tuple(f for f, d in friends.items() if d == nearest)
    )
