"""``rules.magic``: what the public sources establish of magic and faith.

Each test quotes the line of ``shared/rules-data/magic-faith-sources.md`` (the
"digest") whose [read] fact it checks; the house rulings' defaults follow.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from rules import magic
from rules.magic import (
    CONVENTIONS,
    ELEMENTS,
    HOUSE_RULINGS,
    can_call,
    can_pay,
    counter_payment,
    fervour_bounds,
    opposed,
    parse_difficulty,
    pay,
    power_dice,
    power_odds,
    recover,
    temporary_faith,
)
from rules.melee import HOUSE_RULINGS as GAME_RULINGS
from rules.several_dice import dice_test_success

ZERO = dict.fromkeys(ELEMENTS, 0)


def reserve(**gems):
    return {**ZERO, **gems}


# --- §1 Enumerations -----------------------------------------------------------


def test_the_six_elements_of_mana():
    """ "Mana elements | Light, Darkness, Air, Water, Fire, Earth | [read] M3" """
    assert set(magic.ELEMENTS) == {"light", "darkness", "air", "water", "fire", "earth"}


def test_a_neutral_gem_is_paid_with_any_element():
    """ "Other gem kinds | neutral (CF TTS token NEU; C3 cost icon "X Neutral" =
    any element) | [read] M14, M6" """
    for element in ELEMENTS:
        assert pay(reserve(**{element: 1}), {"neutral": 1}) == ZERO


def test_the_element_oppositions():
    """ "Element oppositions (counter-magic) | Air<->Earth, Water<->Fire,
    Light<->Darkness; Darkness is also opposed to every element and to itself |
    [read] M3" """
    assert opposed("air") == {"earth", "darkness"}
    assert opposed("earth") == {"air", "darkness"}
    assert opposed("water") == {"fire", "darkness"}
    assert opposed("fire") == {"water", "darkness"}
    assert opposed("light") == {"darkness"}
    assert opposed("darkness") == set(ELEMENTS)
    with pytest.raises(ValueError):
        opposed("neutral")


def test_the_ranks_of_magicians_and_faithful():
    """ "Magician ranks | Initiate 1, Adept 2, Master 3, Virtuoso 4 | [read]";
    "Faithful ranks | Devout 1, Zealot 2, Dean 3, Avatar 4 | [read]" """
    assert magic.MAGICIAN_RANKS == {
        "initiate": 1,
        "adept": 2,
        "master": 3,
        "virtuoso": 4,
    }
    assert magic.FAITHFUL_RANKS == {"devout": 1, "zealot": 2, "dean": 3, "avatar": 4}


def test_the_three_aspects_of_a_faithful():
    """ "Faithful aspects | Creation, Alteration, Destruction, a triple of small
    integers | [read] M7" """
    assert magic.ASPECTS == ("creation", "alteration", "destruction")


def test_the_fields_of_a_spell_card_and_a_miracle_card():
    """ "Spell card fields (C3) | Path, Range, Difficulty, Duration, Area of
    Effect, Frequency, Intensity, A.P., gem cost (element x count) | [read] M6";
    "Miracle card fields (C3) | Fervor, C./A./D., Cult (or "Universal"),
    Difficulty, Area of Effect, Range, Duration, A.P. | [read] M7" """
    assert set(magic.SPELL_FIELDS) == {
        "path",
        "range",
        "difficulty",
        "duration",
        "area",
        "frequency",
        "intensity",
        "points",
        "cost",
    }
    assert set(magic.MIRACLE_FIELDS) == {
        "fervour",
        "aspects",
        "cult",
        "difficulty",
        "area",
        "range",
        "duration",
        "points",
    }


def test_the_kinds_of_duration_and_area():
    """ "Duration kinds (CF II-C-3) | Instantaneous · N rounds · until end of game
    · Entretien/X [...]; C3 cards also show "Until end of round" | [read] M1, M6,
    M7"; "Area kinds (CF II-C-1) | one fighter · designation · radius in cm
    [...] · dice-rolled radius | [read] M1" """
    assert set(magic.DURATION_KINDS) == {
        "instant",
        "rounds",
        "game",
        "upkeep",
        "end_of_round",
    }
    assert set(magic.AREA_KINDS) == {"fighter", "designation", "radius", "dice_radius"}


@pytest.mark.parametrize(
    ("text", "kind", "resolved"),
    [
        ("7", "number", 7),
        ("RES+2", "formula", 6),  # the target's RES 4
        ("Pot+1", "formula", 6),  # the caster's POU 5
        ("Fervore+3", "formula", 5),  # the fervour chosen, 2
        ("libera", "free", None),
        ("speciale", "special", None),
        ("2d6 al chiaro di luna", "unknown", None),
    ],
)
def test_the_forms_of_a_difficulty(text, kind, resolved):
    """ "Difficulty forms | number · formula (target's STR/ATT/RES/FEAR + k;
    caster's POW + k; chosen fervour + k) · "free" (caster chooses; effect
    scales) · special | [read] M12" """
    difficulty = parse_difficulty(text)
    assert difficulty.kind == kind
    assert difficulty.text == text
    values = {"target:RES": 4, "caster:POU": 5, "fervour": 2}
    assert difficulty.resolve(values) == resolved


