"""A flyer's two movements: play uses the ground MOU, the flight MOU in flight."""

from __future__ import annotations

import pytest

from rules.game import state as st
from rules.game.activation_phase import movement_cm


def card(name, flight_mou=None, **profile):
    values = {"MOU": 10, "INI": 4, "ATT": 4, "FOR": 6, "DEF": 4, "RES": 6}
    values.update({"COU": 5, "DIS": 4, **profile})
    return {
        "name": name,
        "fighters": 1,
        "profile": values,
        "flight_mou": flight_mou,
        "size": "normal",
        "skills": ["Vol"] if flight_mou else [],
        "weapon": None,
    }


def game(*cards_a):
    return st.new_state(
        {
            "sides": {
                "a": {"name": "Anne", "cards": list(cards_a)},
                "b": {"name": "Bruno", "cards": [card("Repenti")]},
            }
        }
    )


def test_the_set_up_keeps_both_movements_of_a_flyer():
    state = game(card("Harpie", flight_mou=20))
    assert state["cards"]["a1"]["profile"]["MOU"] == 10
    assert state["cards"]["a1"]["flight_mou"] == 20


def test_a_flyer_on_the_ground_moves_by_its_ground_value():
    state = game(card("Harpie", flight_mou=20))
    assert movement_cm(state, "a1.1", "walk") == 10
    assert movement_cm(state, "a1.1", "run") == 20


def test_a_flyer_in_flight_moves_by_its_flight_value():
    state = game(card("Harpie", flight_mou=20))
    state["fighters"]["a1.1"]["flying"] = True
    assert movement_cm(state, "a1.1", "walk") == 20
    assert movement_cm(state, "a1.1", "run") == 40


def test_a_fractional_ground_value_stays_as_printed():
    state = game(card("Chimère", flight_mou=20, MOU=12.5))
    assert movement_cm(state, "a1.1", "walk") == 12.5


def test_a_fighter_without_flight_ignores_the_flying_mark():
    state = game(card("Guerrier"))
    state["fighters"]["a1.1"]["flying"] = True
    assert movement_cm(state, "a1.1", "walk") == 10


def test_a_card_without_a_characteristic_can_be_set_up():
    """A war machine with "-" for DEF: the card has no DEF, the game starts."""
    state = game(card("Baliste", DEF=None))
    assert state["cards"]["a1"]["profile"]["DEF"] is None


def test_a_flight_value_that_is_not_a_number_is_refused():
    with pytest.raises(ValueError, match="flight MOU"):
        game(card("Harpie", flight_mou="vingt"))
