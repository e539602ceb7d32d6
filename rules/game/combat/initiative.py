"""The Initiative (VII-C-2): each side names a fighter, their opposed INI test.

Part of ``rules.game.combat`` (the package's docstring tells the course of a
combat); what a lower part needs from a higher one it finds in
``rules.game.follows``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import odds
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.combat.placement import _auto_place
from rules.game.combat.under_way import (
    _current,
    _emit,
    combat_sides,
    current_combat,
    members,
    unplaced,
)
from rules.game.commands import (
    CommandKind,
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
)
from rules.game.follows import follows, then
from rules.game.pending import (
    opposed_resolution,
)

TURN_PLACE = 41  # its commands' place in legal_actions (VII-C-2)


def legal_initiative(state: State, side: str) -> list[dict[str, Any]]:
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "initiative":
        return []
    if combat["initiative_fighters"].get(side, "none") is not None:
        return []
    fighters = [
        f
        for f in members(combat)
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]
    return (
        [{"type": "initiative", "choices": {"fighter": fighters}}] if fighters else []
    )


def _lone_fighter(state: State, combat: Mapping[str, Any], side: str) -> str | None:
    """The side's only living fighter in this combat, if it has only one."""
    fighters = [
        f
        for f in members(combat)
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]
    return fighters[0] if len(fighters) == 1 else None


@follows("combat._auto_initiative")
def _auto_initiative(batch: Batch) -> None:
    """A side with a single fighter in the combat has no choice to make: that
    fighter is named for the Initiative without a tap (VII-C-2)."""
    state = batch.state
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "initiative":
        return
    for side in combat_sides(state, combat):
        combat = current_combat(batch.state)
        if combat is None or combat["initiative_fighters"][side] is not None:
            continue
        lone = _lone_fighter(batch.state, combat, side)
        if lone is not None:
            _name_initiative(batch, side, lone, automatic=True)


def initiative(batch: Batch, side: str, command: Command) -> None:
    """VII-C-2 (S8 [read]): "Each player picks one of his fighters involved in
    the combat. These two make an Initiative test against each other." Both
    sides are waited on until both have named theirs; then the opposed test
    (current INI, II-A-3) waits to be rolled."""
    state = batch.state
    require_no_pending(state)
    index, combat = _current(state)
    if combat["stage"] != "initiative":
        raise IllegalAction(_("The Initiative of this combat is not asked now."))
    if side not in combat_sides(state, combat):
        raise IllegalAction(_("Only the players in this combat name a fighter."))
    if combat["initiative_fighters"][side] is not None:
        raise IllegalAction(
            _("Your side already named its fighter for the Initiative.")
        )
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    if fighter_id not in members(combat):
        raise IllegalAction(_("That fighter is not in this combat."))
    _name_initiative(batch, side, fighter_id)


def _name_initiative(
    batch: Batch, side: str, fighter_id: str, *, automatic: bool = False
) -> None:
    """``side`` names ``fighter_id``; once both have, the opposed test."""
    state = batch.state
    index, combat = _current(state)
    combat["initiative_fighters"][side] = fighter_id
    named = combat["initiative_fighters"]
    extra: dict[str, Any] = {
        "initiative_named": {
            "side": side,
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
        }
    }
    if automatic:
        extra["initiative_named"]["automatic"] = True
    if all(named[s] for s in combat_sides(state, combat)):
        values = {s: st.value_of(state, named[s], "INI") or 0 for s in st.SIDES}
        extra["pending"] = {
            "kind": "opposed",
            "purpose": "initiative",
            "side": None,
            "section": "VII-C-2",
            "values": values,
            "odds": fraction_text(odds.opposed_win(values["a"], values["b"])),
            "roll": None,
            "context": {
                "combat": index,
                "fighters": dict(named),
                "characteristics": {"a": "INI", "b": "INI"},
                "use": "initiative",
            },
        }
    _emit(batch, index, combat, **extra)


def initiative_finished(batch: Batch, pending: Mapping[str, Any], roll: Any) -> None:
    """The opposed Initiative test has a winner (VII-C-2, II-A-3): its side
    places last and attacks first (S8 [read])."""
    state = batch.state
    result = roll.result()
    context = pending["context"]
    batch.emit(
        "opposed_resolved",
        {
            "purpose": "initiative",
            **opposed_resolution(state, pending, result),
            "section": "VII-C-2",
            "context": dict(context),
            "pending": None,
        },
    )
    index, combat = _current(batch.state)
    last = result.rounds[-1]
    winner = result.winner
    combat["initiative"] = winner
    placed = not any(unplaced(state, combat, s) for s in st.SIDES)
    combat["stage"] = "fighting" if placed else "placing"
    fighter_id = context["fighters"][winner]
    _emit(
        batch,
        index,
        combat,
        initiative_won={
            "side": winner,
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
            "margin": abs(last[0] - last[1]),
            "finals": {"a": last[0], "b": last[1]},
            # Each round's finals, side A first: the ties rolled again (II-A-3).
            "rounds": [list(r) for r in result.rounds],
        },
    )
    _auto_place(batch)
    then("combat.settle_combat")(batch)


# --- the commands of this part, each declared once (rules.game.commands) ---


class Initiative(CommandKind):
    """VII-C-2: the side names its fighter for the opposed Initiative test."""

    type = "initiative"
    section = "VII-C-2"
    fields = (id_field("fighter"),)
    legal = staticmethod(legal_initiative)
    apply = staticmethod(initiative)
