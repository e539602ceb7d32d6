"""The six on an attack test against a committed parry (VII-C-4, II-A-1):
the choice shows the chance the blow lands, not the attack test's 100 %."""

from __future__ import annotations

from battles.presenters.game import build_panel
from tests.rules.test_melee_combat import initiative
from tests.support.melee import fighter_card, melee_table


def test_a_six_against_a_parry_shows_the_chance_the_blow_lands():
    a = fighter_card("A", ATT=4, DEF=3)
    b = fighter_card("B", ATT=3, DEF=4)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[6])
    panel = build_panel(table.state, "a")
    assert panel.kind == "six"
    assert panel.data["lands"] is True
    assert panel.data["keep"].startswith(("83.3", "83,3"))
    assert panel.data["reroll"].startswith(("76.4", "76,4"))
