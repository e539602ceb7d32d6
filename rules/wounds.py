"""Wound rolls and a fighter's health (II-B).

Implements II-B-1 (the wound roll and the Tableau des Blessures, a double six
kills, the order in which effects change a wound roll), II-B-2 (wound steps),
II-B-3 (steps add up; "stunned" is no wound), II-B-4 (wound penalties),
II-B-5 (stun lasts to the end of the turn; healing removes steps) and II-B-6
(amplified and attenuated rolls with 3 dice).

The table's cells come from ``shared/rules-data/wound-table.md`` (the seed
prints the frame but lost the cells).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

# Outcome words, lightest first: the order that "aggravate" and "diminish"
# (II-B-1, stage 3) move along, and that "a higher FOR never lightens" uses.
OUTCOMES: tuple[str, ...] = (
    "none",
    "stunned",
    "light",
    "serious",
    "critical",
    "killed",
)
OUTCOME_RANK: dict[str, int] = {outcome: rank for rank, outcome in enumerate(OUTCOMES)}

# Columns by the lowest die (II-B-1). The printed head column also shows a 6,
# which only a double six reaches.
LOCATIONS: tuple[str, ...] = ("legs", "arms", "abdomen", "thorax", "head")
COLUMN_LOCATIONS: dict[int, str] = {
    1: "legs",
    2: "arms",
    3: "abdomen",
    4: "thorax",
    5: "head",
    6: "head",
}

# Row labels as printed: "< 0", then pairs, then "18 +".
ROW_LABELS: tuple[str, ...] = (
    "<0",
    "0/1",
    "2/3",
    "4/5",
    "6/7",
    "8/9",
    "10/11",
    "12/13",
    "14/15",
    "16/17",
    "18 +",
)

_N, _S, _L, _G, _C, _K = OUTCOMES
# WOUND_TABLE[row label] = outcomes for columns legs, arms, abdomen, thorax, head.
WOUND_TABLE: dict[str, tuple[str, str, str, str, str]] = {
    "<0": (_N, _S, _S, _L, _L),
    "0/1": (_S, _S, _L, _L, _G),
    "2/3": (_S, _L, _L, _G, _C),
    "4/5": (_L, _L, _G, _G, _C),
    "6/7": (_L, _G, _G, _C, _K),
    "8/9": (_L, _G, _C, _C, _K),
    "10/11": (_G, _G, _C, _K, _K),
    "12/13": (_G, _C, _C, _K, _K),
    "14/15": (_G, _C, _K, _K, _K),
    "16/17": (_C, _C, _K, _K, _K),
    "18 +": (_C, _K, _K, _K, _K),
}

WOUND_STEPS: dict[str, int] = {"light": 1, "serious": 2, "critical": 3, "killed": 4}
"""Wound steps each outcome inflicts (II-B-2); "stunned" and "none" add none."""

STEPS_TO_DIE = 4
"""A fighter absorbs 4 wound steps; the fourth kills (II-B-2)."""

PENALISED_CHARACTERISTICS: frozenset[str] = frozenset(
    {"INI", "ATT", "DEF", "TIR", "FOR", "POU", "FOI"}
)
"""Characteristics lowered by wound penalties (II-B-4)."""


def _check_outcome(outcome: str) -> str:
    if outcome not in OUTCOME_RANK:
        raise ValueError(
            f"A wound outcome is one of {', '.join(OUTCOMES)}, not {outcome!r}."
        )
    return outcome


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}.")
    return value


# --- II-B-1: reading the table ------------------------------------------------


def row_index(row: int) -> int:
    """Index in ``ROW_LABELS`` of the table row read for ``row`` (II-B-1).

    ``row`` is the highest die + FOR - RES: below 0 is "< 0", then pairs,
    and 18 or more is "18 +".
    """
    if row < 0:
        return 0
    return min(row // 2, 9) + 1


def table_outcome(column: int, row: int) -> str:
    """The Tableau des Blessures cell for a column (1..6) and row value (II-B-1).

    Column 6 (a double six) reads the head column; the double six's "killed"
    is a replacement applied later (``wound_roll``).
    """
    if column not in COLUMN_LOCATIONS:
        raise ValueError(f"Wound table columns are 1 to 6, not {column!r}.")
    return WOUND_TABLE[ROW_LABELS[row_index(row)]][min(column, 5) - 1]


def kept_dice(
    faces: Sequence[int], *, amplified: int = 0, attenuated: int = 0
) -> tuple[int, int]:
    """The two dice that resolve a wound roll (II-B-1, II-B-6).

    Amplified and attenuated effects cancel one for one; if amplified ones
    remain, 3 dice are rolled and the 2 highest kept; if attenuated ones
    remain, the 2 lowest. Otherwise 2 dice are rolled. Returned lowest first.
    """
    if (
        _check_int("amplified", amplified) < 0
        or _check_int("attenuated", attenuated) < 0
    ):
        raise ValueError("amplified and attenuated count effects: 0 or more.")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"A d6 shows 1 to 6, not {face!r}.")
    balance = amplified - attenuated
    expected = 2 if balance == 0 else 3
    if len(faces) != expected:
        kind = (
            "a plain wound roll"
            if balance == 0
            else ("an amplified" if balance > 0 else "an attenuated") + " wound roll"
        )
        raise ValueError(f"{kind} uses {expected} dice, got {len(faces)}.")
    ordered = sorted(faces)
    if balance > 0:
        ordered = ordered[1:]
    elif balance < 0:
        ordered = ordered[:2]
    return ordered[0], ordered[1]


# --- II-B-1: effects that change a wound roll ---------------------------------


@dataclass(frozen=True)
class WoundReading:
    """What a wound roll reads before effects replace or move its outcome.

    ``dice`` are the two kept dice, lowest first; ``column`` 1..6 and
    ``row`` (highest die + FOR - RES) as read after the shifts of stage 1.
    """

    dice: tuple[int, int]
    column: int
    row: int
    location: str
    outcome: str

    @property
    def double(self) -> int | None:
        """The face of a double (both kept dice equal), else None."""
        return self.dice[0] if self.dice[0] == self.dice[1] else None


@dataclass(frozen=True)
class Replacement:
    """An effect that replaces a wound's outcome (II-B-1, stage 2).

    It applies when every condition given holds: the outcome read is one of
    ``outcomes``, the location one of ``locations``, the kept dice a double of
    one of ``doubles`` (an empty condition always holds). ``protective``
    effects apply after harmful ones and win over them. Examples:

    - the double six: ``Replacement("killed", doubles={6})`` (built in);
    - a double 5 of an "arme sacrée": ``Replacement("killed", doubles={5})``;
    - Féroce on a stunned result: ``Replacement("light", outcomes={"stunned"})``;
    - immunité/Tête: ``Replacement("none", protective=True, locations={"head"})``;
    - immunité/Blessure légère:
      ``Replacement("none", protective=True, outcomes={"light"})``.
    """

    becomes: str
    protective: bool = False
    outcomes: frozenset[str] = frozenset()
    locations: frozenset[str] = frozenset()
    doubles: frozenset[int] = frozenset()
    name: str = ""

    def __post_init__(self) -> None:
        _check_outcome(self.becomes)
        object.__setattr__(self, "outcomes", frozenset(self.outcomes))
        object.__setattr__(self, "locations", frozenset(self.locations))
        object.__setattr__(self, "doubles", frozenset(self.doubles))
        for outcome in self.outcomes:
            _check_outcome(outcome)
        for location in self.locations:
            if location not in LOCATIONS:
                raise ValueError(
                    f"A location is one of {', '.join(LOCATIONS)}, not {location!r}."
                )

    def applies_to(self, reading: WoundReading) -> bool:
        """Whether this effect replaces the outcome of ``reading``."""
        return (
            (not self.outcomes or reading.outcome in self.outcomes)
            and (not self.locations or reading.location in self.locations)
            and (not self.doubles or reading.double in self.doubles)
        )


DOUBLE_SIX = Replacement("killed", doubles=frozenset({6}), name="double six")
"""II-B-1: a double six kills whatever FOR and RES are (a harmful replacement)."""


def immunity_to_location(location: str) -> Replacement:
    """ "Immunité/<location>": a wound there has no effect (II-B-1, stage 2)."""
    return Replacement(
        "none", protective=True, locations=frozenset({location}), name="immunity"
    )


def immunity_to_outcome(outcome: str) -> Replacement:
    """ "Immunité/<outcome>": that outcome has no effect (II-B-1, stage 2)."""
    return Replacement(
        "none", protective=True, outcomes=frozenset({outcome}), name="immunity"
    )


@dataclass(frozen=True)
class WoundEffects:
    """Every effect on one wound roll, in the three stages of II-B-1.

    1. ``column_shift`` / ``row_shift``: columns and table rows to move the
       reading (Fléau/X, Dur à cuire...); opposite shifts cancel and like ones
       add, so each is the sum of the effects' signed shifts. A row shift
       moves by printed rows ("2/3" -> "4/5"), never past the first or last.
    2. ``replacements``: harmful ones first (the double six is always there),
       then protective ones, which win (immunité/Tête blocks a double six).
    3. ``steps``: net steps to aggravate (+1, vulnérable) or diminish (-1,
       coriace) the outcome along ``OUTCOMES``; "none" and "stunned" are no
       wound (II-B-2) and stay.
    """

    column_shift: int = 0
    row_shift: int = 0
    replacements: tuple[Replacement, ...] = ()
    steps: int = 0

    def __post_init__(self) -> None:
        _check_int("column_shift", self.column_shift)
        _check_int("row_shift", self.row_shift)
        _check_int("steps", self.steps)
        object.__setattr__(self, "replacements", tuple(self.replacements))


NO_EFFECTS = WoundEffects()


@dataclass(frozen=True)
class WoundResult:
    """The outcome of a wound roll (II-B-1).

    ``location`` and ``outcome`` are the English words of ``LOCATIONS`` and
    ``OUTCOMES``; ``row`` is the highest die + FOR - RES. ``dice`` are the two
    dice kept (lowest first), ``column`` and ``row_label`` the cell read after
    any shift, ``table`` the outcome that cell gives before replacements.
    """

    location: str
    row: int
    outcome: str
    dice: tuple[int, int] = (1, 1)
    column: int = 1
    row_label: str = "<0"
    table: str = "none"


def shift_reading(
    column: int, row: int, *, column_shift: int = 0, row_shift: int = 0
) -> tuple[int, str]:
    """Stage 1 of II-B-1: the (column, row label) read after shifts.

    Shifts stop at the table's edges: columns 1 (legs) to 5 (head), rows
    "< 0" to "18 +". A double six's column 6 counts as the head column.
    """
    shifted_column = column
    if column_shift:
        shifted_column = max(1, min(5, min(column, 5) + column_shift))
    index = max(0, min(len(ROW_LABELS) - 1, row_index(row) + row_shift))
    return shifted_column, ROW_LABELS[index]


def replace_outcome(reading: WoundReading, replacements: Iterable[Replacement]) -> str:
    """Stage 2 of II-B-1: harmful replacements, then protective ones (which win).

    The double six is always among the harmful ones.
    """
    effects = (DOUBLE_SIX, *replacements)
    outcome = reading.outcome
    for protective in (False, True):
        for effect in effects:
            if effect.protective is protective and effect.applies_to(reading):
                outcome = effect.becomes
                reading = replace(reading, outcome=outcome)
    return outcome


def change_by_steps(outcome: str, steps: int) -> str:
    """Stage 3 of II-B-1: aggravate (+) or diminish (-) by whole steps.

    Moves along ``OUTCOMES`` and stops at "stunned" and "killed": "none" is no
    wound, so it is neither aggravated nor reached by diminishing. Nor is
    "stunned": II-B-2, "Il existe également deux résultats du tableau des
    Blessures qui ne sont pas considérés comme des Blessures : Etat Sonné
    [...]", and stage 3 acts on "la blessure"; so Vulnérable never turns a
    Sonné into a light wound (II-B-3: "Un résultat « Sonné » n'est pas
    considéré comme une Blessure").
    """
    _check_outcome(outcome)
    if outcome in ("none", "stunned") or steps == 0:
        return outcome
    rank = OUTCOME_RANK[outcome] + steps
    return OUTCOMES[max(OUTCOME_RANK["stunned"], min(OUTCOME_RANK["killed"], rank))]


def wound_roll(
    faces: Sequence[int],
    strength: int,
    resistance: int,
    *,
    amplified: int = 0,
    attenuated: int = 0,
    column_shift: int = 0,
    row_shift: int = 0,
    effects: WoundEffects = NO_EFFECTS,
) -> WoundResult:
    """Resolve a wound roll with the Tableau des Blessures (II-B-1, II-B-6).

    ``faces``: 2 dice, or 3 when amplified and attenuated effects do not
    cancel (II-B-6). The lowest kept die gives the column (location), the
    highest + ``strength`` - ``resistance`` (current values) the row. A '1'
    is no failure and a '6' is not rerolled here. Then the three stages of
    II-B-1 apply: shifts (``column_shift``/``row_shift`` add to those of
    ``effects``), replacements (a double six kills), steps.
    """
    _check_int("strength", strength)
    _check_int("resistance", resistance)
    low, high = kept_dice(faces, amplified=amplified, attenuated=attenuated)
    row = high + strength - resistance
    column, label = shift_reading(
        low,
        row,
        column_shift=column_shift + effects.column_shift,
        row_shift=row_shift + effects.row_shift,
    )
    table = WOUND_TABLE[label][min(column, 5) - 1]
    location = COLUMN_LOCATIONS[column]
    reading = WoundReading((low, high), column, row, location, table)
    outcome = replace_outcome(reading, effects.replacements)
    outcome = change_by_steps(outcome, effects.steps)
    return WoundResult(location, row, outcome, (low, high), column, label, table)


# --- II-B-2 to II-B-5: health --------------------------------------------------


@dataclass(frozen=True)
class Health:
    """A fighter's wound steps and stun (II-B-2 to II-B-5).

    Immutable: every change returns a new ``Health``.
    """

    wound_steps: int = 0
    stunned: bool = False

    def __post_init__(self) -> None:
        if _check_int("wound_steps", self.wound_steps) < 0:
            raise ValueError("wound_steps cannot be negative.")

    def apply(self, outcome: str) -> Health:
        """Take a wound roll's outcome (II-B-2, II-B-3).

        Steps add up; "stunned" stuns without adding a step (it is no wound);
        "none" changes nothing.
        """
        _check_outcome(outcome)
        if outcome == "stunned":
            return replace(self, stunned=True)
        return replace(self, wound_steps=self.wound_steps + WOUND_STEPS.get(outcome, 0))

    @property
    def penalty(self) -> int:
        """-1 per wound step, -1 more while stunned (II-B-4)."""
        return -self.wound_steps - (1 if self.stunned else 0)

    def penalty_for(self, characteristic: str) -> int:
        """The penalty on one characteristic: only those of II-B-4 suffer it."""
        if characteristic.strip().upper() in PENALISED_CHARACTERISTICS:
            return self.penalty
        return 0

    @property
    def dead(self) -> bool:
        """Killed: 4 wound steps or more (II-B-2)."""
        return self.wound_steps >= STEPS_TO_DIE

    @property
    def condition(self) -> str:
        """The wound state as an outcome word: none, light, serious, critical
        or killed (II-B-3: 2 steps is "Blessure grave")."""
        if self.wound_steps == 0:
            return "none"
        for outcome, steps in reversed(WOUND_STEPS.items()):
            if self.wound_steps >= steps:
                return outcome
        raise AssertionError("unreachable")

    def end_of_turn(self) -> Health:
        """The stun ends at the end of the turn; wounds stay (II-B-5)."""
        return replace(self, stunned=False)

    def heal(self, steps: int) -> Health:
        """Remove up to ``steps`` wound steps (II-B-5 healing effects).

        A dead fighter is eliminated and cannot be healed.
        """
        if _check_int("steps", steps) < 0:
            raise ValueError("Healing removes 0 or more wound steps.")
        if self.dead:
            raise ValueError("A dead fighter cannot be healed.")
        return replace(self, wound_steps=max(0, self.wound_steps - steps))
