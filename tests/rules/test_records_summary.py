"""The end-of-game summary tells the true story (issue 31): a friendly-fire
kill is no foe eliminated, and the luck leaves typed faces out."""

from __future__ import annotations

from rules.game import new_game_event, summarize
from tests.support.table import setup


def _log(*kinds_payloads):
    start = new_game_event(setup())
    events = [{**start, "seq": 1, "action": 1}]
    for seq, (kind, side, payload) in enumerate(kinds_payloads, start=2):
        events.append(
            {"seq": seq, "action": seq, "kind": kind, "side": side, "payload": payload}
        )
    return start["payload"]["state"], events


def _wound(source, target, eliminated=True):
    return (
        "wound_rolled",
        "a",
        {
            "source": source,
            "target": target,
            "outcome": "killed",
            "eliminated": eliminated,
        },
    )


def test_a_friendly_fire_kill_is_counted_apart_not_as_a_foe_eliminated():
    # A's crossbowman kills a Repenti, then hits A's own Magistrat in a melee.
    state, events = _log(_wound("a2.1", "b1.1"), _wound("a2.2", "a1.1"))
    sides = summarize(state, events)["sides"]
    assert sides["a"]["eliminated_foes"] == 1
    assert sides["a"]["friendly_fire_losses"] == 1
    assert sides["b"]["eliminated_foes"] == 0
    assert sides["b"]["friendly_fire_losses"] == 0


def test_the_luck_leaves_out_the_tests_rolled_with_typed_faces():
    test = {"side": "a", "success": True, "odds": "1/2"}
    state, events = _log(("test_resolved", "a", test), ("test_resolved", "a", test))
    sides = summarize(state, events, typed=[3])["sides"]
    assert (sides["a"]["tests"], sides["a"]["typed_tests"]) == (1, 1)
    assert sides["a"]["successes"] == 1
    assert sides["a"]["expected"] == 0.5 and sides["a"]["luck"] == 0.5
