"""The activation phase (IV-B): draws, actions, disengagement and shooting.

Movement, disengagement and shooting follow the initiation rules (seed 004).
"""

from __future__ import annotations

from typing import Any

from rules.activation import DrawPhase
from rules.contact import max_adversaries
from rules.errors import IllegalAction, _, joined
from rules.game import state as st
from rules.game.combat_phase import start_combat_phase
from rules.game.common import (
    Batch,
    Command,
    State,
    label_of,
    own_fighter,
    require_no_pending,
    require_phase,
    wound_modifiers,
)
from rules.game.pending import test_pending
from rules.game.table_rolls import offer_courage_test
from rules.movement import (
    Adversary,
    Disengager,
    disengagement_plan,
    engagement_distance_cm,
    run_distance_cm,
    walk_distance_cm,
)
from rules.shooting import Shooter, range_band, shooting_problems, shot_difficulty
from rules.turn import validate_activation


def draw(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
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
    maybe_end_activation_phase(batch)


def end_activation(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
    if state["active"] is None or state["active"]["side"] != side:
        raise IllegalAction(_("You have no activation open."))
    batch.emit("activation_ended", {"active": None})
    maybe_end_activation_phase(batch)


def maybe_end_activation_phase(batch: Batch) -> None:
    state = batch.state
    if state["active"] is not None or state["pending"]:
        return
    if not DrawPhase.from_dict(state["draw"]).finished:
        return
    batch.emit("step_changed", {"phase": "combat", "step": "forming", "pending": None})
    start_combat_phase(batch)


def _active_fighter(state: State, side: str, fighter_id: Any) -> dict[str, Any]:
    found = own_fighter(state, side, fighter_id)
    active = state["active"]
    if active is None or active["side"] != side or fighter_id not in active["fighters"]:
        raise IllegalAction(
            _("{fighter} is not activated right now."), fighter=found["label"]
        )
    return found


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


def declare(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
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
            target_labels=[label_of(state, t) for t in targets],
            engaged=list(targets),
            charged=action == "charge",
        )
    batch.emit("action_declared", payload)
    if action in ("charge", "engagement"):
        offer_courage_test(batch, side, fighter_id, payload["targets"])


def disengage(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
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
    pending = test_pending(
        purpose="disengage",
        side=side,
        value=plan.value,
        difficulty=plan.difficulty,
        section="Désengagement",
        context={"fighter": fighter_id, "method": plan.method.value},
    )
    batch.emit("pending_set", {"pending": pending})


def shoot(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
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
    amplified, attenuated = wound_modifiers(command)
    pending = test_pending(
        purpose="shot",
        side=side,
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


def set_contact(batch: Batch, side: str, command: Command) -> None:
    """Correct the contacts to match the table (II-E: contact is mutual)."""
    state = batch.state
    if state["phase"] not in ("activation", "combat") or (
        state["phase"] == "combat" and state["step"] != "forming"
    ):
        raise IllegalAction(
            _("Contacts can be corrected in the activation phase only.")
        )
    require_no_pending(state)
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
        start_combat_phase(batch)
