"""Spells and miracles in a game (X, XI): ``cast``, ``counter``, ``call``.

RULES_API "Magic and faith"; the facts are those of
``shared/rules-data/magic-faith-sources.md`` (quoted), the rest the house
rulings' defaults.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.errors import IllegalAction
from rules.game import choice_odds, evolve, legal_actions, replay, waiting_for
from rules.game.legal import is_listed
from tests.rules.test_legal_actions import check_state
from tests.support.legal_probe import example_command
from tests.support.magic_table import cast, magic_setup, magic_table
from tests.support.table import Table

NO = False


def gems(table, fighter):
    return {k: v for k, v in table.state["fighters"][fighter]["gems"].items() if v}


def kinds(events):
    return [e["kind"] for e in events]


def test_a_magician_s_reserve_is_read_from_his_card():
    table = Table(magic_setup())
    assert gems(table, "a1.1") == {"fire": 3, "light": 1, "air": 1}
    assert table.state["fighters"]["a1.1"]["mana"] == 5
    assert gems(table, "b1.1") == {"water": 2, "darkness": 1}
    assert table.state["fighters"]["a2.1"]["gems"] is None  # a faithful
    assert table.state["fighters"]["a2.1"]["faith"] == 4


def test_the_reserve_is_set_at_the_table_at_any_time():
    table = Table(magic_setup())
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {"earth": 2}})
    assert gems(table, "b1.1") == {"earth": 2}
    assert table.state["fighters"]["b1.1"]["mana"] == 2
    table.refuses("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {"x": 1}}, ".")
    table.refuses(
        "b", {"type": "set_mystic", "fighter": "b1.1", "gems": {"fire": -1}}, "."
    )
    table.refuses("b", {"type": "set_mystic", "fighter": "b1.1", "mana": 3}, "gems")
    table.refuses(
        "b", {"type": "set_mystic", "fighter": "b2.1", "gems": {"fire": 1}}, "magician"
    )
    table.refuses("a", {"type": "set_mystic", "fighter": "b1.1", "gems": {}}, "yours")


def test_the_mystic_action_lists_the_known_spells_he_can_pay_for():
    """ "The magician picks a spell he knows. Its Frequency this round must not
    be used up. [read] M3" """
    table = magic_table()
    entries = [e for e in legal_actions(table.state, "a") if e["type"] == "cast"]
    assert entries == [
        {
            "type": "cast",
            "fighter": "a1.1",
            "choices": {"spell": ["Boule de feu", "Aura de lumière"]},
        }
    ]
    table.refuses("a", cast(spell="Brume"), "does not know")
    table.refuses("a", cast(spell="Boule de feu", extra={"fire": 2}), "gems")
    table.refuses("b", cast(fighter="b1.1", spell="Brume"), ".")


def test_a_cast_with_one_extra_gem_rolls_two_dice_and_the_best_is_kept():
    """ "Each extra gem gives one more die on the test." [read] M3, M5"""
    table = magic_table()
    events = table.play("a", cast(extra={"air": 1}))
    assert kinds(events) == ["spell_cast", "pending_set"]
    cast_event = events[0]["payload"]
    assert cast_event["dice"] == 2 and cast_event["odds"] == "35/36"
    assert gems(table, "a1.1") == {"fire": 1, "light": 1}
    assert table.state["acted"]["a1.1"] == ["mystic"]
    # The adversary's magician can pay two water gems: he is asked first.
    assert waiting_for(table.state) == {"b"}
    assert table.state["pending"]["candidates"] == {"b1.1": {"water": 2}}
    assert {"type": "counter", "fighter": "b1.1", "choices": {"pay": [True, NO]}} in (
        legal_actions(table.state, "b")
    )
    table.refuses("a", {"type": "roll"}, ".")
    table.play("b", {"type": "counter", "fighter": "b1.1", "pay": False})
    assert waiting_for(table.state) == {"a"}
    assert table.state["pending"]["dice"] == 2
    events = table.play("a", {"type": "roll"}, faces=[1, 2])  # 2 + 5 = 7
    resolved = next(e for e in events if e["kind"] == "test_resolved")["payload"]
    assert resolved["success"] and resolved["natural"] == 2 and resolved["final"] == 7


