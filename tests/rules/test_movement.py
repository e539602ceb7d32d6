"""Movement distances and disengagement (initiation rules, seed 004)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice
from rules.errors import IllegalAction
from rules.movement import (
    Adversary,
    DisengageMethod,
    Disengager,
    attempt_disengagement,
    disengage_difficulty,
    disengagement_plan,
    engagement_distance_cm,
    run_distance_cm,
    walk_distance_cm,
)
from rules.size import Size


def test_initiation_deplacements_walk_run_and_engagement_distances():
    assert walk_distance_cm(10) == 10
    assert run_distance_cm(10) == 20
    assert engagement_distance_cm(10) == 20
    assert engagement_distance_cm(10, after_disengagement=True) == 10


def test_II_A_4_a_negative_current_mou_counts_as_zero():
    assert walk_distance_cm(-2) == 0
    assert run_distance_cm(-2) == 0


@pytest.mark.parametrize("adversaries, difficulty", [(1, 6), (2, 8), (3, 10), (4, 12)])
def test_initiation_desengagement_difficulty_is_4_plus_2_per_adversary(
    adversaries, difficulty
):
    assert disengage_difficulty(adversaries) == difficulty


def test_disengage_difficulty_needs_at_least_one_adversary():
    with pytest.raises(ValueError):
        disengage_difficulty(0)
    with pytest.raises(ValueError):
        disengage_difficulty(True)


def fighter(**overrides):
    values = dict(ini=3, strength=5, size="large", mou=10)
    values.update(overrides)
    return Disengager(**values)


def test_a_fighter_engaged_during_this_phase_cannot_disengage():
    plan = disengagement_plan(
        fighter(engaged_this_phase=True), [Adversary("normal", 3)], "INI"
    )
    assert not plan.possible
    assert "engaged during this activation phase" in plan.reasons[0]


def test_a_fighter_without_a_free_side_cannot_disengage():
    plan = disengagement_plan(fighter(free_side=False), [Adversary("normal", 3)])
    assert not plan.possible
    assert "free" in plan.reasons[0]


def test_disengagement_by_initiative_uses_ini_against_4_plus_2_per_adversary():
    plan = disengagement_plan(fighter(), [Adversary("normal", 3)] * 2, "INI")
    assert plan.possible
    assert (plan.value, plan.difficulty) == (3, 8)


def test_disengagement_by_force_subtracts_the_highest_res_in_contact():
    adversaries = [Adversary("normal", 2), Adversary("small", 3)]
    plan = disengagement_plan(fighter(strength=5), adversaries, DisengageMethod.FOR)
    assert plan.possible
    assert (plan.value, plan.difficulty) == (2, 8)


def test_disengagement_by_force_needs_a_larger_size_than_every_adversary():
    adversaries = [Adversary("normal", 2), Adversary("large", 2)]
    plan = disengagement_plan(fighter(size="large"), adversaries, "FOR")
    assert not plan.possible
    assert "larger than every adversary" in plan.reasons[0]


def test_disengagement_by_force_is_impossible_when_for_minus_res_is_0():
    plan = disengagement_plan(fighter(strength=4), [Adversary("normal", 4)], "FOR")
    assert not plan.possible
    assert plan.value == 0
    assert "0 or less" in plan.reasons[0]


def test_a_successful_disengagement_moves_mou_x_1():
    attempt = attempt_disengagement(
        fighter(ini=3), [Adversary("normal", 3)], "INI", ScriptedDice([3])
    )
    assert attempt.success
    assert attempt.move_cm == 10
    assert not attempt.all_dice_in_defence


def test_a_failed_disengagement_puts_all_combat_dice_in_defence():
    attempt = attempt_disengagement(
        fighter(ini=3), [Adversary("normal", 3)], "INI", ScriptedDice([2])
    )
    assert not attempt.success
    assert attempt.move_cm == 0
    assert attempt.all_dice_in_defence


def test_a_forbidden_disengagement_raises_and_rolls_nothing():
    dice = ScriptedDice([6])
    with pytest.raises(IllegalAction, match="larger than every adversary"):
        attempt_disengagement(
            fighter(size="normal"), [Adversary("normal", 1)], "FOR", dice
        )
    assert dice.used == 0


def test_sizes_are_ordered_small_to_titan():
    assert Size.SMALL < Size.NORMAL < Size.LARGE < Size.VERY_LARGE < Size.TITAN
    assert sorted(["titan", "small", "large"], key=Size) == ["small", "large", "titan"]
    assert Size("large") > "normal"


@given(st.integers(-5, 20))
def test_run_and_engagement_are_twice_a_walk(mou):
    assert (
        run_distance_cm(mou) == engagement_distance_cm(mou) == 2 * walk_distance_cm(mou)
    )
