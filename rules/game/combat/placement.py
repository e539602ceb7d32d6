"""Placement (VII-C-1): each fighter's combat dice in attack or defence,
Enchaînement and Furie guerrière.

Part of ``rules.game.combat`` (the package's docstring tells the course of a
combat); what a lower part needs from a higher one it finds in
``rules.game.follows``.
"""

from __future__ import annotations

from typing import Any

from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.combat.under_way import (
    _current,
    _emit,
    current_combat,
    has,
    members,
    placing_sides,
    ruling,
    skills_of,
    unplaced,
)
from rules.game.commands import (
    Bound,
    CommandKind,
    bool_field,
    id_field,
    int_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    label_of,
    own_fighter,
    require_no_pending,
)
from rules.game.follows import then
from rules.melee import (
    MAX_COMBAT_DICE,
    WAR_FURY,
    sequence_dice,
    war_fury_qualifies,
)

TURN_PLACE = 42  # its commands' place in legal_actions (VII-C-1)


def forced_defence(state: State, fighter_id: str) -> str | None:
    """Why the fighter places no die in attack: ``"disengagement"`` (S3), or
    ``"routed"`` under the ``cannot_flee`` ruling; None when free."""
    if fighter_id in state["defence_only"]:
        return "disengagement"
    if (
        state["fighters"][fighter_id]["routed"]
        and ruling(state, "cannot_flee") == "all_defence"
    ):
        return "routed"
    return None


def place_dice_bounds(state: State, side: str, command: Command) -> dict[str, Bound]:
    """The Enchaînement dice a fighter may take (§4 [read] S11: "up to X"),
    and the dice it may place in attack: its combat dice and those taken.
    None while its placement is not asked (``place_dice`` says why)."""
    combat = current_combat(state)
    fighter_id = command.get("fighter")
    if (
        combat is None
        or state["pending"]
        or combat["stage"] != "placing"
        or fighter_id not in members(combat)
        or state["fighters"][fighter_id]["side"] != side
        or combat["dice"][fighter_id]["attack"] is not None
        or side not in placing_sides(state, combat)
    ):
        return {}
    label = label_of(state, fighter_id)
    allowed = sequence_dice(skills_of(state, fighter_id))
    sequence = Bound(
        0,
        allowed,
        _("{fighter} takes 0 to {count} extra dice (Enchaînement).")
        if allowed
        else _("{fighter} has no Enchaînement: no extra die."),
        {"fighter": label, "count": allowed},
    )
    extra = command.get("sequence") or 0
    total = combat["dice"][fighter_id]["total"] + (
        extra if sequence.holds(extra) else 0
    )
    attack = Bound(
        0,
        total,
        _("{fighter} places 0 to {count} dice in attack."),
        {"fighter": label, "count": total},
    )
    return {"sequence": sequence, "attack": attack}


def legal_place_dice(state: State, side: str) -> list[dict[str, Any]]:
    combat = current_combat(state)
    if combat is None or state["pending"] or side not in placing_sides(state, combat):
        return []
    result = []
    for fighter_id in unplaced(state, combat, side):
        forced = forced_defence(state, fighter_id)
        fury = has(state, fighter_id, WAR_FURY)
        command = {"fighter": fighter_id}
        for extra in place_dice_bounds(state, side, command)["sequence"].values:
            command["sequence"] = extra
            dice = place_dice_bounds(state, side, command)["attack"].high
            attack = [0] if forced else list(range(dice + 1))
            result.append(
                {
                    "type": "place_dice",
                    "fighter": fighter_id,
                    "choices": {
                        "attack": attack,
                        "sequence": [extra],
                        "war_fury": [False],
                    },
                }
            )
            qualifying = [a for a in attack if war_fury_qualifies(a, dice)]
            if fury and qualifying:
                result.append(
                    {
                        "type": "place_dice",
                        "fighter": fighter_id,
                        "choices": {
                            "attack": qualifying,
                            "sequence": [extra],
                            "war_fury": [True],
                        },
                    }
                )
    return result


def forced_placement(state: State, fighter_id: str) -> str | None:
    """Why the fighter's placement is no choice at all (all in defence, no
    Enchaînement die to take): ``"disengagement"`` or ``"routed"``; None when
    its player has something to decide."""
    forced = forced_defence(state, fighter_id)
    if forced and not sequence_dice(skills_of(state, fighter_id)):
        return forced
    return None


