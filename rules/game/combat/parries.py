"""Parries (VII-C-4): the defence dice committed, the defence test, Contre-
attaque and Ambidextre.

Part of ``rules.game.combat`` (the package's docstring tells the course of a
combat); what a lower part needs from a higher one it finds in
``rules.game.follows``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.errors import IllegalAction, _
from rules.game.combat.attacks import (
    _attack_or_wound,
    _bonus_attack,
    _wound_after,
    attack_certain_payload,
)
from rules.game.combat.under_way import (
    MAX_PARRY_DICE,
    _current,
    _emit,
    combat_value,
    has,
    ruling,
)
from rules.game.commands import (
    Bound,
    CommandKind,
    bool_field,
    int_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    fraction_text,
    label_of,
)
from rules.game.follows import follows, then
from rules.game.pending import (
    test_resolution,
)
from rules.game.table_rolls import check_pending
from rules.melee import (
    AMBIDEXTROUS,
    MAX_COMBAT_DICE,
)
from rules.several_dice import dice_test_success

TURN_PLACE = 44  # its commands' place in legal_actions (VII-C-4)


@follows("combat._parry_limit")
def _parry_limit(state: State, combat: Mapping[str, Any], target: str) -> int:
    """The defence dice one parry may commit (``sustained_defence``)."""
    left = combat["dice"][target]["defence"] or 0
    if ruling(state, "sustained_defence") == "one_die":
        return min(left, 1)
    return min(left, MAX_PARRY_DICE)


def _parry_asked(state: State, side: str | None = None) -> bool:
    """Whether an attack waits for its target's parry (by ``side``)."""
    pending = state["pending"]
    return bool(
        pending
        and pending.get("purpose") == "parry"
        and pending["kind"] == "choice"
        and (side is None or pending["side"] == side)
    )


def parry_bounds(state: State, side: str, command: Command) -> dict[str, Bound]:
    """The defence dice this parry may commit (``_parry_limit``, asked when
    the attack was made)."""
    if not _parry_asked(state, side):
        return {}
    limit = state["pending"]["max_dice"]
    message = _("Commit 0 to {count} defence dice to this parry.")
    return {"dice": Bound(0, limit, message, {"count": limit})}


def legal_parry(state: State, side: str) -> list[dict[str, Any]]:
    if not _parry_asked(state, side):
        return []
    dice = parry_bounds(state, side, {})["dice"].values
    entries = [{"type": "parry", "choices": {"dice": dice, "counter": [False]}}]
    if state["pending"]["counter_allowed"] and dice[1:]:
        entries.append(
            {"type": "parry", "choices": {"dice": dice[1:], "counter": [True]}}
        )
    return entries


@follows("combat.parry_odds")
def parry_odds(attack: int, defence: int, dice: int, needed_over: int = 0) -> Fraction:
    """The chance that an attack does not land when ``dice`` defence dice are
    committed (0: only the attack test's own failure), the attacker keeping
    a six (II-A-1): the attack test (1d6 + ``attack``) fails at 0 or less
    (II-A-4), else the defence test (``dice`` d6, one kept, II-A-2, +
    ``defence``) must reach its result + ``needed_over``."""
    total = Fraction(0)
    for face in range(1, 7):
        final = face + attack
        if final <= 0:
            total += Fraction(1, 6)
        elif dice > 0:
            total += dice_test_success(defence, final + needed_over, dice) / 6
    return total


