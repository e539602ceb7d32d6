"""The hex combat sheet ("Fiche Combat", seed 003): table, advantages, losses."""

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice
from rules.hexcombat import (
    COLUMNS,
    COMBAT_TABLE,
    Ammunition,
    CadenceChoice,
    Capacity,
    Direction,
    FireSituation,
    HexSize,
    LossState,
    MoraleProfile,
    Position,
    ShockSituation,
    ShooterKind,
    StackedCharacter,
    Terrain,
    Visibility,
    ammunition_after,
    cadence,
    column_for,
    double_odds,
    fire_advantage,
    fire_range,
    loss_checklist,
    loss_odds,
    losses,
    plan_fire,
    resolve,
    resolve_faces,
    shock_advantage,
    volley_odds,
)

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"

# The "Table des Combats" as printed (blank = 0), one row per 2D6 total, the
# columns -16 -11 -7 -4 -2 -1 0 +1 ... +9 +11 +13 ... +21.
EXPECTED_COLUMNS = [-16, -11, -7, -4, -2, -1, 0, *range(1, 10), 11, 13, 15, 17, 19, 21]
EXPECTED = {
    2: "1111222222233333333334",
    3: "0111112222222233333333",
    4: "0011111122222222333333",
    5: "0001111111222222222233",
    6: "0000011111111222222222",
    7: "0000000111111111222222",
    8: "0000000001111111111222",
    9: "0000000000001111111111",
    10: "0000000000000001111111",
    11: "0000000000000000011111",
    12: "0000000000000000000000",
}


def by(key, advantage):
    """The value of the line ``key`` in an advantage (0 if absent)."""
    return sum(line.value for line in advantage.lines if line.key == key)


def keys(items):
    return [item.key for item in items]


# --- Table des Combats -------------------------------------------------------


def test_the_table_has_the_printed_columns_and_rows():
    assert list(COLUMNS) == EXPECTED_COLUMNS
    assert len(COLUMNS) == 22
    assert sorted(COMBAT_TABLE) == list(range(2, 13))


@pytest.mark.parametrize("total", range(2, 13))
def test_every_cell_of_the_table_matches_the_printed_sheet(total):
    for column, expected in zip(EXPECTED_COLUMNS, EXPECTED[total], strict=True):
        assert losses(total, column) == int(expected), (total, column)


def seed_table():
    if not SEEDS.is_dir():
        return None
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if "Table des Combats" in text:
            lines = text.splitlines()
            start = next(i for i, line in enumerate(lines) if line.startswith("2D6\t"))
            return lines[start : start + 12]
    return None


def test_the_table_is_the_one_in_the_seed_file():
    rows = seed_table()
    if rows is None:
        pytest.skip("the seed 'Fiche Combat' is not beside the repository")
    header, *data = (row.split("\t") for row in rows)
    # "-2 -" holds a stray dash inside its cell: 22 cells in every row.
    assert len(header) == 23 and all(len(row) == 23 for row in data)
    assert [int(cell.split()[0]) for cell in header[1:]] == list(COLUMNS)
    for row in data:
        total = int(row[0])
        printed = [int(cell) if cell.strip() else 0 for cell in row[1:]]
        assert list(COMBAT_TABLE[total]) == printed, total
        assert [losses(total, column) for column in COLUMNS] == printed


@pytest.mark.parametrize(
    ("advantage", "column"),
    [
        (10, 9),
        (12, 11),
        (20, 19),
        (-3, -4),
        (-5, -7),
        (-6, -7),
        (-8, -11),
        (-12, -16),
        (-16, -16),
        (-17, -16),
        (-50, -16),
        (21, 21),
        (22, 21),
        (50, 21),
        (0, 0),
    ],
)
def test_an_advantage_between_columns_reads_the_less_favourable_column(
    advantage, column
):
    assert column_for(advantage) == column
    for total in range(2, 13):
        assert losses(total, advantage) == losses(total, column)


def test_an_advantage_beyond_the_ends_reads_the_end_columns():
    assert losses(2, 100) == 4
    assert losses(2, -100) == 1
    assert losses(3, -17) == 0


def test_a_roll_outside_2_to_12_is_refused():
    with pytest.raises(ValueError):
        losses(1, 0)
    with pytest.raises(ValueError):
        losses(13, 0)
    with pytest.raises(TypeError):
        losses(7, True)


@given(st.integers(2, 12), st.integers(-60, 60))
def test_losses_are_never_negative(total, advantage):
    assert losses(total, advantage) >= 0