def test_a_countered_spell_spends_its_caster_s_gems_and_has_no_effect():
    """ "An enemy magician [...] may pay the opposed gems, one for one. The spell
    is cancelled, with no roll. [read] M3" """
    table = magic_table()
    table.play("a", cast())
    events = table.play("b", {"type": "counter", "fighter": "b1.1", "pay": True})
    assert kinds(events) == ["spell_countered"]
    assert events[0]["payload"]["paid"] == {"water": 2}
    assert gems(table, "b1.1") == {"darkness": 1}
    assert gems(table, "a1.1") == {"fire": 1, "light": 1, "air": 1}
    assert table.state["pending"] is None
    assert table.state["effects"] == []
    # Its frequency is used (HR-M4's default): no second Boule de feu.
    assert table.state["casts"]["a1.1"]["Boule de feu"] == 1
    table.refuses("a", cast(), "frequency|gems")


def test_a_countered_spell_may_leave_its_frequency_by_ruling():
    table = magic_table(counter_frequency="not_used")
    table.play("a", cast())
    table.play("b", {"type": "counter", "fighter": "b1.1", "pay": True})
    assert table.state["casts"]["a1.1"]["Boule de feu"] == 0


def test_nobody_is_asked_when_no_adversary_can_counter():
    table = magic_table()
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {"air": 1}})
    events = table.play("a", cast(spell="Aura de lumière", target="a2.1"))
    # Light is countered by darkness only, and the neutral gem by any gem:
    # an air gem is not enough. (POU 5 against 6 cannot fail: no roll either.)
    assert kinds(events)[:2] == ["spell_cast", "test_certain"]
    assert "pending_set" not in kinds(events)
    assert table.state["pending"] is None
    assert waiting_for(table.state) == {"a"}


def test_a_spell_s_frequency_is_never_exceeded_in_a_round():
    table = magic_table()
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    table.play("a", cast())
    table.play("a", {"type": "roll"}, faces=[4])
    table.play("a", {"type": "set_mystic", "fighter": "a1.1", "gems": {"fire": 4}})
    assert all(e["type"] != "cast" for e in legal_actions(table.state, "a"))
    table.refuses("a", cast(), "frequency")
    # A new round: the frequency is available again.
    state = evolve(table.state, {"kind": "turn_started", "payload": {"turn": 2}})
    assert state["casts"] == {}


def test_a_successful_spell_with_a_duration_is_a_lasting_effect():
    """ "Effect. Register its duration (§1)." """
    table = magic_table()
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    # POU 5 against 6: a '1' gives 6, so no roll is asked (II-A-1).
    table.play("a", cast(spell="Aura de lumière", target="a2.1"))
    (effect,) = table.state["effects"]
    assert effect["name"] == "Aura de lumière" and effect["kind"] == "spell"
    assert effect["fighter"] == "a2.1" and effect["duration"] == "turns"
    assert effect["turns_left"] == 2


def test_a_failed_power_test_spends_the_gems_by_default():
    """HR-M3's default: the gems are lost on success and on failure."""
    spells = {"Foudre": {"cost": {"air": 1}, "difficulty": 12, "frequency": None}}
    for ruling, left in (("spent", {"fire": 3, "light": 1}), ("refunded", None)):
        game = magic_setup(gems_on_failure=ruling)
        game["spells"] = {**game["spells"], **spells}
        game["sides"]["a"]["cards"][0]["spells"].append("Foudre")
        game["sides"]["b"]["cards"][0]["gems"] = {}
        table = magic_table_from(game)
        before = gems(table, "a1.1")
        table.play("a", cast(spell="Foudre"))
        events = table.play("a", {"type": "roll"}, faces=[2])  # 7 < 12
        assert not next(e for e in events if e["kind"] == "test_resolved")["payload"][
            "success"
        ]
        assert gems(table, "a1.1") == (left or before), ruling