def parry(batch: Batch, side: str, command: Command) -> None:
    """The target's side commits ``dice`` of its fighter's defence dice (0
    takes the blow), before the attack test (VII-C-4). ``counter``:
    Contre-attaque (§4 [read] S11: "Announce before the attack roll; it
    cannot be withdrawn")."""
    state = batch.state
    pending = state["pending"]
    if not _parry_asked(state):
        raise IllegalAction(_("There is no attack to parry now."))
    if pending["side"] != side:
        raise IllegalAction(_("Only the defender's side decides to parry."))
    context = pending["context"]
    index, combat = _current(state)
    dice = command["dice"]  # within ``parry_bounds``
    counter = command.get("counter", False)
    if counter and not pending["counter_allowed"]:
        raise IllegalAction(
            _("{fighter} has no Contre-attaque."),
            fighter=label_of(state, context["target"]),
        )
    if counter and dice == 0:
        raise IllegalAction(_("A counter-attack parries with at least one die."))
    target = context["target"]
    combat["dice"][target]["defence"] -= dice
    new_context = {**context, "parry_dice": dice, "counter": bool(counter)}
    following = _attack_or_wound(state, combat, new_context)
    _emit(
        batch,
        index,
        combat,
        parry_declared={
            "target": target,
            "label": label_of(state, target),
            "dice": dice,
            "counter": bool(counter),
            "odds": (pending["counter_odds"] if counter else pending["odds"]).get(
                str(dice)
            ),
        },
        pending=following,
        **attack_certain_payload(state, combat, following),
    )


def legal_ambidextrous(state: State, side: str) -> list[dict[str, Any]]:
    pending = state["pending"]
    if (
        not pending
        or pending.get("purpose") != "ambidextrous"
        or pending["side"] != side
    ):
        return []
    return [{"type": "ambidextrous", "choices": {"swap": [False, True]}}]


def ambidextrous(batch: Batch, side: str, command: Command) -> None:
    """Ambidextre against an attack that failed (§4 [read] S11): keep the
    defence dice committed, or swap them for an attack die used at once
    against the attacker."""
    state = batch.state
    pending = state["pending"]
    if not pending or pending.get("purpose") != "ambidextrous":
        raise IllegalAction(_("There is no Ambidextre choice to make now."))
    if pending["side"] != side:
        raise IllegalAction(_("Only the defender's side makes this choice."))
    swap = command.get("swap", False)
    if not isinstance(swap, bool):
        raise IllegalAction(_("Keep the defence dice, or swap them for an attack."))
    context = pending["context"]
    batch.emit("pending_set", {"pending": None})
    if swap:
        _bonus_attack(batch, context, "ambidextrous")
        return
    index, combat = _current(batch.state)
    target = context["target"]
    combat["dice"][target]["defence"] += context["parry_dice"]
    _emit(
        batch,
        index,
        combat,
        returned={
            "fighter": target,
            "label": label_of(state, target),
            "dice": context["parry_dice"],
        },
    )
    then("combat.settle_combat")(batch)


@follows("combat._parry_certain")
def _parry_certain(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any], needed: int
) -> dict[str, Any] | None:
    """A defence test that cannot fail decides nothing: it is not asked for
    (RULES_API "Melee"), unless its margin still matters (Ambidextre wins an
    attack die by 2 more, §4 [read] S11, and that is not certain too). What
    the log says of it, or None when it must be rolled."""
    target = context["target"]
    dice = context["parry_dice"]
    value = combat_value(state, combat, target, "DEF")
    if dice_test_success(value, needed, dice) != 1:
        return None
    bonus = None
    if context.get("counter"):
        bonus = "counter"
    elif has(state, target, AMBIDEXTROUS):
        if dice_test_success(value, context["attack_final"] + 2, dice) != 1:
            return None
        bonus = "ambidextrous"
    return {
        "target": target,
        "label": label_of(state, target),
        "attacker": context["attacker"],
        "attacker_label": label_of(state, context["attacker"]),
        "dice": dice,
        "value": value,
        "needed": needed,
        "attack_final": context["attack_final"],
        "counter": bool(context.get("counter")),
        "bonus": bonus,
        "odds": "1/1",
        "section": "VII-C-4, II-A-4",
    }


