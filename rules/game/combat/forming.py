"""Forming the combats (IV-C, VII-A, VII-B): the split of the melees and the pick
of the next combat.

Part of ``rules.game.combat`` (the package's docstring tells the course of a
combat); what a lower part needs from a higher one it finds in
``rules.game.follows``.
"""

from __future__ import annotations

import copy
from typing import Any

from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.combat.initiative import _auto_initiative
from rules.game.combat.placement import _auto_place
from rules.game.combat.under_way import _pick_pending, ruling
from rules.game.commands import (
    MAX_ID,
    MAX_LIST,
    CommandKind,
    Field,
    int_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    require_phase,
    require_tactics_winner,
    tactics_winner_at,
)
from rules.game.follows import then
from rules.game.pending import (
    choice_pending,
)
from rules.game.upkeep_phase import start_upkeep
from rules.melee import (
    Combat,
    combat_dice,
    combats_from_choices,
    suggest_combats,
    validate_combats,
)

TURN_PLACE = 40  # its commands' place in legal_actions (IV-C; a combat: 40-45)


def start_combat_phase(batch: Batch) -> None:
    """Open the combat phase: the Tactics winner splits the melees (IV-C)."""
    state = batch.state
    if not state["contacts"]:
        batch.emit("combat_updated", {"combat": None, "pending": None})
        start_upkeep(batch)
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
            },
            "pending": choice_pending(
                purpose="form_combats", side=winner, section="IV-C"
            ),
        },
    )


def new_combat(one: str, many: list[str]) -> dict[str, Any]:
    """A combat as the state keeps it (RULES_API "Melee").

    ``dice``: ``{fighter: {"total", "attack", "defence"}}``, the attack and
    defence dice still unspent (``None`` before placement), VII-C-1.
    """
    dice = {one: {"total": combat_dice(len(many)), "attack": None, "defence": None}}
    for fighter_id in many:
        dice[fighter_id] = {"total": combat_dice(1), "attack": None, "defence": None}
    return {
        "one": one,
        "many": list(many),
        "dice": dice,
        "initiative": None,
        "initiative_fighters": {"a": None, "b": None},
        "stage": None,  # "initiative", "placing", "fighting"
        "modifiers": {},  # Enchaînement: {fighter: {"ATT": -2k, "DEF": -2k}}
        "exchange": 1,
        "attacked": {},  # this exchange: {attacker: [targets]}
        "last_side": None,  # this exchange: the side that attacked last
        "done": False,
    }


def form_combats(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "combat", "forming")
    winner = require_tactics_winner(
        state, side, _("The Tactics winner (side {side}) splits the melees (IV-C).")
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
    built = [new_combat(c.one, list(c.many)) for c in combats]
    combat_state = dict(state["combat"], combats=built, current=None, picker=winner)
    batch.emit(
        "combat_updated",
        {
            "combat": combat_state,
            "pending": _pick_pending(winner),
            "formed": [[c.one, *c.many] for c in combats],
        },
    )
    batch.emit("step_changed", {"step": "fighting"})
    _auto_choose(batch)


def legal_form_combats(state: State, side: str) -> list[dict[str, Any]]:
    if not tactics_winner_at(state, side, "combat", "forming"):
        return []
    return [{"type": "form_combats", "choices": {"combats": ["suggested"]}}]


def _combats_to_pick(state: State) -> list[int]:
    """The combats not fought yet, while the next one is to be picked
    (VII-B: none under way); none otherwise."""
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or combat_state is None
        or combat_state["current"] is not None
    ):
        return []
    return [i for i, c in enumerate(combat_state["combats"]) if not c["done"]]


def legal_choose_combat(state: State, side: str) -> list[dict[str, Any]]:
    left = _combats_to_pick(state)
    if not left or state["combat"]["picker"] != side:
        return []
    return [{"type": "choose_combat", "choices": {"combat": left}}]


def choose_combat(batch: Batch, side: str, command: Command) -> None:
    """VII-B: the sides take turns to name the next combat, the Tactics
    winner first (S4, S8 [read])."""
    state = batch.state
    require_phase(state, "combat", "fighting")
    combat_state = state["combat"]
    if combat_state["current"] is not None:
        raise IllegalAction(_("Finish the combat under way first."))
    if side != combat_state["picker"]:
        raise IllegalAction(
            _("Side {side} picks the next combat."),
            side=combat_state["picker"].upper(),
        )
    index = command["combat"]  # a whole number (its field)
    if index not in _combats_to_pick(state):
        raise IllegalAction(_("Pick a combat that has not been fought yet."))
    _choose(batch, index)


def _choose(batch: Batch, index: int, *, automatic: bool = False) -> None:
    """The combat ``index`` is fought now (VII-B); ``automatic``: the only
    one left, taken without a tap."""
    state = batch.state
    combat_state = state["combat"]
    combat = copy.deepcopy(combat_state["combats"][index])
    before = ruling(state, "placement_order") == "before_initiative"
    combat["stage"] = "placing" if before else "initiative"
    combats = [dict(c) for c in combat_state["combats"]]
    combats[index] = combat
    extra: dict[str, Any] = {"house_ruling": "placement_order"} if before else {}
    if automatic:
        extra["automatic"] = True
    batch.emit(
        "combat_updated",
        {
            "combat": dict(combat_state, combats=combats, current=index),
            "pending": None,
            "chosen": index,
            **extra,
        },
    )
    _auto_place(batch)
    _auto_initiative(batch)


def _auto_choose(batch: Batch) -> None:
    """Only one combat left to fight: it is fought next without a tap (the
    picker has no choice, VII-B)."""
    state = batch.state
    left = _combats_to_pick(state)
    if len(left) == 1 and not any(
        then("combat.legal_pursue")(state, s) for s in st.SIDES
    ):
        # (A freed fighter that may still pursue leaves the players time to
        # record it: the picker names the combat then.)
        _choose(batch, left[0], automatic=True)


# --- the commands of this part, each declared once (rules.game.commands) ---


class FormCombats(CommandKind):
    """IV-C: the Tactics winner splits the melees: "who faces whom"
    (``opponent:<fighter>`` = fighter), or, when no such field is sent, the
    split the app suggested."""

    type = "form_combats"
    section = "IV-C"
    fields = (
        Field(
            "choices",
            "map",
            required=False,
            max_items=MAX_LIST,
            max_length=MAX_ID,
            prefix="opponent:",
        ),
        Field(
            "combats",
            "choice",
            required=False,
            choices=("suggested",),
            structured=list,
        ),
    )
    legal = staticmethod(legal_form_combats)
    apply = staticmethod(form_combats)


class ChooseCombat(CommandKind):
    """IV-C: the Tactics winner picks the next combat to fight."""

    type = "choose_combat"
    section = "IV-C"
    fields = (int_field("combat", 0, 500),)
    legal = staticmethod(legal_choose_combat)
    apply = staticmethod(choose_combat)