# --- §3 Casting a spell ------------------------------------------------------------


def test_gems_are_paid_by_element_and_neutral_gems_from_what_is_left():
    """ "Pay gems of the listed elements; neutral = any element. [read] M3, M6" """
    # The neutral gem: the most plentiful element left (ties: ELEMENTS order).
    assert pay(reserve(fire=3, air=1), {"fire": 2, "neutral": 1}) == reserve(fire=1)
    assert pay(reserve(fire=4, air=1), {"fire": 2, "neutral": 1}) == reserve(
        fire=1, air=1
    )
    assert pay(reserve(fire=3, air=1), {"fire": 2}, extra={"air": 1}) == reserve(fire=1)
    with pytest.raises(ValueError):
        pay(reserve(fire=1, air=5), {"fire": 2})
    with pytest.raises(ValueError):
        pay(reserve(fire=2), {"fire": 2, "neutral": 1})
    assert can_pay(reserve(light=1, earth=1), {"light": 1, "neutral": 1})
    assert not can_pay(reserve(light=1), {"light": 1, "neutral": 1})


def test_neutral_gems_are_paid_last_so_the_elements_asked_are_kept_for_them():
    """ "neutral gems are paid last, from whatever is left" (RULES_API)"""
    # Were the neutral gem taken first from the most plentiful fire, the fire
    # gems asked would be short.
    assert pay(reserve(fire=2, air=1), {"neutral": 1, "fire": 2}) == ZERO


def test_counter_magic_pays_the_opposed_gems_one_for_one():
    """ "An enemy magician within the spell's range and with line of sight may
    pay the **opposed** gems, one for one. The spell is cancelled, with **no
    roll**. [read] M3" """
    assert counter_payment(reserve(water=2), {"fire": 2}) == {"water": 2}
    assert counter_payment(reserve(water=1), {"fire": 2}) is None
    # Darkness is opposed to every element, and to itself.
    assert counter_payment(reserve(water=1, darkness=1), {"fire": 2}) == {
        "water": 1,
        "darkness": 1,
    }
    assert counter_payment(reserve(air=1), {"darkness": 1}) == {"air": 1}
    assert counter_payment(reserve(darkness=1), {"light": 1}) == {"darkness": 1}
    assert counter_payment(reserve(air=3), {"light": 1}) is None
    # A gem's own opposite is spent before the darkness that counters all.
    assert counter_payment(reserve(earth=1, darkness=1), {"air": 1, "light": 1}) == {
        "earth": 1,
        "darkness": 1,
    }


def test_each_extra_gem_is_one_more_die_on_the_power_test():
    """ "Mastery. Each extra gem gives one more die on the test. The extra gems
    may be of other elements. [read] M3, M5" """
    assert [power_dice(n) for n in range(4)] == [1, 2, 3, 4]
    with pytest.raises(ValueError):
        power_dice(-1)
    # Extra gems of an element the spell does not ask for.
    assert pay(reserve(fire=2, earth=2), {"fire": 2}, extra={"earth": 2}) == ZERO


def test_the_power_test_is_1d6_plus_pou_the_best_die_kept():
    """ "Power test = 1d6 + current POW >= Difficulty." [read]; "Keep the best die;
    6s re-roll per II-A-2." [inferred] M1"""
    assert power_odds(5, 7) == dice_test_success(5, 7, 1) == Fraction(5, 6)
    assert power_odds(5, 7, 1) == dice_test_success(5, 7, 2) == Fraction(35, 36)
    assert power_odds(3, 10, 2) == dice_test_success(3, 10, 3)


def test_conf_fede_makes_no_automatic_failure_of_a_natural_one():
    """ "CF: a 1 is no automatic failure; only a final result <= 0 fails. [read]
    M1"; "Natural 1: C3 auto-fails, even after a re-rolled 6 [...] [read] M5"
    (the house ruling ``natural_one``)."""
    assert power_odds(6, 7) == 1  # a 1 gives 7
    assert power_odds(6, 7, natural_one="fails") == Fraction(5, 6)
    assert power_odds(6, 7, 1, natural_one="fails") == Fraction(35, 36)
    assert power_odds(3, 7, natural_one="fails") == power_odds(3, 7)
    assert magic.ruled_success(1, True, natural_one="no_automatic_failure")
    assert not magic.ruled_success(1, True, natural_one="fails")


