"""A table with magicians and a faithful, for the tests of spells and
miracles (X, XI; rules.game.magic_phase)."""

from __future__ import annotations

from tests.support.table import Table, card

SPELLS = {
    # Two fire gems, frequency 1 a round, no lasting effect.
    "Boule de feu": {"cost": {"fire": 2}, "difficulty": 7, "frequency": 1},
    # A light gem and a neutral gem, unlimited, lasts 2 rounds.
    "Aura de lumière": {
        "cost": {"light": 1, "neutral": 1},
        "difficulty": 6,
        "frequency": None,
        "duration": "rounds",
        "rounds": 2,
    },
    # Only side B's magician knows it.
    "Brume": {"cost": {"water": 1}, "difficulty": 5, "frequency": 2},
}
MIRACLES = {
    "Bénédiction": {
        "cults": ["Merin"],
        "fervour": None,
        "difficulty": "fervour+4",
        "duration": "end_of_round",
    },
    "Courroux": {"cults": ["Yllia"], "fervour": 1, "difficulty": 5},
    "Prière": {"cults": [], "fervour": 2, "difficulty": 6},
}


def magic_setup(turns=2, **rulings):
    magician = card("Magicien", POU=5, DIS=6)
    magician.update(
        gems={"fire": 3, "light": 1, "air": 1},
        spells=["Boule de feu", "Aura de lumière"],
    )
    faithful = card("Prêtre", FOI=4, DIS=2)
    faithful.update(cults=["Merin"], miracles=["Bénédiction", "Courroux", "Prière"])
    sorcerer = card("Sorcier", POU=4, DIS=1)
    sorcerer.update(gems={"water": 2, "darkness": 1}, spells=["Brume"])
    game = {
        "turns": turns,
        "spells": SPELLS,
        "miracles": MIRACLES,
        "sides": {
            "a": {"name": "Anne", "cards": [magician, faithful]},
            "b": {"name": "Bruno", "cards": [sorcerer, card("Repenti", 2)]},
        },
    }
    if rulings:
        game["house_rulings"] = rulings
    return game


def magic_table(**rulings) -> Table:
    """Side A won the Tactics, speaks first and drew its magician's card
    (a1: the Magicien a1.1 is active)."""
    table = Table(magic_setup(**rulings), seed="magic")
    table.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
    table.play("b", {"type": "set_sequence", "order": ["b1", "b2"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[4, 2])  # 6 + 4 against 1 + 2
    table.play("a", {"type": "choose_first", "first": "a"})
    table.play("a", {"type": "draw", "action": "draw"})
    return table


def cast(fighter="a1.1", spell="Boule de feu", **fields):
    return {"type": "cast", "fighter": fighter, "spell": spell, **fields}


def to_upkeep(table: Table) -> Table:
    """Every card drawn and ended, no combat: the upkeep checklist is next."""
    from rules.game import legal_actions, waiting_for

    for _step in range(40):
        if table.state["phase"] != "activation":
            break
        side = sorted(waiting_for(table.state))[0]
        kinds = {e["type"] for e in legal_actions(table.state, side)}
        if "end_activation" in kinds:
            table.play(side, {"type": "end_activation"})
        else:
            table.play(side, {"type": "draw", "action": "draw"})
    assert table.state["phase"] == "upkeep"
    return table


def magic_table_from_setup(game) -> Table:
    """``magic_table``'s opening with another setup."""
    table = Table(game, seed="magic")
    table.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
    table.play("b", {"type": "set_sequence", "order": ["b1", "b2"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[4, 2])
    table.play("a", {"type": "choose_first", "first": "a"})
    table.play("a", {"type": "draw", "action": "draw"})
    return table
