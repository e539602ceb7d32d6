"""Characteristic tests: natural results, difficulty and opposed tests (II-A).

Implements II-A-1 (sixes are rerolled and added, a '1' makes the natural result
1 even after sixes), II-A-2 (several d6, the dice not rerolled are lost), II-A-3
(tests against a difficulty and in opposition, who decides first to reroll a
six) and II-A-4 (current values: replacement, maluses, bonuses; MOU >= 0,
RES >= 1; a final result of 0 or less fails; divisions round up).

A player may choose whether to reroll each six, so tests can be run one
decision at a time (``TestRoll``, ``OpposedRoll``): the app shows the odds of
each choice (``rules.odds``), records the faces rolled and the decisions taken,
and replays them with ``ScriptedDice``. ``characteristic_test`` and
``opposed_test`` run the same machinery with a fixed reroll policy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Self

from rules.dice import DiceSource, ScriptedDice

RerollMode = Literal["always", "never", "if_needed"]
REROLL_MODES: tuple[str, ...] = ("always", "never", "if_needed")

Side = Literal["a", "b"]

# II-A-4: the only characteristics whose current value has a floor.
CHARACTERISTIC_FLOORS: dict[str, int] = {"MOU": 0, "RES": 1}


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}.")
    return value


def _check_mode(reroll: str) -> str:
    if reroll not in REROLL_MODES:
        raise ValueError(
            f"reroll must be one of {', '.join(REROLL_MODES)}, not {reroll!r}."
        )
    return reroll


def _check_faces(faces: Iterable[int]) -> tuple[int, ...]:
    checked = []
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"A d6 shows 1 to 6, not {face!r}.")
        checked.append(face)
    return tuple(checked)


# --- II-A-1 and II-A-2: natural results ------------------------------------


def natural_result(faces: Sequence[int]) -> int:
    """The natural result of one die and its rerolls, as rolled (II-A-1).

    Each six may be rerolled and the new face added; a '1' after sixes makes
    the natural result 1: ``[6, 6, 4] -> 16``, ``[6, 6, 6, 1] -> 1``,
    ``[3] -> 3``. Raises ``ValueError`` for an empty sequence or one that
    rerolls a face other than 6.
    """
    rolled = _check_faces(faces)
    if not rolled:
        raise ValueError("A die's faces cannot be empty: roll it at least once.")
    if any(face != 6 for face in rolled[:-1]):
        raise ValueError(f"Only a 6 may be rerolled (II-A-1), got {list(rolled)}.")
    if rolled[-1] == 1:
        return 1
    return sum(rolled)


def lowest_final_result(value: int) -> int:
    """The lowest final result a test of this value can give (II-A-1).

    A natural '1' is the lowest natural result, and no automatic failure: the
    final result is never below the value + 1. A test whose difficulty is at
    most that cannot fail.
    """
    return _check_int("value", value) + 1


def best_of(dice_faces: Sequence[Sequence[int]]) -> int:
    """The natural result kept when several d6 are rolled for one test (II-A-2).

    Each inner sequence is one die as rolled, with its rerolls. Only one die
    counts; the sixes may all be rerolled, but the dice not rerolled are lost
    at once. Rerolls happen together, so the dice still in play are those
    rolled the most times: ``[[1], [4], [6, 1], [6, 3]] -> 9`` and
    ``[[1], [4], [6, 1], [6, 1]] -> 1`` (the 4 was lost).
    """
    if not dice_faces:
        raise ValueError("Roll at least one die.")
    naturals = [(len(faces), natural_result(faces)) for faces in dice_faces]
    rolls = max(count for count, _ in naturals)
    return max(natural for count, natural in naturals if count == rolls)


# --- II-A-4: current values -------------------------------------------------


def current_value(
    base: int,
    *,
    replace: int | None = None,
    maluses: Iterable[int] = (),
    bonuses: Iterable[int] = (),
    characteristic: str = "",
) -> int:
    """A characteristic's current value (II-A-4).

    Effects apply in the rules' order: a replacement first, then maluses, then
    bonuses. A malus always lowers and a bonus always raises the value by its
    size, whether it is written ``2`` or ``-2``. There is no bound except for
    ``MOU`` (never below 0) and ``RES`` (never below 1), applied to the result.
    """
    value = _check_int("base", base)
    if replace is not None:
        value = _check_int("replace", replace)
    for malus in maluses:
        value -= abs(_check_int("A malus", malus))
    for bonus in bonuses:
        value += abs(_check_int("A bonus", bonus))
    floor = CHARACTERISTIC_FLOORS.get(characteristic.strip().upper())
    if floor is not None:
        value = max(floor, value)
    return value


def divide_round_up(value: int, divisor: int) -> int:
    """``value / divisor`` rounded to the integer above (II-A-4).

    "l'arrondi se fait toujours à l'entier supérieur": 7 / 2 -> 4, -3 / 2 -> -1.
    """
    _check_int("value", value)
    if _check_int("divisor", divisor) <= 0:
        raise ValueError(
            f"A characteristic is divided by a positive number, not {divisor}."
        )
    return -(-value // divisor)


def halve(value: int) -> int:
    """Half a value, rounded up (II-A-4): the commonest division in the rules."""
    return divide_round_up(value, 2)


# --- II-A-3: test against a difficulty --------------------------------------


def is_success(final: int, difficulty: int) -> bool:
    """A final result at least the difficulty succeeds, unless it is 0 or less.

    II-A-3 (difficulty) and II-A-4 (a final result <= 0 is an automatic failure).
    """
    return final > 0 and final >= difficulty


@dataclass(frozen=True)
class TestResult:
    """The outcome of a test against a difficulty (II-A-3).

    ``faces`` are the die's faces as rolled (sixes then their rerolls),
    ``natural`` the natural result (II-A-1), ``final`` natural + value.
    """

    __test__ = False  # not a pytest test class, despite its name

    faces: tuple[int, ...]
    natural: int
    final: int
    success: bool


class RunningTest:
    """What a test rolled one decision at a time knows of its result so far.

    Shared by ``TestRoll`` (one die) and ``rules.several_dice.DiceTest``
    (several dice): each gives ``value``, ``difficulty``, ``natural``,
    ``awaiting_choice`` and how its sixes are rerolled (``_rerolled``).
    """

    value: int
    difficulty: int
    natural: int
    awaiting_choice: bool

    @property
    def final(self) -> int:
        """The final result so far: natural + value (II-A)."""
        return self.natural + self.value

    @property
    def winning(self) -> bool:
        """Whether the test would succeed if it stopped now (II-A-3, II-A-4)."""
        return is_success(self.final, self.difficulty)

    def decide(self, reroll: bool, dice: DiceSource | None = None) -> Self:
        """Reroll the six(es) showing or keep them (II-A-1, II-A-2)."""
        if not self.awaiting_choice:
            raise ValueError("Only a six showing can be rerolled or kept.")
        if not reroll:
            return replace(self, kept=True)
        if dice is None:
            raise ValueError("Rerolling a six needs a dice source.")
        return self._rerolled(dice)

    def _rerolled(self, dice: DiceSource) -> Self:
        raise NotImplementedError


@dataclass(frozen=True)
class TestRoll(RunningTest):
    """A test against a difficulty rolled one decision at a time (II-A-1, II-A-3).

    ``TestRoll.start(value, difficulty, dice)`` rolls the die. While
    ``awaiting_choice`` (the last face is a six the player has not kept), call
    ``decide(reroll, dice)``; when ``finished``, ``result()`` gives the
    ``TestResult``. Values are immutable: each step returns a new roll, so the
    app can store it and show the odds of both choices
    (``rules.odds.test_choice``).
    """

    __test__ = False

    value: int
    difficulty: int
    faces: tuple[int, ...] = ()
    kept: bool = False

    @classmethod
    def start(cls, value: int, difficulty: int, dice: DiceSource) -> TestRoll:
        """Roll the die for a test of ``value`` against ``difficulty`` (II-A-3)."""
        roll = cls(_check_int("value", value), _check_int("difficulty", difficulty))
        return replace(roll, faces=(dice.d6(),))

    @property
    def natural(self) -> int:
        """The natural result so far (II-A-1)."""
        return natural_result(self.faces)

    @property
    def awaiting_choice(self) -> bool:
        """A six is showing and the player has not said whether to reroll it."""
        return bool(self.faces) and self.faces[-1] == 6 and not self.kept

    @property
    def finished(self) -> bool:
        """No choice is left: the result is known."""
        return bool(self.faces) and not self.awaiting_choice

    def _rerolled(self, dice: DiceSource) -> TestRoll:
        """The six showing rerolled: the new face is added (II-A-1)."""
        return replace(self, faces=(*self.faces, dice.d6()))

    def result(self) -> TestResult:
        """The finished test's result (II-A-3)."""
        if not self.finished:
            raise ValueError("The test is not finished: a six awaits a choice.")
        return TestResult(self.faces, self.natural, self.final, self.winning)


