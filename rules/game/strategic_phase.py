"""The strategic phase (IV-A): activation sequences and the Tactics roll."""

from __future__ import annotations

from typing import Any

from rules import odds
from rules.activation import DrawPhase
from rules.errors import IllegalAction, Message, _
from rules.game import state as st
from rules.game.activation_phase import maybe_end_activation_phase
from rules.game.commands import CommandKind, choice_field, id_field, ids_field
from rules.game.common import (
    Batch,
    Command,
    State,
    fraction_text,
    label_of,
    own_fighter,
    require_phase,
    require_tactics_winner,
    tactics_winner_at,
)
from rules.sequence import validate_sequence
from rules.tactics import Army, TacticsFighter, tactics_eligibility

TURN_PLACE = 20  # its commands' place in legal_actions (IV-A)


def _tactics_rolled(state: State) -> bool:
    """Whether the Tactics roll is made (or under way) this turn (IV-A-2)."""
    return state["tactics"]["winner"] is not None or bool(
        state["pending"] and state["pending"].get("roll")
    )


def legal_set_sequence(state: State, side: str) -> list[dict[str, Any]]:
    if state["phase"] != "strategic" or _tactics_rolled(state):
        return []
    return [
        {"type": "set_sequence", "choices": {"order": st.cards_in_play(state, side)}}
    ]


def set_sequence(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "strategic")
    if _tactics_rolled(state):
        raise IllegalAction(
            _(
                "Your activation sequence cannot change once the Tactics roll is "
                "made (IV-A-1)."
            )
        )
    order = command.get("order")
    if order is None:
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
            name=label_of(state, fighter_id),
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


def legal_choose_tactics_fighter(state: State, side: str) -> list[dict[str, Any]]:
    if state["phase"] != "strategic" or _tactics_rolled(state):
        return []
    return [
        {"type": "choose_tactics_fighter", "fighter": fighter_id}
        for fighter_id, ok, _why in tactics_candidates(state, side)
        if ok
    ]


def choose_tactics_fighter(batch: Batch, side: str, command: Command) -> None:
    """Choose the fighter of the Tactics roll, until it is rolled (IV-A-2).

    "Chaque joueur effectue un test de Discipline avec le combattant de son
    choix parmi ceux qui appartiennent au peuple de l'armée : le jet de
    Tactique." Once the roll is made its result stands: neither side can
    choose again (which would start the roll over).
    """
    state = batch.state
    require_phase(state, "strategic")
    if state["pending"] and state["pending"].get("roll"):
        raise IllegalAction(_("The Tactics roll is already under way."))
    if state["tactics"]["winner"] is not None:
        raise IllegalAction(
            _("The Tactics roll is made: its fighters cannot change (IV-A-2).")
        )
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    verdicts = {f: (ok, why) for f, ok, why in tactics_candidates(state, side)}
    ok, why = verdicts[fighter_id]
    if not ok:
        raise IllegalAction(why)
    batch.emit("tactics_fighter_set", {"side": side, "fighter": fighter_id})
    _maybe_ready_for_tactics(batch)


def _maybe_ready_for_tactics(batch: Batch) -> None:
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
        "section": "IV-A-2",
        "values": values,
        "odds": fraction_text(odds.opposed_win(values["a"], values["b"])),
        "roll": None,
        "context": {"fighters": dict(fighters)},
    }
    batch.emit("step_changed", {"step": "tactics", "pending": pending})


def legal_choose_first(state: State, side: str) -> list[dict[str, Any]]:
    if not tactics_winner_at(state, side, "strategic", "first_choice"):
        return []
    return [{"type": "choose_first", "choices": {"first": list(st.SIDES)}}]


def choose_first(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "strategic", "first_choice")
    require_tactics_winner(
        state,
        side,
        _("Only the Tactics winner (side {side}) chooses who speaks first."),
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
    maybe_end_activation_phase(batch)


# --- the commands of this phase, each declared once (rules.game.commands) ---

# Until the Tactics roll, a side may still correct its sequence or its
# Tactics fighter while it waits for the other (IV-A-1, IV-A-2).


class SetSequence(CommandKind):
    """IV-A-1: the side's activation sequence, top card first."""

    type = "set_sequence"
    section = "IV-A-1"
    anytime = True
    fields = (ids_field("order"),)
    legal = staticmethod(legal_set_sequence)
    apply = staticmethod(set_sequence)


class ChooseTacticsFighter(CommandKind):
    """IV-A-2: the fighter whose DIS rolls the Tactics roll (until rolled)."""

    type = "choose_tactics_fighter"
    section = "IV-A-2"
    anytime = True
    fields = (id_field("fighter"),)
    legal = staticmethod(legal_choose_tactics_fighter)
    apply = staticmethod(choose_tactics_fighter)


class ChooseFirst(CommandKind):
    """IV-B-1: the Tactics winner chooses who speaks first."""

    type = "choose_first"
    section = "IV-B-1"
    fields = (choice_field("first", ("a", "b")),)
    legal = staticmethod(legal_choose_first)
    apply = staticmethod(choose_first)
