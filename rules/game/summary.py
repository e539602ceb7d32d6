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


def summarize(
    state: State,
    events: Sequence[Mapping[str, Any]],
    typed: Iterable[int] = (),
) -> dict[str, Any]:
    """Survivors, wounds dealt and luck per side, from the effective log.

    ``typed``: the actions whose faces were typed from real dice; each side's
    ``typed_tests`` counts its tests among them (their luck is the table's).
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
        before = {side: sides[side]["tests"] for side in SIDES}
        if kind == "test_resolved":
            side = payload["side"]
            sides[side]["tests"] += 1
            sides[side]["successes"] += int(payload["success"])
            sides[side]["expected"] += _fraction(payload["odds"])
        elif kind == "upkeep_ticked" and payload.get("regeneration"):
            roll = payload["regeneration"]  # Régénération/X's roll (IV-D-3)
            sides[roll["side"]]["tests"] += 1
            sides[roll["side"]]["successes"] += int(roll["success"])
            sides[roll["side"]]["expected"] += _fraction(roll["odds"])
        elif kind in ("tactics_won", "opposed_resolved"):
            p_a = _fraction(payload["odds"])
            for side, p in (("a", p_a), ("b", 1 - p_a)):
                sides[side]["tests"] += 1
                sides[side]["expected"] += p
                sides[side]["successes"] += int(payload["winner"] == side)
        elif kind == "wound_rolled":
            target_side = state["fighters"][payload["target"]]["side"]
            dealer = "b" if target_side == "a" else "a"
            if state["fighters"][payload["source"]]["side"] == target_side:
                dealer = target_side  # a shot into a melee that hit a friend
            sides[dealer]["wound_steps_dealt"] += WOUND_STEPS.get(payload["outcome"], 0)
            sides[dealer]["eliminated_foes"] += int(payload["eliminated"])
        if event.get("action") in typed_actions:
            for side in SIDES:
                sides[side]["typed_tests"] += sides[side]["tests"] - before[side]
    for data in sides.values():
        data["luck"] = float(data["successes"] - data["expected"])
        data["expected"] = float(data["expected"])
    return {"sides": sides}
