"""The turn's phases (chapter 4) and a fighter's actions (IV-B-2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.turn import (
    ActivationAction,
    Phase,
    Step,
    TurnClock,
    activation_order,
    activation_problems,
    validate_activation,
)


def test_chapter_4_a_turn_runs_strategic_activation_combat_upkeep():
    clock = TurnClock()
    steps = []
    while clock.turn == 1 and not clock.over:
        steps.append((clock.step, clock.phase))
        clock = clock.advance()
    assert steps == [
        (Step.SEQUENCES, Phase.STRATEGIC),
        (Step.TACTICS, Phase.STRATEGIC),
        (Step.ACTIVATION, Phase.ACTIVATION),
        (Step.COMBAT, Phase.COMBAT),
        (Step.UPKEEP, Phase.UPKEEP),
    ]
    assert (clock.turn, clock.step) == (2, Step.SEQUENCES)


def test_IV_A_sequences_come_before_the_tactics_roll():
    assert Step.SEQUENCES.section == "IV-A-1"
    assert Step.TACTICS.section == "IV-A-2"
    assert Step.TACTICS.label_fr == "Jet de Tactique"


def test_chapter_4_a_game_lasts_6_turns_by_default():
    clock = TurnClock()
    advances = 0
    while not clock.over:
        clock = clock.advance()
        advances += 1
    assert advances == 6 * 5
    assert clock.turn == 6


@pytest.mark.parametrize("turns", [4, 5, 1, 9])
def test_chapter_4_players_may_agree_on_another_number_of_turns(turns):
    clock = TurnClock(turns=turns)
    while not clock.over:
        last = clock
        clock = clock.advance()
    assert (last.turn, last.step) == (turns, Step.UPKEEP)


def test_nothing_comes_after_the_end_of_the_game():
    clock = TurnClock(turns=1, step=Step.UPKEEP).advance()
    assert clock.over
    with pytest.raises(IllegalAction, match="over"):
        clock.advance()


def test_a_clock_rejects_impossible_turns():
    with pytest.raises(ValueError):
        TurnClock(turns=0)
    with pytest.raises(ValueError):
        TurnClock(turns=4, turn=5)


@given(st.integers(1, 8), st.integers(0, 60))
def test_the_clock_round_trips_through_its_dict(turns, steps):
    clock = TurnClock(turns=turns)
    for _ in range(steps):
        if clock.over:
            break
        clock = clock.advance()
    assert TurnClock.from_dict(clock.to_dict()) == clock


# -- IV-B-2 ------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["charge", "engagement", "run", "covered_move"])
def test_IV_B_2_an_exclusive_action_excludes_any_other(action):
    assert ActivationAction(action).exclusive
    assert activation_problems([action]) == ()
    problems = activation_problems([action, "mystic"])
    assert problems
    assert "exclusive" in problems[0] or "run" in problems[0]


@pytest.mark.parametrize("action", ["walk", "shoot", "mystic"])
def test_IV_B_2_cumulative_actions_combine(action):
    assert not ActivationAction(action).exclusive


def test_initiation_a_shot_may_come_before_or_after_a_walk():
    assert activation_problems(["walk", "shoot"]) == ()
    assert activation_problems(["shoot", "walk"]) == ()
    assert activation_problems(["walk", "shoot", "mystic", "mystic"]) == ()


def test_initiation_a_fighter_cannot_walk_and_run():
    assert "walk and run" in activation_problems(["walk", "run"])[0]


def test_initiation_a_fighter_cannot_run_twice():
    assert "run twice" in activation_problems(["run", "run"])[0]


def test_initiation_a_fighter_cannot_shoot_and_run():
    assert "shoot and run" in activation_problems(["shoot", "run"])[0]


def test_initiation_an_action_cannot_be_resumed():
    with pytest.raises(IllegalAction, match="cannot be resumed"):
        validate_activation(["walk", "shoot", "walk"])


def test_initiation_a_fighter_shoots_once_a_turn_unless_an_exception_allows_more():
    assert "once a turn" in activation_problems(["shoot", "shoot"])[0]
    assert activation_problems(["shoot", "walk", "shoot"], shots_allowed=2) == ()


def test_initiation_a_disengagement_may_be_followed_by_an_engagement():
    assert activation_problems(["disengage", "engagement"]) == ()
    assert activation_problems(["disengage", "walk", "shoot"]) == ()


def test_initiation_a_run_cannot_follow_a_disengagement():
    assert (
        "cannot follow a disengagement" in activation_problems(["disengage", "run"])[0]
    )


def test_a_disengagement_comes_first():
    assert "comes first" in activation_problems(["walk", "disengage"])[0]


def test_an_unknown_action_is_reported():
    assert activation_problems(["fly"]) == ("Unknown action 'fly'.",)


def test_validate_activation_returns_the_parsed_actions():
    assert validate_activation(["walk", "shoot"]) == [
        ActivationAction.WALK,
        ActivationAction.SHOOT,
    ]


def test_IV_B_2_exclusive_actions_are_resolved_before_cumulative_ones():
    plans = {
        "archer": ["walk", "shoot"],
        "knight": ["charge"],
        "mage": ["mystic"],
        "runner": ["run"],
    }
    assert activation_order(plans) == ["knight", "runner", "archer", "mage"]
