"""The activation phase (IV-B): draws, actions, disengagement and shooting.

Movement, disengagement and shooting follow the initiation rules (seed 004).
"""

from __future__ import annotations

from typing import Any

from rules.activation import DrawPhase
from rules.contact import max_adversaries
from rules.errors import IllegalAction, _, joined
from rules.game import state as st
from rules.game.combat import start_combat_phase
from rules.game.commands import (
    WOUND_MODIFIERS,
    CommandKind,
    Field,
    bool_field,
    choice_field,
    id_field,
    ids_field,
)
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
from rules.game.fear import charge_fear_tests
from rules.game.follows import follows
from rules.game.pending import test_pending
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

TURN_PLACE = 30  # its commands' place in legal_actions (IV-B)

MOVES = ("charge", "engagement", "run", "covered_move", "walk")
EXCLUSIVE = ("charge", "engagement", "run", "covered_move")
CUMULATIVE = ("walk", "shoot", "mystic")
DECLARED = ("charge", "engagement", "run", "covered_move", "walk", "mystic")


def _floor_open(state: State) -> bool:
    return state["phase"] == "activation" and not state["pending"]


def legal_draw(state: State, side: str) -> list[dict[str, Any]]:
    if not _floor_open(state) or state["active"] is not None:
        return []
    phase = DrawPhase.from_dict(state["draw"])
    if phase.speaker != side:
        return []
    actions = [str(action) for action in phase.legal_actions()]
    return [{"type": "draw", "choices": {"action": actions}}] if actions else []


def legal_end_activation(state: State, side: str) -> list[dict[str, Any]]:
    active = state["active"]
    if not _floor_open(state) or active is None or active["side"] != side:
        return []
    return [{"type": "end_activation"}]


def _activated(state: State, side: str) -> list[str]:
    """The living fighters ``side`` activated with the cards just played."""
    active = state["active"]
    if not _floor_open(state) or active is None or active["side"] != side:
        return []
    return [f for f in active["fighters"] if not state["fighters"][f]["eliminated"]]


def legal_declare(state: State, side: str) -> list[dict[str, Any]]:
    result = []
    for fighter_id in _activated(state, side):
        for action in DECLARED:
            try:
                check_declaration(state, side, fighter_id, action)
            except IllegalAction:
                continue
            entry: dict[str, Any] = {
                "type": "declare",
                "fighter": fighter_id,
                "action": action,
            }
            if action in ("charge", "engagement"):
                targets = engageable(state, side, fighter_id)
                if not targets:
                    continue
                entry["choices"] = {"targets": targets}
            result.append(entry)
    return result


def engageable(state: State, side: str, fighter_id: str) -> list[str]:
    """The adversaries ``fighter_id`` may engage now (II-E-3 caps their contacts)."""
    return [
        target
        for target in st.fighters_of(state, st.other(side))
        if st.in_contact(state, fighter_id, target)
        or len(st.adversaries_in_contact(state, target))
        < max_adversaries(st.card_of(state, target)["size"])
    ]


def legal_disengage(state: State, side: str) -> list[dict[str, Any]]:
    result = []
    for fighter_id in _activated(state, side):
        methods = []
        for method in ("INI", "FOR"):
            try:
                disengagement_check(state, side, fighter_id, method, free_side=True)
            except IllegalAction:
                continue
            methods.append(method)
        if methods:
            result.append(
                {
                    "type": "disengage",
                    "fighter": fighter_id,
                    "choices": {"method": methods},
                }
            )
    return result


def legal_shoot(state: State, side: str) -> list[dict[str, Any]]:
    result = []
    targets = st.fighters_of(state, st.other(side))
    if not targets:
        return result
    for fighter_id in _activated(state, side):
        try:
            check_shot(state, side, fighter_id)
        except IllegalAction:
            continue
        result.append(
            {"type": "shoot", "fighter": fighter_id, "choices": {"target": targets}}
        )
    return result


def legal_set_contact(state: State, side: str) -> list[dict[str, Any]]:
    if not _floor_open(state):
        return []
    own = st.fighters_of(state, side)
    enemies = st.fighters_of(state, st.other(side))
    if not own or not enemies:
        return []
    return [
        {
            "type": "set_contact",
            "choices": {"one": own, "two": enemies, "contact": [True, False]},
        }
    ]


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
    """The movement potential in cm of an action (initiation rules, "Déplacements");
    None for the mystic action, which moves nobody (IV-B-2)."""
    if action == "mystic":
        return None
    mou = st.movement_value(state, fighter_id)
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


