"""Spells cast with what the card does not give (X): an unknown cost is
entered at the cast, never free; a magician with no known spell names his
spell and enters its gems and difficulty; a mystic action may follow another
(IV-B-2: the mystic actions are cumulative; a spell's frequency per round,
magic-faith-sources.md §1 "Frequency forms" 1-3, bounds the repeats)."""

from __future__ import annotations

import copy

from rules.game import legal_actions
from rules.game.legal import is_listed
from tests.support.magic_table import cast, magic_setup, magic_table_from_setup


def gems(table, fighter):
    return {k: v for k, v in table.state["fighters"][fighter]["gems"].items() if v}


def unknown_cost_table():
    game = magic_setup()
    game["spells"] = copy.deepcopy(game["spells"])
    # A catalogue's "X tenebre": no gem read.
    game["spells"]["Ombre"] = {
        "cost": {},
        "cost_text": "X tenebre",
        "difficulty": 5,
        "frequency": 1,
    }
    game["sides"]["a"]["cards"][0]["spells"] = ["Boule de feu", "Ombre"]
    return magic_table_from_setup(game)


def test_a_spell_whose_cost_is_unknown_is_never_cast_for_free():
    table = unknown_cost_table()
    assert table.state["spells"]["Ombre"]["cost"] is None
    entry = next(e for e in legal_actions(table.state, "a") if e["type"] == "cast")
    assert "Ombre" in entry["choices"]["spell"]
    before = gems(table, "a1.1")
    table.refuses("a", cast(spell="Ombre"), "unknown.*X tenebre")
    table.refuses("a", cast(spell="Ombre", cost={}), "unknown")
    table.refuses("a", cast(spell="Ombre", cost={"fire": 0}), "unknown")
    assert gems(table, "a1.1") == before
    events = table.play("a", cast(spell="Ombre", cost={"fire": 2}))
    payload = events[0]["payload"]
    assert payload["cost"] == {"fire": 2}
    assert gems(table, "a1.1") == {"fire": 1, "light": 1, "air": 1}


def test_an_entered_cost_beyond_the_reserve_is_refused():
    table = unknown_cost_table()
    table.refuses("a", cast(spell="Ombre", cost={"fire": 4}), "gems")
    assert gems(table, "a1.1") == {"fire": 3, "light": 1, "air": 1}


def test_the_adversary_counters_the_entered_cost():
    table = unknown_cost_table()
    table.play("a", cast(spell="Ombre", cost={"fire": 2}))
    # b1.1 holds 2 water (opposed to fire): he is asked.
    assert table.state["pending"]["candidates"] == {"b1.1": {"water": 2}}


def no_spell_table():
    game = magic_setup()
    game["sides"]["a"]["cards"][0]["spells"] = []
    return magic_table_from_setup(game)


def test_a_magician_with_no_known_spell_casts_by_entering_gems_and_difficulty():
    table = no_spell_table()
    entries = [e for e in legal_actions(table.state, "a") if e["type"] == "cast"]
    assert entries == [{"type": "cast", "fighter": "a1.1"}]
    table.refuses("a", cast(spell=""), "Name the spell")
    table.refuses("a", cast(spell="Éclair", difficulty=8), "unknown")
    table.refuses("a", cast(spell="Éclair", cost={"fire": 1}), "difficulty")
    command = cast(spell="Éclair", cost={"fire": 1, "air": 1}, difficulty=8)
    assert is_listed(table.state, "a", command)
    events = table.play("a", command)
    payload = events[0]["payload"]
    assert payload["spell"] == "Éclair" and payload["difficulty"] == 8
    assert gems(table, "a1.1") == {"fire": 2, "light": 1}
    # The old single mana number is not the way for a reserve in gems.
    table.play("b", {"type": "counter", "fighter": "b1.1", "pay": False})
    table.play("a", {"type": "roll"}, faces=[4])
    assert table.state["effects"] == []


def test_a_second_mystic_action_follows_the_first_within_frequency_and_gems():
    """IV-B-2: "Les actions cumulatives sont : la Marche, le Tir, les Actions
    mystiques"; a spell's Frequency (1-3 a round) bounds its casts."""
    game = magic_setup()
    game["sides"]["b"]["cards"][0]["gems"] = {}  # nobody counters
    table = magic_table_from_setup(game)
    table.play("a", cast())
    table.play("a", {"type": "roll"}, faces=[4])
    entry = next(e for e in legal_actions(table.state, "a") if e["type"] == "cast")
    assert entry["choices"]["spell"] == ["Aura de lumière"]  # Boule: frequency 1
    table.refuses("a", cast(), "frequency|gems")
    table.play("a", cast(spell="Aura de lumière"))
    assert table.state["acted"]["a1.1"] == ["mystic"]


def test_with_unknown_costs_and_unlisted_spells_legal_actions_are_accepted():
    """RULES_API "The game": every entry ``legal_actions`` lists is accepted
    (the unknown cost and the unlisted spell's gems entered as a player
    would), and a made-up command it does not list is refused."""
    import random

    from tests.rules.test_legal_actions import check_state

    rng = random.Random(32)
    for table in (unknown_cost_table(), no_spell_table()):
        check_state(table.state, rng, made_up=20)


def test_a_skill_s_effect_is_not_upkept_with_mana():
    """II-C-3: Entretien/X is paid by a caster in mana or temporary faith;
    ``legal_actions`` lists an upkept effect for spells, miracles, harmful and
    other effects only, and ``decide`` refuses a skill upkept (found by the
    property test of games with magic, seed 4088)."""
    table = unknown_cost_table()
    command = {
        "type": "record_effect",
        "fighter": "a1.1",
        "name": "Aura",
        "kind": "skill",
        "duration": "upkeep",
        "cost": 1,
    }
    assert not is_listed(table.state, "a", command)
    table.refuses("a", command, "not upkept")
