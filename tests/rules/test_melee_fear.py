"""Fear on a charge (IX) and the rally of the routed (IV-D-1): each test
quotes the line of ``rules-data/melee-sources.md`` §3 it checks."""

from __future__ import annotations

from rules import odds
from rules.game import legal_actions, waiting_for
from rules.game.common import fraction_text
from tests.support.melee import (
    activation_table,
    fighter_card,
    melee_table,
    pass_activations,
)


def wolfen(fighters=1, **profile):
    return fighter_card("Wolfen", fighters, PEUR=6, COU=None, **profile)


def charge(table, side, fighter, *targets):
    table.play(side, {"type": "draw", "action": "draw"})
    return table.play(
        side,
        {
            "type": "declare",
            "fighter": fighter,
            "action": "charge",
            "targets": list(targets),
        },
    )


def test_IX_a_fighter_charged_by_a_frightening_adversary_tests_its_courage():
    """§3 [read]: "When it is rolled: when charging a more frightening opponent
    and when being charged by one." (S11 Dreadful: "a fighter charged by
    fear-causing enemies"); "1d6 + COU, with the difficulty set by the FEAR"."""
    guard = fighter_card("Garde", COU=2)
    table = activation_table([guard], [wolfen()], first="b")
    charge(table, "b", "b1.1", "a1.1")
    pending = table.state["pending"]
    assert (pending["side"], pending["context"]["fighter"]) == ("a", "a1.1")
    assert (pending["value"], pending["difficulty"]) == (2, 6)
    assert pending["odds"] == fraction_text(odds.test_success(2, 6))
    assert pending["section"] == "IX"
    assert waiting_for(table.state) == {"a"}
    assert "roll" not in [e["type"] for e in legal_actions(table.state, "b")]
    table.play("a", {"type": "roll"}, faces=[2])  # 2 + 2 = 4 < 6
    assert table.state["fighters"]["a1.1"]["routed"] is True
    assert table.state["pending"] is None


def test_IX_the_charger_tests_against_the_highest_fear_of_those_it_charges():
    """§3 [read]: "When several frightening enemies are involved, the highest
    FEAR is used." (S11 Dreadful: "tests against 8")."""
    guard = fighter_card("Garde", COU=3)
    beasts = [fighter_card("Zombie", PEUR=8, COU=None), wolfen()]
    table = activation_table([guard], beasts)
    charge(table, "a", "a1.1", "b1.1", "b2.1")
    assert table.state["pending"]["difficulty"] == 8
    table.play("a", {"type": "roll"}, faces=[5])  # 3 + 5 = 8: it holds
    assert table.state["fighters"]["a1.1"]["routed"] is False


def test_IX_each_fighter_charged_tests_on_its_own_side_one_after_the_other():
    guards = [fighter_card("Garde", 2, COU=2)]
    table = activation_table(guards, [wolfen()], first="b")
    charge(table, "b", "b1.1", "a1.1", "a1.2")
    assert table.state["pending"]["context"]["fighter"] == "a1.1"
    table.play("a", {"type": "roll"}, faces=[5])  # 7: it holds
    assert table.state["pending"]["context"]["fighter"] == "a1.2"
    table.play("a", {"type": "roll"}, faces=[1])  # 3: routed
    assert table.state["pending"] is None
    fighters = table.state["fighters"]
    assert (fighters["a1.1"]["routed"], fighters["a1.2"]["routed"]) == (False, True)


def test_IX_a_certain_success_costs_no_tap():
    """The issue: "the charger's certain test (COU 5 against 6: 100 %) cost a
    tap on every charge"; 1d6 + 5 >= 6 always: recorded without a roll."""
    guard = fighter_card("Garde", COU=5)
    table = activation_table([guard], [wolfen()])
    events = charge(table, "a", "a1.1", "b1.1")
    assert table.state["pending"] is None
    (certain,) = [e["payload"] for e in events if e["kind"] == "courage_certain"]
    assert (certain["fighter"], certain["fear"], certain["odds"]) == ("a1.1", 6, "1/1")


def test_IX_no_test_when_the_fear_is_not_above_the_courage_or_immune():
    """§3 [read] (S11, S12): "Immunity / Fear: immune to all fear." """
    brave = fighter_card("Brave", COU=6)
    immune = fighter_card("Templier", COU=1, skills=["Immunité/Peur"])
    table = activation_table([brave, immune], [wolfen(2)], first="b")
    events = charge(table, "b", "b1.1", "a1.1")
    events += table.play(
        "b",
        {"type": "declare", "fighter": "b1.2", "action": "charge", "targets": ["a2.1"]},
    )
    assert table.state["pending"] is None
    assert not [e for e in events if e["kind"] == "courage_certain"]


def test_a_routed_fighter_in_a_combat_places_every_die_in_defence():
    """§2.3 Forced placements [fan] (S13): "Frightened fighter who cannot flee
    or is engaged: All dice in DEF" — the house ruling "cannot_flee"."""
    guard = fighter_card("Garde", COU=2)
    table = activation_table([guard], [wolfen()], first="b")
    charge(table, "b", "b1.1", "a1.1")
    table.play("a", {"type": "roll"}, faces=[1])  # routed
    table.play("b", {"type": "end_activation"})
    pass_activations(table)
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    # One combat, one fighter a side: chosen and named without a tap.
    assert table.state["pending"]["purpose"] == "initiative"
    events = table.play("a", {"type": "roll"}, faces=[1, 4])  # B wins
    # The placement is no choice: made without a tap, saying why.
    (placed,) = [e["payload"] for e in events if "placed" in e["payload"]]
    assert placed["placed"]["forced"] == "routed"
    assert placed["placed"]["automatic"] is True
    assert placed["placed"]["attack"] == 0
    assert placed["house_ruling"] == "cannot_flee"
    table.refuses("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1}, "placed")


def test_the_routed_fighter_fights_normally_under_the_other_ruling():
    guard = fighter_card("Garde", COU=2)
    table = melee_table(
        [guard],
        [wolfen()],
        [["a1.1", "b1.1"]],
        rulings={"cannot_flee": "fights_normally"},
    )
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    table.play("a", {"type": "roll"}, faces=[1, 4])
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})


def test_IV_D_1_a_fighter_routed_during_the_upkeep_gets_its_rally_on_the_checklist():
    """IV-D-1 (S2): rally of routed fighters at upkeep, rules in IX-E."""
    guard = fighter_card("Garde", 2, COU=4)
    table = activation_table([guard], [wolfen()])
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    pass_activations(table)
    assert table.state["phase"] == "upkeep"
    items = table.state["upkeep"]["items"]
    assert [i["fighter"] for i in items if i["step"] == "rally"] == ["a1.1"]
    table.play("a", {"type": "set_routed", "fighter": "a1.2", "routed": True})
    items = table.state["upkeep"]["items"]
    assert [i["fighter"] for i in items if i["step"] == "rally"] == ["a1.1", "a1.2"]
    for fighter in ("a1.1", "a1.2"):
        key = next(i["key"] for i in items if i["fighter"] == fighter)
        table.play("a", {"type": "tick_upkeep", "key": key, "difficulty": 6})
        table.play("a", {"type": "roll"}, faces=[3])  # 4 + 3 = 7: rallied
    assert not table.state["fighters"]["a1.2"]["routed"]