def _auto_place(batch: Batch) -> None:
    """A placement forced all in defence is made without a tap (RULES_API
    "Melee": where a step leaves no choice, the game takes it); the event
    says why (``forced``) and that nobody tapped (``automatic``)."""
    state = batch.state
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "placing":
        return
    for side in sorted(placing_sides(state, combat)):
        for fighter_id in unplaced(state, combat, side):
            if forced_placement(state, fighter_id):
                place_dice(
                    batch,
                    side,
                    {"type": "place_dice", "fighter": fighter_id, "attack": 0},
                    automatic=True,
                )
                return  # place_dice goes on with the next forced one


def place_dice(
    batch: Batch, side: str, command: Command, *, automatic: bool = False
) -> None:
    """VII-C-1: one fighter's combat dice, ``attack`` of them in attack, the
    rest in defence (S8 [read]: "each die is placed either in attack or in
    defence").

    ``sequence``: Enchaînement/X (§4 [read] S11: "take up to X extra combat
    dice. Each costs -2 ATT and -2 DEF for this combat only"). ``war_fury``:
    Furie guerrière, Conf'Fédé (§4 [read] S12: "a fighter who puts more than
    half in attack may declare it and gains +1 attack die for the combat").
    A failed disengagement puts every die in defence (§2.0 [read] S3).
    """
    state = batch.state
    require_no_pending(state)
    index, combat = _current(state)
    if combat["stage"] != "placing":
        raise IllegalAction(_("The combat dice are not placed now."))
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    if fighter_id not in members(combat):
        raise IllegalAction(_("That fighter is not in this combat."))
    if combat["dice"][fighter_id]["attack"] is not None:
        raise IllegalAction(_("That fighter's dice are already placed."))
    if side not in placing_sides(state, combat):
        raise IllegalAction(
            _(
                "The side that lost the Initiative places its dice first; the "
                "winner places after seeing them (VII-C-1)."
            )
        )
    label = label_of(state, fighter_id)
    # Within ``place_dice_bounds`` (a forced placement's 0 too).
    extra_dice = command.get("sequence") or 0
    total = combat["dice"][fighter_id]["total"] + extra_dice
    attack = command["attack"]
    forced = forced_defence(state, fighter_id)
    extra: dict[str, Any] = {}
    if forced and attack > 0:
        if forced == "disengagement":
            raise IllegalAction(
                _(
                    "{fighter} failed to disengage: all its combat dice stay in "
                    "defence this turn (Désengagement)."
                ),
                fighter=label,
            )
        raise IllegalAction(
            _(
                "{fighter} is routed and cannot flee: all its dice go in defence "
                "(house ruling)."
            ),
            fighter=label,
        )
    if forced == "routed":
        extra["house_ruling"] = "cannot_flee"
    fury = command.get("war_fury", False)
    if fury:
        if not has(state, fighter_id, WAR_FURY):
            raise IllegalAction(_("{fighter} has no Furie guerrière."), fighter=label)
        if not war_fury_qualifies(attack, total):
            raise IllegalAction(
                _(
                    "Furie guerrière needs more than half of the dice in attack "
                    "({fighter}: {count} dice)."
                ),
                fighter=label,
                count=total,
            )
    defence = total - attack
    if fury:
        attack, total = attack + 1, total + 1
    combat["dice"][fighter_id] = {
        "total": total,
        "attack": attack,
        "defence": defence,
    }
    if extra_dice:
        combat["modifiers"][fighter_id] = {
            "ATT": -2 * extra_dice,
            "DEF": -2 * extra_dice,
        }
    if not any(unplaced(state, combat, s) for s in st.SIDES):
        before = combat["initiative"] is None
        combat["stage"] = "initiative" if before else "fighting"
    _emit(
        batch,
        index,
        combat,
        placed={
            "fighter": fighter_id,
            "label": label,
            "side": side,
            "total": total,
            "attack": attack,
            "defence": defence,
            "sequence": extra_dice,
            "war_fury": bool(fury),
            "forced": forced,
            **({"automatic": True} if automatic else {}),
        },
        **extra,
    )
    _auto_place(batch)
    then("combat._auto_initiative")(batch)
    then("combat.settle_combat")(batch)


# --- the commands of this part, each declared once (rules.game.commands) ---


class PlaceDice(CommandKind):
    """VII-C-1: a fighter's combat dice, ``attack`` of them in attack, the rest
    in defence; ``sequence``: the Enchaînement/X dice taken (-2 ATT, -2 DEF
    each, this combat only). A side's whole placement comes in one tap."""

    type = "place_dice"
    section = "VII-C-1"
    batched = True
    fields = (
        id_field("fighter"),
        int_field("attack", 0, MAX_COMBAT_DICE),
        int_field("sequence", 0, MAX_COMBAT_DICE, required=False, default=0),
        bool_field("war_fury"),
    )
    legal = staticmethod(legal_place_dice)
    bounds = staticmethod(place_dice_bounds)
    apply = staticmethod(place_dice)
