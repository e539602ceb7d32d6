"""Splitting melees into combats (IV-C)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.melee import Combat, suggest_combats, validate_combats


def test_IV_C_one_against_one_is_a_combat():
    contacts = [("a1", "b1")]
    assert validate_combats([Combat("a1", ("b1",))], contacts)


def test_IV_C_one_against_several_is_a_combat():
    contacts = [("a1", "b1"), ("a1", "b2")]
    assert validate_combats([Combat("a1", ("b1", "b2"))], contacts)


def test_it_refuses_a_fighter_in_two_combats():
    contacts = [("a1", "b1"), ("a1", "b2")]
    with pytest.raises(IllegalAction, match="two combats"):
        validate_combats([Combat("a1", ("b1",)), Combat("a1", ("b2",))], contacts)


def test_it_refuses_an_adversary_not_in_contact():
    contacts = [("a1", "b1"), ("a2", "b2")]
    with pytest.raises(IllegalAction, match="not in base contact"):
        validate_combats([Combat("a1", ("b1", "b2")), Combat("a2", ())], contacts)


def test_it_refuses_to_leave_a_fighter_in_contact_out():
    contacts = [("a1", "b1"), ("a2", "b2")]
    with pytest.raises(IllegalAction, match="in no combat"):
        validate_combats([Combat("a1", ("b1",))], contacts)


def test_several_against_several_cannot_be_expressed_as_one_combat():
    # a1-b1, a1-b2, a2-b1, a2-b2: any single combat with all four would need
    # two "one" fighters; the split must make two combats.
    contacts = [("a1", "b1"), ("a1", "b2"), ("a2", "b1"), ("a2", "b2")]
    combats = suggest_combats(contacts)
    assert len(combats) == 2
    validate_combats(combats, contacts)


def test_a_chain_of_four_is_split_into_legal_combats():
    contacts = [("a1", "b1"), ("b1", "a2"), ("a2", "b2")]
    validate_combats(suggest_combats(contacts), contacts)


@st.composite
def melees(draw):
    sides_a = [f"a{i}" for i in range(draw(st.integers(1, 5)))]
    sides_b = [f"b{i}" for i in range(draw(st.integers(1, 5)))]
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(sides_a), st.sampled_from(sides_b)),
            min_size=1,
            max_size=12,
            unique=True,
        )
    )
    return pairs


@given(melees())
def test_the_suggested_split_is_always_legal(contacts):
    combats = suggest_combats(contacts)
    validate_combats(combats, contacts)
    placed = [f for c in combats for f in c.fighters]
    assert len(placed) == len(set(placed))