def test_recovery_gains_are_of_mastered_elements_and_never_exceed_the_reserve():
    """ "Recovery/X adds X gems of a mastered element, whatever the roll. [read]
    M4"; "Gains never exceed the reserve. [read] M4, M6"; "Gems gained must be
    of elements the receiver masters. [read] M6" """
    after = recover(reserve(fire=1), {"fire": 2}, mastered=["fire"], maximum=5)
    assert after == reserve(fire=3)
    assert recover(reserve(fire=4), {"fire": 3}, mastered=["fire"], maximum=5) == (
        reserve(fire=5)
    )
    assert recover(reserve(), {"air": 9}, mastered=["air"], maximum=None) == reserve(
        air=9
    )
    with pytest.raises(ValueError):
        recover(reserve(), {"water": 1}, mastered=["fire"], maximum=5)


# --- §4 Calling a miracle ---------------------------------------------------------


def test_a_faithful_calls_a_miracle_of_his_cult_or_a_universal_one():
    """ "The faithful picks a miracle of his cult or a universal one. [read] M7";
    "Cults (several allowed)" [read] M12"""
    assert can_call(["Merin"], ["Merin"])
    assert can_call(["Yllia", "Merin"], ["merin"])
    assert can_call(["Universal"], ["Yllia"])
    assert can_call([], ["Yllia"])
    assert not can_call(["Yllia"], ["Merin"])


def test_the_fervour_is_chosen_never_above_the_temporary_faith_left():
    """ "Fervour. Printed; or chosen just before the roll, never above the
    remaining T.F. [read] M12" """
    assert fervour_bounds(None, 4) == (1, 4)
    assert fervour_bounds(2, 4) == (2, 2)
    low, high = fervour_bounds(3, 2)
    assert high < low  # cannot be called
    low, high = fervour_bounds(None, 0)
    assert high < low


def test_piety_keeps_some_unspent_faith_added_to_the_new_total():
    """ "Unspent T.F. is lost at recalculation, except Piety/X: keep up to X,
    added to the new total, never cumulative over rounds. [read] M8" """
    assert temporary_faith(4, 3) == 4
    assert temporary_faith(4, 3, piety=2) == 6
    assert temporary_faith(4, 1, piety=2) == 5
    with pytest.raises(ValueError):
        temporary_faith(-1, 0)


# --- house rulings -------------------------------------------------------------------


def test_every_ruling_of_magic_is_chosen_with_the_game_s_and_has_a_default():
    for name, ruling in HOUSE_RULINGS.items():
        assert GAME_RULINGS[name] is ruling
        assert ruling.default in ruling.choices
        assert len(ruling.choices) >= 2
        assert "HR-" in ruling.section or "II-A" in ruling.section
    for ruling in CONVENTIONS.values():
        assert ruling.choices == (ruling.default,)


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("gems_on_failure", "spent"),  # HR-M3: lost on success and on failure
        ("mana_maximum", "starting_reserve"),  # HR-M1: entered per magician
        ("mana_recovery", "entered"),  # HR-M2: manual entry
        ("counter_neutral", "any_gem"),  # HR-M4
        ("counter_frequency", "used"),  # HR-M4
        ("natural_one", "no_automatic_failure"),  # CF II-A
        ("temporary_faith", "entered"),  # HR-F1: manual entry
    ],
)
def test_the_default_of_each_ruling(name, default):
    assert HOUSE_RULINGS[name].default == default


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("miracle_test", "faith_test"),  # HR-F2: 1d6 + FOI
        ("censure", "manual"),  # HR-F4
        ("aspects", "not_checked"),  # HR-F3
        ("calls_per_round", "unlimited"),  # HR-F5
    ],
)
def test_the_conventions_of_faith(name, default):
    assert CONVENTIONS[name].default == default


def test_a_neutral_gem_may_be_left_uncountered_by_ruling():
    cost = {"fire": 1, "neutral": 1}
    assert counter_payment(reserve(water=1, air=1), cost) == {"water": 1, "air": 1}
    assert counter_payment(reserve(water=1), cost) is None
    assert counter_payment(reserve(water=1), cost, neutral="not_countered") == {
        "water": 1
    }


# --- properties --------------------------------------------------------------------

gems = hs.dictionaries(hs.sampled_from(ELEMENTS), hs.integers(0, 6))
costs = hs.dictionaries(hs.sampled_from(magic.GEM_KINDS), hs.integers(0, 4))


@given(gems, costs, costs)
def test_paying_never_leaves_a_negative_gem(have, cost, extra):
    try:
        after = pay(have, cost, extra=extra)
    except ValueError:
        assert not can_pay(have, {**cost}) or magic.gem_count(extra) > 0
        return
    assert all(n >= 0 for n in after.values())
    spent = sum(magic.normal_reserve(have).values()) - sum(after.values())
    assert spent == magic.gem_count(cost) + magic.gem_count(extra)


@given(gems, costs)
def test_a_counter_payment_is_always_payable_and_one_for_one(have, cost):
    payment = counter_payment(have, cost)
    if payment is None:
        return
    after = pay(have, payment)
    assert all(n >= 0 for n in after.values())
    assert sum(payment.values()) == magic.gem_count(cost)
