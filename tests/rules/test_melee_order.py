"""The order of attacks, the rolls that decide nothing, and pursuit (VII-C):
each test quotes the line of ``rules-data/melee-sources.md`` it checks."""

from __future__ import annotations

from fractions import Fraction

from rules.game import choice_odds, legal_actions, replay, waiting_for
from rules.game.combat import blow_lands_choice
from tests.rules.test_melee_combat import combat, initiative, kinds
from tests.support.melee import fighter_card, melee_table


def one_against_two(**profile):
    """A alone against B1 and B2; B wins the Initiative."""
    a = fighter_card("A", ATT=4, DEF=3, FOR=3, RES=9, **profile)
    b = fighter_card("B", 2, ATT=3, DEF=2, FOR=3, RES=9)
    table = melee_table([a], [b], [["a1.1", "b1.1", "b1.2"]])
    initiative(table, "a1.1", "b1.1", [1, 5])  # 1 + 3 against 5 + 3: B
    return table


def attack(table, side, attacker, target):
    table.play(side, {"type": "attack", "attacker": attacker, "target": target})


def attack_order(table):
    return [
        (a["attacker"], a["target"]) for a in kinds(table.events, "attack_declared")
    ]


def take_blow(table, side):
    """The target takes the blow: no parry asked (no defence die) or 0 dice,
    then the wound roll (RES 9: nothing)."""
    if table.state["pending"]["kind"] == "choice":
        table.play(side, {"type": "parry", "dice": 0})
    assert table.state["pending"]["kind"] == "wound"
    attacker_side = "b" if side == "a" else "a"
    table.play(attacker_side, {"type": "roll"}, faces=[1, 1])


# --- §2.5: the sides alternate, one attack each --------------------------------------


def test_2_5_in_one_against_two_the_sides_alternate_one_attack_each():
    """§2.5 [read] (S8): "The initiative winner's side attacks first. Attacks
    then alternate between the sides." B (Initiative) and A alternate: B1, A,
    B2, A, not B1, B2 before A replies (issue #31)."""
    table = one_against_two()
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 3})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 2})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 2})
    assert waiting_for(table.state) == {"b"}
    attack(table, "b", "b1.1", "a1.1")
    take_blow(table, "a")
    assert waiting_for(table.state) == {"a"}
    table.refuses("b", {"type": "attack", "attacker": "b1.2", "target": "a1.1"}, "A")
    attack(table, "a", "a1.1", "b1.1")
    take_blow(table, "b")
    attack(table, "b", "b1.2", "a1.1")
    take_blow(table, "a")
    attack(table, "a", "a1.1", "b1.2")
    take_blow(table, "b")
    # Exchange 2: B's side opens it again (each exchange as the first).
    assert combat(table)["exchange"] == 2
    assert waiting_for(table.state) == {"b"}
    assert attack_order(table) == [
        ("b1.1", "a1.1"),
        ("a1.1", "b1.1"),
        ("b1.2", "a1.1"),
        ("a1.1", "b1.2"),
    ]


def test_2_5_a_side_with_no_attack_left_lets_the_other_go_on_alone():
    """RULES_API "Melee": "a side with no attack left lets the other go on
    alone" (§2.5 [read]: "A fighter who still has an attack die must
    attack"): A placed one attack die; after its attack B attacks twice."""
    table = one_against_two()
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 1})
    attack(table, "b", "b1.1", "a1.1")
    table.play("a", {"type": "parry", "dice": 0})
    table.play("b", {"type": "roll"}, faces=[1, 1])
    attack(table, "a", "a1.1", "b1.1")
    take_blow(table, "b")
    assert waiting_for(table.state) == {"b"}  # A has no attack die left
    attack(table, "b", "b1.2", "a1.1")
    assert attack_order(table)[-1] == ("b1.2", "a1.1")


# --- no tap for a roll that decides nothing -----------------------------------------


def test_an_attack_test_that_cannot_fail_is_not_asked_for_and_the_log_says_why():
    """§2.6 [read] (S8): the attack test is "1d6 + current ATT. There is no
    fixed difficulty to reach"; II-A-4: only a final result of 0 or less
    fails. With ATT 3 and no defence die committed it cannot fail: no roll,
    no six to reroll or keep; the wound roll waits, the event says why."""
    table = one_against_two()
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 3})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 2})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 2})
    events = table.play("b", {"type": "attack", "attacker": "b1.1", "target": "a1.1"})
    # A has no defence die: no parry to decide either.
    (certain,) = kinds(events, "attack_certain")
    assert certain["attacker"] == "b1.1" and certain["value"] == 3
    assert certain["odds"] == "1/1" and certain["section"] == "VII-C-4, II-A-4"
    assert table.state["pending"]["kind"] == "wound"
    assert not any(e["kind"] == "dice_drawn" for e in events)  # no die rolled


