"""What the phones read of fear (IX): the Courage test's panel says how it is
rolled (Terrifiant: two dice, the lower kept; a fearsome fighter's own PEUR),
the rally says its difficulty is a ruling, and the rulings' defaults say truly
where they come from."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from battles.presenters.game.table_rolls import pending_panel
from battles.presenters.rulings import ruling_field_texts, rulings_in_force
from rules.melee import HOUSE_RULINGS
from tests.support.melee import activation_table, fighter_card

pytestmark = [pytest.mark.usefixtures("english")]


def _charged(skills=(), cou=2, peur=None):
    guard = fighter_card("Garde", COU=cou, PEUR=peur)
    spectre = fighter_card("Spectre", PEUR=6, COU=None, skills=list(skills))
    table = activation_table([guard], [spectre])
    table.play("a", {"type": "draw", "action": "draw"})
    table.play(
        "a",
        {"type": "declare", "fighter": "a1.1", "action": "charge", "targets": ["b1.1"]},
    )
    return table


def test_a_dreadful_adversarys_test_reads_two_dice_the_lower_kept():
    table = _charged(skills=["Terrifiant"])
    with translation.override("en"):
        panel = pending_panel(table.state, table.state["pending"])
        html = render_to_string(
            "battles/games/panels/table_roll.html",
            {
                "panel": panel,
                "act_url": "/act/",
                "game": SimpleNamespace(version=1, dice_mode="app"),
                "side": "a",
            },
        )
    assert panel.data["keep_lowest"] is True
    assert "2d6, the lower die kept (Terrifiant)" in panel.data["convention"]
    assert "2d6 (the lower one counts) + COU 2 against 6" in html
    assert "the best one counts" not in html


def test_a_fearsome_fighter_s_test_reads_its_own_peur():
    table = _charged(cou=None, peur=4)
    with translation.override("en"):
        panel = pending_panel(table.state, table.state["pending"])
    assert "1d6 + PEUR 4 must reach it" in panel.data["convention"]


def test_the_rulings_defaults_say_where_they_come_from():
    with translation.override("en"):
        parry_tie = ruling_field_texts(HOUSE_RULINGS["parry_tie"])["choices"][0][1]
        placement = ruling_field_texts(HOUSE_RULINGS["placement_order"])["choices"]
        rows = {r["name"]: r for r in rulings_in_force({"house_rulings": {}})}
    assert parry_tie == "parried (default chosen here: not found in the sources)"
    assert placement[0][1].endswith("(the sources' default)")
    assert rows["failed_charge"]["default_word"] == "default read in another edition"
    assert rows["fear_immunity"]["value"] == (
        "for the rest of the game, against that PEUR and lower"
    )
