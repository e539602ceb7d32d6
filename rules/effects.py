"""Applying game effects: area, range, duration, "gagner"/"bénéficier" (II-C).

* II-C-1 Area of effect: a radius in cm around a point or a fighter's base,
  or a fighter. It may be rolled: the natural results of one or more dice
  are added, sixes are not rerolled, and the effect is resolved whatever the
  result. Rolled again each time the effect is used.
  An area that is a fighter names it or its class, optionally with its
  people, its race, and "ami(s)"/"ennemi(s)" (``Designation``).
* II-C-2 Range: the farthest the point or fighter the effect is applied on
  or from may be. Not to be confused with the area ("Rafale": range 20 cm,
  area one fighter; "Voile de brume": range contact, area 30 cm).
* II-C-3 Duration: instant, a number of turns, the end of the game, or
  "Entretien/X": until the end of the turn, and the caster may pay X gems
  of the spell's element (X temporary faith for a miracle) during the
  upkeep phase to make it last through the next turn.
* II-C-4 "Gagner" locks the effect for its whole duration on the fighters
  that met the condition when it was applied; "bénéficier" holds only while
  the condition holds, starting and stopping with it.
* II-C-5 scatter is in ``rules.scatter``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import IllegalAction, _

# The most lasting effects one game keeps (an input bound: II-C-3 sets none).
MAX_EFFECTS = 60

__all__ = [
    "MAX_EFFECTS",
    "AreaRoll",
    "Designated",
    "Designation",
    "Duration",
    "DurationKind",
    "Keyword",
    "Reach",
    "UpkeepPayment",
    "has_bonus",
    "in_area",
    "in_range",
    "designates",
    "roll_area",
    "upkeep_payment",
]


@dataclass(frozen=True)
class AreaRoll:
    """A rolled area of effect: each die's natural face and their sum in cm."""

    faces: tuple[int, ...]
    radius_cm: int


def roll_area(dice_count: int, dice) -> AreaRoll:
    """Roll an area of effect of ``dice_count`` d6 (II-C-1).

    The natural results are added; a six is not rerolled. However small the
    result, the effect is resolved to the end.
    """
    if isinstance(dice_count, bool) or not isinstance(dice_count, int):
        raise ValueError("A number of dice is a whole number.")
    if dice_count < 1:
        raise ValueError("An area roll uses at least one die.")
    faces = tuple(dice.d6() for _ in range(dice_count))
    return AreaRoll(faces, sum(faces))


def _key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True)
class Designation:
    """Who an area of effect names when it is a fighter (II-C-1).

    ``name`` is a fighter's name or class ("templier"), optionally narrowed by
    ``people`` ("du Griffon"), ``race`` ("wolfen") and ``allegiance``
    (``"friend"`` for "ami(s)", ``"enemy"`` for "ennemi(s)").
    """

    name: str
    people: str | None = None
    race: str | None = None
    allegiance: str | None = None

    def __post_init__(self) -> None:
        if self.allegiance not in (None, "friend", "enemy"):
            raise ValueError("An allegiance is 'friend' or 'enemy'.")


@dataclass(frozen=True)
class Designated:
    """A fighter as a designation sees it: name, classes, people, race, side."""

    name: str
    people: str
    classes: tuple[str, ...] = ()
    race: str | None = None
    friend: bool = True


def designates(designation: Designation, fighter: Designated) -> bool:
    """Whether ``designation`` covers ``fighter`` (II-C-1).

    The name must be the fighter's name or one of its classes, whole: the
    "templiers du Griffon amis" are the friendly Griffon fighters named or
    classed "templier" (a Gardien du temple is one), not a "templier de
    l'inquisition" or a "templier de Hod", whose names only contain the
    word. Names are compared without case or accents; a plural "s" is not
    handled, pass the singular.
    """
    wanted = _key(designation.name)
    if wanted != _key(fighter.name) and wanted not in {
        _key(c) for c in fighter.classes
    }:
        return False
    if designation.people and _key(designation.people) != _key(fighter.people):
        return False
    if designation.race and (
        fighter.race is None or _key(designation.race) != _key(fighter.race)
    ):
        return False
    if designation.allegiance == "friend" and not fighter.friend:
        return False
    return not (designation.allegiance == "enemy" and fighter.friend)


@dataclass(frozen=True)
class Reach:
    """An effect's range and area (II-C-2, II-C-1).

    ``range_cm`` 0 means "contact"; ``area_cm`` ``None`` means the area is a
    fighter rather than a radius.
    """

    range_cm: float
    area_cm: float | None = None

    def __post_init__(self) -> None:
        if self.range_cm < 0 or (self.area_cm is not None and self.area_cm < 0):
            raise ValueError("A range or an area cannot be negative.")