def test_a_parry_that_cannot_fail_is_not_rolled():
    """§2.6 [inferred]: "a normal parry needs >= the attack's final result";
    DEF 4 against an attack of 5 cannot fail (1d6 + 4 >= 5): no defence
    roll, the combat goes on, the event says what the parry needed."""
    a = fighter_card("A", ATT=3, DEF=3)
    b = fighter_card("B", ATT=3, DEF=4)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 1})
    events = table.play("a", {"type": "roll"}, faces=[2])  # 2 + 3 = 5
    (certain,) = kinds(events, "parry_certain")
    assert (certain["needed"], certain["value"], certain["bonus"]) == (5, 4, None)
    assert table.state["pending"] is None
    assert waiting_for(table.state) == {"b"}  # B's attack now


def test_an_ambidextre_parry_is_still_rolled_when_its_margin_is_not_certain():
    """§4 [read] (S11) Ambidextrous: a parry beating the attack by 2 or more
    wins an attack die: the margin still decides something."""
    a = fighter_card("A", ATT=3, DEF=3)
    b = fighter_card("B", ATT=3, DEF=4, skills=["Ambidextre"])
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[2])  # 5: parried, +2 not certain
    assert table.state["pending"]["purpose"] == "defence"


def test_a_six_against_a_committed_parry_shows_the_chance_the_blow_lands():
    """II-A-1: a six may be rerolled and added, a '1' then makes the natural
    1. The attack test cannot fail any more: the choice shows the chance the
    blow lands past the parry, kept 83,3 %, rerolled 76,4 % (issue #31)."""
    keep, reroll = blow_lands_choice(4, 6, 4, 1, 0)
    assert keep == Fraction(5, 6)
    assert round(float(reroll), 3) == 0.764
    a = fighter_card("A", ATT=4, DEF=3)
    b = fighter_card("B", ATT=3, DEF=4)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[6])
    odds = choice_odds(table.state["pending"])
    assert odds["lands"] is True
    assert odds["keep"] == "5/6" and odds["best"] == "keep"
    assert Fraction(odds["reroll"]) == reroll


def test_a_placement_forced_all_in_defence_is_made_without_a_tap():
    """§2.0 [read] (S3): "On failure, all combat dice go in defence this
    turn"; with no choice left the placement is made by the game, saying
    why; a fighter with Enchaînement still chooses its extra dice."""
    a = fighter_card("A", COU=1)
    b = fighter_card("B")
    table = melee_table(
        [a], [b], [["a1.1", "b1.1"]], rulings={"cannot_flee": "all_defence"}
    )
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    events = table.play("a", {"type": "roll"}, faces=[1, 5])  # B wins
    (placed,) = kinds(events, "placed")
    assert (placed["forced"], placed["automatic"], placed["attack"]) == (
        "routed",
        True,
        0,
    )
    assert waiting_for(table.state) == {"b"}

    seq = fighter_card("A", COU=1, skills=["Enchaînement/1"])
    table = melee_table([seq], [b], [["a1.1", "b1.1"]])
    table.play("a", {"type": "set_routed", "fighter": "a1.1", "routed": True})
    table.play("a", {"type": "roll"}, faces=[1, 5])
    assert waiting_for(table.state) == {"a"}  # how many extra dice: a choice


# --- §2.8: pursuit -------------------------------------------------------------------


def two_combats():
    a = fighter_card("A", 2, ATT=4, FOR=9)
    b = fighter_card("B", 2, RES=3)
    table = melee_table([a], [b], [["a1.1", "b1.1"], ["a1.2", "b1.2"]], seed="pursuit")
    table.play("a", {"type": "choose_combat", "combat": 0})
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 0})
    events = table.play("a", {"type": "roll"}, faces=[6, 6])  # killed outright
    return table, events