def magic_table_from(game) -> Table:
    table = Table(game, seed="magic")
    table.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
    table.play("b", {"type": "set_sequence", "order": ["b1", "b2"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[4, 2])
    table.play("a", {"type": "choose_first", "first": "a"})
    table.play("a", {"type": "draw", "action": "draw"})
    return table


def test_a_natural_one_fails_the_power_test_only_by_ruling():
    """ "CF: a 1 is no automatic failure [read] M1"; "C3 auto-fails [read] M5" """
    # CF: POU 5 against 6 cannot fail, so it passes with no roll asked; the
    # line names the ruling that made it certain.
    table = magic_table(natural_one="no_automatic_failure")
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    events = table.play("a", cast(spell="Aura de lumière"))  # POU 5 + 1 = 6
    (certain,) = [e["payload"] for e in events if e["kind"] == "test_certain"]
    assert certain["odds"] == "1/1" and certain["house_ruling"] == "natural_one"
    assert certain["section"] == "II-A-1" and certain["value"] == 5
    assert table.state["pending"] is None
    assert table.state["casts"]["a1.1"]["Aura de lumière"] == 1
    table.refuses("a", {"type": "roll"}, "no roll")
    # C3: a natural 1 fails it, so it is rolled, and a 1 fails.
    table = magic_table(natural_one="fails")
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    table.play("a", cast(spell="Aura de lumière"))
    assert table.state["pending"]["odds"] == "5/6"
    events = table.play("a", {"type": "roll"}, faces=[1])
    resolved = next(e for e in events if e["kind"] == "test_resolved")
    assert resolved["payload"]["success"] is False


def test_under_c3_s_ruling_a_six_s_reroll_odds_count_the_natural_one_that_fails():
    """POU 5 against 6: any face but a '1' wins. With "fails", rerolling the
    six showing loses when every rerolled die shows 1: 5/6 for one die,
    35/36 for two; keeping it wins (II-A-1, II-A-2, M5)."""
    for extra, faces, reroll in (({}, [6], "5/6"), ({"air": 1}, [6, 6], "35/36")):
        table = magic_table(natural_one="fails")
        table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
        table.play("a", cast(spell="Aura de lumière", extra=extra))
        table.play("a", {"type": "roll"}, faces=faces)
        choice = choice_odds(table.state["pending"])
        assert choice == {"keep": "1/1", "reroll": reroll, "best": "keep"}, extra
    # Rerolled to a 1 and a 1: the natural 1 fails under this ruling.
    events = table.play("a", {"type": "reroll"}, faces=[1, 1])
    resolved = next(e for e in events if e["kind"] == "test_resolved")
    assert resolved["payload"]["success"] is False
    # Under CF's ruling the odds are the dice's own: against 7, a '1' after
    # the six gives 5 + 1 = 6 and fails by the numbers (II-A-1), no more.
    table = magic_table()
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    table.play("a", cast(spell="Boule de feu"))  # POU 5 against 7
    table.play("a", {"type": "roll"}, faces=[6])
    assert "natural_one" not in table.state["pending"]
    assert choice_odds(table.state["pending"])["reroll"] == "5/6"


def test_a_spell_is_cast_in_its_magician_s_activation_only():
    table = magic_table()
    table.refuses("b", cast(fighter="b1.1", spell="Brume"), ".")
    table.play("a", {"type": "end_activation"})
    table.refuses("a", cast(), ".")


# --- miracles (XI) ------------------------------------------------------------


def call(miracle="Bénédiction", **fields):
    return {"type": "call", "fighter": "a2.1", "miracle": miracle, **fields}


def faithful_table(**rulings) -> Table:
    table = magic_table(**rulings)
    table.play("a", {"type": "end_activation"})
    table.play("b", {"type": "draw", "action": "draw"})
    table.play("b", {"type": "end_activation"})
    table.play("a", {"type": "draw", "action": "draw"})
    assert table.state["active"]["fighters"] == ["a2.1"]
    return table


def test_a_faithful_calls_a_miracle_of_his_cult_with_the_fervour_he_chooses():
    """ "Fervour. Printed; or chosen just before the roll, never above the
    remaining T.F. [read] M12"; the fervour paid in T.F. [inferred] M12, M16;
    the divination roll: HR-F2, 1d6 + current FOI >= Difficulty."""
    table = faithful_table()
    entries = [e for e in legal_actions(table.state, "a") if e["type"] == "call"]
    assert entries == [
        {
            "type": "call",
            "fighter": "a2.1",
            "choices": {"miracle": ["Bénédiction", "Prière"]},
        }
    ]
    table.refuses("a", call("Courroux"), "another cult")
    table.refuses("a", call(fervour=5), "fervour")
    events = table.play("a", call(fervour=3, target="a1.1"))
    assert kinds(events) == ["miracle_called", "pending_set"]
    assert table.state["fighters"]["a2.1"]["faith"] == 1
    pending = table.state["pending"]
    assert pending["difficulty"] == 7  # "fervour+4"
    assert pending["context"]["characteristic"] == "FOI" and pending["value"] == 4
    table.play("a", {"type": "roll"}, faces=[3])
    (effect,) = table.state["effects"]
    assert effect["kind"] == "miracle" and effect["duration"] == "end_of_turn"
    # A universal miracle with a printed fervour of 2: 1 faith left is not enough.
    table.refuses("a", call("Prière"), "not enough")


def test_a_power_test_the_dice_cannot_miss_passes_once_the_counter_window_closes():
    """II-A-1 (CF, the ``natural_one`` default): POU 5 against 6 cannot fail.
    Its effect follows a pass (§3.7), so no roll is asked; the adversary is
    still asked first whether to counter (§3.4)."""
    table = magic_table()
    events = table.play("a", cast(spell="Aura de lumière", target="a2.1"))
    assert kinds(events) == ["spell_cast", "pending_set"]  # the counter window
    assert waiting_for(table.state) == {"b"}
    # No die is drawn: the scripted dice hold none.
    events = table.play(
        "b", {"type": "counter", "fighter": "b1.1", "pay": False}, faces=[]
    )
    assert kinds(events)[0] == "test_certain"
    assert "pending_set" not in kinds(events)
    certain = events[0]["payload"]
    assert certain["context"]["cast"]["spell"] == "Aura de lumière"
    assert certain["house_ruling"] == "natural_one"
    (effect,) = table.state["effects"]
    assert effect["name"] == "Aura de lumière" and effect["fighter"] == "a2.1"
    assert table.state["pending"] is None
    assert waiting_for(table.state) == {"a"}  # his activation goes on
    assert replay(table.events) == table.state


def test_a_miracle_test_the_dice_cannot_miss_passes_without_a_roll():
    """HR-F2's default (1d6 + FOI against the difficulty) with II-A-1: FOI 4
    against "fervour+4" with a fervour of 1 cannot fail."""
    table = faithful_table()
    events = table.play("a", call(fervour=1, target="a1.1"), faces=[])
    assert kinds(events)[:2] == ["miracle_called", "test_certain"]
    assert table.state["pending"] is None
    (effect,) = table.state["effects"]
    assert effect["kind"] == "miracle" and effect["fighter"] == "a1.1"
    assert table.state["fighters"]["a2.1"]["faith"] == 3
    assert replay(table.events) == table.state


@settings(max_examples=40, deadline=None)
@given(hs.integers(1, 12), hs.sampled_from(["no_automatic_failure", "fails"]))
def test_a_power_test_waits_unless_the_ruled_odds_are_certain(difficulty, natural_one):
    """The test is passed at once exactly when it cannot fail under the ruling
    in force; otherwise it waits with those odds."""
    game = magic_setup(natural_one=natural_one)
    game["spells"]["Essai"] = {
        "cost": {"fire": 1},
        "difficulty": difficulty,
        "frequency": None,
    }
    game["sides"]["a"]["cards"][0]["spells"].append("Essai")
    game["sides"]["b"]["cards"][0]["gems"] = {}  # nobody counters
    table = magic_table_from(game)
    events = table.play("a", cast(spell="Essai"), faces=[])
    certain = natural_one == "no_automatic_failure" and 5 + 1 >= difficulty
    if certain:
        assert "test_certain" in kinds(events) and table.state["pending"] is None
    else:
        assert kinds(events) == ["spell_cast", "pending_set"]
        assert table.state["pending"]["odds"] != "1/1"
    assert replay(table.events) == table.state


# --- properties ----------------------------------------------------------------


def _random_magic_game(seed: int, steps: int) -> Table:
    rng = random.Random(seed)
    table = magic_table()
    for _ in range(steps):
        state = table.state
        side = rng.choice(sorted(waiting_for(state)))
        entries = [
            e
            for e in legal_actions(state, side)
            if e["type"]
            in (
                "cast",
                "counter",
                "roll",
                "reroll",
                "keep",
                "end_activation",
                "draw",
                "call",
            )
        ]
        if not entries:
            break
        entry = rng.choice(entries)
        command = {k: v for k, v in entry.items() if k != "choices"}
        for field, allowed in entry.get("choices", {}).items():
            command[field] = rng.choice(allowed)
        if command["type"] == "cast":
            element = rng.choice(["fire", "air", "light", "water"])
            command["extra"] = {element: rng.randint(0, 2)}
        before = copy.deepcopy(state)
        try:
            table.play(side, command, None)
        except IllegalAction:
            assert table.state == before
            continue
        check_invariants(table)
        if state["phase"] != "activation":
            break
    return table


def check_invariants(table: Table) -> None:
    state = table.state
    for fighter in state["fighters"].values():
        if fighter.get("gems") is not None:
            assert all(n >= 0 for n in fighter["gems"].values())
    for casts in state["casts"].values():
        for spell, count in casts.items():
            frequency = state["spells"][spell]["frequency"]
            assert frequency is None or count <= frequency


@settings(max_examples=25, deadline=None)
@given(hs.integers(0, 10**6))
def test_gems_never_go_negative_and_frequencies_hold(seed):
    table = _random_magic_game(seed, 40)
    assert replay(table.events) == table.state
    for fighter_id, fighter in table.state["fighters"].items():
        if fighter.get("gems") is not None:
            assert (
                replay(table.events)["fighters"][fighter_id]["gems"] == fighter["gems"]
            )


@settings(max_examples=25, deadline=None)
@given(hs.integers(0, 10**6), hs.integers(0, 3))
def test_a_countered_spell_always_spends_its_gems_and_has_no_effect(seed, extra):
    rng = random.Random(seed)
    table = magic_table()
    spell = rng.choice(["Boule de feu", "Aura de lumière"])
    table.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {"darkness": 3}})
    before = gems(table, "a1.1")
    extra_gems = (
        {"fire": min(extra, before.get("fire", 0) - 2)}
        if spell == "Boule de feu"
        else {}
    )
    extra_gems = {k: v for k, v in extra_gems.items() if v > 0}
    table.play("a", cast(spell=spell, extra=extra_gems, target="a2.1"))
    table.play("b", {"type": "counter", "fighter": "b1.1", "pay": True})
    spent = sum(before.values()) - sum(gems(table, "a1.1").values())
    cost = table.state["spells"][spell]["cost"]
    assert spent == sum(cost.values()) + sum(extra_gems.values())
    assert table.state["effects"] == [] and table.state["pending"] is None
    assert is_listed(table.state, "a", {"type": "end_activation"})
    assert replay(table.events) == table.state


