"""The flow of the phase: a combat settled, the next one picked, the pursuit of
the freed fighters (VII-C-6).

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
from rules.game.combat.forming import _auto_choose, new_combat
from rules.game.combat.under_way import (
    _can_attack,
    _emit,
    _pick_pending,
    attack_dice_held,
    current_combat,
    members,
    opponents,
    ruling,
    turn_side,
)
from rules.game.commands import (
    CommandKind,
    id_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    label_of,
    own_fighter,
    require_phase,
)
from rules.game.follows import follows
from rules.game.upkeep_phase import start_upkeep

TURN_PLACE = 45  # its commands' place in legal_actions (a combat's end)


@follows("combat.settle_combat")
def settle_combat(batch: Batch) -> None:
    """After each step of a combat with nothing pending: the next exchange,
    or the end of the combat (VII-C-3: "Exchanges go on until no attack dice
    remain" [inferred]; the next combat is picked by the other side, VII-B).
    Unused defence dice are lost (§2.5 [inferred])."""
    state = batch.state
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "fighting":
        return
    if turn_side(state, combat) is not None:
        return
    index = state["combat"]["current"]
    if attack_dice_held(state, combat):
        combat = copy.deepcopy(combat)
        combat["exchange"] += 1
        combat["attacked"] = {}
        # Which side opens it: the sources are silent (melee-sources §2.5
        # reads the first exchange only), the house ruling ``exchange_opener``:
        # the Initiative winner's side again, or the alternation goes on.
        if ruling(state, "exchange_opener") == "initiative_winner":
            combat["last_side"] = None
        extra: dict[str, Any] = {"exchange": combat["exchange"]}
        opener = turn_side(state, combat)
        if opener is not None:
            extra["opener"] = opener
            if all(_can_attack(state, combat, s) for s in st.SIDES):
                # Both sides could open it: the ruling decided which.
                extra["house_ruling"] = "exchange_opener"
        _emit(batch, index, combat, **extra)
        return
    combat = copy.deepcopy(combat)
    combat["done"] = True
    combat["stage"] = "done"
    combats = [dict(c) for c in state["combat"]["combats"]]
    combats[index] = combat
    picker = st.other(state["combat"]["picker"])
    left = [c for c in combats if not c["done"]]
    free = [
        f
        for f in members(combat)
        if not state["fighters"][f]["eliminated"] and not opponents(state, combat, f)
    ]
    # Why it ended: a side has no living fighter left in it, or no fighter
    # holds an attack die any more (VII-C-3).
    standing = {
        state["fighters"][f]["side"]
        for f in members(combat)
        if not state["fighters"][f]["eliminated"]
    }
    reason = "no_adversary" if len(standing) < 2 else "no_attack_die"
    extra: dict[str, Any] = {"reason": reason}
    freed = list(state["combat"].get("freed") or [])
    if free:
        extra.update(
            free=free,
            free_labels=[label_of(state, f) for f in free],
            pursuit=ruling(state, "pursuit"),
        )
        extra["house_ruling"] = "pursuit"
        if ruling(state, "pursuit") == "at_the_table":
            freed += [f for f in free if f not in freed]
    batch.emit(
        "combat_updated",
        {
            "combat": dict(
                state["combat"],
                combats=combats,
                current=None,
                picker=picker,
                freed=freed,
            ),
            "pending": _pick_pending(picker) if left else None,
            "ended": index,
            **extra,
        },
    )
    if not left:
        start_upkeep(batch)
    else:
        _auto_choose(batch)


def _combat_of(state: State, fighter_id: str) -> int | None:
    for i, combat in enumerate(state["combat"]["combats"]):
        if fighter_id in members(combat):
            return i
    return None


def _joined(
    state: State, combat: Mapping[str, Any], pursuer: str, target: str
) -> tuple[str, list[str]] | None:
    """The combat ``combat`` once ``pursuer`` joins it against ``target``, as
    (one, many), or None when that would make several against several (IV-C:
    a combat is one against one or one against several)."""
    if target == combat["one"]:
        return combat["one"], [*combat["many"], pursuer]
    if combat["many"] == [target]:
        # One against one: the target now faces two.
        return target, [combat["one"], pursuer]
    return None


def pursuit_targets(state: State, pursuer: str) -> list[str]:
    """The enemies ``pursuer`` may reach by a pursuit move (melee-sources §2.8
    [read] S2, S11, S12: "A pursuit move can bring a fighter into another fray
    in the same phase"; [inferred] "The new fights join the list of combats
    still to resolve"): a living enemy in a combat still to fight that it can
    join, or one in no combat at all this phase."""
    side = state["fighters"][pursuer]["side"]
    result = []
    for target, fighter in state["fighters"].items():
        if fighter["side"] == side or fighter["eliminated"]:
            continue
        index = _combat_of(state, target)
        if index is None:
            result.append(target)
            continue
        combat = state["combat"]["combats"][index]
        if combat["done"] or index == state["combat"]["current"]:
            continue
        if _joined(state, combat, pursuer, target) is not None:
            result.append(target)
    return result


def _pursuers(state: State, side: str) -> list[str]:
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or combat_state is None
        or combat_state["current"] is not None
        or ruling(state, "pursuit") != "at_the_table"
        or not any(not c["done"] for c in combat_state["combats"])
    ):
        return []
    return [
        f
        for f in combat_state.get("freed") or []
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]


@follows("combat.legal_pursue")
def legal_pursue(state: State, side: str) -> list[dict[str, Any]]:
    """A freed fighter of ``side`` may record its pursuit move while a combat
    is still to fight and none is under way (VII-C-6, ``pursuit`` ruling
    "at_the_table")."""
    result = []
    for pursuer in _pursuers(state, side):
        targets = pursuit_targets(state, pursuer)
        if targets:
            result.append(
                {"type": "pursue", "fighter": pursuer, "choices": {"target": targets}}
            )
    return result


def pursue(batch: Batch, side: str, command: Command) -> None:
    """A freed fighter's pursuit move, made at the table, brings it into
    contact with ``target`` (melee-sources §2.8): it joins the target's
    combat still to fight, or a new combat, one against one, is added to
    the combats still to fight. The move itself is measured at the table
    (the ``pursuit`` house ruling: distance and eligibility were not found)."""
    state = batch.state
    require_phase(state, "combat", "fighting")
    if state["combat"]["current"] is not None:
        raise IllegalAction(_("Finish the combat under way first."))
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    label = label_of(state, fighter_id)
    if fighter_id not in _pursuers(state, side):
        raise IllegalAction(
            _(
                "Only a fighter freed by a combat of this phase pursues, while a "
                "combat is still to fight (VII-C-6)."
            )
        )
    target = command.get("target")
    st.living_fighter(state, target)
    if target not in pursuit_targets(state, fighter_id):
        raise IllegalAction(
            _(
                "{fighter} cannot pursue into that fighter: pick an enemy in a "
                "combat still to fight that it can join (one against several, "
                "never several against several), or one in no combat."
            ),
            fighter=label,
        )
    combat_state = state["combat"]
    combats = [dict(c) for c in combat_state["combats"]]
    index = _combat_of(state, target)
    if index is None:
        combats.append(new_combat(fighter_id, [target]))
        index = len(combats) - 1
    else:
        joined = _joined(state, combats[index], fighter_id, target)
        assert joined is not None  # checked by pursuit_targets
        combats[index] = new_combat(joined[0], joined[1])
    freed = [f for f in combat_state.get("freed") or [] if f != fighter_id]
    contacts = [list(p) for p in state["contacts"]]
    if not any({fighter_id, target} == set(p) for p in contacts):
        contacts.append([fighter_id, target])
    batch.emit("contacts_changed", {"contacts": contacts, "reason": "pursuit"})
    batch.emit(
        "combat_updated",
        {
            "combat": dict(combat_state, combats=combats, freed=freed),
            "pursued": {
                "fighter": fighter_id,
                "label": label,
                "target": target,
                "target_label": label_of(state, target),
                "combat": index,
                "fighters": members(combats[index]),
                "section": "VII-C-6",
            },
            "house_ruling": "pursuit",
        },
    )


# --- the commands of this part, each declared once (rules.game.commands) ---


class Pursue(CommandKind):
    """VII-C-6: a fighter freed by a combat records the contact its pursuit
    move makes, joining a combat still to fight (or making a new one); listed
    to its side while the next combat is picked, whoever picks it."""

    type = "pursue"
    section = "VII-C-6"
    anytime = True
    fields = (id_field("fighter"), id_field("target"))
    legal = staticmethod(legal_pursue)
    apply = staticmethod(pursue)
