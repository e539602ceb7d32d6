"""The log's and the panels' wording of the combat (VII-B, VII-C): the real
reason a combat ends, automatic choices, titles and the order of adversaries."""

from __future__ import annotations

from django.utils import translation

from battles.presenters.game.combat import EVENTS
from tests.rules.test_melee_combat import (
    end_of,
    ended_by_a_kill,
    ended_without_attack_die,
)


def words(payload, language):
    with translation.override(language):
        return str(EVENTS["combat_updated"](payload, "A", {})[0])


def test_a_combat_ended_by_a_kill_says_a_side_has_nobody_left():
    end = end_of(ended_by_a_kill())
    assert words(end, "en").startswith(
        "Combat 1 is over: one side has no fighter left in it."
    )
    french = words(end, "fr")
    assert "aucun combattant" in french and "dé d'attaque" not in french


def test_a_combat_ended_with_no_attack_die_says_so():
    end = end_of(ended_without_attack_die())
    assert words(end, "en") == "Combat 1 is over: no attack die is left."
    assert "aucun dé d'attaque" in words(end, "fr")


def test_the_log_says_a_lone_fighter_and_the_last_combat_were_automatic():
    from tests.support.melee import fighter_card, melee_table

    table = melee_table(
        [fighter_card("A", 2)],
        [fighter_card("B", 2)],
        [["a1.1", "b1.1"], ["a1.2", "b1.2"]],
    )
    events = table.play("a", {"type": "choose_combat", "combat": 0})
    names = {f: d["label"] for f, d in table.state["fighters"].items()}
    with translation.override("en"):
        lines = [
            str(EVENTS["combat_updated"](e["payload"], "Side A", names)[0])
            for e in events
            if "initiative_named" in e["payload"]
        ]
    assert len(lines) == 2 and all("automatic" in line for line in lines)
    assert "The Initiative test is" in lines[-1]
    table.play("a", {"type": "roll"}, faces=[4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    events = table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 0})
    (chosen,) = [e["payload"] for e in events if "chosen" in e["payload"]]
    with translation.override("fr"):
        french = str(EVENTS["combat_updated"](chosen, "Camp A", names)[0])
    assert "automatique" in french and "le seul qui reste" in french


def test_the_defence_test_s_title_cites_its_section_once():
    from battles.presenters.game.table_rolls import test_title

    pending = {
        "section": "VII-C-4",
        "context": {"fighter": "b1.1", "characteristic": "DEF", "use": "defence"},
    }
    for language, word in (("en", "DEF test (parry)"), ("fr", "parade")):
        with translation.override(language):
            title = str(test_title(pending, {"b1.1": "B 1"}))
        assert word in title and "VII-C-4" not in title


def test_a_combat_s_adversaries_are_listed_in_a_natural_order():
    """ "Wolfen contre Guerrier 2, Guerrier 1" read backwards: the adversaries
    come in the natural order of their labels (2 before 10), whatever the
    order the combat was formed in."""
    from battles.presenters.game import build_panel
    from tests.support.melee import fighter_card, melee_table

    table = melee_table(
        [fighter_card("A", 2)],
        [fighter_card("B", 11)],
        [["a1.1", "b1.10", "b1.2", "b1.1"], ["a1.2", "b1.3"]],
    )
    combats = build_panel(table.state, "a").data["combats"]
    assert combats[0]["many"] == ["B 1", "B 2", "B 10"]
    table.play("a", {"type": "choose_combat", "combat": 0})
    rows = build_panel(table.state, "b").data["rows"]
    assert [row["label"] for row in rows] == ["A 1", "B 1", "B 2", "B 10"]
