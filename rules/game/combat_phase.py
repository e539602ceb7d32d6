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
    require_tactics_winner,
    tactics_winner_at,
    wound_modifiers,
)
from rules.game.pending import attack_wound_pending, choice_pending, test_pending
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
            "pending": choice_pending(
                purpose="form_combats", side=winner, section="IV-C"
            ),
        },
    )


def form_combats(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "combat", "forming")
    winner = require_tactics_winner(
        state, side, _("The Tactics winner (side {side}) splits the melees (IV-C).")
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
                "declined": [],
            }
        )
    combat_state = dict(state["combat"], combats=built, current=None, picker=winner)
    batch.emit(
        "combat_updated",
        {
            "combat": combat_state,
            "pending": _pick_pending(winner),
            "formed": [[c.one, *c.many] for c in combats],
        },
    )
    batch.emit("step_changed", {"step": "fighting"})


def combat_sides(state: State, combat: Mapping[str, Any]) -> list[str]:
    """The sides with fighters in this combat, A first."""
    present = {state["fighters"][f]["side"] for f in [combat["one"], *combat["many"]]}
    return [side for side in st.SIDES if side in present]


def attack_dice_left(state: State, combat: Mapping[str, Any], side: str) -> int:
    """The attack dice ``side`` still holds in a combat: its living fighters'
    dice, where they still have a living adversary to strike."""
    total = 0
    members = [combat["one"], *combat["many"]]
    for fighter_id in members:
        data = state["fighters"][fighter_id]
        if data["side"] != side or data["eliminated"]:
            continue
        if not attack_targets(state, combat, fighter_id):
            continue
        total += max(0, dice_left(combat, fighter_id, "attack"))
    return total


def attack_targets(state: State, combat: Mapping[str, Any], attacker: str) -> list[str]:
    """The living adversaries ``attacker`` may strike in this combat."""
    if attacker == combat["one"]:
        targets = combat["many"]
    else:
        targets = [combat["one"]]
    side = state["fighters"][attacker]["side"]
    return [
        t
        for t in targets
        if not state["fighters"][t]["eliminated"]
        and state["fighters"][t]["side"] != side
    ]


def combat_waits_for(state: State) -> set[str]:
    """The sides the combat under way waits on (IV-C).

    "Tous les combattants en contact avec un combattant ennemi doivent
    combattre au corps à corps pendant la phase de combat." A combat ends
    only when both sides have used or declined every attack die they hold:
    the sides that still hold one (and have not declined) are waited on;
    when neither does, either side still in it closes the combat.
    """
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or state["pending"]
        or combat_state is None
        or combat_state["current"] is None
    ):
        return set()
    combat = combat_state["combats"][combat_state["current"]]
    declined = set(combat.get("declined", []))
    open_sides = [s for s in combat_sides(state, combat) if s not in declined]
    holders = {s for s in open_sides if attack_dice_left(state, combat, s) > 0}
    return holders or set(open_sides)


def _current_or_none(state: State) -> dict[str, Any] | None:
    combat_state = state["combat"]
    if state["phase"] != "combat" or state["step"] != "fighting":
        return None
    if combat_state is None or combat_state["current"] is None:
        return None
    return combat_state["combats"][combat_state["current"]]


def legal_form_combats(state: State, side: str) -> list[dict[str, Any]]:
    if not tactics_winner_at(state, side, "combat", "forming"):
        return []
    return [{"type": "form_combats", "choices": {"combats": ["suggested"]}}]


def legal_choose_combat(state: State, side: str) -> list[dict[str, Any]]:
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or combat_state is None
        or combat_state["current"] is not None
        or combat_state["picker"] != side
    ):
        return []
    left = [i for i, c in enumerate(combat_state["combats"]) if not c["done"]]
    return [{"type": "choose_combat", "choices": {"combat": left}}] if left else []


def legal_set_combat_dice(state: State, side: str) -> list[dict[str, Any]]:
    combat = _current_or_none(state)
    if combat is None or side not in combat_waits_for(state):
        return []
    return [
        {"type": "set_combat_dice", "fighter": f}
        for f in [combat["one"], *combat["many"]]
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]


def legal_set_difficulty(state: State, side: str) -> list[dict[str, Any]]:
    if _current_or_none(state) is None or side not in combat_waits_for(state):
        return []
    return [{"type": "set_attack_difficulty"}]


