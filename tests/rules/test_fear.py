"""Fear in full (IX) and the house rulings it needs (RULES_API "Fear").

Each test quotes the line of ``rules-data/magic-faith-sources.md`` §5 or
``melee-sources.md`` §3 it checks; [read], [inferred] and [C4] are theirs.
"""

from __future__ import annotations

import pytest

from rules import melee
from rules.game import replay
from tests.support.melee import (
    activation_table,
    fighter_card,
    melee_table,
    pass_activations,
)


def wolfen(fighters=1, peur=6, skills=()):
    return fighter_card("Wolfen", fighters, skills=skills, PEUR=peur, COU=None)


def charge(table, side, fighter, *targets, draw=True):
    if draw:
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


def courage_tests(events):
    """The Courage tests asked (pending) or recorded as certain."""
    asked = [
        e["payload"]["pending"]["context"]["fighter"]
        for e in events
        if e["kind"] == "pending_set"
        and (e["payload"]["pending"] or {}).get("context", {}).get("fear")
    ]
    certain = [
        e["payload"]["fighter"] for e in events if e["kind"] == "courage_certain"
    ]
    return asked, certain


# --- Immunity after a passed test (house ruling fear_immunity) ---------------


def test_IX_a_passed_test_spares_a_second_one_against_the_same_fear_this_game():
    """§5 Additions, "Immunity after success: Lasts the whole game for that
    FEAR and lower ones" ([C4] M18; [inferred] C3 War Cry: "immune to it as
    if he had passed a Courage test of that difficulty", melee §3). The issue:
    a fighter that passed against PEUR 6 was tested again by the same PEUR 6."""
    guard = fighter_card("Garde", COU=2)
    table = activation_table([guard], [wolfen(2)], first="b")
    charge(table, "b", "b1.1", "a1.1")
    table.play("a", {"type": "roll"}, faces=[5])  # 2 + 5 = 7 >= 6: it holds
    assert table.state["fighters"]["a1.1"]["routed"] is False
    # The same activation: the card's second wolfen charges it too.
    events = charge(table, "b", "b1.2", "a1.1", draw=False)
    assert courage_tests(events) == ([], [])
    assert table.state["pending"] is None
    assert table.state["fear_resisted"]["a1.1"]["fear"] == 6
    # Not asked, but said, and the ruling that spared it named.
    (spared,) = [e["payload"] for e in events if e["kind"] == "courage_spared"]
    assert (spared["fighter"], spared["fear"], spared["resisted"]) == ("a1.1", 6, 6)
    assert spared["house_ruling"] == "fear_immunity"
    assert table.state == replay(table.events)


def test_IX_immunity_covers_a_lower_fear_but_not_a_higher_one():
    """§5: "for that FEAR and lower ones" [C4]."""
    guard = fighter_card("Garde", COU=2)
    beasts = [wolfen(peur=6), wolfen(peur=5), wolfen(peur=8)]
    table = activation_table([guard], beasts, first="b")
    charge(table, "b", "b1.1", "a1.1")
    table.play("a", {"type": "roll"}, faces=[4])  # 6: it holds against 6
    table.play("b", {"type": "end_activation"})
    table.play("a", {"type": "draw", "action": "draw"})
    table.play("a", {"type": "end_activation"})
    assert courage_tests(charge(table, "b", "b2.1", "a1.1")) == ([], [])
    table.play("b", {"type": "end_activation"})
    events = charge(table, "b", "b3.1", "a1.1")
    assert courage_tests(events) == (["a1.1"], [])
    assert table.state["pending"]["difficulty"] == 8


def test_IX_under_the_none_ruling_every_charge_tests_again():
    guard = fighter_card("Garde", COU=2)
    table = activation_table(
        [guard], [wolfen(2)], first="b", rulings={"fear_immunity": "none"}
    )
    charge(table, "b", "b1.1", "a1.1")
    table.play("a", {"type": "roll"}, faces=[5])
    events = charge(table, "b", "b1.2", "a1.1", draw=False)
    assert courage_tests(events) == (["a1.1"], [])


