"""Exact odds (rules.odds) against hand counts and exhaustive enumeration.

The enumerations run the real rules (``rules.checks``, ``rules.wounds``) over
every sequence of faces, so the odds and the rules cannot drift apart. Where a
chain of sixes is unbounded the enumeration stops at a depth and the odds must
fall inside the bounds left by the probability not yet resolved.
"""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import checks, odds, wounds
from rules.checks import OpposedRoll, TestRoll
from rules.dice import DiceExhausted, ScriptedDice

MODES = checks.REROLL_MODES
SIXTH = Fraction(1, 6)


def _test_policy(mode):
    return {
        "always": lambda roll: True,
        "never": lambda roll: False,
        "if_needed": lambda roll: not roll.winning,
    }[mode]


def _opposed_policy(mode):
    return {
        "always": lambda roll: True,
        "never": lambda roll: False,
        "if_needed": lambda roll: roll.behind == roll.deciding,
    }[mode]


def enumerate_test(value, difficulty, mode, depth=8):
    """(P success, P unresolved) over every face sequence up to ``depth`` dice."""
    choose = _test_policy(mode)
    success = unresolved = Fraction(0)

    def walk(roll, prob, dice_left):
        nonlocal success, unresolved
        if roll.finished:
            success += prob * roll.winning
        elif not choose(roll):
            walk(roll.decide(False), prob, dice_left)
        elif dice_left == 0:
            unresolved += prob
        else:
            for face in range(1, 7):
                walk(
                    roll.decide(True, ScriptedDice([face])), prob * SIXTH, dice_left - 1
                )

    for face in range(1, 7):
        walk(TestRoll(value, difficulty, (face,)), SIXTH, depth - 1)
    return success, unresolved


def enumerate_round(roll, choose, prob, depth, first_choice=None):
    """(P a wins, P level, P unresolved) of the round ``roll`` is in."""
    win = level = unresolved = Fraction(0)

    def walk(roll, prob, dice_left, forced=None):
        nonlocal win, level, unresolved
        if roll.deciding is None:
            if roll.rounds:
                final_a, final_b = roll.rounds[-1]
            else:
                final_a, final_b = roll.final_a, roll.final_b
            win += prob * (final_a > final_b)
            level += prob * (final_a == final_b)
            return
        reroll = choose(roll) if forced is None else forced
        if not reroll:
            try:
                after = roll.decide(False, ScriptedDice([]))
            except DiceExhausted:  # the round ended level: a new one is rolled
                level += prob
                return
            walk(after, prob, dice_left)
        elif dice_left == 0:
            unresolved += prob
        else:
            for face in range(1, 7):
                try:
                    after = roll.decide(True, ScriptedDice([face]))
                except DiceExhausted:
                    level += prob * SIXTH
                    continue
                walk(after, prob * SIXTH, dice_left - 1)

    walk(roll, prob, depth, first_choice)
    return win, level, unresolved


def enumerate_opposed(value_a, value_b, mode, depth=6):
    """Bounds (low, high) on P(a wins), from one round enumerated."""
    choose = _opposed_policy(mode)
    win = level = unresolved = Fraction(0)
    for face_a, face_b in product(range(1, 7), repeat=2):
        roll = OpposedRoll(value_a, value_b, (face_a,), (face_b,))
        w, t, u = enumerate_round(roll, choose, Fraction(1, 36), depth)
        win, level, unresolved = win + w, level + t, unresolved + u
    return win / (1 - level), (win + unresolved) / (1 - level - unresolved)


# --- The natural result of one die (II-A-1) -----------------------------------


def test_II_A_1_a_natural_1_has_probability_one_fifth_counting_1s_after_sixes():
    assert odds.natural_probability(1) == Fraction(1, 5)


def test_II_A_1_naturals_6_and_7_are_impossible_and_8_needs_one_six():
    assert odds.natural_probability(6) == 0
    assert odds.natural_probability(7) == 0
    assert odds.natural_probability(8) == Fraction(1, 36)
    assert odds.natural_probability(16) == Fraction(1, 216)


def test_the_natural_distribution_and_its_tail_sum_to_1():
    distribution = odds.natural_distribution(40)
    assert sum(distribution.values()) + odds.natural_at_least(41) == 1


@pytest.mark.parametrize("target", range(-2, 40))
def test_natural_at_least_is_the_sum_of_the_distribution_above(target):
    below = sum(odds.natural_probability(n) for n in range(1, max(target, 1)))
    assert odds.natural_at_least(target) == 1 - below


# --- Tests against a difficulty (II-A-3) --------------------------------------


def test_II_A_3_DIS_4_against_7_succeeds_on_3_or_more_four_chances_in_six():
    assert odds.test_success(4, 7, reroll="never") == Fraction(4, 6)
    assert odds.test_success(4, 7) == Fraction(4, 6)