@settings(max_examples=8, deadline=None)
@given(hs.integers(0, 10**6))
def test_in_games_with_magic_legal_actions_are_accepted_and_the_rest_refused(seed):
    """RULES_API "The game": what ``legal_actions`` lists (casts, counters,
    calls included) ``decide`` accepts; a made-up command outside it is
    refused and changes nothing."""
    rng = random.Random(seed)
    table = magic_table()
    for _ in range(30):
        check_state(table.state, rng, made_up=3)
        side = rng.choice(sorted(waiting_for(table.state)))
        entries = [
            e
            for e in legal_actions(table.state, side)
            if e["type"] not in ("concede", "call_time", "set_mystic", "record_effect")
        ]
        if not entries or table.state["phase"] != "activation":
            break
        entry = rng.choice(entries)
        table.play(side, example_command(table.state, side, entry, rng))


def test_a_formula_difficulty_is_worked_out_from_the_caster_or_the_target():
    """ "Difficulty forms | number · formula (target's STR/ATT/RES/FEAR + k;
    caster's POW + k; chosen fervour + k) · "free" [...] · special | [read] M12" """
    game = magic_setup()
    game["spells"].update(
        {
            "Volonté": {
                "cost": {"fire": 1},
                "difficulty": "POT + 3",
                "frequency": None,
            },
            "Étreinte": {"cost": {"air": 1}, "difficulty": "RES+3", "frequency": None},
            "Libre": {"cost": {"fire": 1}, "difficulty": "libera", "frequency": None},
        }
    )
    game["sides"]["a"]["cards"][0]["spells"] += ["Volonté", "Étreinte", "Libre"]
    game["sides"]["b"]["cards"][0]["gems"] = {}
    table = magic_table_from(game)
    entries = [e for e in legal_actions(table.state, "a") if e["type"] == "cast"]
    assert "Volonté" in entries[0]["choices"]["spell"]  # POU 5 + 3 = 8
    assert "Libre" not in entries[0]["choices"]["spell"]  # typed: not listed
    assert entries[1]["choices"]["spell"] == ["Étreinte"]
    assert "b2.1" in entries[1]["choices"]["target"]
    table.refuses("a", cast(spell="Étreinte"), "target")
    table.play("a", cast(spell="Étreinte", target="b2.1"))
    assert table.state["pending"]["difficulty"] == 6 + 3  # the Repenti's RES 6
    table.play("a", {"type": "roll"}, faces=[3])
    table.play("a", cast(spell="Volonté"))
    assert table.state["pending"]["difficulty"] == 8
    table.play("a", {"type": "roll"}, faces=[4])
    table.refuses("a", cast(spell="Libre"), "difficulty")
    table.play("a", cast(spell="Libre", difficulty=9))
    assert table.state["pending"]["difficulty"] == 9


