"""The upkeep phase (IV-D): the checklist ticked in order, then the next turn."""

from __future__ import annotations

from typing import Any

from rules.errors import IllegalAction, Words, _
from rules.game import state as st
from rules.game.common import Batch, Command, State, require_phase
from rules.upkeep import UpkeepFighter, upkeep_checklist


def start_upkeep(batch: Batch) -> None:
    state = batch.state
    fighters = []
    for fighter_id, data in state["fighters"].items():
        if data["eliminated"]:
            continue
        card = st.card_of(state, fighter_id)
        fighters.append(
            UpkeepFighter(
                name=data["label"],
                routed=data["routed"],
                faithful=card["profile"].get("FOI") is not None,
                magician=card["profile"].get("POU") is not None,
                stunned=data["stunned"],
                charged=data["charged"],
                skills=tuple(card["skills"]),
            )
        )
    by_label = {d["label"]: f for f, d in state["fighters"].items()}
    items = [
        {
            "key": item.key,
            "step": item.step.name.lower(),
            "section": item.section,
            "label_fr": item.label_fr,
            "label_en": item.label_en,
            "fighter": by_label.get(item.fighter) if item.fighter else None,
        }
        for item in upkeep_checklist(fighters)
    ]
    batch.emit(
        "step_changed", {"phase": "upkeep", "step": "checklist", "pending": None}
    )
    batch.emit("upkeep_started", {"upkeep": {"items": items, "ticked": []}})
    if not items:
        _end_turn(batch)


def legal_tick_upkeep(state: State, side: str) -> list[dict[str, Any]]:
    upkeep = state["upkeep"]
    if state["phase"] != "upkeep" or not upkeep:
        return []
    remaining = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
    if not remaining:
        return []
    return [{"type": "tick_upkeep", "choices": {"key": [remaining[0]["key"]]}}]


def tick_upkeep(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "upkeep")
    upkeep = state["upkeep"]
    key = command.get("key")
    remaining = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
    if not remaining:
        raise IllegalAction(_("The upkeep checklist is done."))
    item = next((i for i in upkeep["items"] if i["key"] == key), None)
    if item is None:
        raise IllegalAction(_("That item is not on this upkeep checklist."))
    if item["key"] in upkeep["ticked"]:
        raise IllegalAction(_("This upkeep item is already done."))
    if remaining[0]["key"] != key:
        raise IllegalAction(
            _("Do '{item}' first: the upkeep phase runs in order ({section})."),
            item=Words(remaining[0]["label_en"], remaining[0]["label_fr"]),
            section=remaining[0]["section"],
        )
    changes = []
    fighter_id = item["fighter"]
    if item["step"] == "rally" and fighter_id and command.get("rallied"):
        changes.append({"fighter": fighter_id, "changes": {"routed": False}})
    if item["step"] in ("faith", "mana") and fighter_id:
        value = command.get("value")
        if value is not None:
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not (0 <= value <= 99)
            ):
                raise IllegalAction(_("A mystic reserve counts 0 to 99."))
            changes.append({"fighter": fighter_id, "changes": {item["step"]: value}})
    if item["step"] == "markers" and fighter_id:
        if key.endswith(":sonné"):
            changes.append({"fighter": fighter_id, "changes": {"stunned": False}})
        elif key.endswith(":chargé"):
            changes.append({"fighter": fighter_id, "changes": {"charged": False}})
    batch.emit(
        "upkeep_ticked",
        {
            "key": key,
            "label_en": item["label_en"],
            "label_fr": item["label_fr"],
            "section": item["section"],
            "changes": changes,
            "rallied": bool(command.get("rallied"))
            if item["step"] == "rally"
            else None,
        },
    )
    if len(remaining) == 1:
        _end_turn(batch)


def _end_turn(batch: Batch) -> None:
    state = batch.state
    if state["turn"] >= state["turns"]:
        batch.emit("game_finished", {"reason": "last_turn", "winner": None})
        return
    batch.emit("turn_started", {"turn": state["turn"] + 1})