def test_II_A_4_a_final_0_fails_so_value_minus_2_needs_a_3_even_at_difficulty_0():
    assert odds.test_success(-2, 0, reroll="never") == Fraction(4, 6)


def test_a_test_needing_more_than_6_succeeds_only_through_sixes():
    # Needing 7: a six then anything but a '1'.
    assert odds.test_success(0, 7) == Fraction(1, 6) * Fraction(5, 6)
    assert odds.test_success(0, 7, reroll="never") == 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("value", [-5, -1, 0, 2, 4])
@pytest.mark.parametrize("difficulty", [0, 1, 4, 6, 7, 9, 12, 13, 19])
def test_test_success_agrees_with_every_sequence_of_faces(mode, value, difficulty):
    success, unresolved = enumerate_test(value, difficulty, mode)
    exact = odds.test_success(value, difficulty, reroll=mode)
    if mode == "always":
        assert success <= exact <= success + unresolved
        assert unresolved < Fraction(1, 6**7)
    else:
        assert unresolved == 0
        assert exact == success


def test_a_six_that_does_not_win_yet_is_better_rerolled():
    choice = odds.six_choice(3, 10, 6)
    assert choice.keep == 0
    assert choice.reroll == Fraction(5, 6)  # anything but a '1' reaches 10
    assert choice.best == "reroll"


def test_a_six_that_already_wins_is_better_kept_a_1_would_lose_it():
    choice = odds.six_choice(3, 9, 6)
    assert choice == odds.SixChoice(reroll=Fraction(5, 6), keep=Fraction(1))
    assert choice.best == "keep"


def test_the_choice_odds_of_a_test_roll_match_six_choice():
    roll = TestRoll.start(2, 12, ScriptedDice([6]))
    assert odds.test_choice(roll) == odds.six_choice(2, 12, 6)


@pytest.mark.parametrize("value", range(-3, 8))
@pytest.mark.parametrize("difficulty", range(0, 20, 3))
def test_if_needed_is_the_better_choice_at_the_first_six(value, difficulty):
    choice = odds.six_choice(value, difficulty, 6)
    first = sum(
        1 for face in range(1, 6) if checks.is_success(face + value, difficulty)
    )
    best = max(choice.reroll, choice.keep)
    assert odds.test_success(value, difficulty) == (first + best) * SIXTH


def test_six_choice_refuses_a_natural_that_is_no_six():
    with pytest.raises(ValueError, match="6, 12, 18"):
        odds.six_choice(3, 9, 5)


# --- Opposed tests (II-A-3) ---------------------------------------------------


def test_equal_values_win_half_the_time_in_every_mode():
    for mode in MODES:
        assert odds.opposed_win(3, 3, reroll=mode) == Fraction(1, 2)


def test_without_rerolls_one_more_point_wins_21_out_of_31():
    # Of 36 pairs, a wins 21, loses 10, 5 are level and rolled again.
    assert odds.opposed_win(1, 0, reroll="never") == Fraction(21, 31)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("gap", [-9, -6, -5, -3, -1, 1, 2, 4, 5, 6, 7, 11])
def test_opposed_win_agrees_with_every_sequence_of_faces(mode, gap):
    low, high = enumerate_opposed(gap, 0, mode)
    exact = odds.opposed_win(gap, 0, reroll=mode)
    assert low <= exact <= high
    assert high - low < Fraction(1, 10**4)
    if mode == "never":
        assert low == high == exact


@pytest.mark.parametrize("mode", MODES)
def test_only_the_difference_of_the_values_matters(mode):
    assert odds.opposed_win(7, 4, reroll=mode) == odds.opposed_win(3, 0, reroll=mode)


def test_the_side_deciding_sees_the_odds_of_rerolling_and_keeping():
    # a (2 + 6 = 8) is behind b (3 + 6 = 9): keeping loses unless b then errs;
    # rerolling gives a its chances.
    roll = OpposedRoll.start(2, 3, ScriptedDice([6, 6]))
    choice = odds.opposed_choice(roll)
    win, level, unresolved = enumerate_round(
        roll, _opposed_policy("if_needed"), Fraction(1), depth=10, first_choice=True
    )
    fresh = odds.opposed_win(2, 3)
    assert abs(choice.reroll - (win + level * fresh)) <= unresolved
    assert choice.keep == 0
    assert choice.best == "reroll"


@pytest.mark.parametrize(("faces", "first"), [([6, 3], True), ([6, 3], False)])
def test_opposed_choice_matches_enumeration_even_for_a_risky_reroll(faces, first):
    # a (1 + 6 = 7) is ahead of b (3 + 3 = 6): rerolling risks a '1'.
    roll = OpposedRoll.start(1, 3, ScriptedDice(faces))
    choice = odds.opposed_choice(roll)
    win, level, _ = enumerate_round(
        roll, _opposed_policy("if_needed"), Fraction(1), depth=10, first_choice=first
    )
    expected = win + level * odds.opposed_win(1, 3)
    assert (choice.reroll if first else choice.keep) == expected
    assert choice.keep == 1