def legal_attack(state: State, side: str) -> list[dict[str, Any]]:
    combat = _current_or_none(state)
    if combat is None or side not in combat_waits_for(state):
        return []
    if side in combat.get("declined", []):
        return []
    result = []
    for attacker in [combat["one"], *combat["many"]]:
        data = state["fighters"][attacker]
        if data["side"] != side or data["eliminated"]:
            continue
        if dice_left(combat, attacker, "attack") <= 0:
            continue
        targets = attack_targets(state, combat, attacker)
        if targets:
            result.append(
                {"type": "attack", "attacker": attacker, "choices": {"target": targets}}
            )
    return result


def legal_parry(state: State, side: str) -> list[dict[str, Any]]:
    pending = state["pending"]
    if (
        not pending
        or pending.get("purpose") != "parry"
        or pending["kind"] != "choice"
        or pending["side"] != side
    ):
        return []
    return [{"type": "parry", "choices": {"parry": [True, False]}}]


def legal_end_combat(state: State, side: str) -> list[dict[str, Any]]:
    if side not in combat_waits_for(state):
        return []
    return [{"type": "end_combat"}]


def _pick_pending(picker: str) -> dict[str, Any]:
    return choice_pending(purpose="choose_combat", side=picker, section="IV-C")


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
    if fighter_id in state["defence_only"] and values[0] > 0:
        # Désengagement: "S'il échoue, tous ses dés de combat sont
        # automatiquement placés en défense lors de la phase de combat".
        raise IllegalAction(
            _(
                "{fighter} failed to disengage: all its combat dice stay in "
                "defence this turn (Désengagement)."
            ),
            fighter=label_of(state, fighter_id),
        )
    _require_still_fighting(state, combat, side)
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
    _require_still_fighting(state, combat, side)
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
    if side in combat.get("declined", []):
        raise IllegalAction(
            _("Your side declined its remaining attacks in this combat.")
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


def _require_still_fighting(state: State, combat: Mapping[str, Any], side: str) -> None:
    if side in combat.get("declined", []):
        raise IllegalAction(
            _("Your side declined its remaining attacks in this combat.")
        )
    if side not in combat_waits_for(state):
        raise IllegalAction(
            _("Wait: the other side is still fighting this combat (IV-C).")
        )


def end_combat(batch: Batch, side: str, command: Command) -> None:
    """Declare one's side done in the combat under way (IV-C).

    "Tous les combattants en contact avec un combattant ennemi doivent
    combattre au corps à corps pendant la phase de combat." A side ends its
    part by declining the attack dice it still holds; the combat ends only
    when both sides have used or declined every attack die they hold, so
    neither side can end it for the other.
    """
    state = batch.state
    require_no_pending(state)
    index, combat = _current_combat(state)
    members = [combat["one"], *combat["many"]]
    if side not in {state["fighters"][f]["side"] for f in members}:
        raise IllegalAction(_("Only the players in this combat can close it."))
    if side in combat.get("declined", []):
        raise IllegalAction(
            _("Your side already declined its remaining attacks in this combat.")
        )
    waiting = combat_waits_for(state)
    if side not in waiting:
        other = sorted(waiting)[0] if waiting else st.other(side)
        raise IllegalAction(
            _(
                "Side {side} still holds an attack die: the combat goes on until "
                "it is used or declined (IV-C)."
            ),
            side=other.upper(),
        )
    declined = [*combat.get("declined", []), side]
    combats = [dict(c) for c in state["combat"]["combats"]]
    still = [
        s
        for s in combat_sides(state, combat)
        if s not in declined and attack_dice_left(state, combat, s) > 0
    ]
    if still:
        combats[index] = dict(combat, declined=declined)
        batch.emit(
            "combat_updated",
            {
                "combat": dict(state["combat"], combats=combats),
                "declined": side,
            },
        )
        return
    combats[index] = dict(combat, declined=declined, done=True)
    picker = st.other(state["combat"]["picker"])
    left = [c for c in combats if not c["done"]]
    batch.emit(
        "combat_updated",
        {
            "combat": dict(
                state["combat"], combats=combats, current=None, picker=picker
            ),
            "pending": _pick_pending(picker) if left else None,
            "ended": index,
        },
    )
    if not left:
        start_upkeep(batch)
