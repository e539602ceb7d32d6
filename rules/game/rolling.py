"""Rolling dice for what the game waits for: tests, sixes, splits, wounds.

II-A (tests, the reroll of a six), II-B-1 (the wound roll), the initiation
rules' split roll; a finished roll leads on (a parry, a wound, the next turn of
speech).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import odds
from rules.checks import OpposedRoll, TestRoll
from rules.dice import DiceExhausted, DiceSource
from rules.errors import IllegalAction, _
from rules.game import combat
from rules.game import state as st
from rules.game.activation_phase import maybe_end_activation_phase, movement_cm
from rules.game.commands import CommandKind
from rules.game.common import (
    Batch,
    Command,
    State,
    faces_from,
    label_of,
)
from rules.game.pending import (
    opposed_resolution,
    opposed_roll_of,
    roll_to_dict,
    test_resolution,
    test_roll_of,
    wound_pending,
)
from rules.game.table_rolls import (
    decide_check,
    opposed_finished,
    roll_check,
)
from rules.several_dice import DiceTest
from rules.wounds import STEPS_TO_DIE, Health, wound_roll

TURN_PLACE = 10  # its commands' place in legal_actions (a pending roll's, first)


def legal_roll(state: State, side: str) -> list[dict[str, Any]]:
    pending = state["pending"]
    if (
        not pending
        or pending["kind"] not in ("test", "opposed", "wound", "split", "check")
        or pending.get("roll")
        or pending["side"] not in (None, side)
    ):
        return []
    return [{"type": "roll"}]


def six_decider(state: State) -> str | None:
    """The side that must reroll or keep the six showing, if any (II-A-1)."""
    pending = state["pending"]
    if (
        not pending
        or not pending.get("roll")
        or pending["kind"] not in ("test", "opposed", "check")
    ):
        return None
    if pending["kind"] == "check":  # a test rolled at the table (II-A-2)
        roll = DiceTest.from_dict(pending["roll"])
        return pending["side"] if roll.awaiting_choice else None
    if pending["kind"] == "test":
        if not test_roll_of(pending).awaiting_choice:
            return None
        return pending["side"]
    roll = opposed_roll_of(pending)
    return None if roll.finished else roll.deciding


def legal_reroll(state: State, side: str) -> list[dict[str, Any]]:
    return [{"type": "reroll"}] if six_decider(state) == side else []


def legal_keep(state: State, side: str) -> list[dict[str, Any]]:
    return [{"type": "keep"}] if six_decider(state) == side else []


def roll_dice(batch: Batch, side: str, command: Command, dice: DiceSource) -> None:
    state = batch.state
    pending = state["pending"]
    if pending and pending["kind"] == "check":
        roll_check(batch, side, pending, dice)
        return
    if not pending or pending["kind"] not in ("test", "opposed", "wound", "split"):
        raise IllegalAction(_("There is no roll to make now."))
    if pending.get("roll"):
        raise IllegalAction(_("This roll is already made: reroll or keep the six."))
    if pending["side"] not in (None, side):
        raise IllegalAction(
            _("Side {side} makes this roll."), side=pending["side"].upper()
        )
    try:
        if pending["kind"] == "test":
            roll = TestRoll.start(pending["value"], pending["difficulty"], dice)
            _roll_progress(batch, side, pending, roll, [*roll.faces])
        elif pending["kind"] == "opposed":
            values = pending["values"]
            roll = OpposedRoll.start(values["a"], values["b"], dice)
            _roll_progress(batch, side, pending, roll, list(roll.faces))
        elif pending["kind"] == "wound":
            _wound_roll(batch, side, pending, faces_from(dice, pending["dice"]))
        else:
            _split_roll(batch, side, pending, faces_from(dice, 1)[0])
    except DiceExhausted:
        raise IllegalAction(
            _("Enter more dice: a tie or a six needs another roll.")
        ) from None


def decide_six(
    batch: Batch, side: str, command: Command, dice: DiceSource, reroll: bool
) -> None:
    state = batch.state
    pending = state["pending"]
    if pending and pending["kind"] == "check" and pending.get("roll"):
        decide_check(batch, side, pending, dice, reroll)
        return
    if (
        not pending
        or not pending.get("roll")
        or pending["kind"]
        not in (
            "test",
            "opposed",
        )
    ):
        raise IllegalAction(_("No six is waiting for a decision."))
    decider = six_decider(state)
    if decider is None:
        raise IllegalAction(_("No six is waiting for a decision."))
    if decider != side:
        raise IllegalAction(
            _("Side {side} decides about its six."), side=decider.upper()
        )
    try:
        if pending["kind"] == "test":
            before = test_roll_of(pending)
            roll = before.decide(reroll, dice if reroll else None)
            new_faces = list(roll.faces[len(before.faces) :])
        else:
            before = opposed_roll_of(pending)
            roll = before.decide(reroll, dice)
            new_faces = list(roll.faces[len(before.faces) :])
    except DiceExhausted:
        raise IllegalAction(_("Enter the face of the die you rerolled.")) from None
    _roll_progress(batch, side, pending, roll, new_faces, reroll=reroll)


def _roll_progress(
    batch: Batch,
    side: str,
    pending: Mapping[str, Any],
    roll: TestRoll | OpposedRoll,
    new_faces: list[int],
    *,
    reroll: bool | None = None,
) -> None:
    updated = dict(pending)
    updated["roll"] = roll_to_dict(roll)
    if isinstance(roll, OpposedRoll):
        updated["side"] = roll.deciding
    batch.emit(
        "roll_updated",
        {"pending": updated, "faces": new_faces, "reroll": reroll},
    )
    if _six_decides_nothing(updated, roll):
        # II-A-1: keeping the six succeeds; a reroll could only lower the
        # result, and no parry waits for it: kept without a tap.
        roll = roll.decide(False, None)
        updated = {**updated, "roll": roll_to_dict(roll)}
        batch.emit(
            "roll_updated",
            {
                "pending": updated,
                "faces": [],
                "reroll": False,
                "automatic": "attack_succeeds",
            },
        )
    if roll.finished:
        _roll_finished(batch, updated, roll)


def _six_decides_nothing(pending: Mapping[str, Any], roll: Any) -> bool:
    """An attack test with no parry committed (VII-C-4) showing a six that
    already makes it succeed (ATT below 0: otherwise it is not rolled): only
    success counts, so keeping the six is always at least as good."""
    if not isinstance(roll, TestRoll) or not roll.awaiting_choice:
        return False
    context = pending.get("context") or {}
    if pending.get("purpose") != "attack" or context.get("parry_dice"):
        return False
    return odds.test_choice(roll).keep == 1


def _roll_finished(
    batch: Batch, pending: Mapping[str, Any], roll: TestRoll | OpposedRoll
) -> None:
    state = batch.state
    purpose = pending["purpose"]
    context = pending["context"]
    if isinstance(roll, OpposedRoll) and purpose == "characteristic":
        opposed_finished(batch, pending, roll)
        return
    if isinstance(roll, OpposedRoll) and purpose == "initiative":
        combat.initiative_finished(batch, pending, roll)  # VII-C-2
        return
    if purpose == "attack":
        combat.attack_test_finished(batch, pending, roll.result())  # VII-C-4
        return
    if isinstance(roll, OpposedRoll):
        result = roll.result()
        batch.emit(
            "tactics_won",
            {
                **opposed_resolution(state, pending, result),
                "fighters": dict(context["fighters"]),
            },
        )
        batch.emit("step_changed", {"step": "first_choice", "pending": None})
        return
    result = roll.result()
    resolved = test_resolution(
        pending,
        result,
        purpose=purpose,
        success=result.success,
        context=dict(context),
    )
    next_pending = _after_test(state, pending, result)
    resolved["next"] = next_pending
    if purpose == "disengage":
        batch.emit("test_resolved", resolved)
        fighter_id = context["fighter"]
        contacts = st.remove_contacts_of(
            [list(p) for p in state["contacts"]], fighter_id
        )
        batch.emit(
            "disengaged",
            {
                "fighter": fighter_id,
                "label": label_of(state, fighter_id),
                "success": result.success,
                "contacts": contacts,
                "move_cm": movement_cm(state, fighter_id, "walk")
                if result.success
                else 0,
            },
        )
        return
    # test_resolved sets the next pending item (a split, parry or wound roll).
    batch.emit("test_resolved", resolved)
    if purpose == "shot" and not next_pending:
        maybe_end_activation_phase(batch)


def _after_test(
    state: State, pending: Mapping[str, Any], result: Any
) -> dict[str, Any] | None:
    """What a finished test leads to: a split roll, a parry choice, a wound roll."""
    purpose, context = pending["purpose"], pending["context"]
    if purpose == "shot" and result.success:
        if context.get("nearest_friend"):
            return {
                "kind": "split",
                "purpose": "split",
                "side": pending["side"],
                "section": "Tir dans la mêlée",
                "odds": "1/2",
                "context": dict(context),
            }
        return wound_pending(
            state,
            side=pending["side"],
            target=context["target"],
            strength=context["strength"],
            source=context["fighter"],
            amplified=context.get("amplified", 0),
            attenuated=context.get("attenuated", 0),
        )
    return None


def _split_roll(batch: Batch, side: str, pending: Mapping[str, Any], face: int) -> None:
    state = batch.state
    context = pending["context"]
    hit = context["target"] if face >= 4 else context["nearest_friend"]
    next_pending = wound_pending(
        state,
        side=side,
        target=hit,
        strength=context["strength"],
        source=context["fighter"],
        amplified=context.get("amplified", 0),
        attenuated=context.get("attenuated", 0),
    )
    batch.emit(
        "split_rolled",
        {
            "face": face,
            "hits": hit,
            "hits_label": label_of(state, hit),
            "hits_target": face >= 4,
            "pending": next_pending,
        },
    )


def _wound_roll(
    batch: Batch, side: str, pending: Mapping[str, Any], faces: list[int]
) -> None:
    state = batch.state
    context = pending["context"]
    result = wound_roll(
        faces,
        context["strength"],
        context["resistance"],
        amplified=context["amplified"],
        attenuated=context["attenuated"],
    )
    target = context["target"]
    health = st.health(state, target).apply(result.outcome)
    eliminated = health.dead
    fierce = combat.fierce_survives(state, target, eliminated)
    if fierce:
        # Acharné: killed outright, it stays at Critical until the next upkeep.
        health, eliminated = Health(wound_steps=3), False
    batch.emit(
        "wound_rolled",
        {
            "target": target,
            "target_label": label_of(state, target),
            "source": context["source"],
            "source_label": label_of(state, context["source"]),
            "faces": faces,
            "strength": context["strength"],
            "resistance": context["resistance"],
            "location": result.location,
            "row": result.row,
            "row_label": result.row_label,
            "outcome": result.outcome,
            "steps_after": min(health.wound_steps, STEPS_TO_DIE),
            "stunned_after": health.stunned and not eliminated,
            "eliminated": eliminated,
            "odds": pending["odds"],
            **({"fierce": True} if fierce else {}),
        },
    )
    if eliminated:
        batch.emit(
            "contacts_changed",
            {
                "contacts": st.remove_contacts_of(
                    [list(p) for p in batch.state["contacts"]], target
                ),
                "reason": "eliminated",
            },
        )
    if _check_wipe_out(batch):
        return
    if state["phase"] == "activation":
        maybe_end_activation_phase(batch)
    elif state["phase"] == "combat":
        combat.settle_combat(batch)  # the next attack, exchange or combat


def _check_wipe_out(batch: Batch) -> bool:
    state = batch.state
    gone = [s for s in st.SIDES if st.wiped_out(state, s)]
    if not gone:
        return False
    winner = None if len(gone) == 2 else st.other(gone[0])
    batch.emit("game_finished", {"reason": "wiped_out", "winner": winner})
    return True


# --- the commands of this phase, each declared once (rules.game.commands) ---


class Roll(CommandKind):
    """Roll what the game waits for (a test, a Tactics roll, a split, a wound)."""

    type = "roll"
    section = "II-A"
    rolls = True
    legal = staticmethod(legal_roll)
    apply = staticmethod(roll_dice)


def reroll(batch: Batch, side: str, command: Command, dice: DiceSource) -> None:
    decide_six(batch, side, command, dice, True)


def keep(batch: Batch, side: str, command: Command, dice: DiceSource) -> None:
    decide_six(batch, side, command, dice, False)


class Reroll(CommandKind):
    """II-A-1: a six is rerolled."""

    type = "reroll"
    section = "II-A-1"
    rolls = True
    legal = staticmethod(legal_reroll)
    apply = staticmethod(reroll)


class Keep(CommandKind):
    """II-A-1: a six is kept."""

    type = "keep"
    section = "II-A-1"
    rolls = True
    legal = staticmethod(legal_keep)
    apply = staticmethod(keep)
