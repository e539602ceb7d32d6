"""The combat under way (VII-C): its members, sides and turn, whose turn it is,
the house rulings it reads; the helpers the other parts share.

Part of ``rules.game.combat`` (the package's docstring tells the course of a
combat); what a lower part needs from a higher one it finds in
``rules.game.follows``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.common import (
    Batch,
    State,
    require_phase,
)
from rules.game.pending import (
    choice_pending,
)
from rules.melee import (
    HOUSE_RULINGS,
    ability,
)
from rules.several_dice import MAX_TEST_DICE

# One parry rolls at most this many dice (II-A-2's exact odds enumerate every
# throw); more defence dice committed to one parry would change little.
MAX_PARRY_DICE = MAX_TEST_DICE


def ruling(state: State, name: str) -> str:
    """The house ruling in force (its default in a game created before it)."""
    return (state.get("house_rulings") or {}).get(name, HOUSE_RULINGS[name].default)


def members(combat: Mapping[str, Any]) -> list[str]:
    return [combat["one"], *combat["many"]]


def combat_sides(state: State, combat: Mapping[str, Any]) -> list[str]:
    """The sides with fighters in this combat, A first."""
    present = {state["fighters"][f]["side"] for f in members(combat)}
    return [side for side in st.SIDES if side in present]


def opponents(state: State, combat: Mapping[str, Any], fighter_id: str) -> list[str]:
    """The living adversaries ``fighter_id`` fights in this combat."""
    targets = combat["many"] if fighter_id == combat["one"] else [combat["one"]]
    return [t for t in targets if not state["fighters"][t]["eliminated"]]


def attack_targets(state: State, combat: Mapping[str, Any], attacker: str) -> list[str]:
    """The opponents ``attacker`` may still attack in this exchange (VII-C-3:
    each opponent at most once an exchange), when it holds an attack die."""
    if state["fighters"][attacker]["eliminated"]:
        return []
    if (combat["dice"][attacker]["attack"] or 0) < 1:
        return []
    done = combat["attacked"].get(attacker, [])
    return [t for t in opponents(state, combat, attacker) if t not in done]


def _can_attack(state: State, combat: Mapping[str, Any], side: str) -> bool:
    return any(
        state["fighters"][f]["side"] == side and attack_targets(state, combat, f)
        for f in members(combat)
    )


def turn_side(state: State, combat: Mapping[str, Any]) -> str | None:
    """The side whose attack it is: the sides take turns, one attack each,
    the Initiative winner's side first in each exchange; a side with no
    attack left in this exchange lets the other go on alone (melee-sources
    §2.5 [read] S8: "The initiative winner's side attacks first. Attacks then
    alternate between the sides"). Which side opens the later exchanges the
    sources do not say: the house ruling ``exchange_opener`` (default: the
    winner's side, as in the first; or the alternation goes on)."""
    winner = combat["initiative"]
    if winner is None or combat["stage"] != "fighting":
        return None
    last = combat.get("last_side")
    first = winner if last is None else st.other(last)
    for side in (first, st.other(first)):
        if _can_attack(state, combat, side):
            return side
    return None


def attack_dice_held(state: State, combat: Mapping[str, Any]) -> bool:
    """Whether a living fighter holds an attack die and a living opponent."""
    return any(
        not state["fighters"][f]["eliminated"]
        and (combat["dice"][f]["attack"] or 0) > 0
        and opponents(state, combat, f)
        for f in members(combat)
    )


def unplaced(state: State, combat: Mapping[str, Any], side: str) -> list[str]:
    return [
        f
        for f in members(combat)
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
        and combat["dice"][f]["attack"] is None
    ]


def placing_sides(state: State, combat: Mapping[str, Any]) -> set[str]:
    """The sides that place their dice now (VII-C-1, S8: "The loser places his
    dice between attack and defence first. The winner places his after seeing
    them"; ``placement_order``: both, before the Initiative)."""
    if combat["stage"] != "placing":
        return set()
    if ruling(state, "placement_order") == "before_initiative":
        return {s for s in combat_sides(state, combat) if unplaced(state, combat, s)}
    loser = st.other(combat["initiative"])
    for side in (loser, combat["initiative"]):
        if unplaced(state, combat, side):
            return {side}
    return set()


def current_combat(state: State) -> dict[str, Any] | None:
    combat_state = state["combat"]
    if state["phase"] != "combat" or state["step"] != "fighting":
        return None
    if combat_state is None or combat_state["current"] is None:
        return None
    return combat_state["combats"][combat_state["current"]]


def combat_waits_for(state: State) -> set[str]:
    """The sides the combat under way waits on (VII-C): the sides still to
    name their Initiative fighter, to place their dice, or whose attack it
    is. A pending roll or choice is answered by ``waiting_for`` itself."""
    combat = current_combat(state)
    if combat is None or state["pending"]:
        return set()
    stage = combat["stage"]
    if stage == "initiative":
        return {
            s
            for s in combat_sides(state, combat)
            if combat["initiative_fighters"][s] is None
        }
    if stage == "placing":
        return placing_sides(state, combat)
    side = turn_side(state, combat)
    return {side} if side else set()


def combat_value(
    state: State, combat: Mapping[str, Any], fighter_id: str, characteristic: str
) -> int:
    """The current value in this combat: the card's with the wound penalties
    (II-A-4, II-B-4) and Enchaînement's -2 a die (never below 0, S5)."""
    value = st.value_of(state, fighter_id, characteristic) or 0
    malus = combat["modifiers"].get(fighter_id, {}).get(characteristic, 0)
    if malus:
        value = max(0, value + malus)
    return value


def skills_of(state: State, fighter_id: str) -> list[str]:
    return st.card_of(state, fighter_id)["skills"]


def has(state: State, fighter_id: str, name: str) -> bool:
    return ability(skills_of(state, fighter_id), name)[0]


def _pick_pending(picker: str) -> dict[str, Any]:
    return choice_pending(purpose="choose_combat", side=picker, section="VII-B")


def _current(state: State) -> tuple[int, dict[str, Any]]:
    require_phase(state, "combat", "fighting")
    index = state["combat"]["current"]
    if index is None:
        raise IllegalAction(_("Pick a combat first."))
    return index, copy.deepcopy(state["combat"]["combats"][index])


def _emit(batch: Batch, index: int, combat: Mapping[str, Any], **extra: Any) -> None:
    """The combat under way changed: the whole combat state, and what
    happened (``extra``: ``placed``, ``attack_declared``...)."""
    combats = [dict(c) for c in batch.state["combat"]["combats"]]
    combats[index] = dict(combat)
    batch.emit(
        "combat_updated",
        {"combat": dict(batch.state["combat"], combats=combats), **extra},
    )
