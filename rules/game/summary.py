"""The end-of-game summary read from the log: survivors, wounds, luck.

Luck compares, for each side, the expected number of successes (the sum of
the exact odds logged before each of its rolls) with the successes the dice
gave: a side that won more tests than the odds promised was lucky.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.game.evolve import effective_events
from rules.game.state import SIDES, State, fighters_of
from rules.wounds import WOUND_STEPS


def _fraction(text: str) -> Fraction:
    return Fraction(text)


def _tests_of(
    kind: str, payload: Mapping[str, Any]
) -> list[tuple[str, bool, Fraction]]:
    """The tests an event resolves: each side's success and its odds."""
    if kind == "test_resolved":
        return [(payload["side"], payload["success"], _fraction(payload["odds"]))]
    if kind == "upkeep_ticked" and payload.get("regeneration"):
        roll = payload["regeneration"]  # Régénération/X's roll (IV-D-3)
        return [(roll["side"], roll["success"], _fraction(roll["odds"]))]
    if kind in ("tactics_won", "opposed_resolved"):
        p_a = _fraction(payload["odds"])
        return [
            (side, payload["winner"] == side, p)
            for side, p in (("a", p_a), ("b", 1 - p_a))
        ]
    return []


def summarize(
    state: State,
    events: Sequence[Mapping[str, Any]],
    typed: Iterable[int] = (),
) -> dict[str, Any]:
    """Survivors, wounds dealt and luck per side, from the effective log.

    ``typed``: the actions whose faces were typed from real dice; each side's
    ``typed_tests`` counts its tests among them, left out of ``tests``,
    ``successes``, ``expected`` and ``luck`` (the app's odds against the
    app's dice: typed faces are the table's luck, not the app's).
    ``eliminated_foes`` counts the other side's fighters a side eliminated;
    ``friendly_fire_losses`` its own fighters it eliminated (a shot into a
    melee that hit a friend), counted apart.
    """
    typed_actions = set(typed)
    sides: dict[str, dict[str, Any]] = {
        side: {
            "survivors": [
                state["fighters"][f]["label"] for f in fighters_of(state, side)
            ],
            "fighters": len(fighters_of(state, side, living=False)),
            "wound_steps_dealt": 0,
            "eliminated_foes": 0,
            "friendly_fire_losses": 0,
            "tests": 0,
            "successes": 0,
            "expected": Fraction(0),
            "typed_tests": 0,
        }
        for side in SIDES
    }
    for event in effective_events(events):
        payload = event.get("payload") or {}
        kind = event["kind"]
        typed_roll = event.get("action") in typed_actions
        for side, success, odds in _tests_of(kind, payload):
            if typed_roll:  # the table's own dice: no luck of the app's
                sides[side]["typed_tests"] += 1
                continue
            sides[side]["tests"] += 1
            sides[side]["successes"] += int(success)
            sides[side]["expected"] += odds
        if kind == "wound_rolled":
            target_side = state["fighters"][payload["target"]]["side"]
            source_side = state["fighters"][payload["source"]]["side"]
            steps = WOUND_STEPS.get(payload["outcome"], 0)
            killed = int(payload["eliminated"])
            sides[source_side]["wound_steps_dealt"] += steps
            if source_side == target_side:
                # A shot into a melee that hit a friend: no foe eliminated
                # (the army points row counts the fallen friend for the
                # other side, as every fallen fighter).
                sides[source_side]["friendly_fire_losses"] += killed
            else:
                sides[source_side]["eliminated_foes"] += killed
    for data in sides.values():
        data["luck"] = float(data["successes"] - data["expected"])
        data["expected"] = float(data["expected"])
    return {"sides": sides}