def in_range(reach: Reach, distance_cm: float) -> bool:
    """Whether the point or fighter at ``distance_cm`` can be chosen (II-C-2).

    The range is the maximum distance, included; at range "contact" (0) only
    a point or fighter in contact (distance 0) qualifies.
    """
    if distance_cm < 0:
        raise ValueError("A distance cannot be negative.")
    return distance_cm <= reach.range_cm


def in_area(reach: Reach, distance_from_centre_cm: float) -> bool:
    """Whether a fighter that far from the centre is in a radius area (II-C-1).

    Raises ``ValueError`` for an area that is a fighter, not a radius.
    """
    if reach.area_cm is None:
        raise ValueError("This effect's area is a fighter, not a radius.")
    if distance_from_centre_cm < 0:
        raise ValueError("A distance cannot be negative.")
    return distance_from_centre_cm <= reach.area_cm


class DurationKind(StrEnum):
    """The kinds of duration of II-C-3."""

    INSTANT = "instant"
    TURNS = "turns"
    END_OF_TURN = "end_of_turn"
    END_OF_GAME = "end_of_game"
    UPKEEP = "upkeep"


_UPKEEP_RE = re.compile(r"^\s*entretien\s*/\s*(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Duration:
    """An effect's duration (II-C-3).

    ``turns`` for ``TURNS``; ``upkeep`` is X for "Entretien/X".
    """

    kind: DurationKind
    turns: int | None = None
    upkeep: int | None = None

    @classmethod
    def parse(cls, text: str) -> Duration:
        """Read "Instantané", "Entretien/2", "3 tours", "fin du tour",
        "fin de la partie"."""
        lowered = text.strip().lower()
        match = _UPKEEP_RE.match(lowered)
        if match:
            return cls(DurationKind.UPKEEP, upkeep=int(match.group(1)))
        if lowered.startswith("instantan"):
            return cls(DurationKind.INSTANT)
        if "fin de la partie" in lowered:
            return cls(DurationKind.END_OF_GAME)
        if "fin du tour" in lowered:
            return cls(DurationKind.END_OF_TURN)
        turns = re.match(r"^(\d+)\s*tours?$", lowered)
        if turns:
            return cls(DurationKind.TURNS, turns=int(turns.group(1)))
        raise ValueError(f"Unknown duration {text!r}.")

    def active_in(self, turn: int, *, turn_applied: int, paid_upkeeps: int = 0) -> bool:
        """Whether the effect still holds during ``turn`` (II-C-3).

        ``paid_upkeeps`` counts the upkeep phases in which its Entretien/X was
        paid since it was applied: each carries it through one more turn.
        An effect applied in turn T with "N tours" lasts turns T to T+N-1.
        """
        if turn < turn_applied:
            return False
        if self.kind is DurationKind.INSTANT:
            return False
        if self.kind is DurationKind.END_OF_GAME:
            return True
        if self.kind is DurationKind.END_OF_TURN:
            return turn == turn_applied
        if self.kind is DurationKind.TURNS:
            return turn < turn_applied + (self.turns or 0)
        return turn <= turn_applied + paid_upkeeps


@dataclass(frozen=True)
class UpkeepPayment:
    """What the caster sacrifices in the upkeep phase to keep an effect (II-C-3)."""

    amount: int
    resource: str


def upkeep_payment(duration: Duration, kind: str) -> UpkeepPayment:
    """The cost of prolonging an "Entretien/X" effect by one turn (II-C-3).

    ``kind`` ``"spell"``: X gems of the spell's element; ``"miracle"``: X
    temporary faith points. ``IllegalAction`` for an effect without upkeep.
    """
    if duration.kind is not DurationKind.UPKEEP or duration.upkeep is None:
        raise IllegalAction(_("This effect has no upkeep: it cannot be prolonged."))

    if kind == "spell":
        return UpkeepPayment(duration.upkeep, "gems")
    if kind == "miracle":
        return UpkeepPayment(duration.upkeep, "temporary_faith")
    raise ValueError("Only a spell or a miracle has an Entretien/X duration.")


class Keyword(StrEnum):
    """The two keywords of conditional effects (II-C-4)."""

    GAIN = "gagner"
    BENEFIT = "bénéficier"


def has_bonus(
    keyword: Keyword | str,
    *,
    met_when_applied: bool,
    met_now: bool,
    effect_active: bool = True,
) -> bool:
    """Whether a fighter has a conditional effect's bonus now (II-C-4).

    "Gagner": locked when the effect is applied, for its whole duration,
    whatever happens to the condition later. "Bénéficier": only while the
    condition holds, starting as soon as it does. Nothing once the effect's
    duration is over.
    """
    if not effect_active:
        return False
    if Keyword(keyword) is Keyword.GAIN:
        return met_when_applied
    return met_now
