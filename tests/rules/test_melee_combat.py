"""The combat phase by the rules (VII-C): each test quotes the line of
``rules-data/melee-sources.md`` it checks ([read] facts, and the worked
examples E1, E4, E5, E6)."""

from __future__ import annotations

from rules.game import legal_actions, waiting_for
from rules.melee import master_strike_strength
from tests.support.melee import fighter_card, melee_table


def combat(table, index=0):
    return table.state["combat"]["combats"][index]


def combat_ended(table, index=0):
    """The combat ended (VII-C-3), whatever came next (the upkeep, a turn)."""
    return index in kinds(table.events, "ended")


def kinds(events, key):
    return [e["payload"][key] for e in events if key in e["payload"]]


def initiative(table, a_fighter, b_fighter, faces):
    """Each side names its fighter, but a side with one fighter in the combat
    has no choice: the engine named it without a tap (VII-C-2)."""
    named = combat(table, table.state["combat"]["current"])["initiative_fighters"]
    for side, fighter in (("a", a_fighter), ("b", b_fighter)):
        if named[side] is None:
            table.play(side, {"type": "initiative", "fighter": fighter})
        else:
            assert named[side] == fighter
    table.play("a", {"type": "roll"}, faces=faces)


def e6_table(**kwargs):
    """E6: A (INI 3, ATT 4, DEF 3, FOR 4) alone against B1 and B2 (INI 2,
    ATT 3, DEF 2)."""
    a = fighter_card("A", INI=3, ATT=4, DEF=3, FOR=4, RES=4)
    b = fighter_card("B", 2, INI=2, ATT=3, DEF=2, FOR=3, RES=3)
    table = melee_table([a], [b], [["a1.1", "b1.1", "b1.2"]], **kwargs)
    return table


# --- VII-C-1: combat dice ------------------------------------------------------


def test_VII_C_1_a_lone_fighter_against_three_has_four_dice_and_each_of_them_two():
    """§0.1 [read]: "So a lone fighter against 3 gets 4 dice, and each of the 3
    gets 2." (S8)"""
    a = fighter_card("A")
    b = fighter_card("B", 3)
    table = melee_table([a], [b], [["a1.1", "b1.1", "b1.2", "b1.3"]])
    dice = combat(table)["dice"]
    assert dice["a1.1"] == {"total": 4, "attack": None, "defence": None}
    assert [dice[f"b1.{n}"]["total"] for n in (1, 2, 3)] == [2, 2, 2]


# --- VII-C-2: Initiative -----------------------------------------------------------


def test_VII_C_2_each_side_names_a_fighter_then_their_opposed_INI_test():
    """§2.4 [read] (S8): "Each player picks one of his fighters involved in the
    combat. These two make an Initiative test against each other." Both sides
    are waited on until both have named theirs (RULES_API)."""
    table = e6_table()
    # A has one fighter in the combat: named without a tap; B chooses.
    assert combat(table)["initiative_fighters"] == {"a": "a1.1", "b": None}
    assert waiting_for(table.state) == {"b"}
    assert not [e for e in legal_actions(table.state, "a") if e["type"] == "initiative"]
    table.refuses("a", {"type": "initiative", "fighter": "a1.1"}, "already named")
    table.refuses("b", {"type": "initiative", "fighter": "a1.1"}, "not yours")
    (entry,) = [e for e in legal_actions(table.state, "b") if e["type"] == "initiative"]
    assert entry["choices"]["fighter"] == ["b1.1", "b1.2"]
    table.play("b", {"type": "initiative", "fighter": "b1.2"})
    table.refuses("b", {"type": "initiative", "fighter": "b1.1"}, "under way")
    pending = table.state["pending"]
    assert pending["kind"] == "opposed"
    assert pending["values"] == {"a": 3, "b": 2}  # current INI, a's die first
    events = table.play("b", {"type": "roll"}, faces=[1, 2, 4, 3])  # 4-4 tie, then 7-5
    (won,) = kinds(events, "initiative_won")
    assert won == {
        "side": "a",
        "fighter": "a1.1",
        "label": "A",
        "margin": 2,
        "finals": {"a": 7, "b": 5},
        "rounds": [[4, 4], [7, 5]],  # the tie first, side A first (II-A-3)
    }
    (resolved,) = [e for e in events if e["kind"] == "opposed_resolved"]
    assert resolved["payload"]["rounds"] == [[4, 4], [7, 5]]  # a tie is rerolled