# --- Wound rolls (II-B) -------------------------------------------------------


def test_II_B_1_the_Alahan_guard_on_a_goblin_bushi_odds():
    outcomes = odds.wound_outcomes(3, 5)
    assert set(outcomes) == set(wounds.OUTCOMES)
    assert outcomes["killed"] >= Fraction(1, 36)  # at least the double six
    assert sum(outcomes.values()) == 1


def test_II_B_1_a_double_six_is_the_only_kill_far_below_the_resistance():
    assert odds.wound_outcomes(0, 30)["killed"] == Fraction(1, 36)


def test_II_B_6_an_amplified_roll_kills_more_often_than_a_plain_one():
    plain = odds.wound_outcomes(3, 5)["killed"]
    assert odds.wound_outcomes(3, 5, amplified=1)["killed"] > plain
    assert odds.wound_outcomes(3, 5, attenuated=1)["killed"] < plain
    assert odds.wound_outcomes(3, 5, amplified=1, attenuated=1) == odds.wound_outcomes(
        3, 5
    )


def test_wound_outcomes_count_every_pair_of_dice():
    counts = {outcome: 0 for outcome in wounds.OUTCOMES}
    for faces in product(range(1, 7), repeat=2):
        counts[wounds.wound_roll(faces, 4, 3).outcome] += 1
    assert odds.wound_outcomes(4, 3) == {o: Fraction(n, 36) for o, n in counts.items()}


def test_the_cached_odds_cannot_be_changed_by_a_caller():
    odds.wound_outcomes(4, 3)["killed"] = Fraction(1)
    assert odds.wound_outcomes(4, 3)["killed"] < 1


# --- Illegal arguments --------------------------------------------------------


def test_odds_refuse_an_unknown_reroll_mode():
    with pytest.raises(ValueError, match="reroll must be one of"):
        odds.test_success(3, 7, reroll="maybe")
    with pytest.raises(ValueError, match="reroll must be one of"):
        odds.opposed_win(3, 7, reroll="maybe")


def test_odds_refuse_values_that_are_not_whole_numbers():
    with pytest.raises(ValueError, match="whole number"):
        odds.test_success("3", 7)
    with pytest.raises(ValueError, match="whole number"):
        odds.wound_outcomes(3.0, 5)


# --- Properties ---------------------------------------------------------------

values = st.integers(-8, 18)
modes = st.sampled_from(MODES)


@given(values, st.integers(-3, 30), modes)
def test_a_test_is_no_harder_with_more_value_and_no_easier_with_more_difficulty(
    value, difficulty, mode
):
    chance = odds.test_success(value, difficulty, reroll=mode)
    assert 0 <= chance <= 1
    assert odds.test_success(value + 1, difficulty, reroll=mode) >= chance
    assert odds.test_success(value, difficulty + 1, reroll=mode) <= chance


@given(values, values, modes)
def test_opposed_odds_of_both_sides_sum_to_1(value_a, value_b, mode):
    a_wins = odds.opposed_win(value_a, value_b, reroll=mode)
    assert a_wins + odds.opposed_win(value_b, value_a, reroll=mode) == 1
    if mode != "if_needed":  # see the test below
        assert odds.opposed_win(value_a + 1, value_b, reroll=mode) >= a_wins


def test_if_needed_keeps_a_level_six_so_a_lead_of_5_beats_a_lead_of_6():
    # With a lead of 5, a's '1' against b's six is level: b, not behind,
    # keeps its six and the round is rolled again instead of b rerolling.
    assert odds.opposed_win(5, 0) > odds.opposed_win(6, 0)
    assert odds.opposed_win(5, 0, reroll="always") < odds.opposed_win(
        6, 0, reroll="always"
    )


@given(st.integers(-5, 20), st.integers(1, 12), st.integers(0, 2), st.integers(0, 2))
def test_wound_probabilities_sum_to_1(strength, resistance, amplified, attenuated):
    outcomes = odds.wound_outcomes(
        strength, resistance, amplified=amplified, attenuated=attenuated
    )
    assert list(outcomes) == list(wounds.OUTCOMES)
    assert sum(outcomes.values()) == 1


@given(st.integers(-10, 15))
def test_a_higher_strength_never_makes_wounds_lighter_on_average(gap):
    weaker = odds.wound_outcomes(5 + gap, 5)
    stronger = odds.wound_outcomes(6 + gap, 5)
    for rank in range(len(wounds.OUTCOMES)):
        heavier = wounds.OUTCOMES[rank:]
        assert sum(stronger[o] for o in heavier) >= sum(weaker[o] for o in heavier)