@given(st.integers(2, 12), st.integers(-60, 60), st.integers(0, 30))
def test_a_better_advantage_never_gives_fewer_losses(total, advantage, more):
    assert losses(total, advantage + more) >= losses(total, advantage)


@given(st.integers(2, 12), st.integers(2, 12), st.integers(-60, 60))
def test_a_higher_roll_never_gives_more_losses(low, high, advantage):
    low, high = sorted((low, high))
    assert losses(high, advantage) <= losses(low, advantage)


# --- Exact odds ----------------------------------------------------------------


@given(st.integers(-60, 60))
def test_the_odds_of_each_number_of_losses_sum_to_one(advantage):
    assert sum(loss_odds(advantage).values()) == 1


def test_the_odds_count_the_36_rolls_of_2d6():
    for advantage in (-16, -3, 0, 8, 21):
        expected: dict[int, Fraction] = {}
        for a, b in product(range(1, 7), repeat=2):
            count = losses(a + b, advantage)
            expected[count] = expected.get(count, 0) + Fraction(1, 36)
        assert loss_odds(advantage) == expected
    # At 0: rolls of 2 or 3 (3 of 36) give 2 losses, 4..6 (12) give 1.
    assert loss_odds(0) == {
        0: Fraction(21, 36),
        1: Fraction(12, 36),
        2: Fraction(3, 36),
    }


@given(st.integers(-30, 30), st.integers(1, 3))
def test_the_odds_of_a_volley_sum_to_one(advantage, shots):
    assert sum(volley_odds(advantage, shots).values()) == 1


def test_a_volley_sums_the_losses_of_its_rolls():
    single = loss_odds(0)
    two = volley_odds(0, 2)
    assert two[4] == single[2] ** 2
    assert two[0] == single[0] ** 2
    assert two[1] == 2 * single[0] * single[1]
    assert volley_odds(5, 1) == loss_odds(5)


def test_the_chance_of_a_double():
    assert double_odds(1) == Fraction(1, 6)
    assert double_odds(2) == Fraction(11, 36)


# --- Calcul de l'Avantage au Choc ---------------------------------------------


def test_a_heavy_cavalry_charge_on_the_flank_against_a_shaken_defender():
    """+4 charge (Cav Lourde, clear terrain) +2 flank +2 offensive supports
    -1 defensive support +1 shaken defender = +8; the charge supports itself."""
    situation = ShockSituation(
        attacker_charging=True,
        attacker_cavalry=True,
        direction=Direction.FLANK,
        attacker_supports=2,
        defender_supports=1,
        defender_morale="shaken",
        supported=False,
    )
    advantage = shock_advantage(situation)
    assert advantage.total == 8
    assert [(line.key, line.value) for line in advantage.lines] == [
        ("attacker_supports", 2),
        ("defender_supports", -1),
        ("attacker_charge", 4),
        ("defender_shaken", 1),
        ("flank", 2),
    ]
    assert "support_charge" in keys(advantage.notes)
    assert column_for(8) == 8
    assert resolve(8, ScriptedDice([3, 4])).losses == 1
    assert resolve(8, ScriptedDice([1, 1])).losses == 3


def test_no_charge_bonus_when_the_defender_is_not_in_clear_terrain():
    situation = ShockSituation(
        attacker_charging=True,
        attacker_cavalry=True,
        defender_terrain=Terrain.ROUGH,
    )
    advantage = shock_advantage(situation)
    assert by("attacker_charge", advantage) == 0
    assert by("rough_terrain", advantage) == -1
    assert advantage.total == -1
    assert "charge_no_bonus" in keys(advantage.notes)
    behind_obstacle = ShockSituation(attacker_charging=True, obstacle=True)
    assert by("attacker_charge", shock_advantage(behind_obstacle)) == 0
    on_foot = ShockSituation(attacker_charging=True)
    assert shock_advantage(on_foot).total == 2


def test_a_defender_with_a_charge_marker():
    assert shock_advantage(ShockSituation(defender_charge_marker=True)).total == -2
    cavalry = ShockSituation(defender_charge_marker=True, defender_cavalry=True)
    assert shock_advantage(cavalry).total == -4


