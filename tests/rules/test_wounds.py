"""Wound rolls and health (II-B): the seed's examples, every table cell, effects."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import wounds
from rules.wounds import Health, Replacement, WoundEffects, wound_roll

# The cells as read from the printed rule book (shared/rules-data); a copy is
# kept beside the tests so they run without the shared folder.
_HERE = Path(__file__).resolve().parent
_TABLE_FILES = [
    _HERE.parents[2] / "shared" / "rules-data" / "wound-table.md",
    _HERE / "data" / "wound-table.md",
]
_WORDS = {
    "–": "none",
    "-": "none",
    "Sonné": "stunned",
    "Blessure légère": "light",
    "Blessure grave": "serious",
    "Blessure critique": "critical",
    "Tué net": "killed",
}


def _printed_table() -> dict[str, list[str]]:
    text = next(path for path in _TABLE_FILES if path.exists()).read_text("utf-8")
    table = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1] in _WORDS:
            table[re.sub(r"\s+", "", cells[0])] = [_WORDS[c] for c in cells[1:]]
    return table


PRINTED = _printed_table()
# A representative row value for each printed row, and its label in rules.wounds.
ROWS = {
    "<0": -1,
    "0/1": 0,
    "2/3": 2,
    "4/5": 4,
    "6/7": 6,
    "8/9": 8,
    "10/11": 10,
    "12/13": 12,
    "14/15": 14,
    "16/17": 16,
    "18+": 18,
}


def _cells():
    for label, row in ROWS.items():
        for column in range(1, 6):
            for value in (row, row + 1) if row >= 0 else (-1, -5):
                yield label, column, value


# --- II-B-1: the table --------------------------------------------------------


def test_the_printed_table_has_its_eleven_rows():
    assert list(PRINTED) == list(ROWS)


@pytest.mark.parametrize(("label", "column", "row"), list(_cells()))
def test_II_B_1_every_cell_of_the_wound_table_matches_the_rule_book(label, column, row):
    expected = PRINTED[label][column - 1]
    assert wounds.table_outcome(column, row) == expected
    # The same cell reached by a real roll: lowest die = column, row from FOR.
    result = wound_roll([column, 6], row - 6, 0)
    assert (result.outcome, result.row) == (expected, row)
    assert result.location == wounds.LOCATIONS[column - 1]


def test_II_B_1_rows_far_below_0_and_far_above_18_read_the_edge_rows():
    assert wounds.table_outcome(2, -30) == "stunned"
    assert wounds.table_outcome(1, 60) == "critical"


def test_II_B_1_a_row_below_0_in_the_legs_column_is_no_wound():
    assert wound_roll([1, 2], 0, 10).outcome == "none"


def test_II_B_1_the_Alahan_guard_rolls_3_and_5_abdomen_row_3_light_wound():
    result = wound_roll([3, 5], 3, 5)
    assert (result.location, result.row, result.outcome) == ("abdomen", 3, "light")
    assert result.row_label == "2/3"


def test_II_B_1_the_dice_are_read_lowest_for_column_whatever_their_order():
    assert wound_roll([5, 3], 3, 5) == wound_roll([3, 5], 3, 5)


def test_II_B_1_a_double_six_kills_whatever_the_strength():
    result = wound_roll([6, 6], 0, 20)
    assert (result.outcome, result.location) == ("killed", "head")


def test_II_B_1_a_double_five_reads_the_head_column():
    assert wound_roll([5, 5], 3, 5).outcome == "critical"


# --- II-B-1: the three stages of effects --------------------------------------


def test_II_B_1_stage_1_opposite_row_shifts_cancel_and_like_ones_add():
    plain = wound_roll([3, 5], 3, 5)
    cancelled = wound_roll(
        [3, 5], 3, 5, row_shift=1, effects=WoundEffects(row_shift=-1)
    )
    assert cancelled.outcome == plain.outcome == "light"
    assert wound_roll([3, 5], 3, 5, row_shift=2).outcome == "serious"  # 6/7


def test_II_B_1_stage_1_column_shifts_stop_at_the_table_edges():
    assert wound_roll([3, 5], 3, 5, column_shift=1).location == "thorax"
    assert wound_roll([3, 5], 3, 5, column_shift=9).location == "head"
    assert wound_roll([3, 5], 3, 5, column_shift=-9).location == "legs"


def test_II_B_1_stage_2_immunity_to_the_head_blocks_a_double_six():
    effects = WoundEffects(replacements=(wounds.immunity_to_location("head"),))
    assert wound_roll([6, 6], 5, 3, effects=effects).outcome == "none"


def test_II_B_1_stage_2_immunity_to_the_head_blocks_a_sacred_weapon_double_five():
    sacred_weapon = Replacement("killed", doubles={5}, name="arme sacrée")
    harmful_only = WoundEffects(replacements=(sacred_weapon,))
    assert wound_roll([5, 5], 0, 5, effects=harmful_only).outcome == "killed"
    both = WoundEffects(
        replacements=(wounds.immunity_to_location("head"), sacred_weapon)
    )
    assert wound_roll([5, 5], 0, 5, effects=both).outcome == "none"


def test_II_B_1_stage_2_immunity_to_light_wounds_cancels_ferocious_on_stunned():
    ferocious = Replacement("light", outcomes={"stunned"}, name="Féroce")
    assert (
        wound_roll(
            [2, 1], 0, 0, effects=WoundEffects(replacements=(ferocious,))
        ).outcome
        == "light"
    )
    immune = wounds.immunity_to_outcome("light")
    effects = WoundEffects(replacements=(immune, ferocious))
    assert wound_roll([2, 1], 0, 0, effects=effects).outcome == "none"


def test_II_B_1_stage_3_aggravates_or_diminishes_after_replacements():
    assert wound_roll([3, 5], 3, 5, effects=WoundEffects(steps=1)).outcome == "serious"
    assert wound_roll([3, 5], 3, 5, effects=WoundEffects(steps=-1)).outcome == "stunned"
    assert (
        wound_roll([6, 6], 3, 5, effects=WoundEffects(steps=-1)).outcome == "critical"
    )


def test_II_B_1_stage_3_leaves_no_wound_as_no_wound_and_stops_at_killed():
    assert wounds.change_by_steps("none", 2) == "none"
    assert wounds.change_by_steps("critical", 3) == "killed"
    assert wounds.change_by_steps("light", -5) == "stunned"


def test_II_B_2_a_stunned_result_is_no_wound_so_vulnerable_leaves_it_stunned():
    """II-B-2: "Il existe également deux résultats du tableau des Blessures qui
    ne sont pas considérés comme des Blessures : Etat Sonné [...]"; II-B-1
    note, stage 3: "Effets qui aggravent ou diminuent la blessure d'un cran
    (exemple : compétences coriace et vulnérable)": they act on a wound, and a
    Sonné is none."""
    assert wound_roll([2, 1], 0, 0).outcome == "stunned"
    vulnerable = WoundEffects(steps=1)
    assert wound_roll([2, 1], 0, 0, effects=vulnerable).outcome == "stunned"
    assert wounds.change_by_steps("stunned", 1) == "stunned"
    assert wounds.change_by_steps("stunned", -1) == "stunned"  # coriace
    assert Health().apply(wound_roll([2, 1], 0, 0, effects=vulnerable).outcome) == (
        Health(wound_steps=0, stunned=True)
    )


# --- II-B-6: amplified and attenuated rolls -----------------------------------


def test_II_B_6_an_amplified_roll_keeps_the_two_highest_of_three_dice():
    result = wound_roll([1, 6, 6], 3, 5, amplified=1)
    assert (result.dice, result.outcome) == ((6, 6), "killed")


def test_II_B_6_an_attenuated_roll_keeps_the_two_lowest_of_three_dice():
    result = wound_roll([6, 1, 6], 3, 5, attenuated=1)
    assert (result.dice, result.location) == ((1, 6), "legs")


def test_II_B_6_amplified_and_attenuated_cancel_and_roll_two_dice():
    assert wound_roll([3, 5], 3, 5, amplified=1, attenuated=1).outcome == "light"
    with pytest.raises(ValueError, match="2 dice"):
        wound_roll([3, 5, 6], 3, 5, amplified=2, attenuated=2)


def test_II_B_6_more_attenuated_effects_than_amplified_ones_attenuate():
    assert wound_roll([6, 6, 2], 3, 5, amplified=1, attenuated=2).dice == (2, 6)


def test_II_B_6_a_plain_roll_with_three_dice_is_refused():
    with pytest.raises(ValueError, match="plain wound roll uses 2 dice"):
        wound_roll([3, 5, 6], 3, 5)


@pytest.mark.parametrize("faces", [[0, 3], [3, 7], [3]])
def test_a_wound_roll_with_impossible_dice_is_refused(faces):
    with pytest.raises(ValueError):
        wound_roll(faces, 3, 5)


def test_an_unknown_outcome_word_is_refused():
    with pytest.raises(ValueError, match="stunned"):
        Health().apply("bruised")


# --- II-B-2 to II-B-5: health -------------------------------------------------


def test_II_B_2_each_wound_adds_its_steps():
    assert wounds.WOUND_STEPS == {"light": 1, "serious": 2, "critical": 3, "killed": 4}
    assert Health().apply("killed").dead


def test_II_B_3_serious_then_light_is_critical_and_one_more_light_kills():
    health = Health().apply("serious").apply("light")
    assert (health.wound_steps, health.condition, health.dead) == (3, "critical", False)
    assert health.apply("light").dead


def test_II_B_3_a_stunned_result_adds_no_step():
    health = Health(wound_steps=2).apply("stunned")
    assert (health.wound_steps, health.stunned) == (2, True)


def test_II_B_4_Blessure_grave_and_stunned_is_minus_3():
    assert Health(wound_steps=2, stunned=True).penalty == -3


def test_II_B_4_only_seven_characteristics_suffer_the_penalty():
    assert wounds.PENALISED_CHARACTERISTICS == {
        "INI",
        "ATT",
        "DEF",
        "TIR",
        "FOR",
        "POU",
        "FOI",
    }
    health = Health(wound_steps=1)
    assert health.penalty_for("ATT") == -1
    assert health.penalty_for("RES") == 0
    assert health.penalty_for("MOU") == 0


def test_II_B_5_the_stun_ends_at_the_end_of_the_turn_and_wounds_stay():
    assert Health(wound_steps=1, stunned=True).end_of_turn() == Health(wound_steps=1)


def test_II_B_5_healing_removes_steps_down_to_healthy():
    assert Health(wound_steps=3).heal(2) == Health(wound_steps=1)
    assert Health(wound_steps=1).heal(5) == Health()


def test_II_B_5_a_dead_fighter_cannot_be_healed():
    with pytest.raises(ValueError, match="dead"):
        Health(wound_steps=4).heal(1)


# --- Properties ---------------------------------------------------------------

face = st.integers(1, 6)


@given(face, face, st.integers(-10, 10), st.integers(1, 12))
def test_a_higher_strength_never_makes_a_wound_lighter(low, high, strength, res):
    weaker = wound_roll([low, high], strength, res).outcome
    stronger = wound_roll([low, high], strength + 1, res).outcome
    assert wounds.OUTCOME_RANK[stronger] >= wounds.OUTCOME_RANK[weaker]


@given(face, face, face, st.integers(-10, 10))
def test_amplifying_never_makes_a_wound_lighter_than_attenuating(a, b, c, strength):
    amplified = wound_roll([a, b, c], strength, 5, amplified=1).outcome
    attenuated = wound_roll([a, b, c], strength, 5, attenuated=1).outcome
    assert wounds.OUTCOME_RANK[amplified] >= wounds.OUTCOME_RANK[attenuated]


@given(st.lists(st.sampled_from(wounds.OUTCOMES), max_size=8))
def test_health_steps_are_the_sum_of_the_wounds(outcomes):
    health = Health()
    for outcome in outcomes:
        health = health.apply(outcome)
    assert health.wound_steps == sum(wounds.WOUND_STEPS.get(o, 0) for o in outcomes)
    assert health.penalty == -health.wound_steps - health.stunned
    assert health.end_of_turn().penalty == -health.wound_steps
