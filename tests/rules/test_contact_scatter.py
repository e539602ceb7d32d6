"""Contact (II-E) and scatter (II-C-5)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.contact import (
    BaseTouch,
    can_add_adversary,
    check_contact_placement,
    free_of_contact,
    in_contact,
    max_adversaries,
    touches,
)
from rules.dice import ScriptedDice
from rules.errors import IllegalAction
from rules.scatter import roll_scatter, scatter_distance_cm, scatter_from_faces


@pytest.mark.parametrize(
    "size, most",
    [("small", 3), ("normal", 4), ("large", 6), ("very_large", 8), ("titan", 16)],
)
def test_II_E_3_adversaries_in_contact_by_size(size, most):
    assert max_adversaries(size) == most


def test_II_E_3_enorme_counts_as_very_large():
    assert max_adversaries("Énorme/2") == 8


def test_II_E_3_an_unknown_size_is_an_error():
    with pytest.raises(ValueError):
        max_adversaries("huge")


def test_II_E_3_a_fifth_adversary_cannot_join_a_normal_fighter():
    assert can_add_adversary("normal", 3)
    assert not can_add_adversary("normal", 4)


def square(touching_cm, side_cm=2.5):
    return BaseTouch(
        "square", touching=touching_cm > 0, touching_cm=touching_cm, side_cm=side_cm
    )


def test_II_E_1_exactly_half_a_side_is_contact_not_more_than_half_as_in_VI_B_1():
    assert touches(square(1.25))
    assert not touches(square(1.2))


def test_II_E_1_example_C_and_X_are_in_contact_because_C_touches_X():
    c, x = square(2.5), square(0.8)
    assert not touches(x)
    assert in_contact(c, x)
    assert in_contact(x, c)


def test_II_E_1_example_B_and_Y_are_not_in_contact():
    assert not in_contact(square(0.5), square(0.6))


def test_II_E_2_a_round_base_is_in_contact_as_soon_as_a_point_touches():
    assert in_contact(BaseTouch("round"), BaseTouch("round"))
    assert in_contact(BaseTouch("round"), square(0.3))
    assert not in_contact(BaseTouch("round", touching=False), square(0, 2.5))


def test_II_F_1_contact_only_within_the_same_level():
    assert not in_contact(BaseTouch("round"), BaseTouch("round"), level_a=1)
    assert in_contact(BaseTouch("round"), BaseTouch("round"), level_a=1, level_b=1)


@given(st.floats(0, 5), st.floats(0, 5))
def test_II_E_contact_is_mutual(left, right):
    a, b = square(left, 2.5), square(right, 2.5)
    assert in_contact(a, b) == in_contact(b, a)


def test_II_E_3_free_of_contact_means_no_enemy_in_contact():
    assert free_of_contact(0)
    assert free_of_contact([])
    assert not free_of_contact(["goblin"])


def test_II_E_1_the_mover_must_put_its_mire_against_the_target():
    check_contact_placement(True)
    with pytest.raises(IllegalAction, match="front of its base"):
        check_contact_placement(False)


@pytest.mark.parametrize(
    "face, cm", [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12), (6, 14)]
)
def test_II_C_5_scatter_distance(face, cm):
    assert scatter_distance_cm(face) == cm


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.0])
def test_II_C_5_a_face_outside_1_to_6_is_an_error(face):
    with pytest.raises(ValueError):
        scatter_distance_cm(face)


def test_II_C_5_distance_die_first_then_direction():
    scatter = roll_scatter(ScriptedDice([3, 5]))
    assert (scatter.distance_cm, scatter.direction) == (8, 5)
    assert scatter == scatter_from_faces(3, 5)
