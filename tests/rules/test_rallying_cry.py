"""Cri de ralliement (Rallying Cry), IX: each test quotes the line of
``rules-data/magic-faith-sources.md`` §5 it checks: "Rallying Cry: once per
game, at the start of a strategic phase. All friendly routed fighters rally,
and friends get +1 to Courage until the end of the round." ([read] M10)"""

from __future__ import annotations

from rules.game import legal_actions, replay
from tests.support.melee import fighter_card
from tests.support.table import Table


def wolfen(peur=6):
    return fighter_card("Wolfen", 1, PEUR=peur, COU=None)


def start(a_cards, b_cards=None):
    game = {
        "turns": 2,
        "sides": {
            "a": {"name": "Anne", "cards": a_cards},
            "b": {"name": "Bruno", "cards": b_cards or [wolfen()]},
        },
    }
    return Table(game, seed="cry")


def crier(**profile):
    return fighter_card("Héraut", 1, skills=["Cri de ralliement"], **profile)


def test_IX_the_cry_rallies_every_routed_friend_without_a_test():
    """§5: "All friendly routed fighters rally" (automatically, melee §3)."""
    table = start([crier(COU=4), fighter_card("Garde", 2, COU=2)])
    for fighter in ("a2.1", "a2.2"):
        table.play("a", {"type": "set_routed", "fighter": fighter, "routed": True})
    assert {"type": "rallying_cry", "fighter": "a1.1"} in legal_actions(
        table.state, "a"
    )
    events = table.play("a", {"type": "rallying_cry", "fighter": "a1.1"})
    (cry,) = [e["payload"] for e in events if e["kind"] == "rallying_cry"]
    assert cry["rallied"] == ["a2.1", "a2.2"] and cry["section"] == "IX"
    assert not any(table.state["fighters"][f]["routed"] for f in ("a2.1", "a2.2"))
    assert table.state["pending"] is None  # no test asked
    assert table.state == replay(table.events)


def test_IX_the_cry_is_sounded_once_per_game():
    """§5: "once per game"."""
    table = start([crier(COU=4)])
    table.play("a", {"type": "rallying_cry", "fighter": "a1.1"})
    table.refuses("a", {"type": "rallying_cry", "fighter": "a1.1"}, "once per game")
    assert not [
        e for e in legal_actions(table.state, "a") if e["type"] == "rallying_cry"
    ]


def test_IX_the_cry_is_sounded_at_the_start_of_a_strategic_phase_only():
    """§5: "at the start of a strategic phase": not once the Tactics roll is
    made, nor by a fighter without the ability."""
    table = start([crier(COU=4), fighter_card("Garde", COU=2)])
    table.refuses("a", {"type": "rallying_cry", "fighter": "a2.1"}, "no Rallying")
    table.refuses("b", {"type": "rallying_cry", "fighter": "a1.1"}, "not yours")
    table.play("a", {"type": "set_sequence", "order": ["a1", "a2"]})
    table.play("b", {"type": "set_sequence", "order": ["b1"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[5, 1])
    table.refuses(
        "a", {"type": "rallying_cry", "fighter": "a1.1"}, "start of a strategic"
    )


def test_IX_friends_get_plus_one_to_courage_tests_this_turn():
    """§5: "friends get +1 to Courage until the end of the round": a Garde
    (COU 2) charging a PEUR 6 wolfen tests with 3 this turn."""
    table = start([crier(COU=4), fighter_card("Garde", COU=2)])
    table.play("a", {"type": "rallying_cry", "fighter": "a1.1"})
    table.play("a", {"type": "set_sequence", "order": ["a2", "a1"]})
    table.play("b", {"type": "set_sequence", "order": ["b1"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    table.play("b", {"type": "choose_tactics_fighter", "fighter": "b1.1"})
    table.play("a", {"type": "roll"}, faces=[5, 1])
    table.play("a", {"type": "choose_first", "first": "a"})
    table.play("a", {"type": "draw", "action": "draw"})
    table.play(
        "a",
        {"type": "declare", "fighter": "a2.1", "action": "charge", "targets": ["b1.1"]},
    )
    pending = table.state["pending"]
    assert (pending["value"], pending["difficulty"]) == (3, 6)
    assert pending["context"]["rallying_cry"] == 1
    assert "war_cry" not in pending["context"]
