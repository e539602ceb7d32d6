"""Cri de ralliement (Rallying Cry), IX: as far as the sources establish it.

``rules-data/magic-faith-sources.md`` §5 [read] M10 (and ``melee-sources.md``
§3, S11): "Rallying Cry: once per game, at the start of a strategic phase.
All friendly routed fighters rally automatically, and friends get +1 to
Courage tests until the end of the round."

Played as read: a fighter with the ability (printed "Cri de ralliement" or
"Rallying Cry") may sound it once in the game, in the strategic phase before
the Tactics roll ("at the start"); every routed fighter of its side rallies
without a test, and its side's Courage tests get +1 until the end of the
turn (``courage_bonus``, read by ``rules.game.fear``). What the sources do
not say is not played: whether a routed fighter may sound it, and whether
the +1 counts for the upkeep's rally test (not read as a Courage test).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.commands import CommandKind, id_field
from rules.game.common import Batch, Command, State, label_of, own_fighter
from rules.game.follows import follows
from rules.melee import ability

TURN_PLACE = 60  # its commands' place in legal_actions

SECTION = "IX"
NAMES = ("Cri de ralliement", "Rallying Cry")


def has_rallying_cry(state: State, fighter_id: str) -> bool:
    skills = st.card_of(state, fighter_id)["skills"]
    return any(ability(skills, name)[0] for name in NAMES)


def _sounded(state: State) -> dict[str, int]:
    """``{fighter: turn}``: the cries sounded this game."""
    return state.get("rallying_cries") or {}


def courage_bonus(state: State, side: str) -> int:
    """+1 to ``side``'s Courage tests when one of its fighters sounded the cry
    this turn ("friends get +1 to Courage tests until the end of the round")."""
    for fighter_id, turn in _sounded(state).items():
        if turn == state["turn"] and state["fighters"][fighter_id]["side"] == side:
            return 1
    return 0


def _problem(state: State, side: str, fighter_id: str) -> IllegalAction | None:
    if state["phase"] != "strategic" or state["tactics"]["winner"] is not None:
        return IllegalAction(
            _(
                "A Rallying Cry is sounded at the start of a strategic phase, "
                "before the Tactics roll (IX)."
            )
        )
    if state["pending"] and state["pending"].get("roll"):
        return IllegalAction(_("The Tactics roll is under way."))
    label = label_of(state, fighter_id)
    if state["fighters"][fighter_id]["eliminated"]:
        return IllegalAction(_("{fighter} is eliminated."), fighter=label)
    if not has_rallying_cry(state, fighter_id):
        return IllegalAction(_("{fighter} has no Rallying Cry."), fighter=label)
    if fighter_id in _sounded(state):
        return IllegalAction(
            _("{fighter} already sounded its Rallying Cry: once per game (IX)."),
            fighter=label,
        )
    return None


def legal_rallying_cry(state: State, side: str) -> list[dict[str, Any]]:
    if state["phase"] != "strategic":
        return []
    return [
        {"type": "rallying_cry", "fighter": fighter_id}
        for fighter_id in st.fighters_of(state, side)
        if _problem(state, side, fighter_id) is None
    ]


def rallying_cry(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    problem = _problem(state, side, fighter_id)
    if problem is not None:
        raise problem
    rallied = [
        f
        for f in st.fighters_of(state, side)
        if state["fighters"][f]["routed"] and not state["fighters"][f]["eliminated"]
    ]
    batch.emit(
        "rallying_cry",
        {
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
            "side": side,
            "turn": state["turn"],
            "rallied": rallied,
            "rallied_labels": [label_of(state, f) for f in rallied],
            "section": SECTION,
        },
    )


@follows("evolve_rallying_cry")
def evolve_rallying_cry(state: State, payload: Mapping[str, Any]) -> None:
    """The cry sounded: recorded for the game (once), its side's routed
    fighters rallied."""
    sounded = dict(_sounded(state))
    sounded[payload["fighter"]] = payload["turn"]
    state["rallying_cries"] = sounded
    fighters = dict(state["fighters"])
    for fighter_id in payload["rallied"]:
        fighters[fighter_id] = {**fighters[fighter_id], "routed": False}
    state["fighters"] = fighters


# --- the command, declared once (rules.game.commands) ---------------------------


class RallyingCry(CommandKind):
    """Cri de ralliement (IX): sounded once per game by a fighter with it, at
    the start of a strategic phase (listed while the side waits)."""

    type = "rallying_cry"
    section = SECTION
    anytime = True
    fields = (id_field("fighter"),)
    legal = staticmethod(legal_rallying_cry)
    apply = staticmethod(rallying_cry)


__all__ = [
    "courage_bonus",
    "evolve_rallying_cry",
    "has_rallying_cry",
    "legal_rallying_cry",
    "rallying_cry",
]
