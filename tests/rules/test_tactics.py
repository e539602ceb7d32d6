"""The Tactics roll (IV-A-2) and activation sequences (IV-A-1)."""

import pytest

from rules.dice import ScriptedDice
from rules.errors import IllegalAction
from rules.sequence import cards_in_play, ensure_sequence_open, validate_sequence
from rules.tactics import (
    Army,
    Skill,
    TacticsFighter,
    choose_first_speaker,
    eligible_fighters,
    parse_skill,
    roll_tactics,
    tactics_eligibility,
)

GRIFFON = Army("Griffon", alliance_path="Voie de la Lumière")


def test_a_skill_reads_its_name_and_value():
    assert parse_skill("Alliance/Griffon") == Skill("Alliance", "Griffon")
    assert parse_skill("Régénération/5") == Skill("Régénération", 5)
    assert parse_skill("Mercenaire") == Skill("Mercenaire")
    assert str(Skill("Immortel", 2)) == "Immortel/2"


def test_IV_A_2_a_fighter_of_the_army_people_may_roll():
    ok, reason = tactics_eligibility(TacticsFighter("Griffon"), GRIFFON)
    assert ok
    assert "Griffon" in reason


def test_IV_A_2_people_are_compared_without_case_or_accents():
    army = Army("Dirz")
    assert tactics_eligibility(TacticsFighter("dirz"), army)[0]
    mercenary = TacticsFighter("Lion", skills=("elementaire/1",))
    ok, reason = tactics_eligibility(mercenary, army)
    assert not ok
    assert "elementaire/1" in reason


def test_IV_A_2_remarque_1_an_ally_is_excluded():
    ok, reason = tactics_eligibility(TacticsFighter("Lion", is_ally=True), GRIFFON)
    assert not ok
    assert "ally" in reason
    assert "IV-A-2" in reason


@pytest.mark.parametrize("skill", ["Immortel/2", "Élémentaire/3", "Mercenaire"])
def test_IV_A_2_remarque_1_foreign_skills_exclude_a_fighter_of_another_people(skill):
    ok, reason = tactics_eligibility(TacticsFighter("Cadwë", skills=(skill,)), GRIFFON)
    assert not ok
    assert skill in reason


@pytest.mark.parametrize("skill", ["Immortel/2", "Élémentaire/3", "Mercenaire"])
def test_IV_A_2_remarque_1_foreign_skills_do_not_exclude_the_army_people(skill):
    assert tactics_eligibility(TacticsFighter("Griffon", skills=(skill,)), GRIFFON)[0]


def test_IV_A_2_remarque_1_alliance_with_the_army_people_makes_eligible():
    mercenary = TacticsFighter(
        "Cadwë", skills=("Mercenaire", "Alliance/Griffon"), is_ally=True
    )
    assert tactics_eligibility(mercenary, GRIFFON)[0]


def test_IV_A_2_remarque_1_alliance_with_the_alliance_path_makes_eligible():
    ally = TacticsFighter("Lion", skills=("Alliance/Voie de la Lumière",), is_ally=True)
    assert tactics_eligibility(ally, GRIFFON)[0]


def test_IV_A_2_remarque_1_alliance_with_another_people_does_not():
    ally = TacticsFighter("Lion", skills=("Alliance/Scorpion",), is_ally=True)
    assert not tactics_eligibility(ally, GRIFFON)[0]


def test_a_fighter_of_another_people_without_any_skill_is_not_eligible():
    ok, reason = tactics_eligibility(TacticsFighter("Scorpion"), GRIFFON)
    assert not ok
    assert "not of the army's people" in reason


def test_eligible_fighters_keeps_the_candidates_only():
    own = TacticsFighter("Griffon", name="Templier")
    ally = TacticsFighter("Lion", is_ally=True, name="Lion")
    assert eligible_fighters([own, ally], GRIFFON) == [own]


