"""Turning ``legal_actions`` entries into commands, and making up others.

For the property test of ``rules.game.legal_actions``: every entry becomes a
concrete command (choices picked, typed fields filled as a player would), and
a made-up command is any command kind with any fighter, action or target of
the game, legal or not.
"""

from __future__ import annotations

import random
from typing import Any

from rules.game import COMMANDS
from rules.game import state as st
from rules.game.activation_phase import DECLARED

DRAW_ACTIONS = ["draw", "reserve", "play_reserve", "play_reserve_and_top", "refuse"]


def _one_gem(state: dict[str, Any], entry: dict[str, Any]) -> dict[str, int]:
    """One gem of the element the caster holds most of."""
    gems = state["fighters"][entry["fighter"]]["gems"]
    return {max(sorted(gems), key=lambda element: gems[element]): 1}


def example_command(
    state: dict[str, Any], side: str, entry: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """A command a player could send for ``entry``."""
    command = {k: v for k, v in entry.items() if k != "choices"}
    for field, allowed in entry.get("choices", {}).items():
        if field == "order":
            command["order"] = rng.sample(allowed, len(allowed))
        elif field == "targets":
            command["targets"] = [rng.choice(allowed)]
        else:
            command[field] = rng.choice(allowed)
    kind = entry["type"]
    if kind == "shoot":
        command["distance_cm"] = rng.choice([5, 15, 25, 90])
        friends = st.friends_in_contact_with(state, command["target"], side)
        if friends:
            command["nearest_friend"] = friends[0]
    elif kind == "disengage":
        command["free_side"] = True
    elif kind == "set_mystic":
        data = state["fighters"][entry["fighter"]]
        for key in ("mana", "faith"):
            if data[key] is not None:
                command[key] = rng.randint(0, 99)
        if data.get("gems") is not None:  # X: mana counted in gems
            command.pop("mana", None)
            command["gems"] = {rng.choice(["fire", "air"]): rng.randint(0, 9)}
    elif kind == "cast" and "spell" not in command:
        # A magician with no known spell: names it, enters gems and difficulty.
        command.update(spell="Éclair", cost=_one_gem(state, entry), difficulty=6)
    elif kind == "cast" and state["spells"][command["spell"]]["cost"] is None:
        command["cost"] = _one_gem(state, entry)  # unknown: entered at the cast
    elif kind == "tick_upkeep":
        command["rallied"] = rng.random() < 0.5
        command["difficulty"] = rng.randint(1, 30)  # a rally test's (IV-D-1)
    elif kind == "characteristic_test":
        command["difficulty"] = rng.randint(1, 30)
        command["dice"] = rng.randint(1, 3)
        command["modifier"] = rng.randint(-3, 3)
    elif kind == "record_effect":
        command["name"] = rng.choice(["Poison", "Régénération/4", "Aura"])
        command["turns"] = rng.randint(1, 3)
        command["cost"] = rng.randint(0, 3)
    return command


def made_up_command(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any command kind with any of the game's fighters, actions, targets."""
    fighters = list(state["fighters"])
    kind = rng.choice(sorted(COMMANDS))
    command: dict[str, Any] = {"type": kind}
    fighter = rng.choice(fighters)
    other = rng.choice(fighters)
    if kind == "declare":
        command.update(
            fighter=fighter,
            action=rng.choice([*DECLARED, "shoot", "fly"]),
            targets=[other],
        )
    elif kind in ("shoot",):
        command.update(fighter=fighter, target=other, distance_cm=15)
    elif kind in ("disengage", "choose_tactics_fighter", "set_routed"):
        command.update(fighter=fighter, routed=rng.random() < 0.5)
    elif kind == "set_mystic":
        command.update(fighter=fighter, mana=3, faith=2)
    elif kind == "attack":
        command.update(attacker=fighter, target=other, master_strike=rng.random() < 0.2)
    elif kind == "initiative":
        command.update(fighter=fighter)
    elif kind == "place_dice":
        command.update(
            fighter=fighter,
            attack=rng.randint(-1, 4),
            sequence=rng.choice([0, 0, 1, 3]),
            war_fury=rng.random() < 0.2,
        )
    elif kind == "draw":
        command.update(action=rng.choice(DRAW_ACTIONS))
    elif kind == "set_sequence":
        side = rng.choice(st.SIDES)
        command.update(order=list(state["sides"][side]["cards"]))
    elif kind == "choose_first":
        command.update(first=rng.choice(st.SIDES))
    elif kind == "set_contact":
        command.update(one=fighter, two=other, contact=rng.random() < 0.5)
    elif kind == "form_combats":
        command.update(combats="suggested")
    elif kind == "choose_combat":
        command.update(combat=rng.randint(0, 2))
    elif kind == "ambidextrous":
        command.update(swap=rng.choice([True, False, "yes"]))
    elif kind == "parry":
        command.update(dice=rng.randint(-1, 4), counter=rng.random() < 0.3)
    elif kind in ("characteristic_test", "record_effect"):
        command.update(
            fighter=fighter,
            characteristic=rng.choice(["COU", "POU", "XYZ"]),
            difficulty=rng.choice([0, 7, 31]),
            name="Aura",
            kind=rng.choice(["spell", "skill", "curse"]),
            duration=rng.choice(["turns", "upkeep", "forever"]),
            turns=rng.choice([0, 2]),
            cost=rng.choice([1, 200]),
        )
    elif kind == "end_effect":
        effects = state.get("effects") or [{"id": "e-none"}]
        command.update(effect=rng.choice(effects)["id"])
    elif kind == "tick_upkeep":
        upkeep = state["upkeep"]
        keys = [i["key"] for i in upkeep["items"]] if upkeep else ["x"]
        command.update(key=rng.choice(keys or ["x"]))
    return command