def test_IX_the_turn_ruling_keeps_the_immunity_to_the_end_of_the_turn():
    from rules.game.fear import immune_to, resisted_after

    state = {"turn": 2, "house_rulings": {"fear_immunity": "turn"}}
    state["fear_resisted"] = {"x": resisted_after(state, "x", 6)}
    assert immune_to(state, "x", 6) and immune_to(state, "x", 5)
    assert not immune_to(state, "x", 7)
    later = {**state, "turn": 3}
    assert not immune_to(later, "x", 6)
    game = {**later, "house_rulings": {"fear_immunity": "game"}}
    assert immune_to(game, "x", 6)  # the default: for the rest of the game
    assert melee.HOUSE_RULINGS["fear_immunity"].default == "game"


def test_IX_a_certain_success_gives_the_immunity_too():
    """A test the dice cannot miss is a passed test (§5: Courage test =
    1d6 + COU against the highest FEAR, [read] M10)."""
    guard = fighter_card("Garde", COU=5)
    table = activation_table([guard], [wolfen()])
    charge(table, "a", "a1.1", "b1.1")
    assert table.state["fear_resisted"]["a1.1"]["fear"] == 6


# --- Fearsome fighters, War Cry, the living dead, Righteous --------------------


def test_IX_a_fearsome_fighter_is_tested_only_by_a_higher_fear_with_its_own():
    """§5 Additions: "Fighters with FEAR: They test only against a higher
    FEAR, using their FEAR as COU" ([inferred] M10, M11; [C4] M18)."""
    beasts = [wolfen(peur=6), wolfen(peur=5)]
    big = fighter_card("Zombie géant", PEUR=8, COU=None)
    table = activation_table(beasts, [big, wolfen(peur=6)])
    events = charge(table, "a", "a1.1", "b2.1")  # PEUR 6 against PEUR 6
    assert courage_tests(events) == ([], [])
    table.play("a", {"type": "end_activation"})
    table.play("b", {"type": "draw", "action": "draw"})
    table.play("b", {"type": "end_activation"})
    events = charge(table, "a", "a2.1", "b1.1")  # PEUR 5 charges PEUR 8
    assert courage_tests(events) == (["a2.1"], [])
    pending = table.state["pending"]
    assert (pending["value"], pending["difficulty"]) == (5, 8)
    assert pending["context"]["characteristic"] == "PEUR"


def test_IX_war_cry_replaces_the_chargers_courage_by_its_fear_x():
    """§5 [read] M11: "War Cry/X (Cri de guerre/X): while charging, COU is
    replaced by FEAR X. CF: if the ability is owned twice, the highest X
    counts." The charged face PEUR X [inferred]."""
    crier = fighter_card(
        "Barbare", COU=2, skills=["Cri de guerre/4", "Cri de guerre/5"]
    )
    guard = fighter_card("Garde", COU=3)
    table = activation_table([crier], [wolfen(peur=7), guard])
    charge(table, "a", "a1.1", "b1.1")
    pending = table.state["pending"]
    assert (pending["value"], pending["difficulty"]) == (5, 7)  # X = 5, not COU 2
    assert pending["context"]["war_cry"] == 5
    table.play("a", {"type": "roll"}, faces=[2])  # 7: it holds
    assert table.state["fighters"]["a1.1"]["routed"] is False


def test_IX_a_war_cry_charger_frightens_those_it_charges():
    """§5 [read]: War Cry gives the charger FEAR X; "[a Courage test] is taken
    [...] when charged by frightening fighters" (M10)."""
    crier = fighter_card("Barbare", COU=2, skills=["Cri de guerre/5"])
    guard = fighter_card("Garde", COU=3)
    table = activation_table([crier], [guard])
    events = charge(table, "a", "a1.1", "b1.1")
    assert courage_tests(events) == (["b1.1"], [])
    assert table.state["pending"]["difficulty"] == 5


