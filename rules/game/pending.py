"""What the game waits for: pending rolls and choices, their odds (II-A, II-B)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import odds
from rules.checks import OpposedRoll, TestRoll
from rules.game import state as st
from rules.game.common import State, fraction_text, label_of
from rules.game.follows import then


def choice_pending(
    *,
    purpose: str,
    side: str,
    section: str,
    context: Mapping[str, Any] | None = None,
    **details: Any,
) -> dict[str, Any]:
    """The game waits for ``side`` to choose (``details``: the options, odds)."""
    return {
        "kind": "choice",
        "purpose": purpose,
        "side": side,
        "section": section,
        **details,
        "context": dict(context or {}),
    }


def test_pending(
    *,
    purpose: str,
    side: str,
    value: int,
    difficulty: int,
    section: str,
    context: Mapping[str, Any],
) -> dict[str, Any]:
    return {
        "kind": "test",
        "purpose": purpose,
        "side": side,
        "value": value,
        "difficulty": difficulty,
        "section": section,
        "odds": fraction_text(odds.test_success(value, difficulty)),
        "roll": None,
        "context": dict(context),
    }


def wound_pending(
    state: State,
    *,
    side: str,
    target: str,
    strength: int,
    source: str,
    amplified: int = 0,
    attenuated: int = 0,
) -> dict[str, Any]:
    resistance = st.value_of(state, target, "RES") or 1
    outcomes = odds.wound_outcomes(
        strength, resistance, amplified=amplified, attenuated=attenuated
    )
    return {
        "kind": "wound",
        "purpose": "wound",
        "side": side,
        "section": "II-B-1",
        "dice": 3 if amplified != attenuated else 2,
        "odds": {k: fraction_text(v) for k, v in outcomes.items()},
        "context": {
            "target": target,
            "strength": strength,
            "resistance": resistance,
            "amplified": amplified,
            "attenuated": attenuated,
            "source": source,
        },
    }


def attack_wound_pending(state: State, context: Mapping[str, Any]) -> dict[str, Any]:
    attacker = context["attacker"]
    return wound_pending(
        state,
        side=state["fighters"][attacker]["side"],
        target=context["target"],
        strength=st.value_of(state, attacker, "FOR") or 0,
        source=attacker,
        amplified=context.get("amplified", 0),
        attenuated=context.get("attenuated", 0),
    )


def roll_to_dict(roll: TestRoll | OpposedRoll) -> dict[str, Any]:
    if isinstance(roll, TestRoll):
        return {
            "value": roll.value,
            "difficulty": roll.difficulty,
            "faces": list(roll.faces),
            "kept": roll.kept,
        }
    return {
        "value_a": roll.value_a,
        "value_b": roll.value_b,
        "faces_a": list(roll.faces_a),
        "faces_b": list(roll.faces_b),
        "kept_a": roll.kept_a,
        "kept_b": roll.kept_b,
        "rounds": [list(r) for r in roll.rounds],
        "faces": list(roll.faces),
        "decisions": list(roll.decisions),
    }


def test_roll_of(pending: Mapping[str, Any]) -> TestRoll:
    """The pending test's ``TestRoll`` (II-A), rebuilt from the snapshot."""
    data = pending["roll"]
    return TestRoll(
        data["value"], data["difficulty"], tuple(data["faces"]), data["kept"]
    )


def opposed_roll_of(pending: Mapping[str, Any]) -> OpposedRoll:
    """The pending opposed test's ``OpposedRoll`` (II-A-3), from the snapshot."""
    data = pending["roll"]
    return OpposedRoll(
        data["value_a"],
        data["value_b"],
        tuple(data["faces_a"]),
        tuple(data["faces_b"]),
        data["kept_a"],
        data["kept_b"],
        tuple(tuple(r) for r in data["rounds"]),
        tuple(data["faces"]),
        tuple(data["decisions"]),
    )


def choice_odds(pending: Mapping[str, Any]) -> dict[str, str] | None:
    """The odds of keeping and of rerolling the six showing, when there is one."""
    if not pending or not pending.get("roll"):
        return None
    if pending["kind"] == "check":
        return then("check_choice")(pending)
    if pending["kind"] == "test":
        roll = test_roll_of(pending)
        if not roll.awaiting_choice:
            return None
        context = pending.get("context") or {}
        if pending.get("purpose") == "attack" and "defence_value" in context:
            return _attack_six_odds(pending, roll)
        choice = odds.test_choice(roll)
    elif pending["kind"] == "opposed":
        roll = opposed_roll_of(pending)
        if roll.finished or roll.deciding is None:
            return None
        choice = odds.opposed_choice(roll)
    else:
        return None
    return {
        "keep": fraction_text(choice.keep),
        "reroll": fraction_text(choice.reroll),
        "best": choice.best,
    }


def _attack_six_odds(pending: Mapping[str, Any], roll: TestRoll) -> dict[str, Any]:
    """A six on an attack test against a committed parry (VII-C-4): the
    attack test itself cannot fail any more, so each choice shows the chance
    the blow lands, past the parry (``"lands": True``)."""
    context = pending["context"]
    keep, reroll = then("blow_lands_choice")(
        roll.value,
        roll.natural,
        context["defence_value"],
        context["parry_dice"],
        context["needed_over"],
    )
    return {
        "keep": fraction_text(keep),
        "reroll": fraction_text(reroll),
        "best": "reroll" if reroll > keep else "keep",
        "lands": True,
    }


def who_decides(pending: Mapping[str, Any]) -> str | None:
    """The side that must act on the pending item (None: either side may roll)."""
    if pending["kind"] == "opposed" and pending.get("roll"):
        return opposed_roll_of(pending).deciding
    return pending.get("side")


def test_resolution(
    pending: Mapping[str, Any], roll: Any, **fields: Any
) -> dict[str, Any]:
    """What a ``test_resolved`` event records of every test: the test as it
    was asked (``pending``) and as it fell (``roll``: faces, natural and
    final result). ``fields`` add the rest (purpose, success, context...) or
    replace one (a section the pending item does not carry)."""
    return {
        "side": pending["side"],
        "value": pending["value"],
        "difficulty": pending["difficulty"],
        "faces": list(roll.faces),
        "natural": roll.natural,
        "final": roll.final,
        "odds": pending["odds"],
        "section": pending["section"],
        **fields,
    }


def opposed_resolution(
    state: State, pending: Mapping[str, Any], result: Any
) -> dict[str, Any]:
    """What the end of an opposed test records (II-A-3): the winner, each
    round's faces, the values and odds it was rolled with, and the fighters'
    names."""
    fighters = pending["context"]["fighters"]
    return {
        "winner": result.winner,
        "rounds": [list(r) for r in result.rounds],
        "faces": list(result.faces),
        "values": dict(pending["values"]),
        "odds": pending["odds"],
        "labels": {side: label_of(state, f) for side, f in fighters.items()},
    }