def test_breath_and_morale_of_both_sides():
    assert shock_advantage(ShockSituation(attacker_breath="breathless")).total == -1
    assert shock_advantage(ShockSituation(attacker_breath="end_of_breath")).total == -2
    assert shock_advantage(ShockSituation(defender_breath="breathless")).total == 0
    assert shock_advantage(ShockSituation(defender_breath="end_of_breath")).total == 1
    assert shock_advantage(ShockSituation(attacker_shaken=True)).total == -1
    assert shock_advantage(ShockSituation(defender_morale="routed")).total == 4


def test_weapon_system_and_capacities_of_both_sides():
    situation = ShockSituation(
        weapon_system=3,
        attacker_capacity=Capacity.SUPERIOR,
        defender_capacity=Capacity.DISADVANTAGED,
    )
    advantage = shock_advantage(situation)
    assert by("weapon_system", advantage) == 3
    assert by("attacker_capacity", advantage) == 2
    # A defender's capacity counts against the attacker: disadvantaged is +1.
    assert by("defender_capacity", advantage) == 1
    assert advantage.total == 6
    strong_defender = ShockSituation(defender_capacity=Capacity.SUPERIOR)
    assert shock_advantage(strong_defender).total == -2
    with pytest.raises(ValueError):
        shock_advantage(ShockSituation(weapon_system=5))


def test_a_stacked_character_passes_on_supports_and_weapon_capacity():
    hero = StackedCharacter(
        supports=2, capacity=Capacity.SUPERIOR, same_weapon_class=True
    )
    situation = ShockSituation(attacker_supports=1, attacker_character=hero)
    advantage = shock_advantage(situation)
    assert by("attacker_supports", advantage) == 1
    assert by("attacker_supports_character", advantage) == 2
    assert by("attacker_capacity", advantage) == 2
    assert advantage.total == 5
    other_class = StackedCharacter(supports=2, capacity=Capacity.SUPERIOR)
    advantage = shock_advantage(ShockSituation(attacker_character=other_class))
    assert advantage.total == 2  # supports only, not the capacity
    guard = StackedCharacter(supports=1)
    assert shock_advantage(ShockSituation(defender_character=guard)).total == -1


def test_rear_high_ground_and_formations():
    assert shock_advantage(ShockSituation(direction=Direction.REAR)).total == 4
    assert shock_advantage(ShockSituation(height="high")).total == 1
    assert shock_advantage(ShockSituation(height="low")).total == -1
    assert shock_advantage(ShockSituation(defender_formation="shield_wall")).total == -1
    assert shock_advantage(ShockSituation(defender_formation="tortoise")).total == -2


def test_the_same_hex_ignores_orientation_except_close_infiltration():
    same_hex = shock_advantage(ShockSituation(direction=Direction.SAME_HEX))
    assert same_hex.total == 0
    assert keys(same_hex.lines) == ["same_hex"]
    infiltrating = ShockSituation(
        direction=Direction.SAME_HEX,
        attacker_in_contact=True,
        attacker_position=Position.CLOSE_INFILTRATION,
        defender_position=Position.GROUND,
    )
    assert by("same_hex_infiltration", shock_advantage(infiltrating)) == 2


def test_terrain_counts_only_when_a_unit_is_on_the_ground():
    rough_and_water = ShockSituation(
        attacker_terrain=Terrain.ROUGH,
        defender_terrain=Terrain.WATER,
        rough_hex_side=True,
    )
    # Every line whose condition holds: -1 rough, -2 water, -1 rough hex side.
    assert shock_advantage(rough_and_water).total == -4
    lava = ShockSituation(defender_terrain=Terrain.LAVA)
    assert shock_advantage(lava).total == -2
    flying = ShockSituation(
        attacker_terrain=Terrain.DIFFICULT,
        attacker_position=Position.DISTANT_FLIGHT,
        defender_position=Position.CLOSE_FLIGHT,
    )
    # No unit on the ground: the terrain does not count; +2 distant on close.
    assert shock_advantage(flying).total == 2


@pytest.mark.parametrize(
    ("attacker", "defender", "value"),
    [
        ("close_flight", "ground", 2),
        ("ground", "close_flight", -2),
        ("distant_flight", "close_flight", 2),
        ("close_flight", "distant_flight", -2),
        ("ground", "ground", 0),
    ],
)
def test_flight_positions(attacker, defender, value):
    situation = ShockSituation(attacker_position=attacker, defender_position=defender)
    assert shock_advantage(situation).total == value