def test_IX_the_living_dead_are_not_immune_to_the_fear_of_hyperians():
    """melee §3 [read] S11: "Living-Dead: [...] They have Immunity/Fear,
    except against Hyperians": a zombie (PEUR 3) charged by a Hyperian of
    PEUR 5 tests, with its PEUR as its courage; charged by another PEUR 5 it
    does not. (A Hyperian is read as the card's ability "Hypérien".)"""
    zombie = fighter_card("Zombie", PEUR=3, COU=None, skills=["Mort-vivant"])
    hyperian = fighter_card("Paladin", PEUR=5, COU=None, skills=["Hypérien"])
    table = activation_table([zombie], [hyperian], first="b")
    events = charge(table, "b", "b1.1", "a1.1")
    # The Paladin's own test against the living dead cannot fail (5 >= 3).
    assert courage_tests(events) == (["a1.1"], ["b1.1"])
    pending = table.state["pending"]
    assert (pending["value"], pending["difficulty"]) == (3, 5)
    other = fighter_card("Paladin", PEUR=5, COU=None)
    table = activation_table([zombie], [other], first="b")
    assert courage_tests(charge(table, "b", "b1.1", "a1.1")) == ([], ["b1.1"])
    # Immunité/Peur as well: immune even to Hyperians.
    sure = fighter_card(
        "Zombie", PEUR=3, COU=None, skills=["Mort-vivant", "Immunité/Peur"]
    )
    table = activation_table([sure], [hyperian], first="b")
    assert courage_tests(charge(table, "b", "b1.1", "a1.1")) == ([], ["b1.1"])


def test_IX_the_living_dead_frighten_even_a_braver_fighter():
    """§5 [read] M10: "Living-dead frighten everyone, even fighters with a
    higher FEAR"; melee §3: "They have Immunity/Fear"."""
    zombie = fighter_card("Zombie", PEUR=3, COU=None, skills=["Mort-vivant"])
    brave = fighter_card("Brave", COU=5)
    table = activation_table([zombie], [brave])
    events = charge(table, "a", "a1.1", "b1.1")
    asked, certain = courage_tests(events)
    assert (asked, certain) == ([], ["b1.1"])  # 1d6 + 5 >= 3: cannot fail
    (payload,) = [e["payload"] for e in events if e["kind"] == "courage_certain"]
    assert payload["living_dead"] is True
    # The living dead make no test themselves (Immunity/Fear); a PEUR 9
    # beast they charge still faces them (a test it cannot fail).
    big = fighter_card("Béhémoth", PEUR=9, COU=None)
    table = activation_table([zombie], [big])
    assert courage_tests(charge(table, "a", "a1.1", "b1.1")) == ([], ["b1.1"])


def test_IX_righteous_fighters_are_immune_to_fear():
    """§5 [read] M10: "Immune: Immunity/Fear, Righteous"."""
    templar = fighter_card("Templier", COU=1, skills=["Juste"])
    table = activation_table([templar], [wolfen(peur=9)])
    assert courage_tests(charge(table, "a", "a1.1", "b1.1")) == ([], [])


# --- A charger that fails (house ruling failed_charge) -----------------------


def test_IX_a_charger_that_fails_does_not_charge_and_is_routed_where_it_stands():
    """§5 Additions: "Failure when charging: The charger is in rout, its
    activation ends, it stays in place" ([C4] M18 -> HR-P3): the default of
    the house ruling ``failed_charge``. The issue: a charger that failed its
    test still completed its charge and fought routed."""
    guard = fighter_card("Garde", COU=1)
    table = activation_table([guard], [wolfen()])
    charge(table, "a", "a1.1", "b1.1")
    assert table.state["contacts"] == [["a1.1", "b1.1"]]
    events = table.play("a", {"type": "roll"}, faces=[2])  # 1 + 2 = 3 < 6
    fighter = table.state["fighters"]["a1.1"]
    assert fighter["routed"] is True and fighter["charged"] is False
    assert table.state["contacts"] == []
    rulings = [e["payload"].get("house_ruling") for e in events]
    # The contacts undone, the rout (the activation's end follows from it).
    assert rulings.count("failed_charge") == 2
    assert table.state["pending"] is None
    assert table.state == replay(table.events)


def test_IX_a_failed_charge_drops_the_tests_of_those_it_would_have_charged():
    crier = fighter_card("Barbare", COU=1, skills=["Cri de guerre/3"])
    guard = fighter_card("Garde", COU=1)
    table = activation_table([crier], [wolfen(peur=6), guard])
    charge(table, "a", "a1.1", "b1.1", "b2.1")
    assert table.state["pending"]["context"]["fighter"] == "a1.1"
    table.play("a", {"type": "roll"}, faces=[1])  # 3 + 1 < 6: the charge fails
    assert table.state["pending"] is None  # no test for b2.1: no charge