def test_the_events_of_games_with_magic_have_the_described_fields():
    from rules.game.kinds import EVENT_KINDS

    for seed in range(6):
        table = _random_magic_game(seed, 40)
        for event in table.events:
            described = EVENT_KINDS[event["kind"]]
            payload = set(event["payload"])
            assert payload <= set(described.__annotations__), event["kind"]
            assert described.__required_keys__ <= payload, event["kind"]
    refunded = magic_table(gems_on_failure="refunded")
    refunded.play("b", {"type": "set_mystic", "fighter": "b1.1", "gems": {}})
    refunded.play("a", cast())  # Boule de feu: 1 + POU 5 fails its 7
    events = refunded.play("a", {"type": "roll"}, faces=[1])
    change = next(e for e in events if e["kind"] == "fighter_changed")
    assert set(change["payload"]) <= set(EVENT_KINDS["fighter_changed"].__annotations__)


def test_a_warrior_mage_casts_in_the_combat_phase_when_his_side_has_the_floor():
    """Ch. 4 [read] M2: "some fighters" cast or call in the combat phase;
    which ones [inferred]: the card's Guerrier-mage (the convention
    ``combat_casting``)."""
    from tests.support.magic_table import magic_table_from_setup

    game = magic_setup()
    game["sides"]["a"]["cards"][0]["skills"] = ["Guerrier-mage"]
    game["sides"]["b"]["cards"][0]["gems"] = {}
    table = magic_table_from_setup(game)
    table.play(
        "a", {"type": "set_contact", "one": "a1.1", "two": "b2.1", "contact": True}
    )
    for _step in range(20):
        if table.state["phase"] != "activation":
            break
        side = sorted(waiting_for(table.state))[0]
        kinds = {e["type"] for e in legal_actions(table.state, side)}
        command = "end_activation" if "end_activation" in kinds else "draw"
        table.play(
            side, {"type": command, **({"action": "draw"} if command == "draw" else {})}
        )
    assert table.state["phase"] == "combat"
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    for _step in range(10):  # to a moment side A has the floor, nothing pending
        state = table.state
        if waiting_for(state) == {"a"} and not state["pending"]:
            break
        side = sorted(waiting_for(state))[0]
        entry = next(
            e
            for e in legal_actions(state, side)
            if e["type"] in ("initiative", "roll", "place_dice", "keep")
        )
        command = {k: v for k, v in entry.items() if k != "choices"}
        command.update({f: v[0] for f, v in entry.get("choices", {}).items()})
        if command["type"] == "place_dice":
            command["attack"] = 1
        table.play(side, command)
    entries = [e for e in legal_actions(table.state, "a") if e["type"] == "cast"]
    assert entries and entries[0]["fighter"] == "a1.1"
    events = table.play("a", cast())
    assert events[0]["payload"]["declared"] is False
    table.play("a", {"type": "roll"}, faces=[4])
    assert table.state["phase"] == "combat" and table.state["pending"] is None
    # The faithful, no warrior-monk, calls nothing in the combat phase.
    table.refuses(
        "a", {"type": "call", "fighter": "a2.1", "miracle": "Prière"}, "warrior"
    )
