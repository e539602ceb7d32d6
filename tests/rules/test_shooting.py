"""Shooting: range bands, conditions, the split roll (initiation rules, "Tir")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice
from rules.shooting import (
    Shooter,
    Weapon,
    resolve_shot,
    shooting_problems,
    shot_difficulty,
    shot_wound,
    split_roll,
)

ARC = (20, 40, 60)


@pytest.mark.parametrize(
    "distance, difficulty",
    [(0, 4), (5, 4), (20, 4), (21, 7), (30, 7), (40, 7), (41, 10), (60, 10)],
)
def test_initiation_tir_arc_20_40_60_example(distance, difficulty):
    assert shot_difficulty(distance, ARC) == difficulty


def test_initiation_tir_arc_20_40_60_cannot_hit_beyond_60_cm():
    assert shot_difficulty(61, ARC) is None
    assert shot_difficulty(60.01, ARC) is None


def test_a_fractional_distance_past_a_bound_is_in_the_next_band():
    assert shot_difficulty(20.5, ARC) == 7
    assert shot_difficulty(40.5, ARC) == 10
    assert shot_difficulty(19.9, ARC) == 4


def test_ranges_must_go_short_medium_long():
    with pytest.raises(ValueError):
        shot_difficulty(10, (40, 20, 60))
    with pytest.raises(ValueError):
        shot_difficulty(10, (20, 40))
    with pytest.raises(ValueError):
        shot_difficulty(-1, ARC)
    assert shot_difficulty(10, (10, 10, 30)) == 4


@given(
    st.floats(0, 200, allow_nan=False),
    st.integers(0, 60),
    st.integers(0, 60),
    st.integers(0, 60),
)
def test_difficulty_never_decreases_with_distance(distance, x, y, z):
    ranges = tuple(sorted((x, y, z)))
    near = shot_difficulty(distance, ranges)
    far = shot_difficulty(distance + 1, ranges)
    if near is None:
        assert far is None
    elif far is not None:
        assert far >= near


def test_a_ready_shooter_may_shoot():
    assert shooting_problems(Shooter(tir=3)) == ()


def test_tir_0_is_enough_to_shoot_but_no_tir_is_not():
    assert shooting_problems(Shooter(tir=0)) == ()
    assert "no TIR" in shooting_problems(Shooter(tir=None))[0]


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"has_ranged_weapon": False}, "ranged weapon"),
        ({"activated": False}, "not been activated"),
        ({"free_of_adversaries": False}, "contact with an adversary"),
        ({"engaged_this_turn_of_speech": True}, "engaged"),
        ({"ran_this_turn_of_speech": True}, "ran"),
        ({"shots_made": 1}, "already shot"),
    ],
)
def test_initiation_tir_conditions_each_forbid_the_shot(overrides, words):
    problems = shooting_problems(Shooter(tir=3, **overrides))
    assert len(problems) == 1
    assert words in problems[0]


def test_only_a_target_seen_at_least_partly_may_be_designated():
    assert shooting_problems(Shooter(tir=3), target_visible=False)
    assert shooting_problems(Shooter(tir=3), target_visible=True) == ()


def test_a_hit_wounds_with_the_weapon_strength():
    bow = Weapon(20, 40, 60, strength=4)
    shot = resolve_shot(2, 30, bow, ScriptedDice([5]))
    assert shot.difficulty == 7
    assert shot.hit
    assert shot.wound_strength == 4


def test_initiation_tir_the_wound_roll_uses_the_weapon_strength():
    # 3 and 5 against RES 5: with the bow's FOR 3 the row is 5 + 3 - 5 = 3.
    result = shot_wound([3, 5], Weapon(20, 40, 60, strength=3), 5)
    assert result.row == 3
    assert result.location == "abdomen"
    assert result.outcome == "light"


def test_a_miss_has_no_wound_roll():
    shot = resolve_shot(2, 30, Weapon(20, 40, 60, strength=4), ScriptedDice([4]))
    assert not shot.hit
    assert shot.wound_strength is None


def test_beyond_long_range_the_shot_fails_without_a_die():
    dice = ScriptedDice([6])
    shot = resolve_shot(5, 61, Weapon(20, 40, 60, strength=4), dice)
    assert not shot.hit
    assert shot.difficulty is None
    assert dice.used == 0


@pytest.mark.parametrize("face", [4, 5, 6])
def test_initiation_tir_dans_la_melee_4_to_6_hits_the_target(face):
    assert split_roll(face, {"guard": 5.0}).hits_target


@pytest.mark.parametrize("face", [1, 2, 3])
def test_initiation_tir_dans_la_melee_1_to_3_hits_the_nearest_friend(face):
    result = split_roll(face, {"guard": 12.0, "knight": 9.5})
    assert not result.hits_target
    assert result.candidates == ("knight",)


def test_initiation_tir_dans_la_melee_friends_at_equal_distance_are_a_choice():
    result = split_roll(ScriptedDice([2]), {"guard": 9.0, "knight": 9.0})
    assert result.candidates == ("guard", "knight")


def test_a_split_roll_needs_friends_in_contact_with_the_target():
    with pytest.raises(ValueError):
        split_roll(1, {})
    with pytest.raises(ValueError):
        split_roll(7, {"guard": 1.0})
