"""Exact odds of characteristic tests (II-A) and wound rolls (II-B).

Every probability is a ``fractions.Fraction`` computed, never sampled. The
chains of rerolled sixes are unbounded (II-A-1), but they are summed exactly:

- one die rerolled at every six has a closed-form distribution:
  P(natural = 1) = 1/5 (a first '1', or a '1' after sixes), and
  P(natural = 6k + m) = 6**-(k+1) for m in 2..5, k >= 0; tails are geometric
  series;
- "if_needed" rerolls stop once the test is won, so a test against a
  difficulty is a finite recursion;
- in an opposed test with "if_needed", a side rerolls only while behind, so a
  '1' on a reroll always loses (its final drops to value + 1, below the final
  it already had) and the round depends only on the gap between the two
  finals: the one endless chain (both sides overtaking each other with sixes)
  is a cycle of probability 1/36, solved as a linear equation;
- a level round is rolled again, so P(a wins) = P(a wins a round) /
  P(a round has a winner).

So the results are exact, better than the 1e-12 the interface asks for.
Results are cached (``functools.lru_cache``): a warm query is a dictionary
look-up.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

from rules.checks import OpposedRoll, TestRoll, _check_int, _check_mode
from rules.wounds import NO_EFFECTS, OUTCOMES, WoundEffects, wound_roll

ZERO = Fraction(0)
ONE = Fraction(1)
SIXTH = Fraction(1, 6)
# Probability that one die rerolled at every six ends on a '1' (II-A-1):
# 1/6 at once, or after k sixes: sum of 6**-(k+1) for k >= 1 = 1/30.
P_NATURAL_ONE = Fraction(1, 5)


# --- One die: the natural result (II-A-1) -------------------------------------


def natural_probability(natural: int) -> Fraction:
    """P(natural result = ``natural``) for one die rerolled at every six (II-A-1).

    A '1' after sixes makes the natural result 1, so 1 has probability 1/5;
    naturals 6k + m (m in 2..5) have 6**-(k+1); multiples of 6 and 6k + 1
    (k >= 1) never happen.
    """
    _check_int("natural", natural)
    if natural == 1:
        return P_NATURAL_ONE
    if natural < 2 or natural % 6 in (0, 1):
        return ZERO
    return Fraction(1, 6 ** (natural // 6 + 1))


@lru_cache(maxsize=1 << 16)
def natural_at_least(target: int) -> Fraction:
    """P(natural result >= ``target``) for one die rerolled at every six (II-A-1).

    Closed form: past the first band where every face 2..5 reaches the target,
    the rest is a geometric series.
    """
    _check_int("target", target)
    if target <= 1:
        return ONE
    # k: the first six-count whose every face 2..5 reaches the target.
    k = max(0, -(-(target - 2) // 6))
    tail = Fraction(4, 5) / 6**k  # sum over j >= k of 4 * 6**-(j+1)
    if k >= 1:
        partial = sum(1 for m in range(2, 6) if 6 * (k - 1) + m >= target)
        tail += Fraction(partial, 6**k)
    return tail


def natural_distribution(up_to: int = 30) -> dict[int, Fraction]:
    """P(natural = n) for n in 1..``up_to``, one die rerolled at every six.

    The naturals above ``up_to`` have together ``natural_at_least(up_to + 1)``
    (II-A-1).
    """
    if _check_int("up_to", up_to) < 1:
        raise ValueError("up_to must be at least 1.")
    return {n: natural_probability(n) for n in range(1, up_to + 1)}


# --- Tests against a difficulty (II-A-3) ---------------------------------------


def _target(value: int, difficulty: int) -> int:
    """The natural result needed: final >= difficulty and final > 0 (II-A-4)."""
    return max(difficulty, 1) - value


@lru_cache(maxsize=1 << 16)
def _reroll_success(natural: int, target: int) -> Fraction:
    """P(success) when a six showing at ``natural`` is rerolled, then
    "if_needed" (a six is kept once the test is won)."""
    total = Fraction(int(1 >= target))  # a '1' makes the natural 1 (II-A-1)
    total += sum(1 for g in range(2, 6) if natural + g >= target)
    total += _six_showing(natural + 6, target)
    return total * SIXTH


def _six_showing(natural: int, target: int) -> Fraction:
    # "if_needed": keep a six that already wins, reroll it otherwise.
    return ONE if natural >= target else _reroll_success(natural, target)


@lru_cache(maxsize=1 << 16)
def _test_success(target: int, reroll: str) -> Fraction:
    if target <= 1:
        return ONE
    if reroll == "never":
        return Fraction(max(0, 7 - target), 6)
    if reroll == "always":
        return natural_at_least(target)
    first = sum(1 for face in range(1, 6) if face >= target)
    return (first + _six_showing(6, target)) * SIXTH


def test_success(value: int, difficulty: int, *, reroll: str = "if_needed") -> Fraction:
    """P(a test of ``value`` against ``difficulty`` succeeds) (II-A-3).

    Same rules as ``rules.checks.characteristic_test``: sixes rerolled
    ``"always"``, ``"never"`` or ``"if_needed"`` (while not yet won); a final
    result of 0 or less fails (II-A-4).
    """
    _check_int("value", value)
    _check_int("difficulty", difficulty)
    return _test_success(_target(value, difficulty), _check_mode(reroll))


test_success.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


class SixChoice(tuple):
    """The odds of each choice when a six shows (II-A-1): ``reroll`` and
    ``keep``, each the probability of success (or of winning), assuming every
    later six is rerolled only while not yet won ("if_needed")."""

    __slots__ = ()

    def __new__(cls, reroll: Fraction, keep: Fraction) -> SixChoice:
        return super().__new__(cls, (reroll, keep))

    @property
    def reroll(self) -> Fraction:
        """Probability of success if the six is rerolled."""
        return self[0]

    @property
    def keep(self) -> Fraction:
        """Probability of success if the six is kept."""
        return self[1]

    @property
    def best(self) -> str:
        """``"reroll"`` or ``"keep"``, whichever has the better odds (keep on
        equal odds: a reroll risks a '1')."""
        return "reroll" if self.reroll > self.keep else "keep"

    def __repr__(self) -> str:
        return f"SixChoice(reroll={self.reroll!r}, keep={self.keep!r})"


def six_choice(value: int, difficulty: int, natural: int) -> SixChoice:
    """Odds of rerolling or keeping a six showing at ``natural`` (II-A-1, II-A-3).

    ``natural`` is the natural result so far, ending on that six (6, 12...).
    """
    _check_int("value", value)
    _check_int("difficulty", difficulty)
    if _check_int("natural", natural) < 6 or natural % 6:
        raise ValueError(
            f"A six showing makes a natural of 6, 12, 18..., not {natural}."
        )
    target = _target(value, difficulty)
    keep = ONE if natural >= target else ZERO
    return SixChoice(_reroll_success(natural, target), keep)


def test_choice(roll: TestRoll) -> SixChoice:
    """Odds of each choice for a ``TestRoll`` awaiting one (II-A-1, II-A-3)."""
    if not roll.awaiting_choice:
        raise ValueError("No six is waiting for a choice.")
    return six_choice(roll.value, roll.difficulty, roll.natural)


test_choice.__test__ = False  # type: ignore[attr-defined]


# --- Opposed tests (II-A-3) -----------------------------------------------------

# A round's value is a pair (P a wins the round, P the round is level).
_Pair = tuple[Fraction, Fraction]
_WIN: _Pair = (ONE, ZERO)
_TIE: _Pair = (ZERO, ONE)
_LOSS: _Pair = (ZERO, ZERO)


def _add(*pairs: _Pair) -> _Pair:
    return sum((p[0] for p in pairs), ZERO), sum((p[1] for p in pairs), ZERO)


def _scale(pair: _Pair, factor: Fraction) -> _Pair:
    return pair[0] * factor, pair[1] * factor


def _settled(gap: int) -> _Pair:
    if gap > 0:
        return _WIN
    return _TIE if gap == 0 else _LOSS


@lru_cache(maxsize=1 << 16)
def _if_needed_state(gap: int, pending_a: bool, pending_b: bool) -> _Pair:
    """A round under "if_needed": ``gap`` = final_a - final_b, each side maybe
    showing a six. Only the side behind rerolls, so its '1' always loses."""
    if pending_a and pending_b:
        return _both_pending(gap)
    if pending_a and gap < 0:
        return _a_rerolls(gap, pending_b=False)
    if pending_b and gap > 0:
        return _b_rerolls(gap, pending_a=False)
    return _settled(gap)  # the side showing a six is not behind: it keeps it


def _a_rerolls(gap: int, *, pending_b: bool) -> _Pair:
    # a's '1' loses; 2..5 end a's roll; a six keeps a pending.
    parts = [_if_needed_state(gap + g, False, pending_b) for g in range(2, 6)]
    return _scale(_add(*parts, _if_needed_state(gap + 6, True, pending_b)), SIXTH)


def _b_rerolls(gap: int, *, pending_a: bool) -> _Pair:
    parts = [_if_needed_state(gap - g, pending_a, False) for g in range(2, 6)]
    parts.append(_WIN)  # b's '1' loses
    return _scale(_add(*parts, _if_needed_state(gap - 6, pending_a, True)), SIXTH)


@lru_cache(maxsize=1 << 16)
def _both_pending(gap: int) -> _Pair:
    """Both sides show a six; the side behind decides first (II-A-3)."""
    if gap == 0:
        return _TIE  # neither is behind: both keep, the round is level
    if gap > 0 and gap - 6 >= 0:
        # b rerolls; b's six leaves b still behind or level.
        return _b_rerolls(gap, pending_a=True)
    if gap < 0 and gap + 6 <= 0:
        return _a_rerolls(gap, pending_b=True)
    # |gap| < 6: a six overtakes, and two sixes in turn come back to this gap:
    # X = c + (1/36) X, where c is everything but that double overtaking.
    if gap < 0:
        a_other = _scale(
            _add(*(_if_needed_state(gap + g, False, True) for g in range(2, 6))),
            SIXTH,
        )
        b_other = _scale(
            _add(
                _WIN, *(_if_needed_state(gap + 6 - g, True, False) for g in range(2, 6))
            ),
            SIXTH,
        )
        c = _add(a_other, _scale(b_other, SIXTH))
    else:
        b_other = _scale(
            _add(_WIN, *(_if_needed_state(gap - g, True, False) for g in range(2, 6))),
            SIXTH,
        )
        a_other = _scale(
            _add(*(_if_needed_state(gap - 6 + g, False, True) for g in range(2, 6))),
            SIXTH,
        )
        c = _add(b_other, _scale(a_other, SIXTH))
    return _scale(c, Fraction(36, 35))


def _if_needed_round(gap: int) -> _Pair:
    rounds = [
        _if_needed_state(gap + fa - fb, fa == 6, fb == 6)
        for fa, fb in product(range(1, 7), repeat=2)
    ]
    return _scale(_add(*rounds), Fraction(1, 36))


def _never_round(gap: int) -> _Pair:
    rounds = [_settled(gap + fa - fb) for fa, fb in product(range(1, 7), repeat=2)]
    return _scale(_add(*rounds), Fraction(1, 36))


def _pair_weight_tail(start: int) -> Fraction:
    """Sum over j >= start of w(j), w(j) = (36/35) * 6**-(|j|+2): the chance
    that two dice rerolled at every six, both ending on 2..5 (a given pair
    of last faces), had j more sixes on a's die than on b's."""
    total = ZERO
    j = start
    while j < 1:
        total += Fraction(36, 35) / 6 ** (abs(j) + 2)
        j += 1
    return total + Fraction(36, 35) / 6 ** (j + 2) * Fraction(6, 5)


def _always_beats(c: int) -> Fraction:
    """P(Na - Nb > c) for two independent dice rerolled at every six."""
    total = ZERO
    if c < 0:
        total += P_NATURAL_ONE**2  # both '1'
    # a's '1' against b's 2+: b must be below 1 - c.
    if 1 - c > 2:
        total += P_NATURAL_ONE * (natural_at_least(2) - natural_at_least(1 - c))
    total += P_NATURAL_ONE * natural_at_least(max(2, c + 2))  # b's '1'
    # Both 2+: Na = 6ja + ma, Nb = 6jb + mb, j = ja - jb; ma - mb in -3..3.
    high = (c + 3) // 6 + 1  # from here, every (ma, mb) pair wins
    low = (c - 3) // 6 + 1  # below this, none does
    for j in range(low, high):
        wins = sum(
            1 for ma, mb in product(range(2, 6), repeat=2) if 6 * j + ma - mb > c
        )
        total += wins * Fraction(36, 35) / 6 ** (abs(j) + 2)
    return total + 16 * _pair_weight_tail(high)


def _always_round(gap: int) -> _Pair:
    win = _always_beats(-gap)
    loss = _always_beats(gap)
    return win, ONE - win - loss


@lru_cache(maxsize=1 << 16)
def _opposed_win(gap: int, reroll: str) -> Fraction:
    if reroll == "never":
        win, tie = _never_round(gap)
    elif reroll == "always":
        win, tie = _always_round(gap)
    else:
        win, tie = _if_needed_round(gap)
    return win / (1 - tie)  # a level round is rolled again


def opposed_win(value_a: int, value_b: int, *, reroll: str = "if_needed") -> Fraction:
    """P(a wins an opposed test of ``value_a`` against ``value_b``) (II-A-3).

    Same rules as ``rules.checks.opposed_test``. Only the difference of the
    values matters. Exact (see the module docstring).
    """
    _check_int("value_a", value_a)
    _check_int("value_b", value_b)
    return _opposed_win(value_a - value_b, _check_mode(reroll))


def opposed_choice(roll: OpposedRoll) -> SixChoice:
    """Odds of each choice for the side deciding in an ``OpposedRoll`` (II-A-3).

    The probability that the deciding side wins the whole test if it rerolls
    or keeps its six, every later six being rerolled only while behind.
    """
    side = roll.deciding
    if side is None:
        raise ValueError("No six is waiting for a decision.")
    fresh = opposed_win(roll.value_a, roll.value_b)
    gap = roll.final_a - roll.final_b
    sign = 1 if side == "a" else -1
    other_pending = roll.pending("b" if side == "a" else "a")

    def state(new_gap: int, still_pending: bool) -> _Pair:
        if side == "a":
            return _if_needed_state(new_gap, still_pending, other_pending)
        return _if_needed_state(new_gap, other_pending, still_pending)

    def chance(pair: _Pair) -> Fraction:
        a_wins = pair[0] + pair[1] * fresh
        return a_wins if side == "a" else 1 - a_wins

    keep = chance(state(gap, False))
    own_final = roll.final_a if side == "a" else roll.final_b
    own_value = roll.value_a if side == "a" else roll.value_b
    # A '1' makes the natural 1 (II-A-1): the final drops to value + 1.
    outcomes = [state(gap + sign * (own_value + 1 - own_final), False)]
    outcomes += [state(gap + sign * g, False) for g in range(2, 6)]
    outcomes.append(state(gap + sign * 6, True))
    reroll = sum((chance(pair) for pair in outcomes), ZERO) * SIXTH
    return SixChoice(reroll, keep)


# --- Wound rolls (II-B) -----------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _wound_outcomes(
    strength: int,
    resistance: int,
    amplified: int,
    attenuated: int,
    column_shift: int,
    row_shift: int,
    effects: WoundEffects,
) -> tuple[tuple[str, Fraction], ...]:
    dice = 2 if amplified == attenuated else 3
    counts = dict.fromkeys(OUTCOMES, 0)
    for faces in product(range(1, 7), repeat=dice):
        result = wound_roll(
            faces,
            strength,
            resistance,
            amplified=amplified,
            attenuated=attenuated,
            column_shift=column_shift,
            row_shift=row_shift,
            effects=effects,
        )
        counts[result.outcome] += 1
    return tuple((outcome, Fraction(n, 6**dice)) for outcome, n in counts.items())


def wound_outcomes(
    strength: int,
    resistance: int,
    *,
    amplified: int = 0,
    attenuated: int = 0,
    column_shift: int = 0,
    row_shift: int = 0,
    effects: WoundEffects = NO_EFFECTS,
) -> dict[str, Fraction]:
    """P(each outcome) of a wound roll of FOR ``strength`` on RES ``resistance``.

    Over the six outcome words (``rules.wounds.OUTCOMES``), summing to 1;
    every 2 (or 3, II-B-6) dice are enumerated with ``rules.wounds.wound_roll``
    (II-B-1), so the same effects apply.
    """
    for name, number in (
        ("strength", strength),
        ("resistance", resistance),
        ("amplified", amplified),
        ("attenuated", attenuated),
        ("column_shift", column_shift),
        ("row_shift", row_shift),
    ):
        _check_int(name, number)
    if amplified < 0 or attenuated < 0:
        raise ValueError("amplified and attenuated count effects: 0 or more.")
    return dict(
        _wound_outcomes(
            strength,
            resistance,
            amplified,
            attenuated,
            column_shift,
            row_shift,
            effects,
        )
    )


def cache_clear() -> None:
    """Forget every cached result (for cold timings in the benchmark)."""
    for cached in (
        natural_at_least,
        _reroll_success,
        _test_success,
        _if_needed_state,
        _both_pending,
        _opposed_win,
        _wound_outcomes,
    ):
        cached.cache_clear()