def _test_policy(reroll: str) -> Callable[[TestRoll], bool]:
    if reroll == "always":
        return lambda roll: True
    if reroll == "never":
        return lambda roll: False
    return lambda roll: not roll.winning


def run_test(
    value: int,
    difficulty: int,
    dice: DiceSource,
    choose: Callable[[TestRoll], bool],
) -> TestResult:
    """Run a test against a difficulty, asking ``choose`` at each six (II-A-3).

    ``choose(roll)`` returns True to reroll the six showing, False to keep it.
    """
    roll = TestRoll.start(value, difficulty, dice)
    while roll.awaiting_choice:
        roll = roll.decide(bool(choose(roll)), dice)
    return roll.result()


def characteristic_test(
    value: int, difficulty: int, dice: DiceSource, *, reroll: RerollMode = "if_needed"
) -> TestResult:
    """Test a characteristic's current ``value`` against ``difficulty`` (II-A-3).

    ``reroll``: ``"always"`` rerolls every six, ``"never"`` keeps it,
    ``"if_needed"`` rerolls a six only while the test is not yet won (a reroll
    can end in a '1', II-A-1). A final result of 0 or less fails (II-A-4).
    """
    return run_test(value, difficulty, dice, _test_policy(_check_mode(reroll)))


def test_from_faces(value: int, difficulty: int, faces: Sequence[int]) -> TestResult:
    """Rebuild a test's result from the faces recorded for it (II-A-1, II-A-3).

    The faces say every decision: a six followed by a face was rerolled, a
    final six was kept.
    """
    natural_result(faces)  # validates the sequence
    return run_test(
        value,
        difficulty,
        ScriptedDice(faces),
        lambda roll: len(roll.faces) < len(faces),
    )


