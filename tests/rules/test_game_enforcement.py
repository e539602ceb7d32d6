"""The rules the game enforces, each quoting its seed (issue #10).

Set-up (``tests.support.table.setup``): side A has a Magistrat (a1.1, FOI 3)
and two Arbalétriers (a2.1, a2.2, crossbow); side B three Repentis (b1.1..3).
"""

from __future__ import annotations

from rules.game import legal_actions, waiting_for
from rules.game.engine import COMMAND_TABLE
from tests.support.table import Table, b1_charges_a1, declaration

ANYTIME = {kind for kind, entry in COMMAND_TABLE.items() if entry.anytime}


def entries(table, side, kind):
    return [e for e in legal_actions(table.state, side) if e["type"] == kind]


def declared(table, side, fighter):
    return {
        e["action"] for e in entries(table, side, "declare") if e["fighter"] == fighter
    }


def b_charges_the_magistrat():
    """B speaks first; Repenti b1.1 charges the Magistrat a1.1; A draws a1."""
    table = b1_charges_a1()
    assert table.state["active"]["fighters"] == ["a1.1"]
    return table


def magistrat_in_contact_since_last_turn():
    """The Magistrat a1.1 stands in contact with Repenti b1.1; A draws a1."""
    table = Table()
    table.to_activation(first="a")
    table.play(
        "a", {"type": "set_contact", "one": "a1.1", "two": "b1.1", "contact": True}
    )
    table.play("a", {"type": "draw", "action": "draw"})
    return table


def to_combat(table) -> None:
    """Every card still to come is drawn and its activation ended at once."""
    while table.state["phase"] == "activation":
        side = waiting_for(table.state).pop()
        if table.state["active"]:
            table.play(side, {"type": "end_activation"})
        else:
            table.play(side, {"type": "draw", "action": "draw"})


def test_COURIR_a_fighter_in_contact_at_its_activation_cannot_run():
    """COURIR: "Un combattant ne peut effectuer une course que s'il est libre de
    tout adversaire au moment de son activation." """
    table = b_charges_the_magistrat()
    table.refuses("a", declaration("a1.1", "run"), "COURIR")
    assert "run" not in declared(table, "a", "a1.1")


def test_MARCHER_a_fighter_in_contact_must_disengage_before_it_walks_or_engages():
    """MARCHER: "Si un combattant est au contact d'au moins une figurine
    ennemie, il doit parvenir à se désengager avant de pouvoir effectuer une
    marche." Résoudre un Assaut: "il doit tout d'abord tenter de rompre le
    combat avant de pouvoir engager un autre ennemi." """
    table = magistrat_in_contact_since_last_turn()
    table.refuses("a", declaration("a1.1", "walk"), "disengage")
    table.refuses("a", declaration("a1.1", "engagement", "b1.2"), "disengage")
    assert declared(table, "a", "a1.1") == {"mystic"}
    assert entries(table, "a", "disengage")[0]["fighter"] == "a1.1"


def test_after_a_successful_disengagement_it_may_engage_another_adversary():
    """Résoudre un Assaut: "S'il y parvient, son potentiel de déplacement est de
    MOU cm ; il peut alors engager un nouvel adversaire"."""
    table = magistrat_in_contact_since_last_turn()
    table.play("a", {"type": "disengage", "fighter": "a1.1", "method": "INI"})
    # INI 4 + 3 = 7 against 4 + 2 x 1 adversary = 6.
    table.play("a", {"type": "roll"}, faces=[3])
    assert table.state["contacts"] == []
    assert "engagement" in declared(table, "a", "a1.1")
    events = table.play("a", declaration("a1.1", "engagement", "b1.2"))
    assert events[0]["payload"]["move_cm"] == 10  # MOU x 1 after a disengagement


def test_after_a_failed_disengagement_no_move_and_every_combat_die_in_defence():
    """Désengagement: "S'il échoue, tous ses dés de combat sont automatiquement
    placés en défense lors de la phase de combat du tour en cours"."""
    table = magistrat_in_contact_since_last_turn()
    table.play("a", {"type": "disengage", "fighter": "a1.1"})
    table.play("a", {"type": "roll"}, faces=[1])  # 4 + 1 = 5 < 6: it fails
    assert table.state["defence_only"] == ["a1.1"]
    table.refuses("a", declaration("a1.1", "walk"), "disengage")
    table.refuses("a", declaration("a1.1", "engagement", "b1.3"), "failed to disengage")
    table.play("a", {"type": "end_activation"})
    to_combat(table)
    assert table.state["phase"] == "combat"
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    # The only combat, one fighter a side: chosen and named without a tap.
    combat = table.state["combat"]["combats"][0]
    assert combat["dice"]["a1.1"]["total"] == 2
    assert table.state["pending"]["purpose"] == "initiative"
    events = table.play("a", {"type": "roll"}, faces=[2, 5])  # 4 + 2 against 4 + 5
    # B won: A places first, and its placement is no choice: it is made
    # without a tap, saying why (RULES_API "Melee").
    (placed,) = [e["payload"]["placed"] for e in events if "placed" in e["payload"]]
    assert (placed["forced"], placed["automatic"]) == ("disengagement", True)
    assert not entries(table, "a", "place_dice")
    combat = table.state["combat"]["combats"][0]
    assert combat["dice"]["a1.1"] == {"total": 2, "attack": 0, "defence": 2}
    assert not entries(table, "a", "attack")


