"""Deciding what a player's action does: ``decide(state, side, command, dice)``.

Each tap on a phone is one command. ``decide`` checks it against the rules
and returns the events it produces (``IllegalAction`` otherwise, with nothing
changed). Every die comes from ``dice`` (the game's seeded dice, or the faces a
player entered from real dice) and every face is written into the events, so
``rules.game.evolve`` can replay the game without dice.

The turn (chapter 4): strategic phase (IV-A-1 sequences, IV-A-2 Tactics
roll), activation phase (IV-B-1 draws, IV-B-2 actions; shooting, movement and
disengagement from the initiation rules), combat phase (IV-C; the melee
chapter is not among the seeds, see ``COMBAT_CONVENTION``), upkeep (IV-D).
Tests follow II-A, wounds II-B.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from rules import odds
from rules.activation import DrawPhase
from rules.checks import OpposedRoll, TestRoll
from rules.contact import max_adversaries
from rules.dice import DiceExhausted, DiceSource
from rules.errors import IllegalAction, Message, Words, _, joined
from rules.game import state as st
from rules.game.evolve import evolve
from rules.melee import (
    Combat,
    combats_from_choices,
    suggest_combats,
    validate_combats,
)
from rules.movement import (
    Adversary,
    Disengager,
    disengagement_plan,
    engagement_distance_cm,
    run_distance_cm,
    walk_distance_cm,
)
from rules.sequence import validate_sequence
from rules.shooting import Shooter, range_band, shooting_problems, shot_difficulty
from rules.tactics import Army, TacticsFighter, tactics_eligibility
from rules.turn import validate_activation
from rules.upkeep import UpkeepFighter, upkeep_checklist
from rules.wounds import STEPS_TO_DIE, Health, wound_roll

State = st.State
Command = Mapping[str, Any]

# The melee chapter (7) is not among the seeds: the table's convention, shown
# to the players and editable per combat.
COMBAT_CONVENTION = {
    "attack_dice": 1,
    "defence_dice": 1,
    "difficulty": "DEF",  # an attack is an ATT test against the target's DEF
}


class _Batch:
    """The events of one command, applied to a working copy as they are made."""

    def __init__(self, state: State, side: str | None):
        self.state = state
        self.side = side
        self.events: list[dict[str, Any]] = []

    def emit(self, kind: str, payload: Mapping[str, Any] | None = None) -> None:
        event = {"kind": kind, "side": self.side, "payload": dict(payload or {})}
        self.state = evolve(self.state, event)
        self.events.append(event)


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _faces_from(dice: DiceSource, count: int) -> list[int]:
    try:
        return [dice.d6() for _face in range(count)]
    except DiceExhausted:
        if count == 1:
            raise IllegalAction(_("Enter 1 die for this roll.")) from None
        raise IllegalAction(
            _("Enter {count} dice for this roll."), count=count
        ) from None


def _require_phase(state: State, phase: str, step: str | None = None) -> None:
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    if state["phase"] != phase or (step is not None and state["step"] != step):
        raise IllegalAction(_("That cannot be done now: the game moved on."))


def _require_no_pending(state: State) -> None:
    pending = state["pending"]
    if pending:
        raise IllegalAction(
            _("Finish what is under way first: the roll or choice on the board.")
        )


def _own_fighter(state: State, side: str, fighter_id: Any) -> dict[str, Any]:
    found = st.living_fighter(state, fighter_id)
    if found["side"] != side:
        raise IllegalAction(_("That fighter is not yours."))
    return found


def _label(state: State, fighter_id: str) -> str:
    return state["fighters"][fighter_id]["label"]


# --- pending rolls -----------------------------------------------------------


def _test_pending(
    *,
    purpose: str,
    side: str,
    label: str,
    value: int,
    difficulty: int,
    section: str,
    context: Mapping[str, Any],
) -> dict[str, Any]:
    return {
        "kind": "test",
        "purpose": purpose,
        "side": side,
        "label": label,
        "value": value,
        "difficulty": difficulty,
        "section": section,
        "odds": _fraction_text(odds.test_success(value, difficulty)),
        "roll": None,
        "context": dict(context),
    }


def _wound_pending(
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
        "label": f"wound roll on {_label(state, target)}",
        "section": "II-B-1",
        "dice": 3 if amplified != attenuated else 2,
        "odds": {k: _fraction_text(v) for k, v in outcomes.items()},
        "context": {
            "target": target,
            "strength": strength,
            "resistance": resistance,
            "amplified": amplified,
            "attenuated": attenuated,
            "source": source,
        },
    }


def _roll_to_dict(roll: TestRoll | OpposedRoll) -> dict[str, Any]:
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
    if pending["kind"] == "test":
        roll = test_roll_of(pending)
        if not roll.awaiting_choice:
            return None
        choice = odds.test_choice(roll)
    elif pending["kind"] == "opposed":
        roll = opposed_roll_of(pending)
        if roll.finished or roll.deciding is None:
            return None
        choice = odds.opposed_choice(roll)
    else:
        return None
    return {
        "keep": _fraction_text(choice.keep),
        "reroll": _fraction_text(choice.reroll),
        "best": choice.best,
    }


def who_decides(pending: Mapping[str, Any]) -> str | None:
    """The side that must act on the pending item (None: either side may roll)."""
    if pending["kind"] == "opposed" and pending.get("roll"):
        return opposed_roll_of(pending).deciding
    return pending.get("side")


# --- strategic phase (IV-A) ----------------------------------------------------


def _set_sequence(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "strategic")
    if state["tactics"]["winner"] is not None or (
        state["pending"] and state["pending"].get("roll")
    ):
        raise IllegalAction(
            _(
                "Your activation sequence cannot change once the Tactics roll is "
                "made (IV-A-1)."
            )
        )
    order = command.get("order")
    if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
        raise IllegalAction(_("Send the order of your cards."))
    names = {c: state["cards"][c]["name"] for c in state["sides"][side]["cards"]}
    try:
        validate_sequence(
            order, state["sides"][side]["cards"], st.eliminated_cards(state, side)
        )
    except IllegalAction as error:
        params = {
            key: names.get(value, value) if isinstance(value, str) else value
            for key, value in error.params.items()
        }
        raise IllegalAction(error.template, **params) from None
    batch.emit("sequence_set", {"side": side, "order": order})
    _maybe_ready_for_tactics(batch)


def tactics_candidates(state: State, side: str) -> list[tuple[str, bool, str]]:
    """Each living fighter of ``side``: may it roll the Tactics roll, why (IV-A-2)."""
    army = Army(state["sides"][side]["people"], state["sides"][side]["alliance"])
    result = []
    for fighter_id in st.fighters_of(state, side):
        card = st.card_of(state, fighter_id)
        candidate = TacticsFighter(
            people=card["people"],
            skills=tuple(card["skills"]),
            is_ally=card["is_ally"],
            discipline=st.value_of(state, fighter_id, "DIS"),
            name=_label(state, fighter_id),
        )
        eligible, reason = tactics_eligibility(candidate, army)
        if eligible and candidate.discipline is None:
            eligible, reason = (
                False,
                Message(
                    _("{fighter} has no Discipline (DIS)."), fighter=candidate.name
                ),
            )
        result.append((fighter_id, eligible, reason))
    return result


def _choose_tactics_fighter(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "strategic")
    if state["pending"] and state["pending"].get("roll"):
        raise IllegalAction(_("The Tactics roll is already under way."))
    fighter_id = command.get("fighter")
    _own_fighter(state, side, fighter_id)
    verdicts = {f: (ok, why) for f, ok, why in tactics_candidates(state, side)}
    ok, why = verdicts[fighter_id]
    if not ok:
        raise IllegalAction(why)
    batch.emit("tactics_fighter_set", {"side": side, "fighter": fighter_id})
    _maybe_ready_for_tactics(batch)


def _maybe_ready_for_tactics(batch: _Batch) -> None:
    state = batch.state
    ready = all(state["sequences"][s] is not None for s in st.SIDES) and all(
        state["tactics"]["fighters"][s] is not None for s in st.SIDES
    )
    if not ready:
        if state["step"] != "sequences":
            batch.emit("step_changed", {"step": "sequences", "pending": None})
        return
    fighters = state["tactics"]["fighters"]
    values = {s: st.value_of(state, fighters[s], "DIS") for s in st.SIDES}
    pending = {
        "kind": "opposed",
        "purpose": "tactics",
        "side": None,
        "label": "the Tactics roll",
        "section": "IV-A-2",
        "values": values,
        "odds": _fraction_text(odds.opposed_win(values["a"], values["b"])),
        "roll": None,
        "context": {"fighters": dict(fighters)},
    }
    batch.emit("step_changed", {"step": "tactics", "pending": pending})


def _choose_first(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "strategic", "first_choice")
    winner = state["tactics"]["winner"]
    if side != winner:
        raise IllegalAction(
            _("Only the Tactics winner (side {side}) chooses who speaks first."),
            side=winner.upper(),
        )
    first = command.get("first")
    if first not in st.SIDES:
        raise IllegalAction(_("Choose side A or side B."))
    draw = DrawPhase(
        {s: list(state["sequences"][s]) for s in st.SIDES}, first
    ).to_dict()
    batch.emit("first_chosen", {"first": first, "draw": draw})
    batch.emit(
        "step_changed", {"phase": "activation", "step": "draws", "pending": None}
    )
    _maybe_end_activation_phase(batch)


# --- activation phase (IV-B) ------------------------------------------------------


def _draw(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "activation")
    _require_no_pending(state)
    if state["active"] is not None:
        active = state["active"]["side"]
        if active == side:
            raise IllegalAction(_("Your own activation is still open: tap Done first."))
        raise IllegalAction(
            _("Side {side} is still activating its fighters."), side=active.upper()
        )
    phase = DrawPhase.from_dict(state["draw"])
    cards = phase.apply(command.get("action", ""), side=side)
    fighters = [
        f
        for card in cards
        for f in state["cards"][card]["fighters"]
        if not state["fighters"][f]["eliminated"]
    ]
    active = {"side": side, "cards": cards, "fighters": fighters} if cards else None
    batch.emit(
        "cards_played",
        {
            "action": str(command.get("action")),
            "cards": cards,
            "card_names": [state["cards"][c]["name"] for c in cards],
            "draw": phase.to_dict(),
            "active": active,
        },
    )
    _maybe_end_activation_phase(batch)


def _end_activation(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "activation")
    _require_no_pending(state)
    if state["active"] is None or state["active"]["side"] != side:
        raise IllegalAction(_("You have no activation open."))
    batch.emit("activation_ended", {"active": None})
    _maybe_end_activation_phase(batch)


def _maybe_end_activation_phase(batch: _Batch) -> None:
    state = batch.state
    if state["active"] is not None or state["pending"]:
        return
    if not DrawPhase.from_dict(state["draw"]).finished:
        return
    batch.emit("step_changed", {"phase": "combat", "step": "forming", "pending": None})
    _start_combat_phase(batch)


def _active_fighter(state: State, side: str, fighter_id: Any) -> dict[str, Any]:
    found = _own_fighter(state, side, fighter_id)
    active = state["active"]
    if active is None or active["side"] != side or fighter_id not in active["fighters"]:
        raise IllegalAction(
            _("{fighter} is not activated right now."), fighter=found["label"]
        )
    return found


MOVES = {
    "walk": (walk_distance_cm, "Marche"),
    "run": (run_distance_cm, "Course"),
    "covered_move": (walk_distance_cm, "Déplacement à couvert"),
}


def movement_cm(state: State, fighter_id: str, action: str) -> float | None:
    """The movement potential in cm of an action (initiation rules, "Déplacements")."""
    mou = st.value_of(state, fighter_id, "MOU")
    if mou is None:
        return None
    whole = int(mou) if float(mou).is_integer() else None
    factor = 2 if action in ("run", "charge", "engagement") else 1
    if action in ("charge", "engagement") and "disengage" in state["acted"].get(
        fighter_id, []
    ):
        factor = 1  # MOU x 1 after a disengagement
    if whole is None:
        return mou * factor
    if action in ("charge", "engagement"):
        return engagement_distance_cm(whole, after_disengagement=factor == 1)
    if action == "run":
        return run_distance_cm(whole)
    return walk_distance_cm(whole)


def _declare(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "activation")
    _require_no_pending(state)
    fighter_id = command.get("fighter")
    fighter = _active_fighter(state, side, fighter_id)
    action = command.get("action")
    if action not in ("charge", "engagement", "run", "covered_move", "walk", "mystic"):
        raise IllegalAction(_("Choose an action: charge, engagement, run, walk..."))
    validate_activation([*state["acted"].get(fighter_id, []), action])
    payload: dict[str, Any] = {
        "fighter": fighter_id,
        "label": fighter["label"],
        "action": action,
        "move_cm": movement_cm(state, fighter_id, action),
    }
    if action in ("charge", "engagement"):
        targets = command.get("targets") or []
        if not isinstance(targets, list) or not targets:
            raise IllegalAction(_("Say which adversary it engages."))
        contacts = [list(p) for p in state["contacts"]]
        for target in targets:
            enemy = st.living_fighter(state, target)
            if enemy["side"] == side:
                raise IllegalAction(_("A fighter engages adversaries, not friends."))
            already = len(st.adversaries_in_contact(state, target))
            size = st.card_of(state, target)["size"]
            if not st.in_contact(state, fighter_id, target) and already >= (
                max_adversaries(size)
            ):
                raise IllegalAction(
                    _(
                        "{fighter} already has {count} adversaries in contact, the "
                        "most its size allows (II-E-3)."
                    ),
                    fighter=enemy["label"],
                    count=already,
                )
            st.add_contacts(contacts, [(fighter_id, target)])
        payload.update(
            contacts=contacts,
            targets=targets,
            target_labels=[_label(state, t) for t in targets],
            engaged=list(targets),
            charged=action == "charge",
        )
    batch.emit("action_declared", payload)


def _disengage(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "activation")
    _require_no_pending(state)
    fighter_id = command.get("fighter")
    fighter = _active_fighter(state, side, fighter_id)
    if state["acted"].get(fighter_id):
        raise IllegalAction(_("A disengagement comes first in an activation."))
    adversaries = st.adversaries_in_contact(state, fighter_id)
    if not adversaries:
        raise IllegalAction(
            _("{fighter} is free of adversaries."), fighter=fighter["label"]
        )
    card = st.card_of(state, fighter_id)
    mou = st.value_of(state, fighter_id, "MOU") or 0
    plan = disengagement_plan(
        Disengager(
            ini=st.value_of(state, fighter_id, "INI") or 0,
            strength=st.value_of(state, fighter_id, "FOR") or 0,
            size=card["size"],
            mou=int(mou),
            engaged_this_phase=fighter_id in state["engaged"],
            free_side=bool(command.get("free_side", True)),
        ),
        [
            Adversary(st.card_of(state, a)["size"], st.value_of(state, a, "RES") or 1)
            for a in adversaries
        ],
        str(command.get("method") or "INI").upper(),
    )
    if not plan.possible:
        raise IllegalAction(joined(plan.reasons))
    pending = _test_pending(
        purpose="disengage",
        side=side,
        label=f"{fighter['label']} disengages ({plan.method.value})",
        value=plan.value,
        difficulty=plan.difficulty,
        section="Désengagement",
        context={"fighter": fighter_id, "method": plan.method.value},
    )
    batch.emit("pending_set", {"pending": pending})


def _shoot(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "activation")
    _require_no_pending(state)
    shooter_id = command.get("fighter")
    shooter = _active_fighter(state, side, shooter_id)
    target_id = command.get("target")
    target = st.living_fighter(state, target_id)
    if target["side"] == side:
        raise IllegalAction(_("It is forbidden to target a fighter of your own side."))
    card = st.card_of(state, shooter_id)
    acted = state["acted"].get(shooter_id, [])
    problems = shooting_problems(
        Shooter(
            tir=card["profile"].get("TIR"),
            has_ranged_weapon=card["weapon"] is not None,
            free_of_adversaries=not st.adversaries_in_contact(state, shooter_id),
            engaged_this_turn_of_speech=any(
                a in ("charge", "engagement") for a in acted
            ),
            ran_this_turn_of_speech="run" in acted,
            shots_made=acted.count("shoot"),
        )
    )
    if problems:
        raise IllegalAction(
            _("{fighter}: {problem}"), fighter=shooter["label"], problem=problems[0]
        )
    validate_activation([*acted, "shoot"])
    try:
        distance = float(command.get("distance_cm"))
    except (TypeError, ValueError):
        raise IllegalAction(_("Measure the distance to the target, in cm.")) from None
    if not 0 <= distance <= 1000:
        raise IllegalAction(_("A distance is between 0 and 1000 cm."))
    ranges = tuple(card["weapon"]["ranges"])
    difficulty = shot_difficulty(distance, ranges)
    band = range_band(distance, ranges)
    declared = {
        "fighter": shooter_id,
        "label": shooter["label"],
        "action": "shoot",
        "target": target_id,
        "target_label": target["label"],
        "distance_cm": distance,
        "difficulty": difficulty,
        "band": band.value if band else None,
    }
    batch.emit("action_declared", declared)
    if difficulty is None:
        return  # Beyond long range: the shot fails, no die is rolled.
    friends = st.friends_in_contact_with(state, target_id, side)
    nearest = command.get("nearest_friend") or None
    if friends and nearest is None and len(friends) == 1:
        nearest = friends[0]
    if friends and nearest not in friends:
        raise IllegalAction(
            _(
                "The target is in a melee: say which of your fighters in contact "
                "with it is nearest to the shooter."
            )
        )
    amplified, attenuated = _wound_modifiers(command)
    pending = _test_pending(
        purpose="shot",
        side=side,
        label=f"{shooter['label']} shoots {target['label']}",
        value=st.value_of(state, shooter_id, "TIR") or 0,
        difficulty=difficulty,
        section="Tir",
        context={
            "fighter": shooter_id,
            "target": target_id,
            "strength": card["weapon"]["strength"],
            "nearest_friend": nearest if friends else None,
            "amplified": amplified,
            "attenuated": attenuated,
        },
    )
    batch.emit("pending_set", {"pending": pending})


def _wound_modifiers(command: Command) -> tuple[int, int]:
    values = []
    for key in ("amplified", "attenuated"):
        raw = command.get(key, 0) or 0
        if isinstance(raw, bool):
            raw = int(raw)
        if not isinstance(raw, int) or not 0 <= raw <= 5:
            raise IllegalAction(_("Amplified and attenuated effects count 0 to 5."))
        values.append(raw)
    return values[0], values[1]


def _set_contact(batch: _Batch, side: str, command: Command) -> None:
    """Correct the contacts to match the table (II-E: contact is mutual)."""
    state = batch.state
    if state["phase"] not in ("activation", "combat") or (
        state["phase"] == "combat" and state["step"] != "forming"
    ):
        raise IllegalAction(
            _("Contacts can be corrected in the activation phase only.")
        )
    _require_no_pending(state)
    one = st.living_fighter(state, command.get("one"))
    two = st.living_fighter(state, command.get("two"))
    if one["side"] == two["side"]:
        raise IllegalAction(_("Only contacts between enemies matter here."))
    contacts = [list(p) for p in state["contacts"]]
    pair = sorted((command["one"], command["two"]))
    if command.get("contact"):
        st.add_contacts(contacts, [tuple(pair)])
    elif pair in contacts:
        contacts.remove(pair)
    batch.emit(
        "contacts_changed",
        {
            "contacts": contacts,
            "labels": [one["label"], two["label"]],
            "contact": bool(command.get("contact")),
        },
    )
    if state["phase"] == "combat":
        _start_combat_phase(batch)


# --- rolling -----------------------------------------------------------------------


def _roll(batch: _Batch, side: str, command: Command, dice: DiceSource) -> None:
    state = batch.state
    pending = state["pending"]
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
            _wound_roll(batch, side, pending, _faces_from(dice, pending["dice"]))
        else:
            _split_roll(batch, side, pending, _faces_from(dice, 1)[0])
    except DiceExhausted:
        raise IllegalAction(
            _("Enter more dice: a tie or a six needs another roll.")
        ) from None


def _decide_six(
    batch: _Batch, side: str, command: Command, dice: DiceSource, reroll: bool
) -> None:
    state = batch.state
    pending = state["pending"]
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
    decider = who_decides(pending)
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
    batch: _Batch,
    side: str,
    pending: Mapping[str, Any],
    roll: TestRoll | OpposedRoll,
    new_faces: list[int],
    *,
    reroll: bool | None = None,
) -> None:
    updated = dict(pending)
    updated["roll"] = _roll_to_dict(roll)
    if isinstance(roll, OpposedRoll):
        updated["side"] = roll.deciding
    batch.emit(
        "roll_updated",
        {"pending": updated, "faces": new_faces, "reroll": reroll},
    )
    if roll.finished:
        _roll_finished(batch, updated, roll)


def _roll_finished(
    batch: _Batch, pending: Mapping[str, Any], roll: TestRoll | OpposedRoll
) -> None:
    state = batch.state
    purpose = pending["purpose"]
    context = pending["context"]
    if isinstance(roll, OpposedRoll):
        result = roll.result()
        batch.emit(
            "tactics_won",
            {
                "winner": result.winner,
                "rounds": [list(r) for r in result.rounds],
                "faces": list(result.faces),
                "values": dict(pending["values"]),
                "odds": pending["odds"],
                "fighters": dict(context["fighters"]),
                "labels": {s: _label(state, f) for s, f in context["fighters"].items()},
            },
        )
        batch.emit("step_changed", {"step": "first_choice", "pending": None})
        return
    result = roll.result()
    resolved = {
        "purpose": purpose,
        "side": pending["side"],
        "label": pending["label"],
        "value": pending["value"],
        "difficulty": pending["difficulty"],
        "faces": list(result.faces),
        "natural": result.natural,
        "final": result.final,
        "success": result.success,
        "odds": pending["odds"],
        "section": pending["section"],
        "context": dict(context),
    }
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
                "label": _label(state, fighter_id),
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
        _maybe_end_activation_phase(batch)


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
                "label": "the split roll (shot into a melee)",
                "section": "Tir dans la mêlée",
                "odds": "1/2",
                "context": dict(context),
            }
        return _wound_pending(
            state,
            side=pending["side"],
            target=context["target"],
            strength=context["strength"],
            source=context["fighter"],
            amplified=context.get("amplified", 0),
            attenuated=context.get("attenuated", 0),
        )
    if purpose == "attack" and result.success:
        combat = state["combat"]["combats"][context["combat"]]
        target = context["target"]
        left = _dice_left(combat, target, "defence")
        if left > 0:
            return {
                "kind": "choice",
                "purpose": "parry",
                "side": state["fighters"][target]["side"],
                "label": f"{_label(state, target)} may parry",
                "section": "IV-C",
                "options": ["parry", "take"],
                "parry_odds": _fraction_text(
                    odds.test_success(
                        st.value_of(state, target, "DEF") or 0, result.final
                    )
                ),
                "context": {**context, "attack_final": result.final},
            }
        return _attack_wound_pending(state, context)
    if purpose == "parry" and not result.success:
        return _attack_wound_pending(state, context)
    return None


def _attack_wound_pending(state: State, context: Mapping[str, Any]) -> dict[str, Any]:
    attacker = context["attacker"]
    return _wound_pending(
        state,
        side=state["fighters"][attacker]["side"],
        target=context["target"],
        strength=st.value_of(state, attacker, "FOR") or 0,
        source=attacker,
        amplified=context.get("amplified", 0),
        attenuated=context.get("attenuated", 0),
    )


def _split_roll(
    batch: _Batch, side: str, pending: Mapping[str, Any], face: int
) -> None:
    state = batch.state
    context = pending["context"]
    hit = context["target"] if face >= 4 else context["nearest_friend"]
    next_pending = _wound_pending(
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
            "hits_label": _label(state, hit),
            "hits_target": face >= 4,
            "pending": next_pending,
        },
    )


def _wound_roll(
    batch: _Batch, side: str, pending: Mapping[str, Any], faces: list[int]
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
    batch.emit(
        "wound_rolled",
        {
            "target": target,
            "target_label": _label(state, target),
            "source": context["source"],
            "source_label": _label(state, context["source"]),
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
        _maybe_end_activation_phase(batch)


def _check_wipe_out(batch: _Batch) -> bool:
    state = batch.state
    gone = [s for s in st.SIDES if st.wiped_out(state, s)]
    if not gone:
        return False
    winner = None if len(gone) == 2 else st.other(gone[0])
    batch.emit("game_finished", {"reason": "wiped_out", "winner": winner})
    return True


# --- combat phase (IV-C) --------------------------------------------------------


def _start_combat_phase(batch: _Batch) -> None:
    """Open the combat phase: the Tactics winner splits the melees (IV-C)."""
    state = batch.state
    if not state["contacts"]:
        batch.emit("combat_updated", {"combat": None, "pending": None})
        _start_upkeep(batch)
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
                "label": "the Tactics winner splits the melees into combats",
                "section": "IV-C",
                "context": {},
            },
        },
    )


def _form_combats(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "combat", "forming")
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
        "label": f"side {picker.upper()} picks the next combat",
        "section": "IV-C",
        "context": {},
    }


def _choose_combat(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "combat", "fighting")
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
    _require_phase(state, "combat", "fighting")
    index = state["combat"]["current"]
    if index is None:
        raise IllegalAction(_("Pick a combat first."))
    return index, state["combat"]["combats"][index]


def _dice_left(combat: Mapping[str, Any], fighter_id: str, kind: str) -> int:
    return combat["dice"][fighter_id][kind] - combat["used"][fighter_id][kind]


def _set_combat_dice(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_no_pending(state)
    index, combat = _current_combat(state)
    fighter_id = command.get("fighter")
    _own_fighter(state, side, fighter_id)
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


def _set_difficulty(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_no_pending(state)
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


def _attack(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_no_pending(state)
    index, combat = _current_combat(state)
    attacker = command.get("attacker")
    target = command.get("target")
    _own_fighter(state, side, attacker)
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
    if _dice_left(combat, attacker, "attack") <= 0:
        raise IllegalAction(
            _("{fighter} has no attack die left."), fighter=_label(state, attacker)
        )
    amplified, attenuated = _wound_modifiers(command)
    combats = [dict(c) for c in state["combat"]["combats"]]
    used = {**combat["used"], attacker: dict(combat["used"][attacker])}
    used[attacker]["attack"] += 1
    combats[index] = dict(combat, used=used)
    difficulty = attack_difficulty(state, combat, target)
    pending = _test_pending(
        purpose="attack",
        side=side,
        label=f"{_label(state, attacker)} attacks {_label(state, target)}",
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


def _parry(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    pending = state["pending"]
    if not pending or pending.get("purpose") != "parry" or pending["kind"] != "choice":
        raise IllegalAction(_("There is no attack to parry now."))
    if pending["side"] != side:
        raise IllegalAction(_("Only the defender's side decides to parry."))
    context = pending["context"]
    if not command.get("parry"):
        batch.emit("pending_set", {"pending": _attack_wound_pending(state, context)})
        return
    index = context["combat"]
    combat = state["combat"]["combats"][index]
    target = context["target"]
    combats = [dict(c) for c in state["combat"]["combats"]]
    used = {**combat["used"], target: dict(combat["used"][target])}
    used[target]["defence"] += 1
    combats[index] = dict(combat, used=used)
    parry = _test_pending(
        purpose="parry",
        side=side,
        label=f"{_label(state, target)} parries",
        value=st.value_of(state, target, "DEF") or 0,
        difficulty=context["attack_final"],
        section="IV-C",
        context=context,
    )
    batch.emit(
        "combat_updated",
        {"combat": dict(state["combat"], combats=combats), "pending": parry},
    )


def _end_combat(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_no_pending(state)
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
        _start_upkeep(batch)


# --- upkeep (IV-D) -------------------------------------------------------------


def _start_upkeep(batch: _Batch) -> None:
    state = batch.state
    fighters = []
    for fighter_id, data in state["fighters"].items():
        if data["eliminated"]:
            continue
        card = st.card_of(state, fighter_id)
        fighters.append(
            UpkeepFighter(
                name=data["label"],
                routed=data["routed"],
                faithful=card["profile"].get("FOI") is not None,
                magician=card["profile"].get("POU") is not None,
                stunned=data["stunned"],
                charged=data["charged"],
                skills=tuple(card["skills"]),
            )
        )
    by_label = {d["label"]: f for f, d in state["fighters"].items()}
    items = [
        {
            "key": item.key,
            "step": item.step.name.lower(),
            "section": item.section,
            "label_fr": item.label_fr,
            "label_en": item.label_en,
            "fighter": by_label.get(item.fighter) if item.fighter else None,
        }
        for item in upkeep_checklist(fighters)
    ]
    batch.emit(
        "step_changed", {"phase": "upkeep", "step": "checklist", "pending": None}
    )
    batch.emit("upkeep_started", {"upkeep": {"items": items, "ticked": []}})
    if not items:
        _end_turn(batch)


def _tick_upkeep(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    _require_phase(state, "upkeep")
    upkeep = state["upkeep"]
    key = command.get("key")
    remaining = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
    if not remaining:
        raise IllegalAction(_("The upkeep checklist is done."))
    item = next((i for i in upkeep["items"] if i["key"] == key), None)
    if item is None:
        raise IllegalAction(_("That item is not on this upkeep checklist."))
    if item["key"] in upkeep["ticked"]:
        raise IllegalAction(_("This upkeep item is already done."))
    if remaining[0]["key"] != key:
        raise IllegalAction(
            _("Do '{item}' first: the upkeep phase runs in order ({section})."),
            item=Words(remaining[0]["label_en"], remaining[0]["label_fr"]),
            section=remaining[0]["section"],
        )
    changes = []
    fighter_id = item["fighter"]
    if item["step"] == "rally" and fighter_id and command.get("rallied"):
        changes.append({"fighter": fighter_id, "changes": {"routed": False}})
    if item["step"] in ("faith", "mana") and fighter_id:
        value = command.get("value")
        if value is not None:
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not (0 <= value <= 99)
            ):
                raise IllegalAction(_("A mystic reserve counts 0 to 99."))
            changes.append({"fighter": fighter_id, "changes": {item["step"]: value}})
    if item["step"] == "markers" and fighter_id:
        if key.endswith(":sonné"):
            changes.append({"fighter": fighter_id, "changes": {"stunned": False}})
        elif key.endswith(":chargé"):
            changes.append({"fighter": fighter_id, "changes": {"charged": False}})
    batch.emit(
        "upkeep_ticked",
        {
            "key": key,
            "label_en": item["label_en"],
            "label_fr": item["label_fr"],
            "section": item["section"],
            "changes": changes,
            "rallied": bool(command.get("rallied"))
            if item["step"] == "rally"
            else None,
        },
    )
    if len(remaining) == 1:
        _end_turn(batch)


def _end_turn(batch: _Batch) -> None:
    state = batch.state
    if state["turn"] >= state["turns"]:
        batch.emit("game_finished", {"reason": "last_turn", "winner": None})
        return
    batch.emit("turn_started", {"turn": state["turn"] + 1})


def _set_routed(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = _own_fighter(state, side, command.get("fighter"))
    routed = bool(command.get("routed"))
    if fighter["routed"] == routed:
        raise IllegalAction(_("Nothing to change."))
    batch.emit(
        "fighter_changed",
        {
            "fighter": command["fighter"],
            "label": fighter["label"],
            "changes": {"routed": routed},
        },
    )


def _set_mystic(batch: _Batch, side: str, command: Command) -> None:
    """Keep a magician's mana or a faithful's temporary faith up to date."""
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = _own_fighter(state, side, command.get("fighter"))
    changes = {}
    for key in ("mana", "faith"):
        if command.get(key) is None:
            continue
        value = command[key]
        if fighter[key] is None:
            raise IllegalAction(
                _("{fighter} has no such reserve."), fighter=fighter["label"]
            )
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= 99
        ):
            raise IllegalAction(_("A mystic reserve counts 0 to 99."))
        changes[key] = value
    if not changes:
        raise IllegalAction(_("Nothing to change."))
    batch.emit(
        "fighter_changed",
        {"fighter": command["fighter"], "label": fighter["label"], "changes": changes},
    )


def _concede(batch: _Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    batch.emit("game_finished", {"reason": "conceded", "winner": st.other(side)})


# --- entry point -------------------------------------------------------------------

HANDLERS: dict[str, Callable[[_Batch, str, Command], None]] = {
    "set_sequence": _set_sequence,
    "choose_tactics_fighter": _choose_tactics_fighter,
    "choose_first": _choose_first,
    "draw": _draw,
    "end_activation": _end_activation,
    "declare": _declare,
    "disengage": _disengage,
    "shoot": _shoot,
    "set_contact": _set_contact,
    "form_combats": _form_combats,
    "choose_combat": _choose_combat,
    "set_combat_dice": _set_combat_dice,
    "set_attack_difficulty": _set_difficulty,
    "attack": _attack,
    "parry": _parry,
    "end_combat": _end_combat,
    "tick_upkeep": _tick_upkeep,
    "set_routed": _set_routed,
    "set_mystic": _set_mystic,
    "concede": _concede,
}
COMMANDS = frozenset({*HANDLERS, "roll", "reroll", "keep"})


def decide(
    state: State, side: str, command: Command, dice: DiceSource
) -> list[dict[str, Any]]:
    """The events a command by ``side`` produces; ``IllegalAction`` if illegal.

    ``command`` is ``{"type": ..., ...}`` (see ``COMMANDS``). Events come as
    ``{"kind", "side", "payload"}``; the caller numbers them.
    """
    if side not in st.SIDES:
        raise IllegalAction(_("Only the two players act in a game."))
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    kind = command.get("type")
    batch = _Batch(state, side)
    if kind == "roll":
        _roll(batch, side, command, dice)
    elif kind in ("reroll", "keep"):
        _decide_six(batch, side, command, dice, kind == "reroll")
    elif kind in HANDLERS:
        HANDLERS[kind](batch, side, command)
    else:
        raise IllegalAction(_("Unknown action."))

    return batch.events


def new_game_event(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The first event of a game's log: its whole initial state."""
    initial = st.new_state(setup)
    initial.setdefault("engaged", [])
    initial.setdefault("defence_only", [])
    return {"kind": "game_started", "side": None, "payload": {"state": initial}}


def health_of(state: State, fighter_id: str) -> Health:
    """The fighter's ``Health`` (II-B), for the app's fighter list."""
    return st.health(state, fighter_id)