def test_small_units_and_stacked_large_units():
    assert shock_advantage(ShockSituation(attacker_size=HexSize.SMALL)).total == -4
    assert shock_advantage(ShockSituation(defender_size=HexSize.SMALL)).total == 4
    big = ShockSituation(
        attacker_size=HexSize.LARGE,
        attacker_stacked_large=2,
        defender_size=HexSize.LARGE,
        defender_stacked_large=1,
    )
    assert shock_advantage(big).total == -4 + 2
    not_large = ShockSituation(attacker_stacked_large=2, defender_stacked_large=3)
    assert shock_advantage(not_large).total == 0


def test_an_unsupported_attack_and_its_exceptions():
    unsupported = shock_advantage(ShockSituation(supported=False))
    assert unsupported.total == -4
    supported = shock_advantage(ShockSituation(supported=True))
    assert supported.total == 0
    assert "support_fatigue" in keys(supported.notes)
    rotation = shock_advantage(ShockSituation(rotation_of_ranks=True))
    assert "support_rotation" in keys(rotation.notes)
    works = shock_advantage(ShockSituation(supported=False, defensive_works=True))
    assert works.total == 0
    assert "defensive_works" in keys(works.notes)
    # A unit cannot support onto terrain impassable for it, even when charging.
    impassable = ShockSituation(impassable=True, attacker_charging=True, obstacle=True)
    advantage = shock_advantage(impassable)
    assert by("unsupported", advantage) == -4
    assert "support_impassable" in keys(advantage.notes)


def test_negative_supports_are_refused():
    with pytest.raises(ValueError):
        shock_advantage(ShockSituation(attacker_supports=-1))


# --- Calcul de l'Avantage au Tir -------------------------------------------------


def test_archers_at_three_hexes_in_the_rain_into_rough_terrain():
    """-2 (two hexes after the adjacent one) -3 rain -1 breeze -2 into rough."""
    situation = FireSituation(
        shooter_kind=ShooterKind.ARCHERS,
        distance=3,
        weather="rain",
        wind="breeze",
        target_terrain=Terrain.ROUGH,
    )
    advantage = fire_advantage(situation)
    assert [(line.key, line.value) for line in advantage.lines] == [
        ("into_rough", -2),
        ("distance", -2),
        ("weather", -3),
        ("wind", -1),
    ]
    assert advantage.total == -8
    plan = plan_fire(situation)
    assert plan.allowed
    assert plan.cadence.shots == 2


def test_weather_and_wind_only_hinder_archers_crossbows_and_artillery():
    for kind, expected in [
        ("crossbowmen", -8),
        ("artillery", -8),
        ("skirmishers", 0),
        ("light_cavalry", 0),
    ]:
        situation = FireSituation(shooter_kind=kind, weather="storm", wind="violent")
        assert fire_advantage(situation).total == expected, kind
    overcast = FireSituation(weather="overcast", wind="strong")
    assert fire_advantage(overcast).total == -3


@pytest.mark.parametrize(
    ("kind", "distance", "penalty"),
    [
        ("archers", 1, 0),
        ("archers", 2, -1),
        ("crossbowmen", 3, -2),
        ("artillery", 3, 0),
        ("artillery", 4, -1),
        ("artillery", 8, -2),
        ("artillery", 12, -3),
        ("skirmishers", 2, 0),
    ],
)
def test_hexes_crossed_by_the_line_of_sight(kind, distance, penalty):
    situation = FireSituation(shooter_kind=kind, distance=distance)
    assert by("distance", fire_advantage(situation)) == penalty


def test_shooter_and_target_states():
    assert fire_advantage(FireSituation(shooter_breath="breathless")).total == 0
    end = FireSituation(shooter_breath="end_of_breath", shooter_shaken=True)
    assert fire_advantage(end).total == -2
    assert fire_advantage(FireSituation(target_morale="shaken")).total == 1
    assert fire_advantage(FireSituation(target_morale="routed")).total == 2
    diminished = FireSituation(ammunition=Ammunition.DIMINISHED)
    assert fire_advantage(diminished).total == -1


def test_shooting_directions():
    assert fire_advantage(FireSituation(direction="flank")).total == 1
    assert fire_advantage(FireSituation(direction="same_hex")).total == 1
    assert fire_advantage(FireSituation(direction="rear")).total == 2


def test_altitude_and_distant_flight():
    higher = FireSituation(altitude="higher", shooter_position="distant_flight")
    assert fire_advantage(higher).total == 1  # one line, applied once
    assert fire_advantage(FireSituation(altitude="lower")).total == -1
    at_flyer = FireSituation(
        target_position="distant_flight", target_terrain=Terrain.DIFFICULT
    )
    # -1 at a target in distant flight; its terrain does not count.
    assert fire_advantage(at_flyer).total == -1
    both = FireSituation(
        shooter_position="distant_flight", target_position="distant_flight"
    )
    assert fire_advantage(both).total == 0


