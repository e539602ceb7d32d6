"""A melee set up at once, for the tests of the combat phase (VII-C).

``melee_table(a_cards, b_cards, combats)`` starts a game between the given
cards, sets the contacts of ``combats`` (lists: the one first), passes every
activation and splits the melees as given: the Tactics winner (side A) picks
the first combat next.
"""

from __future__ import annotations

import random
from typing import Any

from rules.dice import SeededDice
from rules.game import legal_actions, waiting_for
from rules.game.engine import COMMAND_TABLE
from tests.support.table import Table, card

ANYTIME = {kind for kind, entry in COMMAND_TABLE.items() if entry.anytime}


def fighter_card(name: str, fighters: int = 1, skills=(), **profile) -> dict:
    made = card(name, fighters, **profile)
    made["skills"] = list(skills)
    return made


def activation_table(
    a_cards: list[dict],
    b_cards: list[dict],
    *,
    first: str = "a",
    rulings: dict[str, str] | None = None,
    seed: str = "melee",
) -> Table:
    """A game between the given cards at the start of its activation phase,
    side A having won the Tactics roll and chosen ``first`` to speak."""
    game: dict[str, Any] = {
        "turns": 2,
        "sides": {
            "a": {"name": "Anne", "cards": a_cards},
            "b": {"name": "Bruno", "cards": b_cards},
        },
    }
    if rulings:
        game["house_rulings"] = rulings
    table = Table(game, seed=seed)
    for side, cards in (("a", a_cards), ("b", b_cards)):
        order = [f"{side}{i}" for i in range(1, len(cards) + 1)]
        table.play(side, {"type": "set_sequence", "order": order})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    while table.state["step"] != "first_choice":
        # Side A wins the Tactics roll (a tie is rolled again).
        table.play("a", {"type": "roll"}, faces=[5, 1])
    table.play("a", {"type": "choose_first", "first": first})
    return table


def pass_activations(table: Table) -> None:
    """Every card still to come is drawn and its activation ended at once."""
    while table.state["phase"] == "activation":
        side = sorted(waiting_for(table.state))[0]
        if table.state["active"]:
            table.play(side, {"type": "end_activation"})
        else:
            table.play(side, {"type": "draw", "action": "draw"})


def melee_table(
    a_cards: list[dict],
    b_cards: list[dict],
    combats: list[list[str]],
    *,
    rulings: dict[str, str] | None = None,
    seed: str = "melee",
) -> Table:
    table = activation_table(a_cards, b_cards, rulings=rulings, seed=seed)
    for one, *many in combats:
        for other in many:
            table.play(
                "a", {"type": "set_contact", "one": one, "two": other, "contact": True}
            )
    pass_activations(table)
    table.play(
        "a",
        {
            "type": "form_combats",
            "combats": [{"one": one, "many": many} for one, *many in combats],
        },
    )
    return table


def random_command(table: Table, rng: random.Random) -> tuple[str, dict]:
    """A random command among what the side waited on may do (not the
    anytime ones): every field picked among its choices."""
    side = rng.choice(sorted(waiting_for(table.state)))
    entries = [e for e in legal_actions(table.state, side) if e["type"] not in ANYTIME]
    entry = rng.choice(entries)
    command = {k: v for k, v in entry.items() if k != "choices"}
    for field, allowed in entry.get("choices", {}).items():
        command[field] = rng.choice(allowed)
    return side, command


def play_random(table: Table, rng: random.Random, *, limit: int = 2000) -> None:
    """Play the combat under way to its end with random legal commands."""
    index = table.state["combat"]["current"]
    for step in range(limit):
        state = table.state
        if state["phase"] != "combat" or state["combat"]["combats"][index]["done"]:
            return
        side, command = random_command(table, rng)
        dice = SeededDice(f"{table.seed}:{step}:{rng.randrange(10**9)}")
        events = _play(table, side, command, dice)
        assert events
    raise AssertionError("the combat did not end")


def _play(table: Table, side: str, command: dict, dice) -> list[dict]:
    from rules.game import decide, evolve

    events = decide(table.state, side, command, dice)
    first = len(table.events) + 1
    for event in events:
        event.update(seq=len(table.events) + 1, action=first)
        table.events.append(event)
        table.state = evolve(table.state, event)
    return events
