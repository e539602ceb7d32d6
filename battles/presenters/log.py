"""The game's log in words: one line per event, with turn, phase and section.

"Tour 2 · Activation · Garde d'Alahan : Blessure légère à l'abdomen (II-B-1)".
Hidden information stays hidden: a reserved card or an activation sequence is
named only to the side that owns it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from battles.presenters.game.tests import describe as describe_table_roll
from battles.presenters.words import (
    RANGE_BANDS,
    action_word,
    location_word,
    outcome_word,
    pending_title,
    phase_word,
    side_word,
)
from rules.game import undone_actions


@dataclass(frozen=True)
class LogLine:
    seq: int
    turn: int
    phase: str
    side: str | None
    text: str
    section: str
    undone: bool
    disputed: bool
    faces: tuple[int, ...] = ()


def _faces(faces: Sequence[int]) -> str:
    return " ".join(f"[{face}]" for face in faces)


def _names(labels: Iterable[str]) -> str:
    return ", ".join(labels)


def _describe(
    event: Mapping[str, Any],
    viewer_sides: Sequence[str],
    labels: Mapping[str, str],
) -> tuple[str, str] | None:
    """(text, section) for an event, or None for bookkeeping events."""
    kind = event["kind"]
    p = event.get("payload") or {}
    side = event.get("side")
    who = side_word(side) if side else ""
    table_roll = describe_table_roll(event, labels)  # tests, scatter, effects
    if table_roll is not None:
        return table_roll
    mine = side in viewer_sides
    if kind == "game_started":
        sides = p["state"]["sides"]
        return (
            _("Game started: %(a)s against %(b)s, %(turns)s turns.")
            % {
                "a": sides["a"]["name"],
                "b": sides["b"]["name"],
                "turns": p["state"]["turns"],
            },
            "",
        )
    if kind == "sequence_set":
        return _("%(side)s set its activation sequence.") % {"side": who}, "IV-A-1"
    if kind == "tactics_fighter_set":
        return "", ""
    if kind == "roll_updated":
        pending = p["pending"]
        if p.get("reroll") is False:
            return _("%(side)s keeps the six.") % {"side": who}, "II-A-1"
        if p.get("reroll"):
            text = _("%(side)s rerolls the six: %(faces)s.")
            return text % {"side": who, "faces": _faces(p["faces"])}, "II-A-1"
        return (
            _("Roll for %(what)s: %(faces)s.")
            % {"what": pending_title(pending, labels), "faces": _faces(p["faces"])},
            pending.get("section", ""),
        )
    if kind == "tactics_won":
        final_a, final_b = p["rounds"][-1]
        return (
            _("Tactics roll: %(winner)s wins, %(a)s against %(b)s.")
            % {"winner": side_word(p["winner"]), "a": final_a, "b": final_b},
            "IV-A-2",
        )
    if kind == "first_chosen":
        return _("%(side)s will speak first.") % {"side": side_word(p["first"])}, (
            "IV-B-1"
        )
    if kind == "cards_played":
        action = p["action"]
        cards = _names(p.get("card_names", []))
        texts = {
            "draw": _("%(side)s draws %(cards)s."),
            "reserve": _("%(side)s puts a card in reserve."),
            "play_reserve": _("%(side)s plays its reserve: %(cards)s."),
            "play_reserve_and_top": _(
                "%(side)s plays its reserve and its top card: %(cards)s."
            ),
            "refuse": _("%(side)s uses a refusal."),
        }
        text = texts.get(action, "%(side)s")
        if action == "reserve" and mine:
            text = _("%(side)s puts a card in reserve.")
        return text % {"side": who, "cards": cards}, "IV-B-1"
    if kind == "activation_ended":
        return _("%(side)s ends its activation.") % {"side": who}, "IV-B-2"
    if kind == "action_declared":
        values = {
            "fighter": p["label"],
            "action": action_word(p["action"]),
            "cm": p.get("move_cm"),
        }
        if p["action"] == "shoot":
            values.update(target=p["target_label"], cm=p["distance_cm"])
            if p.get("difficulty") is None:
                return (
                    _(
                        "%(fighter)s shoots %(target)s at %(cm)s cm: beyond long "
                        "range, the shot fails."
                    )
                    % values,
                    "Tir",
                )
            values["difficulty"] = p["difficulty"]
            values["band"] = str(RANGE_BANDS.get(p.get("band") or "", ""))
            return (
                _(
                    "%(fighter)s shoots %(target)s at %(cm)s cm: %(band)s, "
                    "difficulty %(difficulty)s."
                )
                % values,
                "Tir",
            )
        if p.get("targets"):
            values["targets"] = _names(p["target_labels"])
            return (
                _("%(fighter)s: %(action)s against %(targets)s (%(cm)s cm).") % values,
                "IV-B-2",
            )
        if values["cm"] is not None:
            return _("%(fighter)s: %(action)s (%(cm)s cm).") % values, "IV-B-2"
        return _("%(fighter)s: %(action)s.") % values, "IV-B-2"
    if kind == "test_resolved":
        values = {
            "what": pending_title(p, labels),
            "final": p["final"],
            "difficulty": p["difficulty"],
            "natural": p["natural"],
        }
        text = (
            _(
                "%(what)s: %(final)s against %(difficulty)s, success (natural "
                "%(natural)s)."
            )
            if p["success"]
            else _(
                "%(what)s: %(final)s against %(difficulty)s, failure (natural "
                "%(natural)s)."
            )
        )
        return text % values, p.get("section", "II-A-3")
    if kind == "disengaged":
        if p["success"]:
            return (
                _("%(fighter)s disengages and may move %(cm)s cm.")
                % {"fighter": p["label"], "cm": p["move_cm"]},
                "Désengagement",
            )
        return (
            _("%(fighter)s fails to disengage: all its combat dice go to defence.")
            % {"fighter": p["label"]},
            "Désengagement",
        )
    if kind == "split_rolled":
        return (
            _("Split roll %(face)s: the shot hits %(fighter)s.")
            % {"face": p["face"], "fighter": p["hits_label"]},
            "Tir dans la mêlée",
        )
    if kind == "wound_rolled":
        values = {
            "target": p["target_label"],
            "outcome": outcome_word(p["outcome"]),
            "location": location_word(p["location"]),
            "faces": _faces(p["faces"]),
        }
        text = _("%(target)s: %(outcome)s, %(location)s %(faces)s.") % values
        if p["eliminated"]:
            text += " " + _("Eliminated.")
        return text, "II-B-1"
    if kind == "contacts_changed":
        if "labels" in p:
            text = (
                _("%(one)s and %(two)s are now in contact.")
                if p["contact"]
                else _("%(one)s and %(two)s are no longer in contact.")
            )
            return text % {"one": p["labels"][0], "two": p["labels"][1]}, "II-E"
        return None
    if kind == "combat_updated":
        if "formed" in p:
            return _("The melees are split into %(n)s combat(s).") % {
                "n": len(p["formed"])
            }, "IV-C"
        if "chosen" in p:
            return _("%(side)s picks combat %(n)s.") % {
                "side": who,
                "n": p["chosen"] + 1,
            }, "IV-C"
        if "ended" in p:
            return _("Combat %(n)s is over.") % {"n": p["ended"] + 1}, "IV-C"
        if "dice_set" in p:
            return _("%(side)s sets combat dice.") % {"side": who}, "IV-C"
        pending = p.get("pending") or {}
        if pending.get("purpose") == "attack":
            return (
                _("%(what)s: ATT %(value)s against %(difficulty)s.")
                % {
                    "what": pending_title(pending, labels),
                    "value": pending["value"],
                    "difficulty": pending["difficulty"],
                },
                "IV-C",
            )
        if pending.get("purpose") == "parry":
            return (
                _("%(what)s: DEF %(value)s against %(difficulty)s.")
                % {
                    "what": pending_title(pending, labels),
                    "value": pending["value"],
                    "difficulty": pending["difficulty"],
                },
                "IV-C",
            )
        return None
    if kind == "pending_set":
        pending = p.get("pending") or {}
        if pending.get("purpose") == "disengage":
            return (
                _("%(what)s: difficulty %(difficulty)s.")
                % {
                    "what": pending_title(pending, labels),
                    "difficulty": pending["difficulty"],
                },
                "Désengagement",
            )
        if pending.get("purpose") == "shot":
            return None
        if pending.get("kind") == "wound":
            return _("%(side)s takes the blow without parrying.") % {
                "side": who
            }, "IV-C"
        return None
    if kind == "step_changed":
        if "phase" in p:
            return _("%(phase)s begins.") % {"phase": phase_word(p["phase"])}, ""
        return None
    if kind == "upkeep_ticked":
        label = p.get("label_en")
        from django.utils.translation import get_language

        if (get_language() or "fr").startswith("fr"):
            label = p.get("label_fr") or label
        text = pgettext("upkeep", "Done: %(item)s.") % {"item": label}
        if p.get("rallied") is True:
            text += " " + _("The fighter rallies.")
        return text, p.get("section", "IV-D")
    if kind == "turn_started":
        return _("Turn %(turn)s begins.") % {"turn": p["turn"]}, ""
    if kind == "fighter_changed":
        changes = p.get("changes", {})
        if "routed" in changes:
            if changes["routed"]:
                return _("%(fighter)s is routed.") % {"fighter": p["label"]}, "IV-D-1"
            return _("%(fighter)s rallies.") % {"fighter": p["label"]}, "IV-D-1"
        parts = []
        if "mana" in changes:
            parts.append(_("mana %(n)s") % {"n": changes["mana"]})
        if "faith" in changes:
            parts.append(_("temporary faith %(n)s") % {"n": changes["faith"]})
        return f"{p['label']}: {', '.join(parts)}.", "IV-D-2"
    if kind == "game_finished":
        reason = p.get("reason")
        if reason == "wiped_out":
            return _("Game over: an army was wiped out."), ""
        if reason == "conceded":
            return _("Game over: %(side)s conceded.") % {"side": who}, ""
        return _("Game over after the last turn."), ""
    if kind == "undone":
        if p.get("agreed_by"):
            text = _(
                "%(side)s undid its last action, which rolled dice, with "
                "%(other)s's agreement: the same roll gives the same faces."
            )
            return text % {"side": who, "other": side_word(p["agreed_by"])}, ""
        return _("%(side)s undid its last action.") % {"side": who}, ""
    if kind == "undo_requested":
        text = _("%(side)s asks to undo its last action, which rolled dice.")
        return text % {"side": who}, ""
    if kind == "undo_refused":
        return _("%(side)s refused the undo: the roll stands.") % {"side": who}, ""
    return None


# The phase before a step_changed into each phase (chapter 4: the phases of a
# turn always come in this order; an empty combat phase still opens and closes).
PREVIOUS_PHASE = {"activation": "strategic", "combat": "activation", "upkeep": "combat"}


def _forward_positions(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """(turn, phase) after each event, read from the start of the log."""
    positions = []
    turn, phase = 1, "strategic"
    for event in events:
        payload = event.get("payload") or {}
        if event["kind"] == "turn_started":
            turn, phase = payload["turn"], "strategic"
        elif event["kind"] == "step_changed" and "phase" in payload:
            phase = payload["phase"]
        positions.append((turn, phase))
    return positions


def _backward_positions(
    events: Sequence[Mapping[str, Any]], state: Mapping[str, Any]
) -> list[tuple[int, str]]:
    """(turn, phase) after each of the latest events, read back from the state.

    Lets the board show its last lines without reading the whole log.
    """
    turn, phase = state["turn"], state["phase"]
    if phase == "finished":
        phase = state["finished"]["in_phase"]
    positions = []
    for event in reversed(events):
        positions.append((turn, phase))
        payload = event.get("payload") or {}
        if event["kind"] == "turn_started":
            turn, phase = turn - 1, "upkeep"
        elif event["kind"] == "step_changed" and "phase" in payload:
            phase = PREVIOUS_PHASE.get(payload["phase"], phase)
    return list(reversed(positions))


def log_lines(
    events: Sequence[Mapping[str, Any]],
    viewer_sides: Sequence[str],
    *,
    disputed: Iterable[int] = (),
    state: Mapping[str, Any] | None = None,
) -> list[LogLine]:
    """The events worth a line, oldest first, with their turn and phase.

    ``events`` is the whole log, or with ``state`` (the game's snapshot) only
    its latest events: turn and phase are then read back from the state.
    """
    undone = undone_actions(events)
    disputed_seqs = set(disputed)
    if state is not None:
        fighters = state["fighters"]
        positions = _backward_positions(events, state)
    else:
        fighters = events[0]["payload"]["state"]["fighters"] if events else {}
        positions = _forward_positions(events)
    labels = {f: data["label"] for f, data in fighters.items()}
    lines = []
    for event, (turn, phase) in zip(events, positions, strict=True):
        payload = event.get("payload") or {}
        described = _describe(event, viewer_sides, labels)
        if not described or not described[0]:
            continue
        text, section = described
        faces = (
            tuple(payload.get("faces", ())) if event["kind"] == "roll_updated" else ()
        )
        lines.append(
            LogLine(
                seq=event["seq"],
                turn=turn,
                phase=phase_word(phase),
                side=event.get("side"),
                text=text,
                section=section,
                undone=event["action"] in undone,
                disputed=event["seq"] in disputed_seqs,
                faces=faces,
            )
        )
    return lines
