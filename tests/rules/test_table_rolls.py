"""Any test the rules call for, rolled in the game (II-A), the scatter (II-C-5),
lasting effects and the upkeep (II-C-3, IV-D)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as hs

from rules import odds
from rules.dice import ScriptedDice
from rules.game import choice_odds, replay, summarize
from rules.several_dice import DiceTest, dice_test_choice, dice_test_success
from tests.support.magic_table import magic_table
from tests.support.table import Table, card, declaration, setup


def of_kind(events, kind):
    """The last event of that kind among an action's events."""
    return next(e for e in reversed(events) if e["kind"] == kind)


def to_activation(table, first="a"):
    """Sequences in card order, side A wins the Tactics roll."""
    for side in ("a", "b"):
        table.play(
            side,
            {"type": "set_sequence", "order": table.state["sides"][side]["cards"]},
        )
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[3, 4])
    table.play("a", {"type": "choose_first", "first": first})


def fearsome_setup():
    """Side B holds a fighter with PEUR 6 (and no COU, as fearsome cards print)."""
    game_setup = setup()
    beast = card("Béhémoth", PEUR=6, COU=None)
    game_setup["sides"]["b"]["cards"].append(beast)
    return game_setup


def magistrat_charges(target):
    """Against the fearsome set-up, side A's Magistrat a1.1 charges ``target``."""
    table = Table(fearsome_setup())
    to_activation(table)
    table.play("a", {"type": "draw", "action": "draw"})
    table.play("a", declaration("a1.1", "charge", target))
    return table


def a_test(fighter="a1.1", **fields):
    return {"type": "characteristic_test", "fighter": fighter, **fields}


# --- II-A-3: a test against a difficulty --------------------------------------


def test_II_A_3_a_test_of_any_characteristic_waits_with_its_exact_odds():
    """II-A-3 1): "obtenir un résultat final supérieur ou égal à un seuil donné
    appelé difficulté"."""
    table = Table()
    table.play(
        "a",
        a_test(characteristic="DIS", difficulty=9, use="spell", label="x"),
    )
    pending = table.state["pending"]
    assert pending["kind"] == "check"
    assert pending["value"] == 6
    assert Fraction(pending["odds"]) == odds.test_success(6, 9)
    assert pending["context"]["use"] == "spell"


def test_II_A_3_the_roll_is_logged_with_its_purpose_and_section():
    table = Table()
    table.play("a", a_test(characteristic="DIS", difficulty=9))
    events = table.play("a", {"type": "roll"}, faces=[3])
    resolved = of_kind(events, "test_resolved")
    assert resolved["kind"] == "test_resolved"
    assert resolved["payload"]["final"] == 9
    assert resolved["payload"]["success"] is True
    assert resolved["payload"]["section"] == "II-A-3"
    assert resolved["payload"]["faces"] == [3]
    assert table.state["pending"] is None


def test_II_A_4_the_current_value_carries_the_wound_penalty_and_the_modifier():
    """II-A-4: "valeur de la carte de référence + les différents bonus/malus"."""
    table = Table()
    table.state["fighters"]["a1.1"]["steps"] = 2  # a serious wound: -2
    table.play("a", a_test(characteristic="ATT", difficulty=7, modifier=1))
    assert table.state["pending"]["value"] == 4 - 2 + 1
    assert table.state["pending"]["context"]["current"] == 2


def test_II_A_1_a_six_waits_for_the_players_choice_with_both_odds():
    """II-A-1: "'6' : Il est possible de relancer immédiatement le dé"."""
    table = Table()
    table.play("a", a_test(characteristic="DIS", difficulty=14))
    table.play("a", {"type": "roll"}, faces=[6])
    choice = choice_odds(table.state["pending"])
    assert Fraction(choice["keep"]) == 0
    assert Fraction(choice["reroll"]) == odds.six_choice(6, 14, 6).reroll
    table.refuses("b", {"type": "reroll"}, "Side A")
    events = table.play("a", {"type": "reroll"}, faces=[1])
    # II-A-1: "Le résultat naturel vaut 1, même si le '1' est obtenu après la
    # relance d'un '6'".
    assert of_kind(events, "test_resolved")["payload"]["natural"] == 1
    assert of_kind(events, "test_resolved")["payload"]["success"] is False


