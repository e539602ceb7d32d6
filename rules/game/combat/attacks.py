"""Attacks (VII-C-3, VII-C-4): declaring one, the attack test, the blow past a
parry, the wound roll after it.

Part of ``rules.game.combat`` (the package's docstring tells the course of a
combat); what a lower part needs from a higher one it finds in
``rules.game.follows``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.combat.under_way import (
    _current,
    _emit,
    attack_targets,
    combat_value,
    current_combat,
    has,
    members,
    opponents,
    ruling,
    skills_of,
    turn_side,
)
from rules.game.commands import (
    WOUND_MODIFIERS,
    CommandKind,
    bool_field,
    id_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    fraction_text,
    label_of,
    own_fighter,
    require_no_pending,
    wound_modifiers,
)
from rules.game.follows import follows, then
from rules.game.pending import (
    choice_pending,
    test_pending,
    test_resolution,
    wound_pending,
)
from rules.melee import (
    AMBIDEXTROUS,
    COUNTER_ATTACK,
    FIERCE,
    MASTER_STRIKE,
    ability,
    master_strike_strength,
)
from rules.several_dice import dice_test_success

TURN_PLACE = 43  # its commands' place in legal_actions (VII-C-3)


def legal_attack(state: State, side: str) -> list[dict[str, Any]]:
    combat = current_combat(state)
    if combat is None or state["pending"] or turn_side(state, combat) != side:
        return []
    result = []
    for attacker in members(combat):
        if state["fighters"][attacker]["side"] != side:
            continue
        targets = attack_targets(state, combat, attacker)
        if not targets:
            continue
        strike = [False]
        if (
            has(state, attacker, MASTER_STRIKE)
            and combat["dice"][attacker]["attack"] > 1
        ):
            strike.append(True)
        result.append(
            {
                "type": "attack",
                "attacker": attacker,
                "choices": {"target": targets, "master_strike": strike},
            }
        )
    return result


def declare_attack(batch: Batch, side: str, command: Command) -> None:
    """VII-C-3 (S8 [read]): "A fighter who still has an attack die must
    attack"; "attacks each opponent once" in an exchange. ``master_strike``:
    Coup de maître/X (§4 [read] S11: "Spend 2 attack dice for 1 attack")."""
    state = batch.state
    require_no_pending(state)
    index, combat = _current(state)
    if combat["stage"] != "fighting":
        raise IllegalAction(_("Nobody attacks yet in this combat."))
    turn = turn_side(state, combat)
    if side != turn:
        raise IllegalAction(
            _("It is side {side}'s attack in this exchange (VII-C-3)."),
            side=(turn or st.other(side)).upper(),
        )
    attacker = command.get("attacker")
    target = command.get("target")
    own_fighter(state, side, attacker)
    st.living_fighter(state, target)
    if attacker not in members(combat) or target not in members(combat):
        raise IllegalAction(_("Both fighters must be in this combat."))
    label = label_of(state, attacker)
    targets = attack_targets(state, combat, attacker)
    if target not in targets:
        if target in opponents(state, combat, attacker):
            raise IllegalAction(
                _(
                    "{fighter} already attacked {target} in this exchange: each "
                    "opponent once an exchange (VII-C-3)."
                ),
                fighter=label,
                target=label_of(state, target),
            )
        if (combat["dice"][attacker]["attack"] or 0) < 1:
            raise IllegalAction(_("{fighter} has no attack die left."), fighter=label)
        raise IllegalAction(_("{fighter} does not fight that fighter."), fighter=label)
    strike = command.get("master_strike", False)
    if strike:
        if not has(state, attacker, MASTER_STRIKE):
            raise IllegalAction(_("{fighter} has no Coup de maître."), fighter=label)
        if combat["dice"][attacker]["attack"] < 2:
            raise IllegalAction(
                _("A Coup de maître spends 2 attack dice: {fighter} has 1."),
                fighter=label,
            )
    amplified, attenuated = wound_modifiers(command)
    combat["dice"][attacker]["attack"] -= 2 if strike else 1
    combat["attacked"][attacker] = [*combat["attacked"].get(attacker, []), target]
    combat["last_side"] = side  # the other side attacks next (§2.5)
    context = {
        "combat": index,
        "attacker": attacker,
        "target": target,
        "master_strike": bool(strike),
        "amplified": amplified,
        "attenuated": attenuated,
        "exchange": combat["exchange"],
        "bonus": None,
    }
    declared = {
        "attacker": attacker,
        "attacker_label": label,
        "target": target,
        "target_label": label_of(state, target),
        "master_strike": bool(strike),
        "exchange": combat["exchange"],
    }
    following = _parry_or_attack(state, combat, context)
    _emit(
        batch,
        index,
        combat,
        attack_declared=declared,
        pending=following,
        **attack_certain_payload(state, combat, following),
    )


def _attack_value(state: State, combat: Mapping[str, Any], attacker: str) -> int:
    return combat_value(state, combat, attacker, "ATT")


def _parry_or_attack(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """The target's side commits its defence dice before the attack test
    (VII-C-4, S8 [inferred]: declared before the attack roll; a counter-attack
    is announced before it, S11 [read]). A target with no defence die left
    has nothing to decide: the attack test waits."""
    target, attacker = context["target"], context["attacker"]
    limit = then("combat._parry_limit")(state, combat, target)
    if limit == 0:
        return _attack_or_wound(
            state, combat, {**context, "parry_dice": 0, "counter": False}
        )
    attack = _attack_value(state, combat, attacker)
    defence = combat_value(state, combat, target, "DEF")
    tie = _needed_over(state, False)
    odds_by_dice = {
        str(k): fraction_text(then("combat.parry_odds")(attack, defence, k, tie))
        for k in range(limit + 1)
    }
    counter = has(state, target, COUNTER_ATTACK)
    return choice_pending(
        purpose="parry",
        side=state["fighters"][target]["side"],
        section="VII-C-4",
        context=context,
        max_dice=limit,
        counter_allowed=counter,
        odds=odds_by_dice,
        counter_odds={
            str(k): fraction_text(
                then("combat.parry_odds")(attack, defence, k, _stop_over(state, True))
            )
            for k in range(1, limit + 1)
        }
        if counter
        else {},
    )


def _attack_test(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """The attack test (VII-C-4, S8 [read]: "1d6 + current ATT. There is no
    fixed difficulty to reach"); II-A-4: a final result of 0 or less fails,
    so it is rolled against 1."""
    attacker = context["attacker"]
    context = dict(context)
    if context.get("parry_dice"):
        # What a six's question needs: the parry the blow must get past.
        context["defence_value"] = combat_value(state, combat, context["target"], "DEF")
        context["needed_over"] = _stop_over(state, bool(context.get("counter")))
    return test_pending(
        purpose="attack",
        side=state["fighters"][attacker]["side"],
        value=_attack_value(state, combat, attacker),
        difficulty=1,
        section="VII-C-4",
        context=context,
    )


def _needed_over(state: State, counter: bool) -> int:
    """What the defence test needs above the attack's final result: 2 for a
    counter-attack (S11), else 0, or 1 under ``parry_tie`` "not_parried"."""
    if counter:
        return 2
    return 0 if ruling(state, "parry_tie") == "parried" else 1


def _stop_over(state: State, counter: bool) -> int:
    """What the defence test needs above the attack's final result for the
    blow not to land: as ``_needed_over``, but a counter-attack that reaches
    the attack without 2 more still stops it under ``counter_short``
    "parried" (the odds shown before it and a six's question follow the
    ruling)."""
    if counter and ruling(state, "counter_short") == "parried":
        return _needed_over(state, False)
    return _needed_over(state, counter)


def blow_lands(attack_final: int, defence: int, dice: int, over: int) -> Fraction:
    """P(the blow lands) once the attack test's final result is known: it
    fails at 0 or less (II-A-4), else the defence test (``dice`` d6, one
    kept, II-A-2, + ``defence``) must reach it + ``over`` to parry it."""
    if attack_final <= 0:
        return Fraction(0)
    if dice <= 0:
        return Fraction(1)
    return 1 - dice_test_success(defence, attack_final + over, dice)


@follows("blow_lands_choice")  # a six on an attack against a parry
def blow_lands_choice(
    attack: int, natural: int, defence: int, dice: int, over: int
) -> tuple[Fraction, Fraction]:
    """(keep, reroll): the chance the blow lands when the attacker keeps the
    six showing at ``natural`` or rerolls it (II-A-1: a '1' makes the natural
    1; a later six is kept or rerolled, whichever lands more often)."""

    def keep(n: int) -> Fraction:
        return blow_lands(n + attack, defence, dice, over)

    def reroll(n: int, depth: int) -> Fraction:
        total = keep(1)
        total += sum((keep(n + g) for g in range(2, 6)), Fraction(0))
        six = keep(n + 6) if depth >= 4 else max(keep(n + 6), reroll(n + 6, depth + 1))
        return (total + six) / 6

    return keep(natural), reroll(natural, 0)


def attack_cannot_fail(state: State, combat: Mapping[str, Any], attacker: str) -> bool:
    """The attack test cannot fail: 1d6 + current ATT is at least 1 when ATT
    is 0 or more (VII-C-4, S8 [read]: "no fixed difficulty"; II-A-4: only a
    final result of 0 or less fails)."""
    return _attack_value(state, combat, attacker) >= 0


def _attack_or_wound(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """With no defence die committed, an attack test that cannot fail decides
    nothing: it is not asked for, the wound roll waits (RULES_API "Melee": a
    roll whose outcome cannot change what follows need not be asked for).
    The wound pending's context says so (``attack_certain``)."""
    if not context.get("parry_dice") and attack_cannot_fail(
        state, combat, context["attacker"]
    ):
        pending = _wound_after(state, combat, context)
        pending["context"]["attack_certain"] = True
        return pending
    return _attack_test(state, combat, context)


def attack_certain_payload(
    state: State, combat: Mapping[str, Any], pending: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The ``attack_certain`` part of an event whose next step skipped the
    attack test (what happened and why, for the log), or nothing."""
    if not pending or not pending["context"].get("attack_certain"):
        return {}
    attacker = pending["context"]["source"]
    return {
        "attack_certain": {
            "attacker": attacker,
            "label": label_of(state, attacker),
            "target": pending["context"]["target"],
            "target_label": label_of(state, pending["context"]["target"]),
            "value": _attack_value(state, combat, attacker),
            "odds": "1/1",
            "section": "VII-C-4, II-A-4",
        }
    }


def attack_test_finished(batch: Batch, pending: Mapping[str, Any], result: Any) -> None:
    """The attack test is rolled (VII-C-4): a final result of 0 or less fails
    (II-A-4); a success meets the defence dice committed, or the wound roll."""
    state = batch.state
    context = dict(pending["context"])
    index, combat = _current(state)
    dice = context.get("parry_dice", 0)
    counter = context.get("counter", False)
    context["attack_final"] = result.final
    next_pending = None
    certain = None
    if result.success and dice > 0:
        over = _needed_over(state, counter)
        certain = then("combat._parry_certain")(
            state, combat, context, result.final + over
        )
        if certain is None:
            next_pending = then("combat._defence_test")(
                state, combat, context, result.final + over
            )
    elif result.success:
        next_pending = _wound_after(state, combat, context)
    batch.emit(
        "test_resolved",
        test_resolution(
            pending,
            result,
            purpose="attack",
            success=result.success,
            context=context,
            next=next_pending,
        ),
    )
    if certain is not None:
        _emit(batch, index, combat, parry_certain=certain)
        if certain["bonus"]:
            _bonus_attack(batch, context, certain["bonus"])
        else:
            then("combat.settle_combat")(batch)
        return
    if result.success:
        return
    target = context["target"]
    if counter:
        # §4 Counter-Attack [read] S11: "If the attack auto-fails: gain the
        # attack die without rolling, but lose the dice assigned to the parry."
        _bonus_attack(batch, context, "counter")
        return
    if dice and has(state, target, AMBIDEXTROUS):
        # §4 Ambidextrous [read] S11: "If the attack auto-fails, choose: keep
        # the defence die, or swap it for an attack die."
        batch.emit(
            "pending_set",
            {
                "pending": choice_pending(
                    purpose="ambidextrous",
                    side=state["fighters"][target]["side"],
                    section="VII-C-4",
                    context=context,
                    options=["keep", "swap"],
                )
            },
        )
        return
    if dice:
        # §4 Ambidextrous [read] S11 (the choice "keep the defence die" when
        # the attack fails): the dice committed to a parry never rolled stay.
        index, combat = _current(batch.state)
        combat["dice"][target]["defence"] += dice
        _emit(
            batch,
            index,
            combat,
            returned={
                "fighter": target,
                "label": label_of(state, target),
                "dice": dice,
            },
        )
    then("combat.settle_combat")(batch)


def _bonus_attack(batch: Batch, context: Mapping[str, Any], why: str) -> None:
    """An attack die won by a parry (Contre-attaque, Ambidextre), used at once
    against the attacker (§2.5 [read] S11: "resolved at once, even outside the
    fighter's turn. They must target the fighter whose attack triggered
    them")."""
    state = batch.state
    defender, attacker = context["target"], context["attacker"]
    if (
        state["fighters"][attacker]["eliminated"]
        or state["fighters"][defender]["eliminated"]
    ):
        then("combat.settle_combat")(batch)
        return
    index, combat = _current(state)
    combat["dice"][defender]["total"] += 1  # won, and spent at once
    new_context = {
        "combat": index,
        "attacker": defender,
        "target": attacker,
        "master_strike": False,
        "amplified": 0,
        "attenuated": 0,
        "exchange": combat["exchange"],
        "bonus": why,
    }
    following = _parry_or_attack(state, combat, new_context)
    _emit(
        batch,
        index,
        combat,
        gained={
            "fighter": defender,
            "label": label_of(state, defender),
            "ability": why,
            "target": attacker,
            "target_label": label_of(state, attacker),
        },
        pending=following,
        **attack_certain_payload(state, combat, following),
    )


def _wound_after(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """An attack not parried goes to the wound roll (II-B-1), attacker's FOR
    against the target's RES; after a Coup de maître/X the FOR gains the
    attacker's ATT at the test, capped at its printed ATT, + X (§4 [read]
    S11; E1)."""
    attacker = context["attacker"]
    strength = st.value_of(state, attacker, "FOR") or 0
    if context.get("master_strike"):
        _found, x = ability(skills_of(state, attacker), MASTER_STRIKE)
        strength = master_strike_strength(
            strength,
            _attack_value(state, combat, attacker),
            st.base_value(state, attacker, "ATT") or 0,
            x,
        )
    pending = wound_pending(
        state,
        side=state["fighters"][attacker]["side"],
        target=context["target"],
        strength=strength,
        source=attacker,
        amplified=context.get("amplified", 0),
        attenuated=context.get("attenuated", 0),
    )
    pending["context"]["combat"] = context["combat"]
    pending["context"]["master_strike"] = bool(context.get("master_strike"))
    pending["section"] = "VII-C-4, II-B-1"
    return pending


def fierce_survives(state: State, target: str, eliminated: bool) -> bool:
    """Acharné (§4 [read] S11, S14: "Killed Outright -> stays at Critical Wound
    until the next upkeep"): the fighter stays in the combat."""
    return (
        eliminated
        and state["phase"] == "combat"
        and has(state, target, FIERCE)
        and not state["fighters"][target].get("fierce")
    )


# --- the commands of this part, each declared once (rules.game.commands) ---


class Attack(CommandKind):
    """VII-C-3, VII-C-4: one attack die (two for Coup de maître/X)."""

    type = "attack"
    section = "VII-C-3"
    fields = (
        id_field("attacker"),
        id_field("target"),
        bool_field("master_strike"),
        *WOUND_MODIFIERS,
    )
    legal = staticmethod(legal_attack)
    apply = staticmethod(declare_attack)
