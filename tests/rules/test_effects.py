"""Game effects: area, range, duration, gagner/bénéficier (II-C)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice
from rules.effects import (
    Designated,
    Designation,
    Duration,
    DurationKind,
    Keyword,
    Reach,
    UpkeepPayment,
    designates,
    has_bonus,
    in_area,
    in_range,
    roll_area,
    upkeep_payment,
)
from rules.errors import IllegalAction


def test_II_C_1_aire_d_effet_15cm_is_a_radius_of_15_cm():
    reach = Reach(range_cm=0, area_cm=15)
    assert in_area(reach, 15)
    assert not in_area(reach, 15.1)


TEMPLIERS_DU_GRIFFON_AMIS = Designation(
    "templier", people="Griffon", allegiance="friend"
)


@pytest.mark.parametrize(
    "fighter",
    [
        Designated("Templier", "Griffon"),
        Designated("Gardien du temple", "Griffon", classes=("Templier",)),
        Designated("Cavalier de la rédemption", "Griffon", classes=("templier",)),
    ],
)
def test_II_C_1_example_templiers_du_griffon_amis_covers_name_or_class(fighter):
    assert designates(TEMPLIERS_DU_GRIFFON_AMIS, fighter)


@pytest.mark.parametrize(
    "fighter",
    [
        Designated("Templier de l'inquisition", "Griffon"),
        Designated("Templier de Hod", "Griffon"),
        Designated("Templier", "Griffon", friend=False),
        Designated("Templier", "Dirz"),
    ],
)
def test_II_C_1_example_templiers_du_griffon_amis_excludes_the_others(fighter):
    assert not designates(TEMPLIERS_DU_GRIFFON_AMIS, fighter)


def test_II_C_1_a_designation_may_name_a_race_and_enemies():
    wolfen_enemies = Designation("guerrier", race="wolfen", allegiance="enemy")
    assert designates(
        wolfen_enemies, Designated("Guerrier", "Yllia", race="Wolfen", friend=False)
    )
    assert not designates(
        wolfen_enemies, Designated("Guerrier", "Yllia", race="Wolfen")
    )
    assert not designates(wolfen_enemies, Designated("Guerrier", "Yllia", friend=False))


def test_II_C_1_a_rolled_area_adds_natural_results_and_never_rerolls_a_six():
    dice = ScriptedDice([6, 3, 1])
    area = roll_area(2, dice)
    assert area.faces == (6, 3)
    assert area.radius_cm == 9
    assert dice.used == 2


def test_II_C_1_a_rolled_area_is_rolled_again_each_use():
    dice = ScriptedDice([2, 5])
    assert roll_area(1, dice).radius_cm == 2
    assert roll_area(1, dice).radius_cm == 5


def test_II_C_1_an_area_roll_needs_a_die():
    with pytest.raises(ValueError):
        roll_area(0, ScriptedDice([1]))


def test_II_C_2_example_rafale_range_20_cm_one_fighter():
    rafale = Reach(range_cm=20)
    assert in_range(rafale, 20)
    assert not in_range(rafale, 21)
    with pytest.raises(ValueError):
        in_area(rafale, 0)


def test_II_C_2_example_voile_de_brume_range_contact_area_30_cm():
    voile = Reach(range_cm=0, area_cm=30)
    assert in_range(voile, 0)
    assert not in_range(voile, 1)
    assert in_area(voile, 30)


@pytest.mark.parametrize(
    "text, duration",
    [
        ("Instantané", Duration(DurationKind.INSTANT)),
        ("Entretien/2", Duration(DurationKind.UPKEEP, upkeep=2)),
        ("entretien / 1", Duration(DurationKind.UPKEEP, upkeep=1)),
        ("3 tours", Duration(DurationKind.TURNS, turns=3)),
        ("jusqu'à la fin du tour", Duration(DurationKind.END_OF_TURN)),
        ("jusqu'à la fin de la partie", Duration(DurationKind.END_OF_GAME)),
    ],
)
def test_II_C_3_durations_read_as_printed(text, duration):
    assert Duration.parse(text) == duration


def test_II_C_3_an_unknown_duration_is_an_error():
    with pytest.raises(ValueError):
        Duration.parse("forever")


def test_II_C_3_entretien_lasts_until_the_end_of_the_turn_unless_paid():
    upkeep = Duration.parse("Entretien/2")
    assert upkeep.active_in(3, turn_applied=3)
    assert not upkeep.active_in(4, turn_applied=3)
    assert upkeep.active_in(4, turn_applied=3, paid_upkeeps=1)
    assert not upkeep.active_in(5, turn_applied=3, paid_upkeeps=1)


def test_II_C_3_entretien_is_paid_in_gems_for_a_spell_and_faith_for_a_miracle():
    upkeep = Duration.parse("Entretien/2")
    assert upkeep_payment(upkeep, "spell") == UpkeepPayment(2, "gems")
    assert upkeep_payment(upkeep, "miracle").resource == "temporary_faith"
    assert upkeep_payment(upkeep, "miracle").amount == 2


def test_II_C_3_an_effect_without_entretien_cannot_be_prolonged():
    with pytest.raises(IllegalAction, match="no upkeep"):
        upkeep_payment(Duration(DurationKind.END_OF_TURN), "spell")


def test_II_C_3_other_durations():
    assert not Duration(DurationKind.INSTANT).active_in(1, turn_applied=1)
    assert Duration(DurationKind.END_OF_GAME).active_in(6, turn_applied=1)
    three = Duration(DurationKind.TURNS, turns=3)
    assert three.active_in(4, turn_applied=2)
    assert not three.active_in(5, turn_applied=2)


def test_II_C_4_example_gagner_ini_plus_2_stays_after_leaving_the_caster():
    # Within 5 cm of the caster when the spell is cast, then walked away.
    assert has_bonus(Keyword.GAIN, met_when_applied=True, met_now=False)
    # Came within 5 cm only after the spell: no bonus.
    assert not has_bonus("gagner", met_when_applied=False, met_now=True)


def test_II_C_4_example_beneficier_for_plus_2_follows_the_aura():
    assert not has_bonus(Keyword.BENEFIT, met_when_applied=True, met_now=False)
    assert has_bonus("bénéficier", met_when_applied=False, met_now=True)


def test_II_C_4_no_bonus_once_the_duration_is_over():
    assert not has_bonus(
        Keyword.GAIN, met_when_applied=True, met_now=True, effect_active=False
    )


@given(st.booleans(), st.booleans())
def test_II_C_4_gagner_depends_only_on_the_moment_the_effect_was_applied(then, now):
    assert has_bonus(Keyword.GAIN, met_when_applied=then, met_now=now) == then
    assert has_bonus(Keyword.BENEFIT, met_when_applied=then, met_now=now) == now
