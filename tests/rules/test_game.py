"""A whole game through the rules engine: decide, evolve, replay, undo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.errors import IllegalAction
from rules.game import (
    choice_odds,
    replay,
    summarize,
    undo_target,
    waiting_for,
)
from tests.support.table import (
    Table,
    b1_charged_a1,
    card,
    play_whole_game,
    setup,
)


def test_IV_A_1_a_sequence_must_hold_every_card():
    table = Table()
    table.refuses("a", {"type": "set_sequence", "order": ["a1"]}, "Arbalétrier")
    table.refuses("a", {"type": "set_sequence", "order": ["a1", "a1"]}, "more than")


def test_IV_A_1_the_sequence_cannot_change_once_the_tactics_roll_is_made():
    table = Table()
    table.to_tactics_roll()
    table.play("a", {"type": "roll"}, faces=[3, 4])
    table.refuses("a", {"type": "set_sequence", "order": ["a2", "a1"]}, "cannot change")


def test_IV_A_2_an_ally_cannot_roll_the_tactics_roll():
    game_setup = setup()
    ally = dict(card("Mercenaire"), is_ally=True, people="Cadwallon")
    game_setup["sides"]["a"]["cards"].append(ally)
    table = Table(game_setup)
    table.refuses("a", {"type": "choose_tactics_fighter", "fighter": "a3.1"}, "ally")


def test_IV_A_2_the_tactics_roll_is_an_opposed_discipline_test():
    table = Table()
    table.to_tactics_roll()
    assert table.state["pending"]["values"] == {"a": 6, "b": 1}
    # 1 + 6 = 7 for A, 6 for B then a choice: B is behind and decides first.
    table.play("b", {"type": "roll"}, faces=[1, 6])
    assert table.state["pending"]["side"] == "b"
    odds = choice_odds(table.state["pending"])
    assert odds["best"] == "reroll"
    table.refuses("a", {"type": "reroll"}, "Side B decides")
    table.play("b", {"type": "reroll"}, faces=[5])
    assert table.state["tactics"]["winner"] == "b"
    table.refuses("a", {"type": "choose_first", "first": "a"}, "Tactics winner")


def test_IV_B_1_the_side_chosen_speaks_first_and_refusals_are_counted():
    table = Table()
    table.to_activation(first="b")
    assert table.state["draw"]["speaker"] == "b"
    assert table.state["draw"]["refusals"] == {"a": 0, "b": 1}
    table.refuses("a", {"type": "draw", "action": "draw"}, "side B's turn")


def test_a_draw_waits_until_the_other_side_has_finished_activating():
    table = Table()
    table.to_activation()
    table.play("a", {"type": "draw", "action": "draw"})
    table.refuses("b", {"type": "draw", "action": "draw"}, "still activating")
    table.play("a", {"type": "end_activation"})
    table.play("b", {"type": "draw", "action": "draw"})
    assert table.state["active"]["fighters"] == ["b1.1", "b1.2", "b1.3"]


def test_IV_B_1_a_reserve_then_a_refusal_play_no_card():
    table = Table()
    table.to_activation(first="b")
    table.play("b", {"type": "draw", "action": "refuse"})
    table.play("a", {"type": "draw", "action": "reserve"})
    assert table.state["active"] is None
    assert table.state["draw"]["reserved"]["a"] == "a1"
    table.play("b", {"type": "draw", "action": "draw"})
    table.play("b", {"type": "end_activation"})
    table.play("a", {"type": "draw", "action": "play_reserve_and_top"})
    assert table.state["active"]["cards"] == ["a1", "a2"]


def test_shooting_beyond_long_range_fails_without_a_die():
    table = Table()
    table.to_activation()
    table.play("a", {"type": "draw", "action": "draw"})
    table.play("a", {"type": "end_activation"})
    table.play("b", {"type": "draw", "action": "draw"})
    table.play("b", {"type": "end_activation"})
    table.play("a", {"type": "draw", "action": "draw"})
    events = table.play(
        "a", {"type": "shoot", "fighter": "a2.1", "target": "b1.1", "distance_cm": 31}
    )
    assert events[0]["payload"]["difficulty"] is None
    assert table.state["pending"] is None
    table.refuses(
        "a",
        {"type": "shoot", "fighter": "a2.1", "target": "b1.1", "distance_cm": 5},
        "already shot",
    )


def test_a_hit_into_a_melee_needs_the_split_roll_then_wounds():
    table = b1_charged_a1()
    table.play("a", {"type": "draw", "action": "draw"})
    table.play(
        "a",
        {"type": "shoot", "fighter": "a2.1", "target": "b1.1", "distance_cm": 15},
    )
    assert table.state["pending"]["difficulty"] == 7  # medium range
    table.play("a", {"type": "roll"}, faces=[4])  # 4 + TIR 4 = 8 >= 7
    assert table.state["pending"]["kind"] == "split"
    table.play("a", {"type": "roll"}, faces=[2])  # 1-3: our own Magistrat
    assert table.state["pending"]["context"]["target"] == "a1.1"
    # Crossbow FOR 6 against RES 6; dice 3 and 5: abdomen, row 5: serious.
    table.play("a", {"type": "roll"}, faces=[3, 5])
    assert table.state["fighters"]["a1.1"]["steps"] == 2


def test_a_whole_combat_with_a_parry_a_wound_and_the_upkeep():
    """VII-C (melee-sources.md §8): Initiative, placement (loser first),
    exchanges (winner first), parries, a wound roll; the combat ends by itself
    when no attack die is left, and the upkeep follows."""
    table = b1_charged_a1()
    table.play("a", {"type": "draw", "action": "draw"})
    table.play("a", {"type": "end_activation"})
    assert table.state["phase"] == "combat"
    table.refuses("b", {"type": "form_combats", "combats": "suggested"}, "Tactics")
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    # The only combat is fought without a tap; each side has one fighter in
    # it, named for the Initiative without a tap (VII-B, VII-C-2).
    combat = table.state["combat"]["combats"][0]
    assert table.state["combat"]["current"] == 0
    assert combat["initiative_fighters"] == {"a": "a1.1", "b": "b1.1"}
    assert table.state["pending"]["purpose"] == "initiative"
    table.play("b", {"type": "roll"}, faces=[5, 2])  # INI 4+5 = 9 against 4+2 = 6
    assert table.state["combat"]["combats"][0]["initiative"] == "a"
    # The loser places first (VII-C-1).
    table.refuses("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1}, "first")
    table.play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 1})
    table.play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 1})
    assert waiting_for(table.state) == {"a"}  # the winner attacks first
    table.refuses("b", {"type": "attack", "attacker": "b1.1", "target": "a1.1"}, "A")
    table.play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    table.play("b", {"type": "parry", "dice": 1})
    table.play("a", {"type": "roll"}, faces=[3])  # 3 + ATT 4 = 7
    assert table.state["pending"]["difficulty"] == 7
    table.play("b", {"type": "roll"}, faces=[2])  # 2 + DEF 4 = 6 < 7: hit
    # FOR 6 against RES 6; dice 3 and 5: abdomen, row 5: serious.
    table.play("a", {"type": "roll"}, faces=[3, 5])
    assert table.state["fighters"]["b1.1"]["steps"] == 2
    table.play("b", {"type": "attack", "attacker": "b1.1", "target": "a1.1"})
    table.play("a", {"type": "parry", "dice": 1})
    table.play("b", {"type": "roll"}, faces=[4])  # 4 + ATT 4 - 2 (serious) = 6
    table.play("a", {"type": "roll"}, faces=[4])  # 4 + DEF 4 = 8 >= 6: parried
    assert table.state["combat"]["combats"][0]["done"] is True
    assert table.state["phase"] == "upkeep"
    for item in list(table.state["upkeep"]["items"]):
        table.play(item.get("side") or "a", {"type": "tick_upkeep", "key": item["key"]})
    assert table.state["turn"] == 2
    assert table.state == replay(table.events)


def test_undo_reverts_the_last_action_and_only_yours():
    table = Table()
    table.play("a", {"type": "set_sequence", "order": ["a2", "a1"]})
    table.play("b", {"type": "set_sequence", "order": ["b1"]})
    with pytest.raises(IllegalAction, match="opponent"):
        undo_target(table.events, "a")
    table.undo("b")
    assert table.state["sequences"] == {"a": ["a2", "a1"], "b": None}
    table.undo("a")
    assert table.state["sequences"] == {"a": None, "b": None}
    with pytest.raises(IllegalAction, match="nothing to undo"):
        undo_target(table.events, "a")


def test_a_whole_six_turn_game_replays_to_the_same_state():
    table = play_whole_game(7)
    assert replay(table.events) == table.state
    summary = summarize(table.state, table.events)
    for side in ("a", "b"):
        assert summary["sides"][side]["tests"] > 0


@settings(max_examples=15, deadline=None)
@given(hs.integers(0, 10_000), hs.integers(1, 6))
def test_any_game_the_bot_plays_replays_exactly(seed, turns):
    table = play_whole_game(seed, turns)
    assert replay(table.events) == table.state
    assert table.state["turn"] <= turns
