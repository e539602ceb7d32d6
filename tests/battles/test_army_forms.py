"""Form validation with bad input: every message next to its field, no crash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from battles.forms.armies import ArmyForm, ReferenceCardForm
from battles.models.armies import People

# Each number field's accepted range, stated here rather than read from the form.
RANGES = {
    **dict.fromkeys(("ini", "att", "defense", "tir", "dis", "cou", "peur"), (0, 15)),
    **dict.fromkeys(("force", "res", "weapon_strength"), (0, 20)),
    **dict.fromkeys(("pou", "foi"), (0, 10)),
    "cost": (0, 1000),
}


def card_data(people: People, **values) -> dict:
    return {
        "name": "Chasseur",
        "people": people.pk,
        "size": "normal",
        "base_shape": "square",
        "fighters_per_card": 1,
        **{key: "" if value is None else str(value) for key, value in values.items()},
    }


class CardFormNumbersTest(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.people = People.objects.create(name="Wolfen d'Yllia")

    @given(
        field=st.sampled_from(sorted(RANGES)),
        value=st.integers(min_value=-(10**6), max_value=10**6),
    )
    def test_a_characteristic_is_accepted_exactly_within_its_range(self, field, value):
        low, high = RANGES[field]
        form = ReferenceCardForm(card_data(self.people, **{field: value}))
        form.is_valid()
        # weapon_strength alone also asks for ranges: only look at the field.
        assert (field in form.errors) == (not low <= value <= high)

    @given(value=st.decimals(min_value=-100, max_value=100, places=2))
    def test_mou_takes_one_decimal_between_0_and_30(self, value):
        form = ReferenceCardForm(card_data(self.people, mou=value))
        form.is_valid()
        acceptable = 0 <= value <= 30 and value == value.quantize(
            value.__class__("0.1")
        )
        assert ("mou" in form.errors) == (not acceptable)

    @given(
        short=st.integers(0, 200), medium=st.integers(0, 200), long=st.integers(0, 200)
    )
    def test_ranges_must_go_up(self, short, medium, long):
        form = ReferenceCardForm(
            card_data(
                self.people,
                weapon_strength=5,
                range_short=short,
                range_medium=medium,
                range_long=long,
            )
        )
        assert form.is_valid() == (short <= medium <= long)
        if not form.is_valid():
            assert "range_long" in form.errors

    @given(text=st.text(max_size=200))
    def test_any_name_is_either_accepted_clean_or_refused_with_a_message(self, text):
        form = ReferenceCardForm({**card_data(self.people), "name": text})
        if form.is_valid():
            name = form.cleaned_data["name"]
            assert name and name == name.strip() and len(name) <= 120
            assert "\x00" not in name
        else:
            assert form.errors["name"]

    @given(text=st.text(max_size=700))
    def test_any_abilities_text_is_accepted_or_refused_without_crashing(self, text):
        form = ReferenceCardForm({**card_data(self.people), "abilities": text})
        assert form.is_valid() or "abilities" in form.errors


@pytest.mark.django_db
def test_courage_and_fear_together_are_refused_next_to_peur(wolfen):
    form = ReferenceCardForm(card_data(wolfen, cou=4, peur=5))
    assert not form.is_valid()
    assert "peur" in form.errors


@pytest.mark.django_db
def test_a_weapon_needs_its_three_ranges_and_its_strength(wolfen):
    form = ReferenceCardForm(card_data(wolfen, weapon_name="Arc", range_short=10))
    assert not form.is_valid()
    assert {"range_long", "weapon_strength"} <= set(form.errors)


@pytest.mark.django_db
def test_a_card_needs_a_people(wolfen):
    form = ReferenceCardForm({**card_data(wolfen), "people": ""})
    assert not form.is_valid() and "people" in form.errors


@pytest.mark.django_db
@pytest.mark.parametrize("limit", ["0", "-5", "10001", "many", ""])
def test_an_army_refuses_a_bad_points_limit(wolfen, limit):
    form = ArmyForm({"name": "Meute", "people": wolfen.pk, "points_limit": limit})
    assert not form.is_valid() and "points_limit" in form.errors


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["", "   ", "x" * 101, "nul\x00"])
def test_an_army_refuses_a_bad_name(wolfen, name):
    form = ArmyForm({"name": name, "people": wolfen.pk, "points_limit": 400})
    assert not form.is_valid() and "name" in form.errors