# --- VII-C-1: placement ------------------------------------------------------------


def test_VII_C_1_the_loser_places_first_then_the_winner_who_sees_it():
    """§0.2 [read]: "The loser places his dice between attack and defence
    first. The winner places his after seeing them, then strikes first." (S8)"""
    table = e6_table()
    initiative(table, "a1.1", "b1.1", [4, 1])
    assert waiting_for(table.state) == {"b"}
    table.refuses("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2}, "first")
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    assert waiting_for(table.state) == {"b"}
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 1})
    assert waiting_for(table.state) == {"a"}
    assert combat(table)["dice"]["b1.1"] == {"total": 2, "attack": 1, "defence": 1}
    table.refuses("a", {"type": "place_dice", "fighter": "a1.1", "attack": 4}, "0 to 3")
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    assert waiting_for(table.state) == {"a"}  # the winner strikes first


def test_the_placement_before_the_initiative_is_a_named_house_ruling():
    """§2.3 [conflict / open]: "The Conf'Fédé ToC (S7) puts Répartition des dés
    de combat (C-1) before Initiative (C-2)." Chosen at the game's creation."""
    table = e6_table(rulings={"placement_order": "before_initiative"})
    chosen = [e for e in table.events if "chosen" in e["payload"]][-1]
    assert chosen["payload"]["house_ruling"] == "placement_order"
    assert waiting_for(table.state) == {"a", "b"}
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 0})
    assert combat(table)["stage"] == "initiative"
    initiative(table, "a1.1", "b1.1", [1, 4])  # 4 against 6: B attacks first
    assert waiting_for(table.state) == {"b"}
    assert [e["type"] for e in legal_actions(table.state, "b")].count("attack") == 1


# --- VII-C-3, VII-C-4: E6, exchanges ---------------------------------------------


def test_E6_one_against_two_to_the_end_of_the_combat():
    """E6 (constructed from the [read] facts): "A gets 1 + 2 = 3 dice; B1 and
    B2 get 1 + 1 = 2 each. [...] A attacks first, once against each B; both his
    attack dice are spent. Each B may parry with his defence die, needing 1d6 +
    2 >= A's attack result. Then each B attacks A once. A has one defence die,
    so he can parry only one of the two attacks. Exchange 2: nobody has attack
    dice left, so the combat ends." """
    table = e6_table()
    start = len(table.events)
    initiative(table, "a1.1", "b1.1", [4, 1])  # 7 against 3: A wins
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    assert table.state["pending"]["max_dice"] == 1
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[2])  # 2 + ATT 4 = 6
    assert table.state["pending"]["difficulty"] == 6  # B1's 1d6 + 2 >= 6
    table.play("b", {"type": "roll"}, faces=[5])  # 5 + 2 = 7: parried
    # §2.5 [read] (S8): "Attacks then alternate between the sides": B's turn.
    assert waiting_for(table.state) == {"b"}
    table.refuses(
        "a", {"type": "attack", "attacker": "a1.1", "target": "b1.2"}, "side B"
    )
    table.play("b", {"type": "attack", "attacker": "b1.1", "target": "a1.1"})
    table.play("a", {"type": "parry", "dice": 1})
    table.play("b", {"type": "roll"}, faces=[3])  # 3 + 3 = 6
    table.play("a", {"type": "roll"}, faces=[3])  # 3 + 3 = 6: a tie parries
    # Each opponent once an exchange (VII-C-3).
    table.refuses(
        "a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"}, "already"
    )
    events = table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.2"})
    table.play("b", {"type": "parry", "dice": 0})
    # No defence die committed and ATT 4: the attack test cannot fail, it is
    # not asked for; the wound roll waits (RULES_API "Melee").
    certain = table.events[-1]["payload"]["attack_certain"]
    assert (certain["attacker"], certain["value"]) == ("a1.1", 4)
    assert table.state["pending"]["kind"] == "wound"
    table.play("a", {"type": "roll"}, faces=[1, 2])  # a wound roll, FOR 4 vs RES 3
    assert waiting_for(table.state) == {"b"}
    table.play("b", {"type": "attack", "attacker": "b1.2", "target": "a1.1"})
    # A has no defence die left: no parry to decide, and the attack test
    # cannot fail: the wound roll waits.
    assert table.state["pending"]["kind"] == "wound"
    table.play("b", {"type": "roll"}, faces=[1, 1])
    assert combat(table)["done"] is True
    assert combat(table)["dice"]["a1.1"] == {"total": 3, "attack": 0, "defence": 0}
    events = table.events[start:]
    attacks = kinds(events, "attack_declared")
    assert [(a["attacker"], a["target"], a["exchange"]) for a in attacks] == [
        ("a1.1", "b1.1", 1),
        ("b1.1", "a1.1", 1),
        ("a1.1", "b1.2", 1),
        ("b1.2", "a1.1", 1),
    ]
    ties = [e for e in events if e["payload"].get("house_ruling") == "parry_tie"]
    assert len(ties) == 1 and ties[0]["payload"]["success"] is True