def test_IV_B_2_exclusive_actions_come_before_cumulative_ones():
    """IV-B-2: "les combattants effectuant des actions cumulatives sont joués les
    uns après les autres, après ceux ayant effectué une action exclusive." The
    initiation rules: "Les actions destinées à amener un combattant au contact
    d'un adversaire doivent être annoncées et résolues avant les autres." """
    table = Table()
    table.to_activation(first="b")
    table.play("b", {"type": "draw", "action": "draw"})
    table.play("b", declaration("b1.1", "charge", "a1.1"))
    table.play("b", declaration("b1.2", "walk"))
    table.refuses("b", declaration("b1.3", "charge", "a1.1"), "IV-B-2")
    table.refuses("b", declaration("b1.3", "run"), "IV-B-2")
    assert declared(table, "b", "b1.3") == {"walk"}


def test_IV_A_2_once_the_tactics_roll_is_made_no_side_chooses_its_fighter_again():
    """IV-A-2: "Chaque joueur effectue un test de Discipline avec le combattant
    de son choix [...] : le jet de Tactique. Le vainqueur de ce jet choisira
    quel joueur commence à parler"."""
    table = Table()
    table.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
    table.play("b", {"type": "set_sequence", "order": ["b1"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[3, 4])
    assert table.state["tactics"]["winner"] == "a"
    for side, fighter in (("b", "b1.2"), ("a", "a1.1")):
        table.refuses(
            side, {"type": "choose_tactics_fighter", "fighter": fighter}, "IV-A-2"
        )
        assert not entries(table, side, "choose_tactics_fighter")
    assert waiting_for(table.state) == {"a"}


def test_mystic_actions_only_for_magicians_and_the_faithful():
    """IV-B-2: "Les actions cumulatives sont : la Marche, le Tir, les Actions
    mystiques (cf. Ch.10 et 11)" — the chapters of magicians (POU) and the
    faithful (FOI)."""
    table = Table()
    table.to_activation()
    table.play("a", {"type": "draw", "action": "draw"})
    table.play("a", declaration("a1.1", "mystic"))
    table.play("a", {"type": "end_activation"})
    table.play("b", {"type": "draw", "action": "draw"})
    table.refuses("b", declaration("b1.1", "mystic"), "magician")
    assert "mystic" not in declared(table, "b", "b1.1")


def fighting_one_combat():
    table = b_charges_the_magistrat()
    table.play("a", {"type": "end_activation"})
    to_combat(table)
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    # The only combat is fought without a tap (VII-B).
    assert table.state["combat"]["current"] == 0
    return table


def placed_one_combat(attack_a=1, attack_b=1):
    """The Magistrat a1.1 against b1.1: A wins the Initiative, both placed."""
    table = fighting_one_combat()
    # One fighter a side: both named without a tap (VII-C-2).
    named = table.state["combat"]["combats"][0]["initiative_fighters"]
    assert named == {"a": "a1.1", "b": "b1.1"}
    table.play("b", {"type": "roll"}, faces=[5, 2])  # 4 + 5 against 4 + 2: A
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": attack_b})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": attack_a})
    return table


def test_VII_C_3_a_fighter_that_holds_an_attack_die_must_attack():
    """melee-sources.md §2.5 [read] (S8): "A fighter who still has an attack
    die must attack." There is no command to end a combat: the side whose
    attack it is may only attack, and the other side waits."""
    table = placed_one_combat()
    assert waiting_for(table.state) == {"a"}
    assert {e["type"] for e in legal_actions(table.state, "a")} - ANYTIME == {"attack"}
    table.refuses("a", {"type": "end_combat"}, "Unknown")


def test_VII_C_3_the_combat_ends_by_itself_when_no_attack_die_is_left():
    """melee-sources.md §2.5 [inferred]: "Exchanges go on until no attack dice
    remain on either side"; A had none in attack, so B's one attack ends it."""
    table = placed_one_combat(attack_a=0, attack_b=1)
    assert waiting_for(table.state) == {"b"}
    table.play("b", {"type": "attack", "attacker": "b1.1", "target": "a1.1"})
    table.play("a", {"type": "parry", "dice": 2})
    table.play("b", {"type": "roll"}, faces=[2])  # 2 + 4 = 6
    table.play("a", {"type": "roll"}, faces=[5, 2])  # best 5 + DEF 4 = 9: parried
    assert table.state["combat"]["combats"][0]["done"] is True
    assert table.state["phase"] == "upkeep"
