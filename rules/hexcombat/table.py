"""The "Table des Combats" and the roll that reads it ("Fiche Combat", seed 003).

``COMBAT_TABLE`` as printed, ``column_for`` (which column an advantage reads),
``losses``, the exact odds (``loss_odds``, ``volley_odds``, ``double_odds``),
and the procedure "Lancer 2D6 de Jet de Résultat de Combat et consulter la
Table": ``resolve`` / ``resolve_faces``, and the ammunition a double costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from rules.dice import DiceSource, ScriptedDice
from rules.hexcombat._numbers import checked_count, whole_number
from rules.hexcombat.words import Ammunition

# The printed column headers. The seed's header row reads "-2 -" in the fifth
# column: a stray dash inside that cell (there is no tab after it). Every data
# row has exactly 22 tab-separated cells after the 2D6 total, and the header has
# 22 cells once "-2 -" is read as "-2", so the dash is no column of its own.
COLUMNS: tuple[int, ...] = (
    -16, -11, -7, -4, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 15, 17, 19, 21,
)  # fmt: skip

# Losses by 2D6 total (row) and column, exactly as printed; a blank cell is 0.
# fmt: off
COMBAT_TABLE: dict[int, tuple[int, ...]] = {
    #    -16 -11 -7 -4 -2 -1  0 +1 +2 +3 +4 +5 +6 +7 +8 +9 11 13 15 17 19 21
    2:  (1,  1,  1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4),
    3:  (0,  1,  1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3),
    4:  (0,  0,  1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
    5:  (0,  0,  0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3),
    6:  (0,  0,  0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2),
    7:  (0,  0,  0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2),
    8:  (0,  0,  0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2),
    9:  (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    10: (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1),
    11: (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1),
    12: (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
}
# fmt: on

# The app refuses advantages outside this range as a mistyped or tampered value;
# ``losses`` itself reads any integer (beyond the ends it reads the end columns).
ADVANTAGE_LIMIT = 50

# 2D6 totals and their chances out of 36.
TWO_D6: dict[int, Fraction] = {
    total: Fraction(
        sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == total), 36
    )
    for total in range(2, 13)
}


def column_for(advantage: int) -> int:
    """The printed column read for an advantage ("Table des Combats").

    The highest header not above the advantage (the column to the left when the
    advantage falls between two headers); -16 below the table, +21 above it.
    """
    advantage = whole_number(advantage, "The advantage")
    if advantage <= COLUMNS[0]:
        return COLUMNS[0]
    return max(column for column in COLUMNS if column <= advantage)


def losses(roll_2d6: int, advantage: int) -> int:
    """Number of losses ("Nombre de Pertes") for a 2D6 total and an advantage.

    Reads the "Table des Combats" row of the total (2..12, else ``ValueError``)
    in the column given by ``column_for``.
    """
    roll_2d6 = whole_number(roll_2d6, "The 2D6 total")
    if roll_2d6 not in COMBAT_TABLE:
        raise ValueError(f"Two d6 total 2 to 12, not {roll_2d6}.")
    return COMBAT_TABLE[roll_2d6][COLUMNS.index(column_for(advantage))]


def loss_odds(advantage: int) -> dict[int, Fraction]:
    """Exact chance of each number of losses for one 2D6 roll at ``advantage``.

    Keys are the loss counts that can happen (ascending); values sum to 1.
    """
    odds: dict[int, Fraction] = {}
    for total, chance in TWO_D6.items():
        count = losses(total, advantage)
        odds[count] = odds.get(count, Fraction(0)) + chance
    return dict(sorted(odds.items()))


def volley_odds(advantage: int, shots: int) -> dict[int, Fraction]:
    """Exact chance of each total of losses over ``shots`` rolls ("Cadence de Tir":
    "Sommer les Pertes avant de les appliquer")."""
    shots = whole_number(shots, "The number of shots")
    if shots < 1:
        raise ValueError("A shot needs at least one roll.")
    single = loss_odds(advantage)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _shot in range(shots):
        following: dict[int, Fraction] = {}
        for so_far, chance in total.items():
            for count, chance_count in single.items():
                key = so_far + count
                following[key] = following.get(key, Fraction(0)) + chance * chance_count
        total = following
    return dict(sorted(total.items()))


def double_odds(rolls: int) -> Fraction:
    """Chance that at least one of ``rolls`` 2D6 rolls is a double."""
    return 1 - Fraction(5, 6) ** rolls


# Procédure: "Lancer 2D6 de Jet de Résultat de Combat et consulter la Table".


@dataclass(frozen=True)
class Roll:
    """One 2D6 "Jet de Résultat de Combat" and the losses it reads."""

    faces: tuple[int, int]
    losses: int

    @property
    def total(self) -> int:
        """The 2D6 total, the table's row."""
        return sum(self.faces)

    @property
    def double(self) -> bool:
        """A double (1-1, 2-2, ...): a shooter loses one ammunition level."""
        return self.faces[0] == self.faces[1]


@dataclass(frozen=True)
class Resolution:
    """The rolls of one combat action at one advantage, losses summed."""

    advantage: int
    column: int
    rolls: tuple[Roll, ...]

    @property
    def losses(self) -> int:
        """All the losses, summed before they are applied."""
        return sum(roll.losses for roll in self.rolls)

    @property
    def doubles(self) -> int:
        """How many rolls were doubles (for shooting: ammunition levels lost)."""
        return sum(roll.double for roll in self.rolls)


def resolve(advantage: int, dice: DiceSource, *, shots: int = 1) -> Resolution:
    """Roll 2D6 ``shots`` times from ``dice`` and read the table at ``advantage``."""
    shots = whole_number(shots, "The number of shots")
    if shots < 1:
        raise ValueError("A combat action rolls at least once.")
    column = column_for(advantage)
    rolls = []
    for _shot in range(shots):
        faces = (dice.d6(), dice.d6())
        rolls.append(Roll(faces, losses(sum(faces), advantage)))
    return Resolution(advantage, column, tuple(rolls))


def resolve_faces(
    advantage: int, faces: Sequence[int], *, shots: int = 1
) -> Resolution:
    """Read the table for faces rolled with real dice (two per shot)."""
    if len(faces) != 2 * shots:
        raise ValueError(f"Enter {2 * shots} faces, two per roll.")
    return resolve(advantage, ScriptedDice(faces), shots=shots)


AMMUNITION_LEVELS = (Ammunition.FULL, Ammunition.DIMINISHED, Ammunition.EXHAUSTED)


def ammunition_after(level: Ammunition, doubles: int) -> Ammunition:
    """The ammunition level after a shooting action that rolled ``doubles``
    doubles: one "Niveau de Munitions" lost per double, down to exhausted."""
    lost = checked_count(doubles, "Doubles")
    index = AMMUNITION_LEVELS.index(Ammunition(level)) + lost
    return AMMUNITION_LEVELS[min(index, len(AMMUNITION_LEVELS) - 1)]