def test_VII_C_3_a_fighter_attacks_each_opponent_once_an_exchange_then_again():
    """§2.5 [read] (S8): "A fighter with more than one attack die left and
    several opponents attacks each opponent once."; §2.5 [inferred]: exchanges
    go on until no attack dice remain. One against one with 2 attack dice: one
    attack in each of two exchanges."""
    a = fighter_card("A")
    b = fighter_card("B")
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 2})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    table.play("b", {"type": "roll"}, faces=[5, 3])  # 5 + 4 = 9: parried
    assert combat(table)["exchange"] == 2
    assert waiting_for(table.state) == {"a"}
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    assert "pending" in table.events[-1]["payload"]
    # B has no defence die and the attack test cannot fail: the wound roll.
    assert table.state["pending"]["kind"] == "wound"
    table.play("a", {"type": "roll"}, faces=[2, 3])
    assert combat_ended(table)


def test_II_A_4_an_attack_whose_final_result_is_0_or_less_fails():
    """§2.6 [read] (S1 II-A-4): "A final result ≤ 0 is an automatic failure."
    The defence dice committed were never rolled: they stay (§4 Ambidextrous:
    "keep the defence die")."""
    a = fighter_card("A", ATT=-1)
    b = fighter_card("B")
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    events = table.play("a", {"type": "roll"}, faces=[1])  # 1 + ATT -1 = 0
    resolved = [e["payload"] for e in events if e["kind"] == "test_resolved"][0]
    assert (resolved["final"], resolved["success"]) == (0, False)
    (returned,) = kinds(events, "returned")
    assert returned["dice"] == 1
    assert combat_ended(table)


def test_VII_C_4_several_defence_dice_one_result_kept():
    """§0.5 [read]: "Several defence dice can be committed to one parry." (S11,
    Counter-Attack: "the die or dice assigned to this parry"); rolled as II-A-2:
    several d6, one result kept; "Spent defence dice are lost whatever the
    outcome." (S11)"""
    table = e6_table()
    initiative(table, "a1.1", "b1.1", [1, 4])  # 4 against 6: B wins
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 0})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 1})
    table.play("b", {"type": "attack", "attacker": "b1.1", "target": "a1.1"})
    pending = table.state["pending"]
    assert pending["max_dice"] == 3
    assert list(pending["odds"]) == ["0", "1", "2", "3"]
    odds = [pending["odds"][k] for k in "0123"]
    assert odds[0] == "0/1"  # ATT 3: the attack test cannot fail
    table.play("a", {"type": "parry", "dice": 2})
    assert combat(table)["dice"]["a1.1"]["defence"] == 1
    table.play("b", {"type": "roll"}, faces=[4])  # 4 + 3 = 7
    events = table.play("a", {"type": "roll"}, faces=[1, 4])  # best 4 + 3 = 7
    resolved = [e["payload"] for e in events if e["kind"] == "test_resolved"][0]
    assert (resolved["dice"], resolved["final"], resolved["success"]) == (2, 7, True)


