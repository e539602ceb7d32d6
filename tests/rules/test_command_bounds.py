"""A command's bounds that come from the state (``CommandKind.bounds``) are
checked before its apply, with the words the player reads, and listed by
``legal_actions`` from the same bounds; the command table stands in the turn's
order that each phase module declares (``TURN_PLACE``)."""

from __future__ import annotations

import math
import sys
import types

from rules.game import COMMAND_TABLE, legal_actions
from rules.game.commands import CommandKind, turn_place
from tests.support.table import Table, b1_charged_a1


def _to_placement() -> Table:
    table = b1_charged_a1()
    table.play("a", {"type": "draw", "action": "draw"})
    table.play("a", {"type": "end_activation"})
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    table.play("b", {"type": "roll"}, faces=[5, 2])  # a wins the Initiative
    return table


def _choices(table: Table, side: str, kind: str) -> list[dict]:
    return [e["choices"] for e in legal_actions(table.state, side) if e["type"] == kind]


def test_a_placement_is_bounded_by_the_fighters_dice_and_enchainement():
    table = _to_placement()
    place = {"type": "place_dice", "fighter": "b1.1"}
    table.refuses("b", {**place, "attack": 3}, "places 0 to 2 dice in attack")
    table.refuses("b", {**place, "attack": 0, "sequence": 1}, "has no Enchaînement")
    assert [c["attack"] for c in _choices(table, "b", "place_dice")] == [[0, 1, 2]]
    # Before its turn to place, the side is told so, not the bounds.
    table.refuses("a", {"type": "place_dice", "fighter": "a1.1", "attack": 9}, "first")


def test_a_parry_commits_at_most_the_defence_dice_left():
    table = _to_placement()
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.refuses("b", {"type": "parry", "dice": 2}, "Commit 0 to 1 defence dice")
    assert [c["dice"] for c in _choices(table, "b", "parry")] == [[0, 1]]
    table.play("b", {"type": "parry", "dice": 1})


def test_a_lasting_effect_needs_its_turns_or_its_upkeep_cost():
    table = Table()
    effect = {"type": "record_effect", "fighter": "a2.1", "name": "Poison"}
    table.refuses(
        "b", {**effect, "kind": "harmful", "duration": "turns"}, "An effect lasts 1 to"
    )
    upkept = {**effect, "kind": "miracle", "duration": "upkeep", "caster": "a1.1"}
    table.refuses("a", upkept, r"An upkeep cost counts 0 to 99 \(Entretien/X")
    table.play("a", {**upkept, "cost": 2})


def test_the_table_stands_in_the_turns_order_its_modules_declare():
    places = [turn_place(kind) for kind in COMMAND_TABLE.values()]
    assert places == sorted(places) and math.inf not in places
    assert list(COMMAND_TABLE)[:2] == ["roll", "reroll"]
    assert list(COMMAND_TABLE)[-2:] == ["characteristic_test", "scatter"]


def test_a_new_phase_module_takes_its_place_with_no_other_edit():
    registry: dict = {}
    early, late = types.ModuleType("phase_early"), types.ModuleType("phase_late")
    early.TURN_PLACE, late.TURN_PLACE = 1, 2
    sys.modules.update(phase_early=early, phase_late=late)
    try:
        Late = type(
            "Late",
            (CommandKind,),
            {"type": "late", "registry": registry, "__module__": "phase_late"},
        )
        Early = type(
            "Early",
            (CommandKind,),
            {"type": "early", "registry": registry, "__module__": "phase_early"},
        )
    finally:
        del sys.modules["phase_early"], sys.modules["phase_late"]
    assert list(registry.values()) == [Early, Late]