def test_II_A_2_several_dice_keep_one_result_and_lose_the_dice_not_rerolled():
    """II-A-2's example: '1', '4', '6', '6'; both sixes rerolled to '1' and '1':
    "son résultat final est de '1' car le '4' précédent a été perdu"."""
    table = Table()
    table.play("a", a_test(characteristic="ATT", difficulty=20, dice=4))
    assert table.state["pending"]["section"] == "II-A-2"
    table.play("a", {"type": "roll"}, faces=[1, 4, 6, 6])
    events = table.play("a", {"type": "reroll"}, faces=[1, 1])
    assert of_kind(events, "test_resolved")["payload"]["natural"] == 1
    assert of_kind(events, "test_resolved")["payload"]["throws"] == [
        [1, 4, 6, 6],
        [1, 1],
    ]


def test_II_A_2_the_example_with_1_and_3_on_the_reroll_gives_9():
    roll = DiceTest.start(0, 30, 4, ScriptedDice([1, 4, 6, 6]))
    roll = roll.decide(True, ScriptedDice([1, 3]))
    assert roll.natural == 9


def test_II_A_2_one_die_has_the_odds_of_a_single_test():
    for value in range(-2, 7):
        for difficulty in range(1, 16):
            assert dice_test_success(value, difficulty, 1) == odds.test_success(
                value, difficulty
            )


def test_II_A_2_more_dice_never_lower_the_odds():
    for difficulty in range(2, 16):
        chances = [dice_test_success(3, difficulty, n) for n in range(1, 5)]
        assert chances == sorted(chances)


@settings(max_examples=30, deadline=None)
@given(
    value=hs.integers(-3, 6),
    difficulty=hs.integers(1, 18),
    count=hs.integers(1, 3),
    faces=hs.lists(hs.integers(1, 6), min_size=12, max_size=12),
)
def test_II_A_2_a_six_choice_is_the_weighted_mean_of_its_outcomes(
    value, difficulty, count, faces
):
    """Whatever the throw, rerolling a six offers the odds the engine shows."""
    roll = DiceTest.start(value, difficulty, count, ScriptedDice(faces))
    if roll.awaiting_choice:
        choice = dice_test_choice(roll)
        assert 0 <= choice.reroll <= 1
        assert choice.keep in (0, 1)


def test_II_A_3_an_opposed_test_is_answered_by_the_opponents_phone():
    """II-A-3 2): "Les joueurs lancent chacun 1d6 et ajoutent au résultat la
    valeur de la caractéristique à tester"."""
    table = Table()
    table.play(
        "a",
        a_test(characteristic="INI", opponent="b1.1", use="other"),
    )
    pending = table.state["pending"]
    assert pending["kind"] == "opposed" and pending["side"] == "b"
    assert Fraction(pending["odds"]) == odds.opposed_win(4, 4)
    table.refuses("a", {"type": "roll"}, "Side B")
    # 3 + 4 against 5 + 4: a tie is rolled again, then 5 + 4 against 2 + 4.
    events = table.play("b", {"type": "roll"}, faces=[3, 3, 5, 2])
    assert of_kind(events, "opposed_resolved")["payload"]["winner"] == "a"
    assert of_kind(events, "opposed_resolved")["payload"]["rounds"] == [[7, 7], [9, 6]]
    assert table.state["pending"] is None


