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
        parry_tie = ruling_field_texts(HOUSE_RULINGS["parry_tie"])
        placement = ruling_field_texts(HOUSE_RULINGS["placement_order"])
        rows = {r["name"]: r for r in rulings_in_force({"house_rulings": {}})}
    assert parry_tie["choices"][0][1] == "parried (default)"
    assert parry_tie["help"].endswith(
        "(VII-C-4) · Default chosen here: not found in the sources."
    )
    assert placement["help"].endswith("· The sources' default.")
    assert rows["failed_charge"]["default_word"] == "default read in another edition"
    assert rows["fear_immunity"]["value"] == (
        "for the rest of the game, against that PEUR and lower"
    )


def test_a_test_spared_by_an_earlier_one_is_said_with_its_ruling():
    """The issue: a fighter that passed against PEUR 6 was tested again by the
    same PEUR 6; now it is not, and the log says why."""
    from battles.presenters.log import log_lines

    guard = fighter_card("Garde", COU=2)
    wolfen = fighter_card("Wolfen", 2, PEUR=6, COU=None)
    table = activation_table([guard], [wolfen], first="b")
    table.play("b", {"type": "draw", "action": "draw"})
    for fighter in ("b1.1", "b1.2"):
        table.play(
            "b",
            {
                "type": "declare",
                "fighter": fighter,
                "action": "charge",
                "targets": ["a1.1"],
            },
        )
        if table.state["pending"]:
            table.play("a", {"type": "roll"}, faces=[5])  # 7 >= 6: it holds
    with translation.override("en"):
        texts = [line.text for line in log_lines(table.events, ["a", "b"])]
    spared = [t for t in texts if "already passed one against PEUR 6" in t]
    assert len(spared) == 1
    assert "(house ruling: How long does a passed Courage test protect" in spared[0]
