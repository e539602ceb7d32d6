"""Characteristic tests (II-A): the seed's worked examples, then the edges."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import checks
from rules.dice import DiceExhausted, ScriptedDice, SeededDice

# --- II-A: the worked examples of the seed ------------------------------------


def test_II_A_an_INI_3_fighter_rolling_4_has_a_final_result_of_7():
    result = checks.characteristic_test(3, 7, ScriptedDice([4]))
    assert (result.natural, result.final, result.success) == (4, 7, True)


def test_II_A_1_six_six_four_gives_a_natural_16_and_a_final_21_with_ATT_5():
    result = checks.characteristic_test(5, 30, ScriptedDice([6, 6, 4]), reroll="always")
    assert result.faces == (6, 6, 4)
    assert (result.natural, result.final) == (16, 21)


def test_II_A_1_three_sixes_then_a_one_gives_natural_1():
    assert checks.natural_result([6, 6, 6, 1]) == 1
    result = checks.characteristic_test(3, 30, ScriptedDice([6, 6, 6, 1]))
    assert (result.natural, result.final) == (1, 4)


def test_II_A_1_natural_results_as_the_interface_shows_them():
    assert checks.natural_result([6, 6, 4]) == 16
    assert checks.natural_result([3]) == 3
    assert checks.natural_result([1]) == 1
    assert checks.natural_result([6]) == 6


@given(st.integers(-10, 30))
def test_II_A_1_the_lowest_final_result_is_the_value_plus_one_and_is_reached(value):
    """A natural '1' is no failure: no roll goes below value + 1, one reaches it."""
    lowest = checks.lowest_final_result(value)
    assert lowest == value + 1
    assert value + checks.natural_result([1]) == lowest
    assert all(value + checks.natural_result([f]) >= lowest for f in range(1, 7))


def test_II_A_2_rerolling_both_sixes_of_4d6_to_1_and_3_keeps_9():
    assert checks.best_of([[1], [4], [6, 1], [6, 3]]) == 9


def test_II_A_2_rerolling_both_sixes_of_4d6_to_1_and_1_keeps_1_the_4_is_lost():
    assert checks.best_of([[1], [4], [6, 1], [6, 1]]) == 1


def test_II_A_2_keeping_a_six_without_rerolling_gives_6():
    assert checks.best_of([[1], [4], [6], [6]]) == 6


def test_II_A_2_a_die_that_stopped_rerolling_is_lost_to_one_rerolled_further():
    assert checks.best_of([[6, 6, 5], [6, 6, 6, 2]]) == 20
    assert checks.best_of([[6, 5], [6, 6, 1]]) == 1


def test_II_A_3_DIS_4_needs_a_3_for_difficulty_7():
    assert not checks.characteristic_test(4, 7, ScriptedDice([2])).success
    assert checks.characteristic_test(4, 7, ScriptedDice([3])).success


def test_II_A_3_the_Dirz_halberdier_beats_the_goblin_marauder_7_to_6():
    result = checks.opposed_test(2, 3, ScriptedDice([5, 3]))
    assert result.winner == "a"
    assert result.rounds == [(7, 6)]


def test_II_A_3_a_level_opposed_test_is_rolled_again():
    result = checks.opposed_test(2, 3, ScriptedDice([4, 3, 2, 5]))
    assert result.rounds == [(6, 6), (4, 8)]
    assert result.winner == "b"


def test_II_A_3_with_two_sixes_the_side_behind_decides_first():
    # a: 2 + 6 = 8 is behind b: 3 + 6 = 9, so a rerolls first (a 6: 14),
    # then b, now behind, rerolls (a 2: 11); a, ahead, keeps its six.
    roll = checks.OpposedRoll.start(2, 3, ScriptedDice([6, 6]))
    assert roll.deciding == "a"
    roll = roll.decide(True, ScriptedDice([6]))
    assert (roll.final_a, roll.final_b, roll.deciding) == (14, 9, "b")
    roll = roll.decide(True, ScriptedDice([2]))
    assert (roll.final_b, roll.deciding) == (11, "a")
    roll = roll.decide(False, ScriptedDice([]))
    assert roll.result().winner == "a"
    assert roll.result().decisions == (True, True, False)


def test_II_A_3_if_needed_draws_a_then_b_then_rerolls_in_the_order_decided():
    result = checks.opposed_test(2, 3, ScriptedDice([6, 6, 6, 2]))
    assert result.rounds == [(14, 11)]
    assert result.faces == (6, 6, 6, 2)


def test_II_A_3_if_needed_the_side_ahead_keeps_its_six():
    result = checks.opposed_test(3, 0, ScriptedDice([6, 4]))
    assert result.rounds == [(9, 4)]


def test_II_A_3_if_needed_two_level_sixes_are_kept_and_rolled_again():
    result = checks.opposed_test(3, 3, ScriptedDice([6, 6, 2, 1]))
    assert result.rounds == [(9, 9), (5, 4)]


def test_II_A_3_always_rerolls_every_six_behind_side_first():
    # a (8) behind b (9): a's reroll first (5: 13), then b's (1: natural 1).
    result = checks.opposed_test(2, 3, ScriptedDice([6, 6, 5, 1]), reroll="always")
    assert result.rounds == [(13, 4)]


def test_II_A_3_never_keeps_every_six():
    result = checks.opposed_test(2, 3, ScriptedDice([6, 6]), reroll="never")
    assert result.rounds == [(8, 9)]
    assert result.decisions == (False, False)


def test_II_A_4_ATT_3_in_Blessure_grave_rolling_4_gives_5():
    attack = checks.current_value(3, maluses=[2], characteristic="ATT")
    assert attack == 1
    assert checks.characteristic_test(attack, 1, ScriptedDice([4])).final == 5


def test_II_A_4_ATT_1_in_Blessure_critique_rolling_2_fails_at_0():
    attack = checks.current_value(1, maluses=[-3], characteristic="ATT")
    assert attack == -2
    result = checks.characteristic_test(attack, 0, ScriptedDice([2]))
    assert (result.final, result.success) == (0, False)


def test_II_A_4_a_negative_final_result_fails_even_against_difficulty_0():
    assert not checks.characteristic_test(-5, -10, ScriptedDice([3])).success


def test_II_A_4_replacement_comes_before_maluses_and_bonuses():
    assert checks.current_value(3, replace=6, maluses=[2], bonuses=[1]) == 5


def test_II_A_4_movement_never_goes_below_0_and_resistance_below_1():
    assert checks.current_value(2, maluses=[5], characteristic="MOU") == 0
    assert checks.current_value(2, maluses=[5], characteristic="RES") == 1
    assert checks.current_value(2, maluses=[5], characteristic="ATT") == -3


def test_II_A_4_divisions_round_up():
    assert checks.divide_round_up(7, 2) == 4
    assert checks.divide_round_up(6, 2) == 3
    assert checks.divide_round_up(-3, 2) == -1
    assert checks.halve(5) == 3


# --- Reroll modes against a difficulty ----------------------------------------


def test_if_needed_keeps_a_six_that_already_wins():
    result = checks.characteristic_test(3, 9, ScriptedDice([6, 1]))
    assert result.faces == (6,)
    assert result.success


def test_if_needed_rerolls_a_six_that_does_not_win_yet():
    result = checks.characteristic_test(3, 10, ScriptedDice([6, 1]))
    assert result.faces == (6, 1)
    assert not result.success


def test_never_keeps_the_first_six():
    result = checks.characteristic_test(0, 10, ScriptedDice([6, 6]), reroll="never")
    assert result.faces == (6,)


def test_always_rerolls_a_winning_six_and_can_lose_it_to_a_one():
    result = checks.characteristic_test(3, 9, ScriptedDice([6, 1]), reroll="always")
    assert (result.natural, result.success) == (1, False)


def test_a_player_can_decide_each_six_step_by_step():
    roll = checks.TestRoll.start(2, 12, ScriptedDice([6]))
    assert roll.awaiting_choice and not roll.winning
    roll = roll.decide(True, ScriptedDice([6]))
    assert roll.awaiting_choice and roll.winning and roll.final == 14
    roll = roll.decide(False)
    assert roll.finished
    assert roll.result() == checks.TestResult((6, 6), 12, 14, True)


def test_recorded_faces_rebuild_the_same_result():
    assert checks.test_from_faces(2, 12, [6, 6]).final == 14
    assert checks.test_from_faces(2, 12, [6, 6, 3]).natural == 15


def test_a_recorded_opposed_test_replays_to_the_same_result():
    original = checks.opposed_test(1, 1, SeededDice("replay"), reroll="always")
    replayed = checks.replay_opposed(1, 1, original.faces, original.decisions)
    assert replayed == original


# --- Illegal arguments ----------------------------------------------------------


@pytest.mark.parametrize("faces", [[], [4, 2], [6, 6, 3, 6, 1], [0], [7], [6, True]])
def test_natural_result_refuses_impossible_rolls(faces):
    with pytest.raises(ValueError):
        checks.natural_result(faces)


def test_best_of_refuses_no_dice():
    with pytest.raises(ValueError, match="at least one die"):
        checks.best_of([])


def test_an_unknown_reroll_mode_is_refused_with_the_modes_listed():
    with pytest.raises(ValueError, match="always, never, if_needed"):
        checks.characteristic_test(3, 7, ScriptedDice([4]), reroll="sometimes")


def test_a_value_that_is_not_a_whole_number_is_refused():
    with pytest.raises(ValueError, match="whole number"):
        checks.characteristic_test(3.5, 7, ScriptedDice([4]))


def test_deciding_without_a_six_showing_is_refused():
    roll = checks.TestRoll.start(3, 7, ScriptedDice([4]))
    with pytest.raises(ValueError, match="six"):
        roll.decide(True, ScriptedDice([3]))


def test_a_result_before_the_last_six_is_decided_is_refused():
    roll = checks.TestRoll.start(3, 7, ScriptedDice([6]))
    with pytest.raises(ValueError, match="not finished"):
        roll.result()


def test_dividing_by_zero_is_refused():
    with pytest.raises(ValueError, match="positive"):
        checks.divide_round_up(3, 0)


def test_running_out_of_scripted_dice_is_reported():
    with pytest.raises(DiceExhausted):
        checks.characteristic_test(0, 20, ScriptedDice([6]))


# --- Properties -----------------------------------------------------------------

one_die = st.lists(st.just(6), max_size=5).flatmap(
    lambda sixes: st.integers(1, 6).map(lambda last: [*sixes, last])
)
modes = st.sampled_from(checks.REROLL_MODES)
values = st.integers(-8, 15)


@given(one_die)
def test_natural_results_are_at_least_1(faces):
    assert checks.natural_result(faces) >= 1


@given(st.lists(one_die, min_size=1, max_size=5))
def test_the_kept_natural_is_one_of_the_dice_still_in_play(dice_faces):
    kept = checks.best_of(dice_faces)
    assert kept in {checks.natural_result(faces) for faces in dice_faces}


@given(values, st.integers(-5, 25), modes, st.integers(0, 10**6))
def test_replaying_the_same_scripted_dice_gives_the_same_test(
    value, difficulty, mode, seed
):
    first = checks.characteristic_test(value, difficulty, SeededDice(seed), reroll=mode)
    again = checks.characteristic_test(
        value, difficulty, ScriptedDice(first.faces), reroll=mode
    )
    assert again == first
    assert checks.test_from_faces(value, difficulty, first.faces) == first
    assert first.success == (first.final > 0 and first.final >= difficulty)


@given(values, values, modes, st.integers(0, 10**6))
def test_replaying_the_same_scripted_dice_gives_the_same_opposed_test(
    value_a, value_b, mode, seed
):
    first = checks.opposed_test(value_a, value_b, SeededDice(seed), reroll=mode)
    again = checks.opposed_test(
        value_a, value_b, ScriptedDice(first.faces), reroll=mode
    )
    assert again == first
    final_a, final_b = first.rounds[-1]
    assert first.winner == ("a" if final_a > final_b else "b")
    assert all(a == b for a, b in first.rounds[:-1])


@given(
    st.integers(-10, 10),
    st.lists(st.integers(-5, 5), max_size=4),
    st.lists(st.integers(-5, 5), max_size=4),
)
def test_a_current_value_is_the_base_less_maluses_plus_bonuses(base, maluses, bonuses):
    value = checks.current_value(base, maluses=maluses, bonuses=bonuses)
    assert value == base - sum(map(abs, maluses)) + sum(map(abs, bonuses))
    assert checks.current_value(base, maluses=maluses, characteristic="RES") >= 1
