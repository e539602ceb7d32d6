"""The upkeep of magic and faith (IV-D-2, X-G-1, XI-B-2): new temporary faith,
then the mana recovered in gems, then the upkeep payments (Entretien/X).

magic-faith-sources.md §2: "Upkeep step 2 | New T.F. for every faithful
(XI-B-2), **then** a mana recovery roll for every magician (X-G-1). | [read]
M2"; "Upkeep step 3 | Pay Entretien/X costs [...] | [read] M2".
"""

from __future__ import annotations

from tests.support.magic_table import cast, magic_setup, magic_table, to_upkeep
from tests.support.table import Table


def tick(key, **fields):
    return {"type": "tick_upkeep", "key": key, **fields}


def gems(table, fighter):
    return {k: v for k, v in table.state["fighters"][fighter]["gems"].items() if v}


def test_new_temporary_faith_comes_before_the_mana_recovered():
    table = to_upkeep(magic_table())
    steps = [(i["step"], i["fighter"]) for i in table.state["upkeep"]["items"]]
    assert steps[:3] == [("faith", "a2.1"), ("mana", "a1.1"), ("mana", "b1.1")]
    table.refuses("a", tick("mana:Magicien", gems={"fire": 1}), "order|first|wait")


def test_a_magician_recovers_gems_of_the_elements_he_masters_up_to_his_maximum():
    """ "Gains never exceed the reserve. [read] M4, M6"; "Gems gained must be of
    elements the receiver masters. [read] M6"; HR-M1: the maximum, by default
    the reserve it started with (5 gems)."""
    table = magic_table()
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    table.play("a", cast())  # 2 fire gems: 3 left of 5
    table.play("a", {"type": "roll"}, faces=[4])
    to_upkeep(table)
    table.play("a", tick("faith:Prêtre"))
    table.refuses("a", tick("mana:Magicien", gems={"water": 1}), "masters")
    events = table.play("a", tick("mana:Magicien", gems={"fire": 3}))
    reserve = events[0]["payload"]["reserve"]
    assert reserve["high"] == 5 and reserve["reserve"] == "gems"
    assert gems(table, "a1.1") == {"fire": 3, "light": 1, "air": 1}


def test_the_maximum_may_be_the_pou_or_none_by_ruling():
    for ruling, expected in (("power", 5), ("none", 8)):
        table = to_upkeep(magic_table(mana_maximum=ruling))
        table.play("a", tick("faith:Prêtre"))
        table.play("a", tick("mana:Magicien", gems={"fire": 3}))
        assert table.state["fighters"]["a1.1"]["mana"] == expected, ruling


def test_recovery_x_adds_x_gems_of_a_mastered_element_whatever_the_roll():
    """ "Recovery/X adds X gems of a mastered element, whatever the roll. [read]
    M4" (with the ruling ``mana_recovery`` "recovery_only")."""
    game = magic_setup(mana_recovery="recovery_only", mana_maximum="none")
    game["sides"]["a"]["cards"][0]["skills"] = ["Récupération/2"]
    table = _to_activation(Table(game, seed="magic"))
    to_upkeep(table)
    table.play("a", tick("faith:Prêtre"))
    table.refuses("a", tick("mana:Magicien", gems={"fire": 1}), "Recovery")
    table.play("a", tick("mana:Magicien"))  # the first element he masters
    assert gems(table, "a1.1") == {"fire": 5, "light": 1, "air": 1}


def _to_activation(table: Table) -> Table:
    table.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
    table.play("b", {"type": "set_sequence", "order": ["b1", "b2"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[4, 2])
    table.play("a", {"type": "choose_first", "first": "a"})
    table.play("a", {"type": "draw", "action": "draw"})
    return table


def test_piety_keeps_faith_left_on_top_of_the_new_temporary_faith():
    """ "Unspent T.F. is lost at recalculation, except Piety/X: keep up to X,
    added to the new total [...] [read] M8" """
    game = magic_setup()
    game["sides"]["a"]["cards"][1]["skills"] = ["Piété/1"]
    table = to_upkeep(_to_activation(Table(game, seed="magic")))
    table.refuses("a", tick("faith:Prêtre", value=6), "0 to 5")
    table.play("a", tick("faith:Prêtre", value=5))  # FOI 4 + 1 kept
    assert table.state["fighters"]["a2.1"]["faith"] == 5


def test_the_temporary_faith_may_be_the_card_s_foi_by_ruling():
    """HR-F1: entered by default; "printed": the card's FOI without typing."""
    table = magic_table(temporary_faith="printed")
    table.play("a", {"type": "set_mystic", "fighter": "a2.1", "faith": 1})
    to_upkeep(table)
    table.play("a", tick("faith:Prêtre"))
    assert table.state["fighters"]["a2.1"]["faith"] == 4


def test_an_upkept_spell_is_paid_in_gems_of_its_element():
    """ "Entretien/X (to end of round; extend by paying X gems of the spell's
    element or X T.F. at upkeep) | [read] M1" """
    game = magic_setup()
    game["spells"]["Flamme"] = {
        "cost": {"fire": 1},
        "difficulty": 4,
        "frequency": None,
        "duration": "upkeep",
        "upkeep": 1,
    }
    game["sides"]["a"]["cards"][0]["spells"].append("Flamme")
    game["sides"]["b"]["cards"][0]["gems"] = {}
    table = _to_activation(Table(game, seed="magic"))
    # POU 5 against 4 cannot fail: passed without a roll (II-A-1).
    table.play("a", cast(spell="Flamme", target="b2.1"))
    (effect,) = table.state["effects"]
    assert effect["duration"] == "upkeep" and effect["element"] == "fire"
    to_upkeep(table)
    key = f"effect:{effect['id']}"
    # IV-D-2 then IV-D-3: faith, mana, and only then the upkeep payments.
    steps = [i["step"] for i in table.state["upkeep"]["items"]]
    assert steps.index("faith") < steps.index("mana") < steps.index("other")
    table.refuses("a", tick(key, pay=True), ".")
    table.play("a", tick("faith:Prêtre"))
    table.play("a", tick("mana:Magicien"))
    table.play("b", tick("mana:Sorcier"))
    table.play("a", tick(key, pay=True))
    assert gems(table, "a1.1") == {"fire": 1, "light": 1, "air": 1}
    assert table.state["effects"][0]["id"] == effect["id"]