def test_terrain_hex_sides_sizes_and_formations_for_a_shot():
    assert fire_advantage(FireSituation(shooter_terrain="rough")).total == -1
    assert fire_advantage(FireSituation(shooter_terrain="difficult")).total == -1
    into = FireSituation(target_terrain="difficult")
    assert fire_advantage(into).total == -4
    behind = FireSituation(behind_rough_hex_side=True)
    assert fire_advantage(behind).total == -2
    assert fire_advantage(FireSituation(shooter_size="small")).total == -4
    assert fire_advantage(FireSituation(target_size="small")).total == 4
    stacked = FireSituation(
        shooter_size="large",
        shooter_stacked_large=1,
        target_size="large",
        target_stacked_large=2,
    )
    assert fire_advantage(stacked).total == 2
    wall = FireSituation(target_formation="shield_wall")
    assert fire_advantage(wall).total == -1
    assert fire_advantage(FireSituation(target_formation="tortoise")).total == -2


def test_shooting_supports_capacities_and_a_stacked_character():
    situation = FireSituation(
        shooter_supports=2,
        target_supports=1,
        weapon_system=-2,
        shooter_capacity="advantaged",
        target_capacity="inferior",
        target_character=StackedCharacter(supports=1),
    )
    # +2 -1 -2 +1 +2 -1
    assert fire_advantage(situation).total == 1


@pytest.mark.parametrize(
    ("capacity", "choice", "shots", "bonus"),
    [
        ("inferior", "volley", 1, 0),
        ("disadvantaged", "volley", 1, 0),
        ("ordinary", "volley", 2, 0),
        ("ordinary", "aimed", 1, 1),
        ("advantaged", "volley", 3, 0),
        ("superior", "volley", 3, 0),
        ("superior", "aimed", 1, 2),
    ],
)
def test_the_cadence_of_archers(capacity, choice, shots, bonus):
    rate = cadence(ShooterKind.ARCHERS, capacity, choice)
    assert (rate.shots, rate.bonus) == (shots, bonus)


def test_other_units_shoot_once():
    for kind in ("crossbowmen", "artillery", "skirmishers", "light_cavalry", "other"):
        assert cadence(kind, "superior").shots == 1


def test_an_aimed_shot_adds_its_bonus_to_the_advantage():
    plan = plan_fire(
        FireSituation(shooter_capacity="superior", cadence_choice=CadenceChoice.AIMED)
    )
    assert plan.cadence.shots == 1
    assert by("aimed_shot", plan.advantage) == 2
    assert plan.advantage.total == 4


def test_the_archers_cadence_uses_the_stacked_characters_capacity():
    hero = StackedCharacter(capacity="superior", same_weapon_class=True)
    plan = plan_fire(FireSituation(shooter_capacity="inferior", shooter_character=hero))
    assert plan.cadence.shots == 3


@pytest.mark.parametrize(
    ("kind", "capacity", "visibility", "hexes"),
    [
        ("archers", "ordinary", "clear", 3),
        ("crossbowmen", "inferior", "clear", 3),
        ("artillery", "inferior", "clear", 4),
        ("artillery", "disadvantaged", "clear", 6),
        ("artillery", "ordinary", "clear", 8),
        ("artillery", "advantaged", "clear", 10),
        ("artillery", "superior", "clear", 12),
        ("artillery", "superior", "mist", 2),
        ("archers", "ordinary", "fog", 1),
        ("skirmishers", "ordinary", "clear", 2),
        ("light_cavalry", "ordinary", "fog", 1),
        ("other", "ordinary", "clear", None),
    ],
)
def test_the_range_by_unit_type_and_weather(kind, capacity, visibility, hexes):
    assert fire_range(kind, capacity, visibility).hexes == hexes


def test_harassment_needs_no_line_of_sight():
    reach = fire_range("skirmishers", "ordinary", Visibility.CLEAR)
    assert reach.harassment and not reach.line_of_sight


def test_a_shot_the_sheet_forbids():
    assert keys(plan_fire(FireSituation(distance=4)).problems) == ["out_of_range"]
    exhausted = plan_fire(FireSituation(ammunition="exhausted"))
    assert keys(exhausted.problems) == ["ammunition_exhausted"]
    hidden = plan_fire(FireSituation(target_position="deep_infiltration"))
    assert keys(hidden.problems) == ["infiltrated"]
    assert not hidden.allowed


