"""The rules engine at a table: a small set-up (side A a Magistrat and two
Arbalétriers, side B three Repentis) and a ``Table`` that keeps the event log
as the app does, for the tests that drive a game through ``rules.game``."""

from __future__ import annotations

import copy
import random

import pytest

from rules.dice import ScriptedDice, SeededDice
from rules.errors import IllegalAction
from rules.game import decide, evolve, new_game_event, replay, undo_target
from tests.support.game_bot import next_command


def card(name, fighters=1, weapon=None, **profile):
    values = {"MOU": 10, "INI": 4, "ATT": 4, "FOR": 6, "DEF": 4, "RES": 6}
    values.update({"COU": 5, "DIS": 4})
    values.update(profile)
    return {
        "name": name,
        "fighters": fighters,
        "profile": values,
        "size": "normal",
        "skills": [],
        "weapon": weapon,
    }


CROSSBOW = {"strength": 6, "ranges": [10, 20, 30]}


def setup(turns=6):
    return {
        "turns": turns,
        "sides": {
            "a": {
                "name": "Anne",
                "people": "Griffons d'Akkylannie",
                "cards": [
                    card("Magistrat", DIS=6, FOI=3),
                    card("Arbalétrier", 2, weapon=CROSSBOW, TIR=4),
                ],
            },
            "b": {
                "name": "Bruno",
                "people": "Wolfen d'Yllia",
                "cards": [card("Repenti", 3, FOR=7, DIS=1)],
            },
        },
    }


class Table:
    """A game between two players, kept as an event log like the app does."""

    def __init__(self, game_setup=None, seed="test-seed"):
        self.seed = seed
        self.events = [dict(new_game_event(game_setup or setup()), seq=1, action=1)]
        self.state = replay(self.events)

    def play(self, side, command, faces=None):
        first = len(self.events) + 1
        dice = (
            ScriptedDice(faces)
            if faces is not None
            else SeededDice(f"{self.seed}:{first}")
        )
        before = copy.deepcopy(self.state)
        events = decide(self.state, side, command, dice)
        assert self.state == before, "decide must not change the state it reads"
        for event in events:
            event.update(seq=len(self.events) + 1, action=first)
            self.events.append(event)
            self.state = evolve(self.state, event)
        return events

    def undo(self, side):
        target = undo_target(self.events, side)
        seq = len(self.events) + 1
        self.events.append(
            {
                "seq": seq,
                "action": seq,
                "kind": "undone",
                "side": side,
                "payload": {"action": target},
            }
        )
        self.state = replay(self.events)

    def refuses(self, side, command, match, faces=None):
        before = copy.deepcopy(self.state)
        with pytest.raises(IllegalAction, match=match):
            self.play(side, command, faces)
        assert self.state == before

    def to_tactics_roll(self):
        """Both sequences set and both Tactics fighters chosen: the roll is next."""
        self.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
        self.play("b", {"type": "set_sequence", "order": ["b1"]})
        self.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
        self.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})

    def to_activation(self, first="a"):
        self.to_tactics_roll()
        # DIS 6 + 3 = 9 against DIS 1 + 4 = 5: side A wins at once.
        self.play("a", {"type": "roll"}, faces=[3, 4])
        self.play("a", {"type": "choose_first", "first": first})


def declaration(fighter: str, action: str, *targets: str) -> dict:
    """The command that declares ``fighter``'s ``action`` (on ``targets``)."""
    command = {"type": "declare", "fighter": fighter, "action": action}
    if targets:
        command["targets"] = list(targets)
    return command


def b1_charges_a1() -> Table:
    """Side B speaks first; its Repenti b1.1 charges the Magistrat a1.1; side A
    draws a1 (the Magistrat is active)."""
    table = Table()
    table.to_activation(first="b")
    table.play("b", {"type": "draw", "action": "draw"})
    table.play("b", declaration("b1.1", "charge", "a1.1"))
    table.play("b", {"type": "end_activation"})
    table.play("a", {"type": "draw", "action": "draw"})
    return table


def b1_charged_a1() -> Table:
    """Side B's b1.1 charged a1.1; side A drew and passed once."""
    table = b1_charges_a1()
    table.play("a", {"type": "end_activation"})
    return table


def play_whole_game(seed: int, turns: int = 6) -> Table:
    rng = random.Random(seed)
    table = Table(setup(turns), seed=f"game-{seed}")
    for _ in range(5000):
        if table.state["phase"] == "finished":
            break
        side, command = next_command(table.state, rng)
        table.play(side, command)
    assert table.state["phase"] == "finished"
    return table