def test_II_A_bad_input_changes_nothing():
    table = Table()
    table.refuses("a", a_test(characteristic="POU", difficulty=7), "no POU")
    table.refuses("a", a_test(characteristic="XYZ", difficulty=7), "Choose")
    table.refuses("a", a_test(characteristic="DIS", difficulty=0), "1 to 30")
    table.refuses("a", a_test(characteristic="DIS", difficulty=31), "1 to 30")
    table.refuses(
        "a",
        a_test(characteristic="DIS", difficulty=7, modifier=11),
        "modifier",
    )
    table.refuses("a", a_test(characteristic="DIS", difficulty=7, dice=6), "1 to 5")
    table.refuses("a", a_test("b1.1", characteristic="DIS", difficulty=7), "not yours")
    table.refuses("a", a_test(characteristic="DIS"), "difficulty")
    table.refuses("a", a_test(characteristic="DIS", opponent="a2.1"), "adversary")
    table.state["fighters"]["a2.1"]["eliminated"] = True
    table.refuses("a", a_test("a2.1", characteristic="TIR", difficulty=7), "eliminated")


def test_II_A_1_a_courage_test_the_dice_cannot_miss_is_passed_without_a_roll():
    """II-A-1: "le test n'est alors pas un échec automatique" on a '1': COU 5
    against 6 passes on any die (5 + 1 >= 6); a Courage test only passes or
    fails, so nothing is rolled and no die is drawn (faces=[])."""
    table = Table()
    events = table.play(
        "a", a_test(characteristic="COU", difficulty=6, use="courage"), faces=[]
    )
    (certain,) = [e for e in events if e["kind"] == "test_certain"]
    assert certain["payload"]["value"] == 5
    assert certain["payload"]["difficulty"] == 6
    assert certain["payload"]["odds"] == "1/1"
    assert certain["payload"]["section"] == "II-A-1"
    assert certain["payload"]["context"]["fighter"] == "a1.1"
    assert table.state["pending"] is None
    assert replay(table.events) == table.state


def test_II_A_1_a_rally_test_the_dice_cannot_miss_is_passed_without_a_roll():
    table = Table()
    events = table.play(
        "a", a_test(characteristic="COU", difficulty=4, use="rally"), faces=[]
    )
    assert [e["kind"] for e in events] == ["test_certain"]


def test_II_A_3_a_courage_test_the_dice_can_miss_waits_for_its_roll():
    """COU 5 against 7: a '1' fails (5 + 1 < 7), so the roll is asked."""
    table = Table()
    table.play("a", a_test(characteristic="COU", difficulty=7, use="courage"))
    assert table.state["pending"]["kind"] == "check"
    assert Fraction(table.state["pending"]["odds"]) == Fraction(5, 6)


def test_II_A_1_a_certain_test_typed_at_the_table_for_a_spell_or_a_skill_is_rolled():
    """A test typed at the table for a spell, a miracle (not cast from the
    list: test_magic_game), a skill or another use may count by its final
    result, which the app does not know the use of (the natural 1 ruling of
    X, XI is not applied to it either): even a certain one waits for its
    roll."""
    for use in ("spell", "miracle", "skill", "other"):
        table = Table()
        table.play("a", a_test(characteristic="DIS", difficulty=3, use=use))
        assert table.state["pending"]["odds"] == "1/1", use


def test_a_spell_or_miracle_test_typed_at_the_table_follows_the_natural_one_ruling():
    """A power or faith test typed at the table is one all the same: under
    C3's ruling a natural 1 fails it (odds and outcome), under CF's it does
    not (X, XI: rules.magic's ``natural_one``)."""
    # The Magicien's POU 5 against 6, the Prêtre's FOI 4 against 5: only a
    # natural 1 could fail them.
    tests = (("spell", "a1.1", "POU", 6), ("miracle", "a2.1", "FOI", 5))
    for use, fighter, characteristic, difficulty in tests:
        for ruling, expected, success in (
            ("no_automatic_failure", "1/1", True),
            ("fails", "5/6", False),
        ):
            table = magic_table(natural_one=ruling)
            command = a_test(
                fighter, characteristic=characteristic, difficulty=difficulty
            )
            table.play("a", {**command, "use": use})
            assert table.state["pending"]["odds"] == expected, (use, ruling)
            events = table.play("a", {"type": "roll"}, faces=[1])
            resolved = next(e for e in events if e["kind"] == "test_resolved")
            assert resolved["payload"]["success"] is success, (use, ruling)
            assert replay(table.events) == table.state