test_from_faces.__test__ = False  # type: ignore[attr-defined]


# --- II-A-3: opposed tests ---------------------------------------------------


def _other(side: str) -> Side:
    return "b" if side == "a" else "a"


@dataclass(frozen=True)
class OpposedResult:
    """The outcome of an opposed test (II-A-3).

    ``winner`` is ``"a"`` or ``"b"``; ``rounds`` lists each round's
    ``(final_a, final_b)`` (ties are rolled again). ``faces`` are all the faces
    in the order they were drawn and ``decisions`` every reroll choice in the
    order asked (True: reroll), enough to replay the test with
    ``replay_opposed``.
    """

    winner: Side
    rounds: list[tuple[int, int]]
    faces: tuple[int, ...] = ()
    decisions: tuple[bool, ...] = ()


@dataclass(frozen=True)
class OpposedRoll:
    """An opposed test rolled one decision at a time (II-A-3).

    Each round takes a's die, then b's die. A six may be rerolled after seeing
    the other side's die; when both show a six, the side whose final result is
    lower decides first (a first when level), and the other decides after
    seeing that decision and its reroll. ``deciding`` names the side that must
    choose now; ``decide(reroll, dice)`` applies its choice. A round that ends
    level is rolled again at once, so a roll is always either awaiting a
    choice or ``finished``.
    """

    value_a: int
    value_b: int
    faces_a: tuple[int, ...] = ()
    faces_b: tuple[int, ...] = ()
    kept_a: bool = False
    kept_b: bool = False
    rounds: tuple[tuple[int, int], ...] = ()
    faces: tuple[int, ...] = ()
    decisions: tuple[bool, ...] = ()

    @classmethod
    def start(cls, value_a: int, value_b: int, dice: DiceSource) -> OpposedRoll:
        """Roll the first round of ``value_a`` against ``value_b`` (II-A-3)."""
        roll = cls(_check_int("value_a", value_a), _check_int("value_b", value_b))
        return roll._new_round(dice)

    def _new_round(self, dice: DiceSource) -> OpposedRoll:
        roll = self
        while True:
            face_a = dice.d6()
            face_b = dice.d6()
            roll = replace(
                roll,
                faces_a=(face_a,),
                faces_b=(face_b,),
                kept_a=False,
                kept_b=False,
                faces=(*roll.faces, face_a, face_b),
            )
            if roll.deciding is not None:
                return roll
            roll = roll._close_round()
            if roll.winner is not None:
                return roll

    def _close_round(self) -> OpposedRoll:
        return replace(self, rounds=(*self.rounds, (self.final_a, self.final_b)))

    def pending(self, side: str) -> bool:
        """Whether ``side`` shows a six it has not kept (II-A-1)."""
        faces, kept = (
            (self.faces_a, self.kept_a) if side == "a" else (self.faces_b, self.kept_b)
        )
        return bool(faces) and faces[-1] == 6 and not kept

    @property
    def natural_a(self) -> int:
        """a's natural result in the current round (II-A-1)."""
        return natural_result(self.faces_a)

    @property
    def natural_b(self) -> int:
        """b's natural result in the current round (II-A-1)."""
        return natural_result(self.faces_b)

    @property
    def final_a(self) -> int:
        """a's final result in the current round."""
        return self.natural_a + self.value_a

    @property
    def final_b(self) -> int:
        """b's final result in the current round."""
        return self.natural_b + self.value_b

    @property
    def behind(self) -> Side | None:
        """The side whose final result is lower now, None when level."""
        if self.final_a == self.final_b:
            return None
        return "a" if self.final_a < self.final_b else "b"

    @property
    def deciding(self) -> Side | None:
        """The side that must choose to reroll or keep its six now (II-A-3)."""
        if self.winner is not None:
            return None
        pending = [side for side in ("a", "b") if self.pending(side)]
        if len(pending) == 2:
            # II-A-3: with two sixes, the lower final result decides first.
            return self.behind or "a"
        return pending[0] if pending else None

    @property
    def winner(self) -> Side | None:
        """The winner once a round has ended with different final results."""
        if not self.rounds:
            return None
        final_a, final_b = self.rounds[-1]
        if final_a == final_b:
            return None
        return "a" if final_a > final_b else "b"

    @property
    def finished(self) -> bool:
        """The test has a winner."""
        return self.winner is not None

    def decide(self, reroll: bool, dice: DiceSource) -> OpposedRoll:
        """The deciding side rerolls its six or keeps it (II-A-1, II-A-3).

        When no six is left to decide, the round ends; a level round is rolled
        again at once from ``dice``.
        """
        side = self.deciding
        if side is None:
            raise ValueError("No six is waiting for a decision.")
        roll = replace(self, decisions=(*self.decisions, bool(reroll)))
        if reroll:
            face = dice.d6()
            roll = replace(roll, faces=(*roll.faces, face))
            if side == "a":
                roll = replace(roll, faces_a=(*roll.faces_a, face))
            else:
                roll = replace(roll, faces_b=(*roll.faces_b, face))
        elif side == "a":
            roll = replace(roll, kept_a=True)
        else:
            roll = replace(roll, kept_b=True)
        if roll.deciding is not None:
            return roll
        roll = roll._close_round()
        if roll.winner is None:
            return roll._new_round(dice)
        return roll

    def result(self) -> OpposedResult:
        """The finished test's result (II-A-3)."""
        if self.winner is None:
            raise ValueError("The opposed test is not finished.")
        return OpposedResult(self.winner, list(self.rounds), self.faces, self.decisions)