def test_a_parry_that_only_equals_the_attack_fails_under_the_other_ruling():
    """§6.4 (not found): "Tie on a parry: ≥ vs >." The house ruling, named."""
    table = e6_table(rulings={"parry_tie": "not_parried"})
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[1])  # 5
    events = table.play("b", {"type": "roll"}, faces=[3])  # 3 + 2 = 5: a tie
    resolved = [e["payload"] for e in events if e["kind"] == "test_resolved"][0]
    assert resolved["success"] is False
    assert resolved["house_ruling"] == "parry_tie"
    assert table.state["pending"]["kind"] == "wound"


def test_E5_an_unparried_hit_goes_to_the_wound_roll():
    """E5 (seed Ch.2): "An Alahan guard (FOR 3) hits a goblin bûshi (RES 5) who
    failed to defend. Dice 3 and 5: column 3 = abdomen; row = 5 + 3 − 5 = 3,
    the "2/3" row. Result: Blessure légère." """
    guard = fighter_card("Garde", FOR=3)
    goblin = fighter_card("Bûshi", RES=5, DEF=1)
    table = melee_table([guard], [goblin], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[4])  # 8
    table.play("b", {"type": "roll"}, faces=[2])  # 2 + 1 = 3: it fails to defend
    assert table.state["pending"]["context"]["strength"] == 3
    events = table.play("a", {"type": "roll"}, faces=[3, 5])
    (wound,) = [e["payload"] for e in events if e["kind"] == "wound_rolled"]
    assert (wound["location"], wound["row"], wound["outcome"]) == (
        "abdomen",
        3,
        "light",
    )


# --- the abilities (§4) -------------------------------------------------------------


def test_E1_master_strike_adds_the_attack_capped_at_the_printed_value_and_X():
    """E1 (S11, S12): "Kahinir the Savage has ATT 4, STR 7, Master-Strike/5. A
    spell gives him ATT+2 [...] Damage STR = 7 + 4 + 5 = 16. The ATT bonus is
    capped at the printed 4 in C3." """
    assert master_strike_strength(7, 6, 4, 5) == 16
    assert master_strike_strength(7, 3, 4, 5) == 15


def test_master_strike_spends_two_attack_dice_on_one_attack():
    """§4 [read] (S11): "Spend 2 attack dice for 1 attack, rolled on 1 die. If
    not parried, the Damage roll's STR gains the attacker's ATT at the moment
    of the test + X." E2: "he may make 1 normal attack on opponent A and group
    the other 2 dice into a Master-Strike on opponent B" in one exchange."""
    son = fighter_card("Fils d'Uren", ATT=4, FOR=7, skills=["Coup de maître/2"])
    b = fighter_card("B", 2, RES=6)
    table = melee_table([son], [b], [["a1.1", "b1.1", "b1.2"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 3})
    (entry,) = [e for e in legal_actions(table.state, "a") if e["type"] == "attack"]
    assert entry["choices"]["master_strike"] == [False, True]
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 0})
    table.play("a", {"type": "roll"}, faces=[1, 1])  # the wound roll at once
    table.play(
        "a",
        {"type": "attack", "attacker": "a1.1", "target": "b1.2", "master_strike": True},
    )
    assert combat(table)["dice"]["a1.1"]["attack"] == 0
    table.play("b", {"type": "parry", "dice": 0})
    pending = table.state["pending"]
    assert pending["kind"] == "wound"
    assert pending["context"]["strength"] == 7 + 4 + 2