def test_IV_A_2_the_roll_is_an_opposed_discipline_test():
    fighters = {
        "a": TacticsFighter("Griffon", discipline=4),
        "b": TacticsFighter("Dirz", discipline=2),
    }
    armies = {"a": GRIFFON, "b": Army("Dirz")}
    # a rolls 2 (6), b rolls 5 (7): b wins.
    roll = roll_tactics(fighters, armies, ScriptedDice([2, 5]))
    assert roll.winner == "b"
    assert roll.rounds == ((6, 7),)
    assert roll.disciplines == (4, 2)


def test_IV_A_2_a_tie_is_rolled_again():
    fighters = {
        "a": TacticsFighter("Griffon", discipline=3),
        "b": TacticsFighter("Dirz", discipline=3),
    }
    armies = {"a": GRIFFON, "b": Army("Dirz")}
    roll = roll_tactics(fighters, armies, ScriptedDice([4, 4, 5, 2]))
    assert roll.winner == "a"
    assert roll.rounds == ((7, 7), (8, 5))


def test_IV_A_2_the_roll_refuses_an_ineligible_fighter():
    fighters = {
        "a": TacticsFighter("Lion", is_ally=True, discipline=6),
        "b": TacticsFighter("Dirz", discipline=2),
    }
    armies = {"a": GRIFFON, "b": Army("Dirz")}
    dice = ScriptedDice([6])
    with pytest.raises(IllegalAction, match="ally"):
        roll_tactics(fighters, armies, dice)
    assert dice.used == 0


def test_IV_A_2_remarque_2_a_fighter_without_its_own_discipline_cannot_roll():
    # Its commander's Discipline cannot stand in (Commandement/X).
    fighters = {
        "a": TacticsFighter("Griffon", discipline=None),
        "b": TacticsFighter("Dirz", discipline=2),
    }
    with pytest.raises(IllegalAction, match="no Discipline"):
        roll_tactics(fighters, {"a": GRIFFON, "b": Army("Dirz")}, ScriptedDice([]))


def test_IV_A_2_the_winner_chooses_who_speaks_first():
    assert choose_first_speaker("a", "a", "b") == "b"
    with pytest.raises(IllegalAction, match="Only the Tactics winner"):
        choose_first_speaker("a", "b", "b")


# -- IV-A-1 ----------------------------------------------------------------------

CARDS = ["templars", "crossbows", "hero"]


def test_IV_A_1_a_sequence_holds_every_reference_card_in_any_order():
    assert validate_sequence(["hero", "templars", "crossbows"], CARDS) == [
        "hero",
        "templars",
        "crossbows",
    ]


def test_IV_A_1_a_missing_card_is_refused():
    with pytest.raises(IllegalAction, match="crossbows is missing"):
        validate_sequence(["hero", "templars"], CARDS)


def test_IV_A_1_a_card_twice_is_refused():
    with pytest.raises(IllegalAction, match="more than once"):
        validate_sequence(["hero", "hero", "templars", "crossbows"], CARDS)


def test_IV_A_1_an_unknown_card_is_refused():
    with pytest.raises(IllegalAction, match="not one of your reference cards"):
        validate_sequence(["hero", "templars", "crossbows", "dragon"], CARDS)


def test_IV_A_1_remarque_a_card_eliminated_in_an_earlier_turn_drops_out():
    assert cards_in_play(CARDS, eliminated={"crossbows"}) == ["templars", "hero"]
    assert validate_sequence(["hero", "templars"], CARDS, {"crossbows"}) == [
        "hero",
        "templars",
    ]
    with pytest.raises(IllegalAction, match="eliminated in an earlier turn"):
        validate_sequence(["hero", "templars", "crossbows"], CARDS, {"crossbows"})


def test_IV_A_1_the_sequence_cannot_change_once_the_tactics_roll_is_made():
    ensure_sequence_open(tactics_rolled=False)
    with pytest.raises(IllegalAction, match="cannot change once the Tactics roll"):
        ensure_sequence_open(tactics_rolled=True)
