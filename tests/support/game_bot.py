"""A simple player for tests and benchmarks: picks a legal command for a state.

It plays like a hurried but honest player: builds sequences in card order,
rolls every pending roll, takes the better choice on a six, charges or shoots
the first enemy it can, parries when it can, and ticks the upkeep in order.
A local ``random.Random`` (seeded by the caller) varies its choices.
"""

from __future__ import annotations

import random
from typing import Any

from rules.game import choice_odds, tactics_candidates, who_decides
from rules.game import state as st


def next_command(state: dict[str, Any], rng: random.Random) -> tuple[str, dict]:
    """The side that acts next and its command."""
    pending = state["pending"]
    if pending:
        return _pending_command(state, pending, rng)
    phase = state["phase"]
    if phase == "strategic":
        return _strategic(state)
    if phase == "activation":
        return _activation(state, rng)
    if phase == "combat":
        return _combat(state, rng)
    if phase == "upkeep":
        upkeep = state["upkeep"]
        item = next(i for i in upkeep["items"] if i["key"] not in upkeep["ticked"])
        command = {"type": "tick_upkeep", "key": item["key"], "rallied": True}
        if item["step"] == "rally":
            command["difficulty"] = 7  # the rally test's difficulty (IV-D-1)
        return item.get("side") or "a", command
    raise AssertionError(f"no command in phase {phase}")


def _pending_command(state, pending, rng):
    kind = pending["kind"]
    if kind in ("test", "opposed", "check") and pending.get("roll"):
        choice = choice_odds(pending)
        reroll = choice is not None and choice["best"] == "reroll"
        return who_decides(pending), {"type": "reroll" if reroll else "keep"}
    if kind in ("test", "opposed", "wound", "split", "check"):
        return pending["side"] or rng.choice("ab"), {"type": "roll"}
    purpose = pending["purpose"]
    if purpose == "parry":
        dice = rng.randint(0, pending["max_dice"])
        command = {"type": "parry", "dice": dice}
        if dice and pending["counter_allowed"] and rng.random() < 0.5:
            command["counter"] = True
        return pending["side"], command
    if purpose == "ambidextrous":
        return pending["side"], {"type": "ambidextrous", "swap": rng.random() < 0.5}
    if purpose == "form_combats":
        return pending["side"], {"type": "form_combats", "combats": "suggested"}
    if purpose == "choose_combat":
        combats = state["combat"]["combats"]
        index = next(i for i, c in enumerate(combats) if not c["done"])
        return pending["side"], {"type": "choose_combat", "combat": index}
    raise AssertionError(f"unknown pending {pending}")


def _strategic(state):
    for side in st.SIDES:
        if state["sequences"][side] is None:
            return side, {
                "type": "set_sequence",
                "order": st.cards_in_play(state, side),
            }
    for side in st.SIDES:
        if state["tactics"]["fighters"][side] is None:
            fighter = next(f for f, ok, _ in tactics_candidates(state, side) if ok)
            return side, {"type": "choose_tactics_fighter", "fighter": fighter}
    winner = state["tactics"]["winner"]
    return winner, {"type": "choose_first", "first": winner}


def _activation(state, rng):
    active = state["active"]
    if active is None:
        return state["draw"]["speaker"], {"type": "draw", "action": "draw"}
    side = active["side"]
    enemies = st.fighters_of(state, st.other(side))
    for fighter in active["fighters"]:
        data = state["fighters"][fighter]
        if data["eliminated"] or state["acted"].get(fighter):
            continue
        card = st.card_of(state, fighter)
        in_contact = st.adversaries_in_contact(state, fighter)
        if in_contact or not enemies:
            continue
        if card["weapon"] and card["profile"].get("TIR") is not None:
            target = rng.choice(enemies)
            command = {
                "type": "shoot",
                "fighter": fighter,
                "target": target,
                "distance_cm": rng.choice([5, 15, 25, 90]),
            }
            friends = st.friends_in_contact_with(state, target, side)
            if friends:
                command["nearest_friend"] = friends[0]
            return side, command
        for target in enemies:
            size = st.card_of(state, target)["size"]
            from rules.contact import max_adversaries

            if len(st.adversaries_in_contact(state, target)) < max_adversaries(size):
                action = rng.choice(["charge", "engagement"])
                return side, {
                    "type": "declare",
                    "fighter": fighter,
                    "action": action,
                    "targets": [target],
                }
    return side, {"type": "end_activation"}


def _combat(state, rng):
    """The melee (VII-C): name the first fighter for the Initiative, place the
    dice at random, attack a random opponent still to attack this exchange."""
    from rules.game import legal_actions, waiting_for

    side = sorted(waiting_for(state))[0]
    entries = [
        e
        for e in legal_actions(state, side)
        if e["type"] in ("initiative", "place_dice", "attack")
    ]
    entry = rng.choice(entries)
    command = {k: v for k, v in entry.items() if k != "choices"}
    for field, allowed in entry["choices"].items():
        command[field] = allowed[0] if field == "fighter" else rng.choice(allowed)
    return side, command