def test_master_strike_needs_the_ability_and_two_dice():
    a = fighter_card("A", skills=["Coup de maître/1"])
    b = fighter_card("B")
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [1, 4])
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.refuses(
        "b",
        {"type": "attack", "attacker": "b1.1", "target": "a1.1", "master_strike": True},
        "no Coup de maître",
    )


def test_enchainement_takes_extra_dice_at_minus_two_ATT_and_DEF_each():
    """§4 [read] (S11): "At dice placement, take up to X extra combat dice. Each
    costs −2 ATT and −2 DEF for this combat only"; S5: no stat below 0."""
    a = fighter_card("A", ATT=4, DEF=3, skills=["Enchaînement/2"])
    b = fighter_card("B")
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    sequences = [
        e["choices"]["sequence"]
        for e in legal_actions(table.state, "a")
        if e["type"] == "place_dice"
    ]
    assert sequences == [[0], [1], [2]]
    table.refuses(
        "a",
        {"type": "place_dice", "fighter": "a1.1", "attack": 1, "sequence": 3},
        "0 to 2",
    )
    table.play(
        "a", {"type": "place_dice", "fighter": "a1.1", "attack": 3, "sequence": 2}
    )
    assert combat(table)["dice"]["a1.1"] == {"total": 4, "attack": 3, "defence": 1}
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    assert table.state["pending"]["value"] == 0  # ATT 4 - 2 x 2


def test_E4_war_fury_needs_more_than_half_of_the_dice_in_attack():
    """E4 (S12, Conf'Fédé): "A Griffin templar brother has 2 combat dice against
    one bûshi (1 + 1 opponent). If he places 1 in attack and 1 in defence, he
    does not qualify (not more than half in attack) and gets no extra die." """
    templar = fighter_card("Templier", skills=["Furie guerrière"])
    bushi = fighter_card("Bûshi")
    table = melee_table([templar], [bushi], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.refuses(
        "a",
        {"type": "place_dice", "fighter": "a1.1", "attack": 1, "war_fury": True},
        "more than half",
    )
    table.play(
        "a", {"type": "place_dice", "fighter": "a1.1", "attack": 2, "war_fury": True}
    )
    assert combat(table)["dice"]["a1.1"] == {"total": 3, "attack": 3, "defence": 0}


def fighting(a_skills=(), b_skills=(), a_attack=4):
    a = fighter_card("A", skills=a_skills, ATT=a_attack)
    b = fighter_card("B", skills=b_skills)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    return table


def test_counter_attack_needs_two_more_and_strikes_the_attacker_at_once():
    """§4 [read] (S11): "Announce before the attack roll [...] The parry must
    beat the attack result by +2 [...] Success: parried and +1 attack die, used
    at once against the attacker." """
    table = fighting(b_skills=["Contre-attaque"])
    counters = [
        e["choices"]
        for e in legal_actions(table.state, "b")
        if e["type"] == "parry" and e["choices"]["counter"] == [True]
    ]
    assert counters == [{"dice": [1, 2], "counter": [True]}]
    table.play("b", {"type": "parry", "dice": 1, "counter": True})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    assert table.state["pending"]["difficulty"] == 8
    events = table.play("b", {"type": "roll"}, faces=[4])  # 4 + 4 = 8: parried
    (gained,) = kinds(events, "gained")
    assert gained["ability"] == "counter" and gained["target"] == "a1.1"
    pending = table.state["pending"]
    # A placed both dice in attack: no defence die, and the attack test
    # cannot fail: the wound roll of the counter-attack waits.
    assert (pending["kind"], pending["side"]) == ("wound", "b")
    assert pending["context"]["source"] == "b1.1"
    assert pending["context"]["attack_certain"] is True


def test_a_counter_attack_short_of_two_more_does_not_parry():
    table = fighting(b_skills=["Contre-attaque"])
    table.play("b", {"type": "parry", "dice": 1, "counter": True})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    table.play("b", {"type": "roll"}, faces=[3])  # 7 < 8
    assert table.state["pending"]["kind"] == "wound"


def test_a_counter_attack_without_the_ability_is_refused():
    table = fighting()
    table.refuses("b", {"type": "parry", "dice": 1, "counter": True}, "Contre")


def test_counter_attack_against_a_failed_attack_wins_the_die_without_rolling():
    """§4 [read] (S11): "If the attack auto-fails: gain the attack die without
    rolling, but lose the dice assigned to the parry." """
    table = fighting(b_skills=["Contre-attaque"], a_attack=-1)
    table.play("b", {"type": "parry", "dice": 2, "counter": True})
    events = table.play("a", {"type": "roll"}, faces=[1])  # 1 - 1 = 0: it fails
    resolved = [e["payload"] for e in events if e["kind"] == "test_resolved"][0]
    assert resolved["success"] is False
    assert kinds(events, "gained")[0]["ability"] == "counter"
    assert combat(table)["dice"]["b1.1"]["defence"] == 0


def test_ambidextre_beating_the_attack_by_two_wins_an_attack_die():
    """§4 [read] (S11): "A successful parry that beats the attack by ≥2 also
    gives +1 attack die", resolved at once against the attacker."""
    table = fighting(b_skills=["Ambidextre"])
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[1])  # 5
    events = table.play("b", {"type": "roll"}, faces=[3])  # 7 >= 5 + 2
    assert kinds(events, "gained")[0]["ability"] == "ambidextrous"