@settings(max_examples=80, deadline=None)
@given(
    modifier=hs.integers(-10, 10),
    difficulty=hs.integers(1, 30),
    dice=hs.integers(1, 5),
    use=hs.sampled_from(["courage", "rally"]),
)
def test_a_pass_or_fail_test_is_rolled_exactly_when_the_dice_can_miss(
    modifier, difficulty, dice, use
):
    """No roll is asked that cannot change what follows, and none is skipped
    that could: certain (P = 1) means recorded, anything less means waiting."""
    table = Table()
    command = a_test(
        characteristic="COU",
        difficulty=difficulty,
        dice=dice,
        modifier=modifier,
        use=use,
    )
    events = table.play("a", command, faces=[])
    certain = dice_test_success(5 + modifier, difficulty, dice) == 1
    assert [e["kind"] for e in events] == (
        ["test_certain"] if certain else ["pending_set"]
    )
    assert (table.state["pending"] is None) is certain


def test_the_luck_counts_the_characteristic_tests():
    table = Table()
    table.play("a", a_test(characteristic="DIS", difficulty=9))
    table.play("a", {"type": "roll"}, faces=[3])
    luck = summarize(table.state, table.events)["sides"]["a"]
    assert luck["tests"] == 1 and luck["successes"] == 1
    assert luck["expected"] == float(odds.test_success(6, 9))


# --- the Courage test offered against PEUR (table convention, IX) -------------


def test_a_certain_courage_test_is_recorded_without_a_roll():
    """IX (melee-sources.md §3): the Magistrat (COU 5) charges a PEUR 6 beast:
    1d6 + 5 >= 6 cannot fail, so the test is recorded, not rolled."""
    table = magistrat_charges("b2.1")
    assert table.state["pending"] is None
    (certain,) = [e for e in table.events if e["kind"] == "courage_certain"]
    assert certain["payload"]["fear"] == 6
    assert certain["payload"]["courage"] == 5
    assert certain["payload"]["odds"] == "1/1"
    table.play("a", {"type": "end_activation"})


def test_a_charge_against_a_fighter_without_PEUR_offers_nothing():
    table = magistrat_charges("b1.1")
    assert table.state["pending"] is None


# --- II-C-5: the scatter ------------------------------------------------------


def test_II_C_5_the_scatter_rolls_the_distance_then_the_direction():
    """II-C-5: "'3' : Le point d'impact est décalé de 8cm" then "un autre d6
    pour déterminer la direction"."""
    table = Table()
    events = table.play("b", {"type": "scatter", "label": "Boulet"}, faces=[3, 5])
    payload = of_kind(events, "scatter_rolled")["payload"]
    assert payload["distance_cm"] == 8
    assert payload["direction"] == 5
    assert payload["faces"] == [3, 5]
    assert payload["section"] == "II-C-5"
    table.refuses("b", {"type": "scatter"}, "2 dice", faces=[3])


# --- IV-D: the upkeep, per side; lasting effects -------------------------------


def _to_upkeep(table):
    """Play a quick turn: everybody draws and passes, no combat."""
    to_activation(table)
    while table.state["phase"] == "activation":
        speaker = table.state["draw"]["speaker"]
        table.play(speaker, {"type": "draw", "action": "draw"})
        table.play(speaker, {"type": "end_activation"})
    assert table.state["phase"] != "combat"  # nobody in contact


