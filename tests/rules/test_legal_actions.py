"""``waiting_for`` and ``legal_actions``: the one answer to "who may do what now".

RULES_API "The game": every command in ``legal_actions`` is accepted by
``decide``; every command outside it is refused with ``IllegalAction`` and
changes nothing.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.dice import SeededDice
from rules.errors import IllegalAction
from rules.game import decide, legal_actions, waiting_for
from rules.game.engine import COMMAND_TABLE
from rules.game.legal import is_listed
from tests.support.game_bot import next_command
from tests.support.legal_probe import example_command, made_up_command
from tests.support.table import Table, setup

ANYTIME = {kind for kind, entry in COMMAND_TABLE.items() if entry.anytime}


def check_state(state, rng, made_up=6):
    assert state["phase"] == "finished" or waiting_for(state)
    for side in ("a", "b"):
        entries = legal_actions(state, side)
        if side not in waiting_for(state):
            assert {e["type"] for e in entries} <= ANYTIME, (side, entries)
        # ``types``: the same entries as the whole list filtered, in order.
        some = set(rng.sample(sorted(COMMAND_TABLE), 3))
        assert legal_actions(state, side, types=some) == [
            e for e in entries if e["type"] in some
        ]
        for entry in entries:
            command = example_command(state, side, entry, rng)
            before = copy.deepcopy(state)
            decide(state, side, command, SeededDice(rng.randrange(10**9)))
            assert state == before
        for _ in range(made_up):
            command = made_up_command(state, rng)
            if is_listed(state, side, command):
                continue
            before = copy.deepcopy(state)
            with pytest.raises(IllegalAction):
                decide(state, side, command, SeededDice(rng.randrange(10**9)))
            assert state == before, command


def play_and_check(seed: int, turns: int) -> Table:
    rng = random.Random(seed)
    table = Table(setup(turns), seed=f"legal-{seed}")
    for _ in range(3000):
        check_state(table.state, rng)
        if table.state["phase"] == "finished":
            break
        side, command = next_command(table.state, rng)
        assert is_listed(table.state, side, command), (side, command)
        assert side in waiting_for(table.state)
        table.play(side, command)
    assert table.state["phase"] == "finished"
    return table


@settings(max_examples=6, deadline=None)
@given(hs.integers(0, 10_000), hs.integers(1, 2))
def test_in_bot_games_legal_actions_are_accepted_and_the_rest_refused(seed, turns):
    play_and_check(seed, turns)


def test_nothing_is_legal_once_the_game_is_over():
    table = Table()
    table.play("a", {"type": "concede"})
    assert waiting_for(table.state) == set()
    assert legal_actions(table.state, "a") == []
    assert legal_actions(table.state, "b") == []


def test_at_the_start_both_sides_build_their_sequences():
    table = Table()
    assert waiting_for(table.state) == {"a", "b"}
    kinds = {e["type"] for e in legal_actions(table.state, "a")}
    assert {"set_sequence", "choose_tactics_fighter", "concede"} <= kinds
    sequence = next(
        e for e in legal_actions(table.state, "a") if e["type"] == "set_sequence"
    )
    assert sequence["choices"]["order"] == ["a1", "a2"]


def test_the_side_with_the_floor_is_the_one_waited_for():
    table = Table()
    table.to_activation(first="b")
    assert waiting_for(table.state) == {"b"}
    draws = [e for e in legal_actions(table.state, "b") if e["type"] == "draw"]
    # Side B has one card against two: one refusal (IV-B-1 "Refus").
    assert draws == [
        {"type": "draw", "choices": {"action": ["draw", "reserve", "refuse"]}}
    ]
    assert not [e for e in legal_actions(table.state, "a") if e["type"] == "draw"]