def test_ambidextre_parrying_by_one_wins_nothing():
    table = fighting(b_skills=["Ambidextre"])
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[1])  # 5
    events = table.play("b", {"type": "roll"}, faces=[2])  # 6: parried by 1
    assert not kinds(events, "gained")


def test_acharne_killed_outright_stays_at_critical_until_the_upkeep():
    """§4 [read] (S11, S14): "Killed Outright → stays at Critical Wound until
    the next upkeep." """
    table = fighting(b_skills=["Acharné"])
    table.play("b", {"type": "parry", "dice": 0})
    events = table.play("a", {"type": "roll"}, faces=[6, 6])  # killed outright
    (wound,) = [e["payload"] for e in events if e["kind"] == "wound_rolled"]
    assert wound["outcome"] == "killed" and wound["fierce"] is True
    b = table.state["fighters"]["b1.1"]
    assert (b["eliminated"], b["steps"], b["fierce"]) == (False, 3, True)


def test_the_luck_of_the_summary_counts_the_melee_rolls():
    """The end-of-game luck counts the Initiative (opposed), the attack and the
    defence tests of a combat, each with the odds logged before it."""
    from rules.game import summarize

    table = e6_table()
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    before = summarize(table.state, table.events)["sides"]
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    table.play("b", {"type": "roll"}, faces=[5])  # 7: parried
    after = summarize(table.state, table.events)["sides"]
    assert after["a"]["tests"] == before["a"]["tests"] + 1  # the attack test
    assert after["b"]["tests"] == before["b"]["tests"] + 1  # the defence test
    assert after["b"]["successes"] == before["b"]["successes"] + 1
    resolved = [e for e in table.events if e["kind"] == "opposed_resolved"]
    assert resolved[-1]["payload"]["purpose"] == "initiative"
    assert before["a"]["tests"] >= 1 and before["b"]["tests"] >= 1


def test_ambidextre_against_a_failed_attack_keeps_or_swaps_the_defence_dice():
    """§4 [read] (S11): "If the attack auto-fails, choose: keep the defence
    die, or swap it for an attack die." """
    for swap in (False, True):
        table = fighting(b_skills=["Ambidextre"], a_attack=-1)
        table.play("b", {"type": "parry", "dice": 1})
        table.play("a", {"type": "roll"}, faces=[1])  # 0: it fails
        assert table.state["pending"]["purpose"] == "ambidextrous"
        assert waiting_for(table.state) == {"b"}
        table.refuses("a", {"type": "ambidextrous", "swap": True}, "defender")
        events = table.play("b", {"type": "ambidextrous", "swap": swap})
        if swap:
            assert kinds(events, "gained")[0]["ability"] == "ambidextrous"
        else:
            assert kinds(events, "returned")[0]["dice"] == 1
            assert combat(table)["dice"]["b1.1"]["defence"] == 2


