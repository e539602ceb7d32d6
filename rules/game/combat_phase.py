"""The combat phase (IV-C): splitting the melees, attacks, parries.

The melee chapter (7) is not among the seeds: combat dice and the attack
difficulty follow ``COMBAT_CONVENTION``, shown to the players and editable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.common import (
    Batch,
    Command,
    State,
    dice_left,
    label_of,
    own_fighter,
    require_no_pending,
    require_phase,
    wound_modifiers,
)
from rules.game.pending import attack_wound_pending, test_pending
from rules.game.upkeep_phase import start_upkeep
from rules.melee import (
    Combat,
    combats_from_choices,
    suggest_combats,
    validate_combats,
)

# The melee chapter (7) is not among the seeds: the table's convention, shown
# to the players and editable per combat.
COMBAT_CONVENTION = {
    "attack_dice": 1,
    "defence_dice": 1,
    "difficulty": "DEF",  # an attack is an ATT test against the target's DEF
}


def start_combat_phase(batch: Batch) -> None:
    """Open the combat phase: the Tactics winner splits the melees (IV-C)."""
    state = batch.state
    if not state["contacts"]:
        batch.emit("combat_updated", {"combat": None, "pending": None})
        start_upkeep(batch)
        return
    winner = state["tactics"]["winner"]
    suggestion = [
        {"one": c.one, "many": list(c.many)} for c in suggest_combats(state["contacts"])
    ]
    batch.emit(
        "combat_updated",
        {
            "combat": {
                "combats": [],
                "suggestion": suggestion,
                "current": None,
                "picker": winner,
                "convention": dict(COMBAT_CONVENTION),
            },
            "pending": {
                "kind": "choice",
                "purpose": "form_combats",
                "side": winner,
                "section": "IV-C",
                "context": {},
            },
        },
    )


def form_combats(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "combat", "forming")
    winner = state["tactics"]["winner"]
    if side != winner:
        raise IllegalAction(
            _("The Tactics winner (side {side}) splits the melees (IV-C)."),
            side=winner.upper(),
        )
    names = {f: d["label"] for f, d in state["fighters"].items()}
    raw = command.get("combats")
    if raw == "suggested":
        raw = state["combat"]["suggestion"]
    choices = command.get("choices")
    if isinstance(choices, dict) and choices:
        # "Who faces whom", as the Tactics winner set it on the phone.
        for fighter_id, target in choices.items():
            st.living_fighter(state, fighter_id)
            st.living_fighter(state, target)
        raw = [
            {"one": c.one, "many": list(c.many)}
            for c in combats_from_choices(choices, names)
        ]
    if not isinstance(raw, list) or not raw:
        raise IllegalAction(_("Send the combats: one fighter against one or several."))
    combats = []
    for item in raw:
        try:
            one, many = item["one"], list(item["many"])
        except (KeyError, TypeError):
            raise IllegalAction(
                _("Each combat is one fighter against others.")
            ) from None
        for fighter_id in [one, *many]:
            st.living_fighter(state, fighter_id)
        combats.append(Combat(one, tuple(many)))
    validate_combats(combats, state["contacts"], names)
    defence_only = set(state["defence_only"])
    built = []
    for combat in combats:
        dice = {}
        for fighter_id in combat.fighters:
            attack = COMBAT_CONVENTION["attack_dice"]
            defence = COMBAT_CONVENTION["defence_dice"]
            if fighter_id in defence_only:
                attack, defence = 0, attack + defence  # failed disengagement
            dice[fighter_id] = {"attack": attack, "defence": defence}
        built.append(
            {
                "one": combat.one,
                "many": list(combat.many),
                "dice": dice,
                "used": {f: {"attack": 0, "defence": 0} for f in combat.fighters},
                "difficulty": None,
                "done": False,
            }
        )
    combat_state = dict(state["combat"], combats=built, current=None, picker=winner)
    batch.emit(
        "combat_updated",
        {
            "combat": combat_state,
            "pending": _pick_pending(state, winner),
            "formed": [[c.one, *c.many] for c in combats],
        },
    )
    batch.emit("step_changed", {"step": "fighting"})


def _pick_pending(state: State, picker: str) -> dict[str, Any]:
    return {
        "kind": "choice",
        "purpose": "choose_combat",
        "side": picker,
        "section": "IV-C",
        "context": {},
    }


def choose_combat(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "combat", "fighting")
    combat = state["combat"]
    if combat["current"] is not None:
        raise IllegalAction(_("Finish the combat under way first."))
    if side != combat["picker"]:
        raise IllegalAction(
            _("Side {side} picks the next combat."), side=combat["picker"].upper()
        )
    index = command.get("combat")
    if (
        isinstance(index, bool)
        or not isinstance(index, int)
        or not 0 <= index < len(combat["combats"])
        or combat["combats"][index]["done"]
    ):
        raise IllegalAction(_("Pick a combat that has not been fought yet."))
    batch.emit(
        "combat_updated",
        {"combat": dict(combat, current=index), "pending": None, "chosen": index},
    )


def _current_combat(state: State) -> tuple[int, dict[str, Any]]:
    require_phase(state, "combat", "fighting")
    index = state["combat"]["current"]
    if index is None:
        raise IllegalAction(_("Pick a combat first."))
    return index, state["combat"]["combats"][index]


def set_combat_dice(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_no_pending(state)
    index, combat = _current_combat(state)
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    if fighter_id not in combat["dice"]:
        raise IllegalAction(_("That fighter is not in this combat."))
    values = []
    for key in ("attack", "defence"):
        raw = command.get(key)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 10:
            raise IllegalAction(_("Combat dice count 0 to 10."))
        if raw < combat["used"][fighter_id][key]:
            raise IllegalAction(_("Dice already used cannot be taken back."))
        values.append(raw)
    combats = [dict(c) for c in state["combat"]["combats"]]
    combats[index] = dict(
        combat,
        dice={
            **combat["dice"],
            fighter_id: {"attack": values[0], "defence": values[1]},
        },
    )
    batch.emit(
        "combat_updated",
        {
            "combat": dict(state["combat"], combats=combats),
            "dice_set": {
                "fighter": fighter_id,
                "attack": values[0],
                "defence": values[1],
            },
        },
    )


def set_difficulty(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_no_pending(state)
    index, combat = _current_combat(state)
    raw = command.get("difficulty")
    if raw in (None, "", "DEF"):
        value = None
    elif isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= 30:
        value = raw
    else:
        raise IllegalAction(_("An attack difficulty is the target's DEF or 0 to 30."))
    combats = [dict(c) for c in state["combat"]["combats"]]
    combats[index] = dict(combat, difficulty=value)
    batch.emit("combat_updated", {"combat": dict(state["combat"], combats=combats)})


def attack_difficulty(state: State, combat: Mapping[str, Any], target: str) -> int:
    """The attack test's difficulty: the table's convention (COMBAT_CONVENTION)."""
    if combat["difficulty"] is not None:
        return combat["difficulty"]
    return st.value_of(state, target, "DEF") or 0


def declare_attack(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_no_pending(state)
    index, combat = _current_combat(state)
    attacker = command.get("attacker")
    target = command.get("target")
    own_fighter(state, side, attacker)
    st.living_fighter(state, target)
    members = [combat["one"], *combat["many"]]
    if attacker not in members or target not in members:
        raise IllegalAction(_("Both fighters must be in this combat."))
    if state["fighters"][target]["side"] == side:
        raise IllegalAction(_("Attack an adversary."))
    if attacker != combat["one"] and target != combat["one"]:
        raise IllegalAction(
            _("In this combat everyone fights the fighter facing them.")
        )
    if dice_left(combat, attacker, "attack") <= 0:
        raise IllegalAction(
            _("{fighter} has no attack die left."), fighter=label_of(state, attacker)
        )
    amplified, attenuated = wound_modifiers(command)
    combats = [dict(c) for c in state["combat"]["combats"]]
    used = {**combat["used"], attacker: dict(combat["used"][attacker])}
    used[attacker]["attack"] += 1
    combats[index] = dict(combat, used=used)
    difficulty = attack_difficulty(state, combat, target)
    pending = test_pending(
        purpose="attack",
        side=side,
        value=st.value_of(state, attacker, "ATT") or 0,
        difficulty=difficulty,
        section="IV-C",
        context={
            "combat": index,
            "attacker": attacker,
            "target": target,
            "amplified": amplified,
            "attenuated": attenuated,
        },
    )
    batch.emit(
        "combat_updated",
        {"combat": dict(state["combat"], combats=combats), "pending": pending},
    )


def parry(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    pending = state["pending"]
    if not pending or pending.get("purpose") != "parry" or pending["kind"] != "choice":
        raise IllegalAction(_("There is no attack to parry now."))
    if pending["side"] != side:
        raise IllegalAction(_("Only the defender's side decides to parry."))
    context = pending["context"]
    if not command.get("parry"):
        batch.emit("pending_set", {"pending": attack_wound_pending(state, context)})
        return
    index = context["combat"]
    combat = state["combat"]["combats"][index]
    target = context["target"]
    combats = [dict(c) for c in state["combat"]["combats"]]
    used = {**combat["used"], target: dict(combat["used"][target])}
    used[target]["defence"] += 1
    combats[index] = dict(combat, used=used)
    parry = test_pending(
        purpose="parry",
        side=side,
        value=st.value_of(state, target, "DEF") or 0,
        difficulty=context["attack_final"],
        section="IV-C",
        context=context,
    )
    batch.emit(
        "combat_updated",
        {"combat": dict(state["combat"], combats=combats), "pending": parry},
    )


def end_combat(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_no_pending(state)
    index, combat = _current_combat(state)
    members = [combat["one"], *combat["many"]]
    if side not in {state["fighters"][f]["side"] for f in members}:
        raise IllegalAction(_("Only the players in this combat can close it."))
    combats = [dict(c) for c in state["combat"]["combats"]]
    combats[index] = dict(combat, done=True)
    picker = st.other(state["combat"]["picker"])
    left = [c for c in combats if not c["done"]]
    batch.emit(
        "combat_updated",
        {
            "combat": dict(
                state["combat"], combats=combats, current=None, picker=picker
            ),
            "pending": _pick_pending(state, picker) if left else None,
            "ended": index,
        },
    )
    if not left:
        start_upkeep(batch)