def test_2_8_the_freed_fighter_is_named_and_may_join_a_combat_still_to_fight():
    """§2.8 [read] (S2, S11, S12): "A pursuit move can bring a fighter into
    another fray in the same phase"; [inferred]: "a fighter becomes eligible
    to pursue when his opponents are removed [...] The new fights join the
    list of combats still to resolve." The last combat is not taken at once:
    the players have time to record the pursuit."""
    table, events = two_combats()
    (end,) = [e["payload"] for e in events if "ended" in e["payload"]]
    assert end["free"] == ["a1.1"] and end["free_labels"] == ["A 1"]
    assert table.state["combat"]["current"] is None  # not taken without a tap
    (entry,) = [e for e in legal_actions(table.state, "a") if e["type"] == "pursue"]
    assert entry == {
        "type": "pursue",
        "fighter": "a1.1",
        "choices": {"target": ["b1.2"]},
    }
    table.refuses("a", {"type": "pursue", "fighter": "a1.2", "target": "b1.2"}, "freed")
    table.refuses("a", {"type": "pursue", "fighter": "a1.1", "target": "b1.1"}, "elim")
    events = table.play("a", {"type": "pursue", "fighter": "a1.1", "target": "b1.2"})
    (pursued,) = kinds(events, "pursued")
    assert pursued["fighters"] == ["b1.2", "a1.2", "a1.1"]
    joined = combat(table, 1)
    assert (joined["one"], joined["many"]) == ("b1.2", ["a1.2", "a1.1"])
    assert joined["dice"]["b1.2"]["total"] == 3  # 1 + 2 opponents (VII-C-1)
    assert ["a1.1", "b1.2"] in table.state["contacts"]
    assert not [e for e in legal_actions(table.state, "a") if e["type"] == "pursue"]
    table.play("b", {"type": "choose_combat", "combat": 1})
    assert combat(table, 1)["stage"] == "initiative"
    table.refuses("a", {"type": "pursue", "fighter": "a1.1", "target": "b1.2"}, "under")


def test_2_8_a_pursuit_never_makes_several_against_several():
    """IV-C: a combat is one against one or one against several. A freed
    fighter cannot join a combat where it would stand beside an ally against
    several; it may reach an enemy in no combat (a new combat)."""
    a = fighter_card("A", 3, ATT=4, FOR=9)
    b = fighter_card("B", 4, RES=3)
    table = melee_table(
        [a],
        [b],
        [["a1.1", "b1.1"], ["a1.2", "b1.2", "b1.3"]],
        seed="pursuit",
    )
    table.play("a", {"type": "choose_combat", "combat": 0})
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 0})
    table.play("a", {"type": "roll"}, faces=[6, 6])  # killed outright
    (entry,) = [e for e in legal_actions(table.state, "a") if e["type"] == "pursue"]
    # b1.2 and b1.3 face a1.2 together: joining them would be 2 against 2;
    # b1.4 is in no combat: a new one.
    assert entry["choices"]["target"] == ["b1.4"]
    table.refuses(
        "a", {"type": "pursue", "fighter": "a1.1", "target": "b1.2"}, "never several"
    )
    events = table.play("a", {"type": "pursue", "fighter": "a1.1", "target": "b1.4"})
    (pursued,) = kinds(events, "pursued")
    assert pursued["combat"] == 2 and pursued["fighters"] == ["a1.1", "b1.4"]
    assert combat(table, 2)["dice"]["a1.1"]["total"] == 2


def test_2_8_under_the_ruling_none_nobody_pursues():
    """The house ruling "pursuit": "none" (melee-sources §6: pursuit's
    distance and eligibility were not found): no pursuit is offered, the
    last combat is taken at once."""
    a = fighter_card("A", 2, ATT=4, FOR=9)
    b = fighter_card("B", 2, RES=3)
    table = melee_table(
        [a],
        [b],
        [["a1.1", "b1.1"], ["a1.2", "b1.2"]],
        rulings={"pursuit": "none"},
        seed="pursuit",
    )
    table.play("a", {"type": "choose_combat", "combat": 0})
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 0})
    events = table.play("a", {"type": "roll"}, faces=[6, 6])
    (end,) = [e["payload"] for e in events if "ended" in e["payload"]]
    assert end["free"] == ["a1.1"] and end["pursuit"] == "none"
    assert table.state["combat"]["current"] == 1  # taken without a tap
    assert not [e for e in legal_actions(table.state, "a") if e["type"] == "pursue"]
    table.refuses(
        "a", {"type": "pursue", "fighter": "a1.1", "target": "b1.2"}, "under way"
    )


# --- §2.5: which side opens the later exchanges (house ruling) ------------------------