# --- Resolution ----------------------------------------------------------------


def test_a_volley_sums_losses_and_a_double_costs_ammunition():
    result = resolve(0, ScriptedDice([1, 2, 3, 3]), shots=2)
    assert [roll.total for roll in result.rolls] == [3, 6]
    assert [roll.losses for roll in result.rolls] == [2, 1]
    assert result.losses == 3
    assert result.doubles == 1
    assert result.column == 0


def test_faces_rolled_with_real_dice():
    result = resolve_faces(10, [6, 6])
    assert result.column == 9
    assert result.losses == 0
    with pytest.raises(ValueError):
        resolve_faces(0, [7, 1])
    with pytest.raises(ValueError):
        resolve_faces(0, [1, 2, 3])


# --- Application des Pertes ----------------------------------------------------


def test_no_loss_applies_nothing():
    assert keys(loss_checklist(LossState(losses=0))) == ["no_loss"]


def test_a_single_loss_may_be_taken_as_a_retreat():
    items = loss_checklist(LossState(losses=1, shock=True))
    assert keys(items) == [
        "one_by_one",
        "retreat_allowed",
        "retreat_move",
        "retreat_where",
        "retreat_cohesion",
        "morale_test_choice",
        "advance",
        "chosen_spell",
    ]
    assert all(item.sheet_line for item in items)


def test_a_retreat_is_forced_when_it_is_the_only_way_to_survive():
    items = loss_checklist(LossState(losses=2, steps_left=2, formation=True))
    assert keys(items)[:3] == ["one_by_one", "steps_before_last", "retreat_forced"]
    assert "retreat_pivot" in keys(items)
    morale = next(item for item in items if item.key == "morale_test")
    assert morale.value == 1


def test_every_failed_retreat_condition_is_listed():
    state = LossState(
        losses=3,
        routed=True,
        charge_marker=True,
        morale_profile=MoraleProfile.UNSHAKEABLE,
        engaged_flank_or_rear=True,
        rear_zone_safe=False,
        shock=False,
    )
    items = loss_checklist(state)
    assert keys(items) == [
        "one_by_one",
        "steps_before_last",
        "retreat_not_allowed",
        "retreat_routed",
        "retreat_charge_marker",
        "retreat_unshakeable",
        "retreat_engaged",
        "retreat_rear_zone",
        "loss_charge_marker",
        "morale_test",
        "defender_charge_marker",
        "chosen_spell",
    ]
    assert items[-3].value == 3


def test_a_shaken_formation_cannot_retreat_unless_demonic():
    shaken = LossState(losses=1, formation=True, shaken=True)
    assert "retreat_shaken_formation" in keys(loss_checklist(shaken))
    demonic = LossState(
        losses=1, formation=True, shaken=True, morale_profile=MoraleProfile.DEMONIC
    )
    items = keys(loss_checklist(demonic))
    assert "retreat_allowed" in items
    assert "retreat_no_cohesion_loss" in items


def test_a_destroyed_stack_ignores_the_remaining_losses():
    items = keys(loss_checklist(LossState(losses=3, steps_left=1)))
    assert "destroyed" in items
    assert "morale_test" not in items and "morale_test_choice" not in items
    assert "retreat_allowed" not in items


def test_after_a_charge_the_attacker_keeps_or_loses_its_marker():
    items = keys(loss_checklist(LossState(losses=1, attacker_charging=True)))
    assert "advance_charge_marker" in items
    unsupported = keys(loss_checklist(LossState(losses=1, attack_supported=False)))
    assert "advance" not in unsupported
    contact = keys(loss_checklist(LossState(losses=1, contact_marker=True)))
    assert "defender_contact_marker" in contact


def test_a_double_costs_one_ammunition_level_each():
    assert ammunition_after(Ammunition.FULL, 0) == Ammunition.FULL
    assert ammunition_after(Ammunition.FULL, 1) == Ammunition.DIMINISHED
    assert ammunition_after(Ammunition.FULL, 3) == Ammunition.EXHAUSTED
    assert ammunition_after(Ammunition.DIMINISHED, 1) == Ammunition.EXHAUSTED


def test_another_modifier_not_on_the_sheet_is_added_as_its_own_line():
    assert by("other", shock_advantage(ShockSituation(other_modifier=-3))) == -3
    assert fire_advantage(FireSituation(other_modifier=5)).total == 5