def test_IV_D_each_side_ticks_its_own_fighters_items_and_either_the_markers():
    table = Table()
    table.play("a", {"type": "set_routed", "fighter": "a2.1", "routed": True})
    table.play("b", {"type": "set_routed", "fighter": "b1.1", "routed": True})
    _to_upkeep(table)
    items = table.state["upkeep"]["items"]
    assert items[0]["key"].startswith("rally:") and items[0]["side"] == "a"
    table.refuses(
        "b", {"type": "tick_upkeep", "key": items[0]["key"], "difficulty": 7}, "Side A"
    )


def test_IV_D_1_the_rally_is_a_courage_test_rolled_in_the_game():
    """IV-D-1: "les combattants en déroute ont une chance de se reprendre à la
    fin de chaque tour"; its difficulty (IX-E, not found) is the house ruling
    ``rally_difficulty`` agreed at the game's creation, never typed."""
    game_setup = setup()
    game_setup["house_rulings"] = {"rally_difficulty": "7"}
    table = Table(game_setup)
    table.play("a", {"type": "set_routed", "fighter": "a2.1", "routed": True})
    _to_upkeep(table)
    key = table.state["upkeep"]["items"][0]["key"]
    table.play("a", {"type": "tick_upkeep", "key": key, "difficulty": 2})
    pending = table.state["pending"]
    assert pending["context"]["use"] == "rally"
    assert pending["difficulty"] == 7  # the ruling's, not the command's 2
    assert pending["section"] == "IV-D-1"
    table.play("a", {"type": "roll"}, faces=[4])  # COU 5 + 4 = 9 >= 7
    assert table.state["fighters"]["a2.1"]["routed"] is False
    assert key in table.state["upkeep"]["ticked"]
    assert table.state == replay(table.events)


def test_IV_D_3_lasting_effects_come_in_order_and_upkeep_is_paid_or_ends():
    """IV-D-3: "1. Effets nuisibles [...] 4. Effets divers : les autres effets,
    comme l'entretien de certains sortilèges ou miracles"; II-C-3: "le lanceur
    peut lors de la phase d'Entretien sacrifier [...] X points de Foi
    Temporaire pour prolonger ses effets durant le tour suivant"."""
    table = Table()
    table.play(
        "a",
        {
            "type": "record_effect",
            "fighter": "a2.1",
            "name": "Bénédiction",
            "kind": "miracle",
            "duration": "upkeep",
            "cost": 2,
            "caster": "a1.1",
        },
    )
    table.play(
        "b",
        {
            "type": "record_effect",
            "fighter": "a1.1",
            "name": "Poison",
            "kind": "harmful",
            "duration": "turns",
            "turns": 2,
        },
    )
    table.play(
        "a",
        {
            "type": "record_effect",
            "fighter": "a2.1",
            "name": "Aura",
            "kind": "spell",
            "duration": "end_of_turn",
        },
    )
    _to_upkeep(table)
    steps = [(i["step"], i["key"]) for i in table.state["upkeep"]["items"]]
    effect_steps = [s for s, k in steps if k.startswith("effect:")]
    assert effect_steps == ["harmful", "other", "other"]
    for item in table.state["upkeep"]["items"]:
        if item["key"] in table.state["upkeep"]["ticked"]:
            continue
        command = {"type": "tick_upkeep", "key": item["key"]}
        if item.get("effect") and "Bénédiction" in item["label_en"]:
            command["pay"] = True
        table.play(item["side"] or "a", command)
    names = [e["name"] for e in table.state["effects"]]
    assert names == ["Bénédiction", "Poison"]  # the aura ended with the turn
    assert table.state["fighters"]["a1.1"]["faith"] == 1  # 3 - 2 paid
    poison = next(e for e in table.state["effects"] if e["name"] == "Poison")
    assert poison["turns_left"] == 1
    assert table.state == replay(table.events)