@follows("combat._defence_test")
def _defence_test(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any], needed: int
) -> dict[str, Any]:
    """The defence test: the dice committed, one result kept (II-A-2), +
    current DEF, against the attack's final result (+2 for a counter-attack;
    +1 under ``parry_tie`` "not_parried")."""
    target = context["target"]
    dice = context["parry_dice"]
    pending = check_pending(
        state,
        side=state["fighters"][target]["side"],
        fighter=target,
        characteristic="DEF",
        difficulty=needed,
        dice=dice,
        use="defence",
        section="VII-C-4",
        extra={**context, "needed": needed},
    )
    value = combat_value(state, combat, target, "DEF")
    pending["purpose"] = "defence"
    pending["value"] = value
    pending["context"]["current"] = value
    pending["odds"] = fraction_text(dice_test_success(value, needed, dice))
    return pending


@follows("defence_finished")  # a parry's roll ends in the combat
def defence_finished(batch: Batch, pending: Mapping[str, Any], roll: Any) -> None:
    """The defence test is rolled (VII-C-4): it parries when its final result
    reaches the attack's ([inferred] §2.6: "a normal parry needs >= the attack's
    final result"; a tie follows ``parry_tie``). Counter-attack: it needs 2
    more and wins an attack die used at once against the attacker (§4 [read]
    S11). Ambidextre: a parry that beats the attack by 2 or more wins one too
    (§4 [read] S11)."""
    state = batch.state
    context = dict(pending["context"])
    index, combat = _current(state)
    success = roll.winning
    attack_final = context["attack_final"]
    short = _counter_short(state, context, roll.final)
    if short:  # the house ruling "counter_short": "parried", no attack die
        success = True
    next_pending = None if success else _wound_after(state, combat, context)
    resolved = test_resolution(
        pending,
        roll,
        purpose="defence",
        dice=pending["dice"],
        throws=[list(t) for t in roll.throws],
        success=success,
        section="VII-C-4",
        context=context,
        label=label_of(state, context["target"]),
        next=next_pending,
    )
    if roll.final == attack_final and not context.get("counter"):
        resolved["house_ruling"] = "parry_tie"
    if short is not None:
        resolved["house_ruling"] = "counter_short"
    if pending["dice"] > 1:  # several dice on one parry: a ruling decides it
        resolved["house_rulings"] = ["sustained_defence"]
    batch.emit("test_resolved", resolved)
    if not success:
        return
    if context.get("counter") and not short:
        _bonus_attack(batch, context, "counter")
        return
    target = context["target"]
    if has(state, target, AMBIDEXTROUS) and roll.final >= attack_final + 2:
        _bonus_attack(batch, context, "ambidextrous")
        return
    then("combat.settle_combat")(batch)


def _counter_short(state: State, context: Mapping[str, Any], final: int) -> bool | None:
    """A counter-attack's defence that reaches the attack but not 2 more
    (``counter_short``): True when the ruling parries it, False when the blow
    lands, None when the ruling does not decide (no counter, or out of range)."""
    attack_final = context["attack_final"]
    if not context.get("counter") or final >= attack_final + 2:
        return None
    reaches = final >= attack_final
    if ruling(state, "parry_tie") == "not_parried":
        reaches = final > attack_final
    if not reaches:
        return None
    return ruling(state, "counter_short") == "parried"


# --- the commands of this part, each declared once (rules.game.commands) ---


class Parry(CommandKind):
    """VII-C-4: the target's side commits ``dice`` defence dice (0 takes the
    blow) before the attack test; ``counter`` for Contre-attaque."""

    type = "parry"
    section = "VII-C-4"
    fields = (int_field("dice", 0, MAX_COMBAT_DICE), bool_field("counter"))
    legal = staticmethod(legal_parry)
    bounds = staticmethod(parry_bounds)
    apply = staticmethod(parry)


class Ambidextrous(CommandKind):
    """Ambidextre against an attack that failed: keep the defence dice
    committed, or ``swap`` them for an attack die used at once."""

    type = "ambidextrous"
    section = "VII-C-4"
    fields = (bool_field("swap"),)
    legal = staticmethod(legal_ambidextrous)
    apply = staticmethod(ambidextrous)