def test_IX_under_routed_in_contact_the_charge_happens_and_the_charger_is_routed():
    guard = fighter_card("Garde", COU=1)
    table = activation_table(
        [guard], [wolfen()], rulings={"failed_charge": "routed_in_contact"}
    )
    charge(table, "a", "a1.1", "b1.1")
    events = table.play("a", {"type": "roll"}, faces=[2])
    assert table.state["fighters"]["a1.1"]["routed"] is True
    assert table.state["contacts"] == [["a1.1", "b1.1"]]
    assert [e["payload"].get("house_ruling") for e in events].count(
        "failed_charge"
    ) == 1


def test_the_house_rulings_refuse_an_unknown_value():
    from rules.errors import IllegalAction

    with pytest.raises(IllegalAction, match="failed_charge"):
        melee.house_rulings({"failed_charge": "flee"})
    assert melee.house_rulings({})["failed_charge"] == "no_charge"
    assert melee.house_rulings({})["rally_difficulty"] == "highest_fear"


# --- The rally's difficulty (house ruling rally_difficulty) ------------------


def test_IV_D_1_the_rally_difficulty_is_the_highest_fear_faced_by_default():
    """melee §3: "Rally test (Conf'Fédé IX-E): the difficulty and who may rally
    were not found" -> HR-P5: a ruling agreed at the game's creation, the
    rallying player types nothing."""
    guard = fighter_card("Garde", 2, COU=4)
    table = activation_table([guard], [wolfen(peur=7)])
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    pass_activations(table)
    item = next(i for i in table.state["upkeep"]["items"] if i["step"] == "rally")
    table.play("a", {"type": "tick_upkeep", "key": item["key"]})
    assert table.state["pending"]["difficulty"] == 7
    events = table.play("a", {"type": "roll"}, faces=[3])  # 4 + 3 = 7: rallied
    (ticked,) = [e["payload"] for e in events if e["kind"] == "upkeep_ticked"]
    assert ticked["rallied"] is True and ticked["house_ruling"] == "rally_difficulty"


def test_IV_D_1_with_no_frightening_adversary_left_it_rallies_without_a_test():
    guard = fighter_card("Garde", 2, COU=4)
    table = activation_table([guard], [fighter_card("Clone", COU=2)])
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    pass_activations(table)
    item = next(i for i in table.state["upkeep"]["items"] if i["step"] == "rally")
    events = table.play("a", {"type": "tick_upkeep", "key": item["key"]})
    assert table.state["fighters"]["a1.1"]["routed"] is False
    assert [e["kind"] for e in events if e["kind"] == "pending_set"] == []


# --- Rulings named on the results they decide --------------------------------