def ended_by_a_kill():
    """A against B1 (B2 stays out of contact: the game goes on); A kills B1
    with its first attack die and still holds its second."""
    a = fighter_card("A")
    b = fighter_card("B", 2)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 0})
    table.play("a", {"type": "roll"}, faces=[6, 6])  # killed outright
    return table


def ended_without_attack_die():
    table = fighting()
    table.play("b", {"type": "parry", "dice": 2})
    table.play("a", {"type": "roll"}, faces=[2])  # 6
    table.play("b", {"type": "roll"}, faces=[5, 3])  # parried
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[2, 3])
    return table


def end_of(table):
    (end,) = [e["payload"] for e in table.events if "ended" in e["payload"]]
    return end


def test_VII_C_3_a_combat_whose_last_adversary_is_killed_ends_for_that_reason():
    """The combat ends because one side has nobody left in it, though the
    winner still holds an attack die: the event says why."""
    table = ended_by_a_kill()
    assert table.state["fighters"]["b1.1"]["eliminated"]
    end = end_of(table)
    assert end["reason"] == "no_adversary"
    assert end["combat"]["combats"][0]["dice"]["a1.1"]["attack"] == 1


def test_VII_C_3_a_combat_with_no_attack_die_left_says_so():
    assert end_of(ended_without_attack_die())["reason"] == "no_attack_die"


# --- choices with one option: made by the engine, without a tap ---------------------


def test_a_lone_fighter_is_named_and_the_last_combat_chosen_without_a_tap():
    """VII-B, VII-C-2: a side with one fighter in the combat names it without
    a tap, and the only combat left is fought without the picker's tap; the
    events say it was automatic, and legal_actions offers no such command."""
    a = fighter_card("A", 2)
    b = fighter_card("B", 2)
    table = melee_table([a], [b], [["a1.1", "b1.1"], ["a1.2", "b1.2"]])
    # Two combats: the picker has a real choice.
    (pick,) = [
        e for e in legal_actions(table.state, "a") if e["type"] == "choose_combat"
    ]
    assert pick["choices"]["combat"] == [0, 1]
    events = table.play("a", {"type": "choose_combat", "combat": 0})
    named = kinds(events, "initiative_named")
    assert [(n["side"], n["fighter"]) for n in named] == [("a", "a1.1"), ("b", "b1.1")]
    assert all(n["automatic"] for n in named)
    assert table.state["pending"]["purpose"] == "initiative"
    for side in "ab":
        assert not [
            e for e in legal_actions(table.state, side) if e["type"] == "initiative"
        ]
    table.play("a", {"type": "roll"}, faces=[4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    events = table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 0})
    assert kinds(events, "ended") == [0]
    # Combat 2 is the only one left: chosen for side B, without its tap.
    (chosen,) = [e["payload"] for e in events if "chosen" in e["payload"]]
    assert (chosen["chosen"], chosen["automatic"]) == (1, True)
    assert table.state["combat"]["current"] == 1
    assert not [
        e for e in legal_actions(table.state, "b") if e["type"] == "choose_combat"
    ]
    assert [n["fighter"] for n in kinds(events, "initiative_named")] == ["a1.2", "b1.2"]
    assert table.state["pending"]["purpose"] == "initiative"


def test_a_side_with_a_choice_still_names_its_fighter():
    """The command stays a legal one whenever a side has a real choice."""
    table = e6_table()
    (entry,) = [e for e in legal_actions(table.state, "b") if e["type"] == "initiative"]
    assert entry == {"type": "initiative", "choices": {"fighter": ["b1.1", "b1.2"]}}
    events = table.play("b", {"type": "initiative", "fighter": "b1.1"})
    (named,) = kinds(events, "initiative_named")
    assert "automatic" not in named
