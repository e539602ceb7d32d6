"""Splitting melees into combats (IV-C)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.melee import (
    Combat,
    choices_of,
    combats_from_choices,
    suggest_combats,
    validate_combats,
)


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


def test_IV_C_whom_each_fighter_faces_describes_the_combats():
    # b1 and b2 both face a1: a1 fights them both (and faces one of them).
    choices = {"a1": "b1", "b1": "a1", "b2": "a1", "a2": "b3", "b3": "a2"}
    combats = combats_from_choices(choices)
    assert Combat("a1", ("b1", "b2")) in combats
    assert Combat("a2", ("b3",)) in combats or Combat("b3", ("a2",)) in combats


def test_a_fighter_faced_by_several_must_face_one_of_them():
    choices = {"a1": "b3", "b1": "a1", "b2": "a1", "b3": "a1"}
    combats = combats_from_choices(choices)  # a1 faces b3, which faces it: fine
    assert combats == [Combat("a1", ("b1", "b2", "b3"))]
    with pytest.raises(IllegalAction, match="must face one of them"):
        combats_from_choices({"a1": "b9", "b1": "a1", "b2": "a1"})


def test_several_against_several_is_refused():
    # a1 faces b1, b1 faces a2, a2 faces b1's partner... nobody pairs up.
    with pytest.raises(IllegalAction, match="several against several"):
        combats_from_choices({"a1": "b1", "b1": "a2", "a2": "b2", "b2": "a1"})


@given(melees())
def test_the_suggestion_round_trips_through_the_choices_form(contacts):
    combats = suggest_combats(contacts)
    rebuilt = combats_from_choices(choices_of(combats))
    validate_combats(rebuilt, contacts)

    def groups(split):
        return {frozenset(combat.fighters) for combat in split}

    assert groups(rebuilt) == groups(combats)