def test_II_C_3_an_unpaid_upkeep_ends_the_effect_and_an_unaffordable_one_is_refused():
    table = Table()
    table.play(
        "a",
        {
            "type": "record_effect",
            "fighter": "a1.1",
            "name": "Bouclier",
            "kind": "miracle",
            "duration": "upkeep",
            "cost": 5,
        },
    )
    _to_upkeep(table)
    for item in table.state["upkeep"]["items"]:
        if item.get("effect"):
            table.refuses(
                "a",
                {"type": "tick_upkeep", "key": item["key"], "pay": True},
                "cannot pay",
            )
            table.refuses("b", {"type": "tick_upkeep", "key": item["key"]}, "Side A")
            table.play("a", {"type": "tick_upkeep", "key": item["key"]})
            break
        table.play(item["side"] or "a", {"type": "tick_upkeep", "key": item["key"]})
    assert table.state["effects"] == []


def test_IV_D_3_regeneration_offers_its_roll_in_the_upkeep():
    """IV-D: "jets de dés liés à certaines compétences : « Régénération/X »"."""
    game_setup = setup()
    troll = card("Troll")
    troll["skills"] = ["Régénération/4"]
    game_setup["sides"]["b"]["cards"].append(troll)
    table = Table(game_setup)
    table.state["fighters"]["b2.1"]["steps"] = 2
    _to_upkeep(table)
    item = next(i for i in table.state["upkeep"]["items"] if i.get("regeneration"))
    assert item["side"] == "b" and item["step"] == "passive"
    for other in table.state["upkeep"]["items"]:
        if other is item:
            break
        table.play(other["side"] or "a", {"type": "tick_upkeep", "key": other["key"]})
    events = table.play("b", {"type": "tick_upkeep", "key": item["key"]}, faces=[5])
    roll = of_kind(events, "upkeep_ticked")["payload"]["regeneration"]
    assert roll["faces"] == [5] and roll["success"] is True
    assert Fraction(roll["odds"]) == Fraction(3, 6)
    assert table.state["fighters"]["b2.1"]["steps"] == 1


# --- rules.game.legal_actions lists these commands -----------------------------


def test_legal_actions_lists_a_test_per_own_fighter_none_while_a_roll_waits():
    from rules.game import legal_actions

    table = Table()
    tests = [
        e for e in legal_actions(table.state, "a") if e["type"] == "characteristic_test"
    ]
    assert {e["fighter"] for e in tests} == {"a1.1", "a2.1", "a2.2"}
    magistrat = next(e for e in tests if e["fighter"] == "a1.1")
    assert "FOI" in magistrat["choices"]["characteristic"]
    assert "POU" not in magistrat["choices"]["characteristic"]
    assert {"type": "scatter"} in legal_actions(table.state, "b")
    table.play("a", a_test(characteristic="DIS", difficulty=9))
    kinds = {e["type"] for e in legal_actions(table.state, "b")}
    assert not kinds & {"characteristic_test", "scatter", "record_effect"}
    assert {e["type"] for e in legal_actions(table.state, "a")} >= {"roll"}


def test_IV_D_the_upkeep_waits_for_the_side_whose_fighters_item_is_next():
    from rules.game import legal_actions, waiting_for

    game_setup = setup()
    game_setup["house_rulings"] = {"rally_difficulty": "7"}
    table = Table(game_setup)
    table.play("b", {"type": "set_routed", "fighter": "b1.1", "routed": True})
    _to_upkeep(table)
    assert table.state["upkeep"]["items"][0]["side"] == "b"
    assert waiting_for(table.state) == {"b"}
    assert not [
        e for e in legal_actions(table.state, "a") if e["type"] == "tick_upkeep"
    ]
    key = table.state["upkeep"]["items"][0]["key"]
    table.play("b", {"type": "tick_upkeep", "key": key, "difficulty": 5})
    assert waiting_for(table.state) == {"b"}  # the rally test is B's to roll