def check_declaration(state: State, side: str, fighter_id: Any, action: Any) -> None:
    """Refuse a declaration the rules forbid (``IllegalAction`` says why).

    * Contact (MARCHER): "Si un combattant est au contact d'au moins une
      figurine ennemie, il doit parvenir à se désengager avant de pouvoir
      effectuer une marche." The same holds for an assault (Résoudre un
      Assaut: "il doit tout d'abord tenter de rompre le combat avant de
      pouvoir engager un autre ennemi") and any other move.
    * COURIR: "Un combattant ne peut effectuer une course que s'il est libre
      de tout adversaire au moment de son activation."
    * Désengagement: "S'il échoue, tous ses dés de combat sont
      automatiquement placés en défense": it does not move either.
    * Order of actions (IV-B-2): "les combattants effectuant des actions
      cumulatives sont joués les uns après les autres, après ceux ayant
      effectué une action exclusive"; the initiation rules: "Les actions
      destinées à amener un combattant au contact d'un adversaire doivent
      être annoncées et résolues avant les autres."
    * Mystic actions are for magicians (POU) and the faithful (FOI).
    """
    fighter = _active_fighter(state, side, fighter_id)
    if action not in DECLARED:
        raise IllegalAction(_("Choose an action: charge, engagement, run, walk..."))
    label = fighter["label"]
    if action in MOVES:
        if fighter_id in state["defence_only"]:
            raise IllegalAction(
                _(
                    "{fighter} failed to disengage: it does not move this turn "
                    "(Désengagement)."
                ),
                fighter=label,
            )
        if st.adversaries_in_contact(state, fighter_id):
            if action == "run":
                raise IllegalAction(
                    _(
                        "{fighter} is in contact with an adversary: a fighter runs "
                        "only if it is free of adversaries when activated (COURIR)."
                    ),
                    fighter=label,
                )
            raise IllegalAction(
                _(
                    "{fighter} is in contact with an adversary: it must disengage "
                    "successfully before it moves (MARCHER, Désengagement)."
                ),
                fighter=label,
            )
    if action in EXCLUSIVE:
        for other_id in state["active"]["fighters"]:
            done = [a for a in state["acted"].get(other_id, []) if a in CUMULATIVE]
            if done:
                raise IllegalAction(
                    _(
                        "Exclusive actions come before cumulative ones: {other} "
                        "already made one this activation (IV-B-2)."
                    ),
                    other=label_of(state, other_id),
                )
    if action == "mystic":
        card = st.card_of(state, fighter_id)
        if card["profile"].get("POU") is None and card["profile"].get("FOI") is None:
            raise IllegalAction(
                _(
                    "{fighter} is neither a magician (POU) nor a faithful (FOI): "
                    "it has no mystic action."
                ),
                fighter=label,
            )
    validate_activation([*state["acted"].get(fighter_id, []), action])


def declare(batch: Batch, side: str, command: Command) -> None:
    """Declare a fighter's action (IV-B-2); see ``check_declaration``."""
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
    fighter_id = command.get("fighter")
    action = command.get("action")
    check_declaration(state, side, fighter_id, action)
    fighter = state["fighters"][fighter_id]
    payload: dict[str, Any] = {
        "fighter": fighter_id,
        "label": fighter["label"],
        "action": action,
        "move_cm": movement_cm(state, fighter_id, action),
    }
    if action in ("charge", "engagement"):
        targets = command.get("targets") or []
        if not targets:
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
    if action == "charge":
        # IX: the Courage tests of the charger and of the charged.
        charge_fear_tests(
            batch,
            fighter_id,
            payload["targets"],
            contacts_before=state["contacts"],
            engaged_before=state["engaged"],
        )


def disengagement_check(
    state: State, side: str, fighter_id: Any, method: Any, *, free_side: bool
) -> Any:
    """The disengagement plan, or ``IllegalAction`` (initiation rules)."""
    fighter = _active_fighter(state, side, fighter_id)
    if state["acted"].get(fighter_id):
        raise IllegalAction(_("A disengagement comes first in an activation."))
    adversaries = st.adversaries_in_contact(state, fighter_id)
    if not adversaries:
        raise IllegalAction(
            _("{fighter} is free of adversaries."), fighter=fighter["label"]
        )
    card = st.card_of(state, fighter_id)
    mou = st.movement_value(state, fighter_id) or 0
    method = "INI" if method is None else method
    if method not in ("INI", "FOR"):
        raise IllegalAction(_("Disengage with INI or FOR."))
    plan = disengagement_plan(
        Disengager(
            ini=st.value_of(state, fighter_id, "INI") or 0,
            strength=st.value_of(state, fighter_id, "FOR") or 0,
            size=card["size"],
            mou=int(mou),
            engaged_this_phase=fighter_id in state["engaged"],
            free_side=free_side,
        ),
        [
            Adversary(st.card_of(state, a)["size"], st.value_of(state, a, "RES") or 1)
            for a in adversaries
        ],
        method,
    )
    if not plan.possible:
        raise IllegalAction(joined(plan.reasons))
    return plan


