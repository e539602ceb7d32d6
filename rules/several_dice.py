"""A test against a difficulty rolled with one or several d6 (II-A-1, II-A-2).

II-A-2: "Il arrive qu'un joueur puisse lancer plusieurs d6 pour un même jet de
caractéristique. Dans ce cas il ne conserve qu'un seul résultat [...] Si
plusieurs '6' sont obtenus, les d6 ayant donné ce résultat peuvent tous être
relancés, mais le joueur perd immédiatement les d6 qui ne sont pas relancés."

``DiceTest`` is rolled one decision at a time, like ``rules.checks.TestRoll``
(which it equals for one die): the first throw rolls every die; while sixes
show, the player rerolls them all (the other dice are lost at once) or keeps
the six. A '1' on a reroll makes that die's natural result 1 (II-A-1).
``dice_test_success`` and ``dice_test_choice`` give the exact odds
(``fractions.Fraction``), computed by enumerating every throw.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product

from rules.checks import RunningTest
from rules.dice import DiceSource

# The dice of one test (II-A-2); a fighter's combat dice: rules.melee.MAX_COMBAT_DICE.
MAX_TEST_DICE = 5

__all__ = [
    "MAX_TEST_DICE",
    "DiceTest",
    "dice_test_choice",
    "dice_test_success",
]


def _check_count(count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, int):
        raise ValueError(f"A number of dice is a whole number, not {count!r}.")
    if not 1 <= count <= MAX_TEST_DICE:
        raise ValueError(f"A test rolls 1 to {MAX_TEST_DICE} dice (II-A-2).")
    return count


def _die_natural(base: int, face: int) -> int:
    # II-A-1: a '1' makes the natural result 1, even after sixes.
    return 1 if face == 1 else base + face


@dataclass(frozen=True)
class DiceTest(RunningTest):
    """A test of ``value`` against ``difficulty`` with ``count`` d6 (II-A-2).

    ``throws`` holds each throw's faces: the first throw has ``count`` faces,
    each later one the faces of the sixes rerolled. ``kept``: the player kept
    the six(es) showing.
    """

    __test__ = False

    value: int
    difficulty: int
    count: int = 1
    throws: tuple[tuple[int, ...], ...] = ()
    kept: bool = False
    # Terrifiant/Dreadful (IX; melee-sources.md §3 [read] S11): "the Courage
    # test uses 2d6 and keeps the lower die". The lower die is the one kept:
    # it shows a six only when every die does, and only it is rerolled.
    keep_lowest: bool = False

    @classmethod
    def start(
        cls,
        value: int,
        difficulty: int,
        count: int,
        dice: DiceSource,
        *,
        keep_lowest: bool = False,
    ) -> DiceTest:
        """Throw every die of the test (II-A-2)."""
        count = _check_count(count)
        faces = tuple(dice.d6() for _die in range(count))
        return cls(value, difficulty, count, (faces,), keep_lowest=keep_lowest)

    @property
    def base(self) -> int:
        """What the sixes rerolled so far add to a die still in play (II-A-1)."""
        return 6 * (len(self.throws) - 1)

    @property
    def sixes(self) -> int:
        """How many sixes the last throw shows (that count: with
        ``keep_lowest``, one when every die shows a six, else none)."""
        if not self.throws:
            return 0
        if self.keep_lowest:
            return int(all(face == 6 for face in self.throws[-1]))
        return sum(1 for face in self.throws[-1] if face == 6)

    @property
    def awaiting_choice(self) -> bool:
        """A six shows and the player has not said whether to reroll (II-A-1)."""
        return bool(self.throws) and self.sixes > 0 and not self.kept

    @property
    def finished(self) -> bool:
        """No choice is left: the result is known."""
        return bool(self.throws) and not self.awaiting_choice

    @property
    def natural(self) -> int:
        """The natural result kept: the best die of the last throw (II-A-2),
        the lowest with ``keep_lowest``."""
        naturals = [_die_natural(self.base, face) for face in self.throws[-1]]
        return min(naturals) if self.keep_lowest else max(naturals)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, in order."""
        return tuple(face for throw in self.throws for face in throw)

    def _rerolled(self, dice: DiceSource) -> DiceTest:
        """Every six showing rerolled; the other dice are lost (II-A-2)."""
        faces = tuple(dice.d6() for _six in range(self.sixes))
        return replace(self, throws=(*self.throws, faces))

    def to_dict(self) -> dict:
        """The roll as plain JSON data (the game's snapshot)."""
        data = {
            "value": self.value,
            "difficulty": self.difficulty,
            "count": self.count,
            "throws": [list(t) for t in self.throws],
            "kept": self.kept,
        }
        if self.keep_lowest:
            data["keep_lowest"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict) -> DiceTest:
        """The roll ``to_dict`` wrote."""
        return cls(
            data["value"],
            data["difficulty"],
            data["count"],
            tuple(tuple(t) for t in data["throws"]),
            data["kept"],
            keep_lowest=bool(data.get("keep_lowest")),
        )


def _target(value: int, difficulty: int) -> int:
    """The natural result needed: final >= difficulty and final > 0 (II-A-4)."""
    return max(difficulty, 1) - value


@lru_cache(maxsize=4096)
def _throw_success(count: int, base: int, target: int) -> Fraction:
    """P(success) throwing ``count`` dice that stand at ``base``, a six being
    rerolled only while the test is not yet won ("if needed")."""
    wins = Fraction(0)
    weight = Fraction(1, 6**count)
    for faces in product(range(1, 7), repeat=count):
        sixes = faces.count(6)
        if sixes:
            if base + 6 >= target:
                wins += weight
            else:
                wins += weight * _throw_success(sixes, base + 6, target)
        elif max(_die_natural(base, f) for f in faces) >= target:
            wins += weight
    return wins


def _lowest_success(count: int, target: int) -> Fraction:
    """P(success) keeping the lowest of ``count`` dice: a six counts only
    when every die shows one, and that die alone is rerolled if needed."""
    wins = Fraction(0)
    weight = Fraction(1, 6**count)
    for faces in product(range(1, 7), repeat=count):
        if all(face == 6 for face in faces):
            wins += weight * (1 if 6 >= target else _throw_success(1, 6, target))
        elif min(_die_natural(0, f) for f in faces) >= target:
            wins += weight
    return wins


def dice_test_success(
    value: int, difficulty: int, count: int = 1, *, keep_lowest: bool = False
) -> Fraction:
    """Exact P(success) of a test with ``count`` d6, rerolling sixes if needed.

    II-A-2 with II-A-1: only the best die counts, the sixes are rerolled
    together, and a six is rerolled only while the test is not yet won.
    ``keep_lowest``: the lowest die counts (Terrifiant, IX).
    """
    target = _target(value, difficulty)
    if keep_lowest:
        return _lowest_success(_check_count(count), target)
    return _throw_success(_check_count(count), 0, target)


@dataclass(frozen=True)
class DiceChoice:
    """The odds of keeping and of rerolling the six(es) showing."""

    keep: Fraction
    reroll: Fraction

    @property
    def best(self) -> str:
        """``"reroll"`` or ``"keep"``, whichever wins more often."""
        return "reroll" if self.reroll > self.keep else "keep"


def dice_test_choice(roll: DiceTest) -> DiceChoice:
    """P(success) if the player keeps the six now, and if they reroll (II-A-2)."""
    if not roll.awaiting_choice:
        raise ValueError("No six is waiting for a decision.")
    target = _target(roll.value, roll.difficulty)
    keep = Fraction(int(roll.base + 6 >= target))
    return DiceChoice(keep, _throw_success(roll.sixes, roll.base + 6, target))