def melee_one_on_one(a_skills=(), b_skills=(), rulings=None):
    a = fighter_card("A", skills=a_skills, ATT=4)
    b = fighter_card("B", skills=b_skills)
    table = melee_table([a], [b], [["a1.1", "b1.1"]], rulings=rulings)
    named = table.state["combat"]["combats"][0]["initiative_fighters"]
    for side, fighter in (("a", "a1.1"), ("b", "b1.1")):
        if named[side] is None:
            table.play(side, {"type": "initiative", "fighter": fighter})
    table.play("a", {"type": "roll"}, faces=[4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    return table


def test_a_counter_attack_short_of_two_more_names_its_ruling_and_lets_the_blow_land():
    """melee §4 [read] S11: "The parry must beat the attack result by +2";
    what a result between the two does is not read: ``counter_short``."""
    table = melee_one_on_one(b_skills=["Contre-attaque"])
    table.play("b", {"type": "parry", "dice": 1, "counter": True})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    events = table.play("b", {"type": "roll"}, faces=[3])  # 7: reaches 6, not 8
    (resolved,) = [e["payload"] for e in events if e["kind"] == "test_resolved"]
    assert resolved["house_ruling"] == "counter_short"
    assert table.state["pending"]["kind"] == "wound"


def test_a_counter_attack_short_of_two_more_is_parried_under_the_other_ruling():
    table = melee_one_on_one(
        b_skills=["Contre-attaque"], rulings={"counter_short": "parried"}
    )
    table.play("b", {"type": "parry", "dice": 1, "counter": True})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    events = table.play("b", {"type": "roll"}, faces=[3])  # 7
    (resolved,) = [e["payload"] for e in events if e["kind"] == "test_resolved"]
    assert resolved["success"] is True
    assert resolved["house_ruling"] == "counter_short"
    assert not [e for e in events if "gained" in e["payload"]]
    assert (table.state["pending"] or {}).get("kind") != "wound"


def test_a_parry_with_several_dice_names_the_sustained_defence_ruling():
    """melee §2.6 [read] S11: "the die or dice assigned to this parry"; how
    that roll is made is not stated: ``sustained_defence``."""
    table = melee_one_on_one()
    table.play("b", {"type": "parry", "dice": 2})
    table.play("a", {"type": "roll"}, faces=[2])
    events = table.play("b", {"type": "roll"}, faces=[5, 4])
    (resolved,) = [e["payload"] for e in events if e["kind"] == "test_resolved"]
    assert resolved["house_rulings"] == ["sustained_defence"]


def test_every_ruling_says_truly_where_its_default_comes_from():
    """The issue: every ruling read "the sources' default" even where its
    reason begins "not found in the sources"."""
    for name, ruling in melee.HOUSE_RULINGS.items():
        assert ruling.basis in melee.BASES, name
        assert ruling.default in ruling.choices, name
        if ruling.reason.startswith("Not found"):
            assert ruling.basis in ("none", "other_edition", "fan"), name
    assert melee.HOUSE_RULINGS["parry_tie"].basis == "none"
    assert melee.HOUSE_RULINGS["failed_charge"].basis == "other_edition"


# --- Dreadful (Terrifiant): two dice, the lower kept --------------------------


def test_IX_dreadful_rolls_two_dice_and_keeps_the_lower():
    """§5 [read] M10: "Dreadful: 2d6, keep the lower [...] It applies even if
    the Dreadful fighter's FEAR is not the one used." """
    from fractions import Fraction

    from rules.several_dice import dice_test_success

    guard = fighter_card("Garde", COU=2)
    dreadful = fighter_card("Spectre", PEUR=5, COU=None, skills=["Terrifiant"])
    table = activation_table([guard], [wolfen(peur=6), dreadful])
    charge(table, "a", "a1.1", "b1.1", "b2.1")
    pending = table.state["pending"]
    assert (pending["dice"], pending["keep_lowest"], pending["difficulty"]) == (
        2,
        True,
        6,  # the highest PEUR, not the Dreadful one's
    )
    # 2 + the lower die >= 6: both dice 4 or more, 9/36.
    assert dice_test_success(2, 6, 2, keep_lowest=True) == Fraction(9, 36)
    assert pending["odds"] == "1/4"
    table.play("a", {"type": "roll"}, faces=[6, 3])  # the lower: 3, 5 < 6
    assert table.state["fighters"]["a1.1"]["routed"] is True


def test_IX_dreadful_two_sixes_reroll_the_kept_die():
    """II-A-1: a six may be rerolled and added; the lower die shows a six only
    when both do."""
    from rules.dice import ScriptedDice
    from rules.several_dice import DiceTest

    roll = DiceTest.start(1, 10, 2, ScriptedDice([6, 6]), keep_lowest=True)
    assert roll.awaiting_choice and roll.sixes == 1
    roll = roll.decide(True, ScriptedDice([4]))
    assert roll.natural == 10 and roll.finished
    assert DiceTest.from_dict(roll.to_dict()) == roll
    one_six = DiceTest.start(1, 10, 2, ScriptedDice([6, 2]), keep_lowest=True)
    assert not one_six.awaiting_choice and one_six.natural == 2


def test_IV_D_1_a_rally_the_dice_cannot_miss_is_recorded_without_a_roll():
    """II-A-4 (a final result reaching the difficulty succeeds): COU 6 against
    PEUR 6 cannot fail; RULES_API: a roll whose outcome cannot change what
    follows need not be asked for."""
    guard = fighter_card("Garde", 2, COU=6)
    table = activation_table([guard], [wolfen(peur=6)])
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    pass_activations(table)
    item = next(i for i in table.state["upkeep"]["items"] if i["step"] == "rally")
    events = table.play("a", {"type": "tick_upkeep", "key": item["key"]})
    assert table.state["pending"] is None
    assert table.state["fighters"]["a1.1"]["routed"] is False
    (ticked,) = [e["payload"] for e in events if e["kind"] == "upkeep_ticked"]
    assert ticked["rally_certain"] == {"courage": 6, "difficulty": 6}


# --- A failed charge (referee leftovers) ---------------------------------------------


def test_IX_a_failed_charge_ends_the_activation_by_itself_when_nothing_is_left():
    """§5 Additions: "Failure when charging: The charger is in rout, its
    activation ends, it stays in place" ([C4] M18, ``failed_charge``
    "no_charge"): a lone charger leaves its side nothing to do, so the
    activation ends without a tap (the rout just before names the ruling)."""
    guard = fighter_card("Garde", COU=1)
    table = activation_table([guard], [wolfen()])
    charge(table, "a", "a1.1", "b1.1")
    events = table.play("a", {"type": "roll"}, faces=[2])  # 1 + 2 = 3 < 6
    (ended,) = [e["payload"] for e in events if e["kind"] == "activation_ended"]
    assert ended["reason"] == "failed_charge" and ended["fighter"] == "a1.1"
    assert table.state["active"] is None
    assert table.state == replay(table.events)


def test_IX_a_failed_charge_leaves_the_group_s_other_fighters_their_activation():
    """Only the charger's activation ends: a second fighter of the same card
    may still act, so the side still ends the activation itself."""
    guard = fighter_card("Garde", 2, COU=1)
    table = activation_table([guard], [wolfen()])
    charge(table, "a", "a1.1", "b1.1")
    events = table.play("a", {"type": "roll"}, faces=[2])
    assert not [e for e in events if e["kind"] == "activation_ended"]
    assert table.state["active"]["fighters"] == ["a1.1", "a1.2"]


def test_IX_after_a_failed_charge_the_charged_fighters_are_not_engaged():
    """ "it stays in place" ([C4] M18): the charge does not happen, so those it
    charged are not "engaged this phase" (the disengagement's difficulty
    reads it, initiation rules "Désengagement")."""
    guard = fighter_card("Garde", COU=1)
    table = activation_table([guard], [wolfen()])
    charge(table, "a", "a1.1", "b1.1")
    assert table.state["engaged"] == ["b1.1"]
    table.play("a", {"type": "roll"}, faces=[2])
    assert table.state["engaged"] == []
    assert table.state == replay(table.events)


def test_IX_under_routed_in_contact_the_charged_stay_engaged():
    guard = fighter_card("Garde", COU=1)
    table = activation_table(
        [guard], [wolfen()], rulings={"failed_charge": "routed_in_contact"}
    )
    charge(table, "a", "a1.1", "b1.1")
    events = table.play("a", {"type": "roll"}, faces=[2])
    assert table.state["engaged"] == ["b1.1"]
    assert not [e for e in events if e["kind"] == "activation_ended"]


def test_the_odds_shown_before_a_counter_attack_follow_counter_short():
    """melee §4 [read] S11: a counter-attack "must beat the attack result by
    +2". Under ``counter_short`` "lands" the blow is stopped only by 2 more;
    under "parried" a defence reaching the attack stops it too: the odds
    offered before the counter-attack are the plain parry's."""
    from fractions import Fraction

    from rules.game.combat import parry_odds

    def offered(rulings=None):
        a = fighter_card("A", ATT=4)
        b = fighter_card("B", skills=["Contre-attaque"])
        table = melee_table([a], [b], [["a1.1", "b1.1"]], rulings=rulings)
        named = table.state["combat"]["combats"][0]["initiative_fighters"]
        for side, fighter in (("a", "a1.1"), ("b", "b1.1")):
            if named[side] is None:
                table.play(side, {"type": "initiative", "fighter": fighter})
        table.play("a", {"type": "roll"}, faces=[4, 1])
        table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
        table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
        table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
        pending = table.state["pending"]
        defence = table.state["cards"]["b1"]["profile"]["DEF"]
        return pending, defence

    pending, defence = offered()
    assert Fraction(pending["counter_odds"]["1"]) == parry_odds(4, defence, 1, 2)
    assert Fraction(pending["counter_odds"]["1"]) < Fraction(pending["odds"]["1"])
    pending, defence = offered({"counter_short": "parried"})
    assert pending["counter_odds"]["1"] == pending["odds"]["1"]
