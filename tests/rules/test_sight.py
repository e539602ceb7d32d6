"""Field of vision, line of sight, altitude levels (II-D, II-F, VI-A)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.sight import (
    Cut,
    Visibility,
    blocks_between_levels,
    in_field_of_vision,
    line_of_sight,
    sight,
)
from rules.size import Size


@pytest.mark.parametrize("angle", [0, 45, -45, 90, -90, 360, -270])
def test_II_D_2_the_field_of_vision_covers_180_degrees_in_front(angle):
    assert in_field_of_vision(angle)


@pytest.mark.parametrize("angle", [91, -91, 180, 135, 225])
def test_II_D_2_a_target_behind_the_front_line_is_out_of_the_field(angle):
    assert not in_field_of_vision(angle)


@pytest.mark.parametrize("angle", [0, 180, 135, -120])
def test_II_F_1_a_fighter_at_level_1_sees_360_degrees(angle):
    assert in_field_of_vision(angle, level=1)


def test_an_altitude_level_is_0_or_1():
    with pytest.raises(ValueError):
        in_field_of_vision(0, level=2)


# II-D-3 example: A, V, W, Y, Z normal, X large. A sees Y and Z, partly sees V
# and X, and does not see W. The diagram is not in the text; the obstacles
# below are the simplest ones that give each stated answer.


def test_II_D_3_example_A_sees_Y_and_Z_when_no_line_is_cut():
    assert line_of_sight("normal", "normal", Cut.NONE) is Visibility.SEES


def test_II_D_3_example_A_partly_sees_V_when_some_lines_are_cut():
    assert line_of_sight("normal", "normal", Cut.SOME, ["normal"]) is Visibility.PARTLY


def test_II_D_3_example_A_does_not_see_W_behind_an_obstacle_as_large_as_both():
    assert line_of_sight("normal", "normal", Cut.ALL, ["normal"]) is Visibility.NONE


def test_II_D_3_example_A_partly_sees_large_X_behind_a_normal_obstacle():
    assert line_of_sight("normal", "large", Cut.ALL, ["normal"]) is Visibility.PARTLY


def test_II_D_3_an_obstacle_smaller_than_the_source_leaves_the_target_partly_seen():
    assert line_of_sight("large", "normal", Cut.ALL, ["normal"]) is Visibility.PARTLY


def test_II_D_3_several_obstacles_hide_only_if_each_is_large_enough():
    assert line_of_sight("normal", "normal", Cut.ALL, ["large", "normal"]) is (
        Visibility.NONE
    )
    assert line_of_sight("normal", "normal", Cut.ALL, ["large", "small"]) is (
        Visibility.PARTLY
    )


def test_II_D_3_lines_all_cut_need_the_obstacles():
    with pytest.raises(ValueError):
        line_of_sight("normal", "normal", Cut.ALL, [])


def test_VI_A_3_example_the_tyrant_hides_the_half_elf_from_the_reaper():
    # The tyrant of Vile-Tis is larger than the shooter and the half-elf.
    assert line_of_sight("normal", "normal", Cut.ALL, ["large"]) is Visibility.NONE


def test_VI_A_3_example_the_reaper_sees_the_tyrant_larger_than_the_half_elf():
    seen = line_of_sight("normal", "large", Cut.ALL, ["normal"])
    assert seen.visible


def test_II_D_4_a_fighter_in_contact_is_seen_even_outside_the_field():
    assert sight("normal", "normal", angle_deg=180, in_contact=True) is Visibility.SEES
    assert sight("normal", "normal", angle_deg=180) is Visibility.NONE


def test_sight_applies_the_field_then_the_line_of_sight():
    assert sight("normal", "large", angle_deg=30, cut="all", obstacles=["normal"]) is (
        Visibility.PARTLY
    )
    assert sight("normal", "normal", angle_deg=170, source_level=1) is Visibility.SEES


def test_II_F_1_obstacles_on_level_0_under_15_cm_do_not_block_between_levels():
    assert blocks_between_levels(0, 14.9, source_level=0, target_level=1) is False
    assert blocks_between_levels(0, 14.9, source_level=1, target_level=0) is False


def test_II_F_1_obstacles_on_level_0_of_15_cm_or_more_block_between_and_within_1():
    assert blocks_between_levels(0, 15, source_level=0, target_level=1) is True
    assert blocks_between_levels(0, 20, source_level=1, target_level=1) is True
    assert blocks_between_levels(0, 10, source_level=1, target_level=1) is False


def test_II_F_1_an_obstacle_on_level_1_never_blocks():
    for source, target in [(1, 1), (0, 1), (1, 0), (0, 0)]:
        assert blocks_between_levels(1, 50, source, target) is False


def test_II_F_1_on_level_0_the_size_rule_applies():
    assert blocks_between_levels(0, 30, 0, 0) is None


sizes = st.sampled_from(list(Size))


@given(sizes, sizes, st.lists(sizes, min_size=1, max_size=3))
def test_II_D_3_cutting_more_lines_never_shows_more(source, target, obstacles):
    rank = {Visibility.SEES: 2, Visibility.PARTLY: 1, Visibility.NONE: 0}
    none = line_of_sight(source, target, Cut.NONE, obstacles)
    some = line_of_sight(source, target, Cut.SOME, obstacles)
    all_ = line_of_sight(source, target, Cut.ALL, obstacles)
    assert rank[none] >= rank[some] >= rank[all_]


@given(sizes, sizes, sizes)
def test_II_D_3_a_larger_target_is_never_harder_to_see(source, target, obstacle):
    bigger = Size(list(Size)[min(target.rank + 1, 4)])
    hidden_big = line_of_sight(source, bigger, Cut.ALL, [obstacle]) is Visibility.NONE
    hidden = line_of_sight(source, target, Cut.ALL, [obstacle]) is Visibility.NONE
    assert hidden or not hidden_big