def disengage(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
    fighter_id = command.get("fighter")
    plan = disengagement_check(
        state,
        side,
        fighter_id,
        command.get("method"),
        free_side=bool(command.get("free_side", True)),
    )
    pending = test_pending(
        purpose="disengage",
        side=side,
        value=plan.value,
        difficulty=plan.difficulty,
        section="Désengagement",
        context={"fighter": fighter_id, "method": plan.method.value},
    )
    batch.emit("pending_set", {"pending": pending})


def check_shot(state: State, side: str, shooter_id: Any) -> dict[str, Any]:
    """The shooter, or ``IllegalAction`` (initiation rules, "Tir")."""
    shooter = _active_fighter(state, side, shooter_id)
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
    return shooter


def shoot(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "activation")
    require_no_pending(state)
    shooter_id = command.get("fighter")
    shooter = check_shot(state, side, shooter_id)
    target_id = command.get("target")
    target = st.living_fighter(state, target_id)
    if target["side"] == side:
        raise IllegalAction(_("It is forbidden to target a fighter of your own side."))
    card = st.card_of(state, shooter_id)
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


@follows("end_failed_charge")
def end_failed_charge(batch: Batch, fighter_id: str) -> None:
    """``failed_charge`` "no_charge": "its activation ends" (§5 Additions,
    [C4] M18). When its side has nothing left to do in this activation (no
    other fighter of the group may act), the activation ends by itself: no
    tap to end it."""
    state = batch.state
    active = state.get("active")
    if state["phase"] != "activation" or state["pending"] or active is None:
        return
    side = active["side"]
    if legal_declare(state, side) or legal_disengage(state, side):
        return
    if legal_shoot(state, side):
        return
    batch.emit(
        "activation_ended",
        {
            "active": None,
            "reason": "failed_charge",
            "side": side,
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
        },
    )
    maybe_end_activation_phase(batch)


# --- the commands of this phase, each declared once (rules.game.commands) ---


class Draw(CommandKind):
    """IV-B-1: what the side with the floor does."""

    type = "draw"
    section = "IV-B-1"
    fields = (
        choice_field(
            "action",
            ("draw", "reserve", "play_reserve", "play_reserve_and_top", "refuse"),
        ),
    )
    legal = staticmethod(legal_draw)
    apply = staticmethod(draw)


class Declare(CommandKind):
    """IV-B-2: an exclusive action, a walk or a mystic action; ``targets`` for
    a charge and an engagement."""

    type = "declare"
    section = "IV-B-2"
    fields = (
        id_field("fighter"),
        choice_field(
            "action", ("charge", "engagement", "run", "covered_move", "walk", "mystic")
        ),
        ids_field("targets", required=False),
    )
    legal = staticmethod(legal_declare)
    apply = staticmethod(declare)


class Disengage(CommandKind):
    """Initiation rules, "Désengagement": by INI (when left out) or FOR."""

    type = "disengage"
    section = "Initiation, Désengagement"
    fields = (
        id_field("fighter"),
        choice_field("method", ("INI", "FOR"), required=False, assumed="INI"),
        bool_field("free_side", default=True),
    )
    legal = staticmethod(legal_disengage)
    apply = staticmethod(disengage)


class Shoot(CommandKind):
    """Initiation rules, "Tir"."""

    type = "shoot"
    section = "Initiation, Tir"
    fields = (
        id_field("fighter"),
        id_field("target"),
        Field("distance_cm", "float", low=0, high=1000),
        id_field("nearest_friend", required=False),
        *WOUND_MODIFIERS,
    )
    legal = staticmethod(legal_shoot)
    apply = staticmethod(shoot)


class EndActivation(CommandKind):
    """IV-B-2: the active side ends its activation."""

    type = "end_activation"
    section = "IV-B-2"
    legal = staticmethod(legal_end_activation)
    apply = staticmethod(end_activation)


class SetContact(CommandKind):
    """II-E: correct the contacts to match the table."""

    type = "set_contact"
    section = "II-E"
    anytime = True
    fields = (id_field("one"), id_field("two"), bool_field("contact"))
    legal = staticmethod(legal_set_contact)
    apply = staticmethod(set_contact)
