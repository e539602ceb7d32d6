"""The melee's house rulings (rules.melee.HOUSE_RULINGS) and combat dice."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.game import new_game_event
from rules.melee import (
    HOUSE_RULINGS,
    UNCLEAR_ABILITIES,
    combat_dice,
    house_rulings,
    unclear_abilities,
)
from tests.support.table import setup


def test_VII_C_1_one_die_plus_one_per_opponent():
    """melee-sources.md §0.1 [read]: "1 die per fighter, plus 1 per opponent he
    faces in that combat ... So a lone fighter against 3 gets 4 dice, and each
    of the 3 gets 2." (S8)"""
    assert combat_dice(3) == 4
    assert combat_dice(1) == 2


def test_VII_C_1_enchainement_adds_the_dice_taken():
    """§4 Enchaînement/X [read] (S11): "At dice placement, take up to X extra
    combat dice"."""
    assert combat_dice(2, sequence=2) == 5


def test_every_ruling_has_its_default_among_its_choices():
    for name, ruling in HOUSE_RULINGS.items():
        assert ruling.default in ruling.choices, name
        assert len(ruling.choices) >= 2, name
        assert ruling.section and ruling.question and ruling.reason, name
    assert {"placement_order", "parry_tie", "sustained_defence", "pursuit"} <= set(
        HOUSE_RULINGS
    )
    assert {"cannot_flee"} <= set(HOUSE_RULINGS)
    assert UNCLEAR_ABILITIES == ("Brutal", "Feinte")


def test_a_new_game_holds_the_rulings_in_force():
    game = setup()
    game["house_rulings"] = {"placement_order": "before_initiative"}
    state = new_game_event(game)["payload"]["state"]
    assert state["house_rulings"]["placement_order"] == "before_initiative"
    assert state["house_rulings"]["parry_tie"] == HOUSE_RULINGS["parry_tie"].default
    assert set(state["house_rulings"]) == set(HOUSE_RULINGS)


@pytest.mark.parametrize(
    "chosen", [{"no_such": "x"}, {"parry_tie": "maybe"}, {"pursuit": None}]
)
def test_an_unknown_ruling_or_value_is_refused(chosen):
    with pytest.raises(IllegalAction):
        house_rulings(chosen)
    game = setup()
    game["house_rulings"] = chosen
    with pytest.raises(IllegalAction):
        new_game_event(game)


def test_brutal_and_feinte_are_listed_as_unclear_not_guessed():
    """§4: "Brutal: Not found in any source."; Feint has no French name found."""
    skills = ["Brutal", "Feinte/1", "Coup de maître/2", "Acharné"]
    assert unclear_abilities(skills) == ["Brutal", "Feinte/1"]