def _opposed_policy(reroll: str) -> Callable[[OpposedRoll], bool]:
    if reroll == "always":
        return lambda roll: True
    if reroll == "never":
        return lambda roll: False
    # "if_needed": reroll a six only while behind; level is a tie, rolled again.
    return lambda roll: roll.behind == roll.deciding


def run_opposed(
    value_a: int,
    value_b: int,
    dice: DiceSource,
    choose: Callable[[OpposedRoll], bool],
) -> OpposedResult:
    """Run an opposed test, asking ``choose`` at each six (II-A-3).

    ``choose(roll)`` answers for ``roll.deciding``: True to reroll its six.
    """
    roll = OpposedRoll.start(value_a, value_b, dice)
    while not roll.finished:
        roll = roll.decide(bool(choose(roll)), dice)
    return roll.result()


def opposed_test(
    value_a: int, value_b: int, dice: DiceSource, *, reroll: RerollMode = "if_needed"
) -> OpposedResult:
    """Opposed test of a's ``value_a`` against b's ``value_b`` (II-A-3).

    The higher final result wins; a level round is rolled again. Each round
    draws a's die, then b's die, then rerolls in the order they are decided.
    ``reroll``: ``"always"``, ``"never"``, or ``"if_needed"`` (a side rerolls
    a six only while behind, the side behind deciding first when both show a
    six). The final results are compared as they are, even 0 or less: II-A-4's
    automatic failure is for tests against a difficulty.
    """
    return run_opposed(value_a, value_b, dice, _opposed_policy(_check_mode(reroll)))


def replay_opposed(
    value_a: int, value_b: int, faces: Sequence[int], decisions: Sequence[bool]
) -> OpposedResult:
    """Replay a recorded opposed test from its faces and decisions (II-A-3)."""
    answers = iter(decisions)

    def recorded(roll: OpposedRoll) -> bool:
        try:
            return next(answers)
        except StopIteration:
            raise ValueError("The recorded decisions ran out.") from None

    return run_opposed(value_a, value_b, ScriptedDice(faces), recorded)


__all__ = [
    "REROLL_MODES",
    "RunningTest",
    "OpposedResult",
    "OpposedRoll",
    "TestResult",
    "TestRoll",
    "best_of",
    "characteristic_test",
    "current_value",
    "divide_round_up",
    "halve",
    "is_success",
    "natural_result",
    "opposed_test",
    "replay_opposed",
    "run_opposed",
    "run_test",
    "test_from_faces",
]