def b_alone_against_two(rulings=None):
    """B alone against A1 and A2; B wins the Initiative; B puts its 3 dice in
    attack, A1 2 of 2, A2 none. Exchange 1 is B, A1, B: B attacked last."""
    a = fighter_card("A", 2, ATT=3, DEF=2, FOR=3, RES=9)
    b = fighter_card("B", ATT=4, DEF=3, FOR=3, RES=9)
    table = melee_table([a], [b], [["b1.1", "a1.1", "a1.2"]], rulings=rulings)
    initiative(table, "a1.1", "b1.1", [1, 5])  # 1 + 3 against 5 + 3: B
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    table.play("a", {"type": "place_dice", "fighter": "a1.2", "attack": 0})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 3})
    attack(table, "b", "b1.1", "a1.1")
    take_blow(table, "a")
    attack(table, "a", "a1.1", "b1.1")
    take_blow(table, "b")
    attack(table, "b", "b1.1", "a1.2")
    take_blow(table, "a")
    assert combat(table)["exchange"] == 2
    return table


def exchange_line(table):
    return [
        e["payload"]
        for e in table.events
        if e["kind"] == "combat_updated" and "exchange" in e["payload"]
    ][-1]


def test_2_5_the_initiative_winner_opens_each_exchange_by_default_a_named_ruling():
    """§2.5 [read] (S8): "The initiative winner's side attacks first. Attacks
    then alternate between the sides": the sources say nothing of the later
    exchanges. Default of ``exchange_opener``: the winner's side opens again
    (B after B), and the event names the ruling that decided it."""
    table = b_alone_against_two()
    assert waiting_for(table.state) == {"b"}
    line = exchange_line(table)
    assert line["opener"] == "b" and line["house_ruling"] == "exchange_opener"


def test_2_5_the_alternation_may_go_on_across_exchanges():
    """``exchange_opener`` "alternation_goes_on": after B's last attack of
    exchange 1, A opens exchange 2 ("attacks then alternate", S8)."""
    table = b_alone_against_two({"exchange_opener": "alternation_goes_on"})
    assert waiting_for(table.state) == {"a"}
    line = exchange_line(table)
    assert line["opener"] == "a" and line["house_ruling"] == "exchange_opener"
    attack(table, "a", "a1.1", "b1.1")
    take_blow(table, "b")
    assert waiting_for(table.state) == {"b"}


def test_the_exchange_opener_ruling_is_not_named_when_one_side_alone_can_attack():
    """Only the side holding an attack die can open: the ruling decides
    nothing and the event does not name it."""
    table = one_against_two()
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 2})
    table.play("b", {"type": "place_dice", "fighter": "b1.2", "attack": 0})
    attack(table, "b", "b1.1", "a1.1")
    table.play("a", {"type": "parry", "dice": 0})
    table.play("b", {"type": "roll"}, faces=[1, 1])
    attack(table, "a", "a1.1", "b1.1")
    take_blow(table, "b")
    line = exchange_line(table)
    assert line["opener"] == "b" and "house_ruling" not in line


def test_the_exchange_opener_ruling_says_the_sources_are_silent():
    """Its reason says truly that the sources do not give it (basis "none")."""
    from rules.melee import HOUSE_RULINGS

    opener = HOUSE_RULINGS["exchange_opener"]
    assert opener.basis == "none" and opener.default == "initiative_winner"
    assert opener.reason.startswith("Not found in the sources")


def test_a_six_that_already_makes_an_unparried_attack_succeed_is_kept_without_a_tap():
    """§2.6 [read] (S8): "1d6 + current ATT. There is no fixed difficulty";
    II-A-4: 0 or less fails. With ATT -3 the test is rolled; a six gives 3:
    it succeeds, no parry waits (only success counts), and rerolling could
    only risk a failure (II-A-1: keep 1, reroll 5/6): kept, no question."""
    a = fighter_card("A", ATT=-3)
    b = fighter_card("B", RES=9)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 2})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    attack(table, "a", "a1.1", "b1.1")  # B has no defence die: no parry asked
    events = table.play("a", {"type": "roll"}, faces=[6])
    kept = [e["payload"] for e in events if e["payload"].get("automatic")]
    assert kept and kept[0]["automatic"] == "attack_succeeds"
    assert kept[0]["reroll"] is False
    (resolved,) = [e["payload"] for e in events if e["kind"] == "test_resolved"]
    assert (resolved["final"], resolved["success"]) == (3, True)
    assert table.state["pending"]["kind"] == "wound"
    assert table.state == replay(table.events)


def test_a_six_against_a_parry_is_still_asked_with_a_negative_attack():
    """Against a committed parry the result's size matters (the defence must
    reach it): the six's question stays, showing the chance the blow lands."""
    a = fighter_card("A", ATT=-3)
    b = fighter_card("B", RES=9)
    table = melee_table([a], [b], [["a1.1", "b1.1"]])
    initiative(table, "a1.1", "b1.1", [4, 1])
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    attack(table, "a", "a1.1", "b1.1")
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[6])
    assert choice_odds(table.state["pending"])["lands"] is True
