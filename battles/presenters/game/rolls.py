"""Rolls in every phase (II-A): the panel that asks for a roll or a six's
decision, and the log's wording of rolls, tests and wounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from battles.presenters.game.common import Panel, labels, percent
from battles.presenters.words import (
    OUTCOMES,
    location_word,
    outcome_word,
    pending_title,
    side_word,
)
from rules.game import choice_odds, who_decides

KINDS = ("test", "opposed", "wound", "split")


def faces_text(faces: Sequence[int]) -> str:
    return " ".join(f"[{face}]" for face in faces)


def panel(state: Mapping[str, Any], pending: Mapping[str, Any]) -> Panel:
    """The roll asked for now, or the decision about a six already rolled."""
    if pending["kind"] in ("test", "opposed") and pending.get("roll"):
        return _six_panel(state, pending)
    kind = pending["kind"]
    data: dict[str, Any] = {"pending": pending, "faces_needed": 1}
    if kind == "test":
        data.update(
            value=pending["value"],
            difficulty=pending["difficulty"],
            odds=percent(pending["odds"]),
        )
    elif kind == "opposed":
        data.update(
            values=pending["values"],
            odds_a=percent(pending["odds"]),
            odds_b=percent(1 - Fraction(pending["odds"])),
            faces_needed=2,
        )
    elif kind == "wound":
        context = pending["context"]
        data.update(
            strength=context["strength"],
            resistance=context["resistance"],
            faces_needed=pending["dice"],
            outcomes=[
                (str(OUTCOMES[word]), percent(p))
                for word, p in pending["odds"].items()
                if Fraction(p) > 0
            ],
        )
    elif kind == "split":
        data.update(odds=percent("1/2"))
    return Panel(
        "roll",
        side=who_decides(pending) if pending.get("roll") else pending.get("side"),
        title=pending_title(pending, labels(state)),
        section=pending.get("section", ""),
        data=data,
    )


def _six_panel(state: Mapping[str, Any], pending: Mapping[str, Any]) -> Panel:
    roll = pending["roll"]
    choice = choice_odds(pending) or {}
    if pending["kind"] == "opposed":
        shown = {"a": roll["faces_a"], "b": roll["faces_b"]}
    else:
        shown = {"": roll["faces"]}
    return Panel(
        "six",
        side=who_decides(pending),
        title=pending_title(pending, labels(state)),
        section="II-A-1",
        data={
            "faces": shown,
            "keep": percent(choice.get("keep")),
            "reroll": percent(choice.get("reroll")),
            "best": choice.get("best"),
        },
    )


# --- the log's wording ------------------------------------------------------------


def _roll_updated(p, who, names):
    pending = p["pending"]
    if p.get("reroll") is False:
        return _("%(side)s keeps the six.") % {"side": who}, "II-A-1"
    if p.get("reroll"):
        text = _("%(side)s rerolls the six: %(faces)s.")
        return text % {"side": who, "faces": faces_text(p["faces"])}, "II-A-1"
    return (
        _("Roll for %(what)s: %(faces)s.")
        % {"what": pending_title(pending, names), "faces": faces_text(p["faces"])},
        pending.get("section", ""),
    )


def _test_resolved(p, who, names):
    values = {
        "what": pending_title(p, names),
        "final": p["final"],
        "difficulty": p["difficulty"],
        "natural": p["natural"],
    }
    text = (
        _("%(what)s: %(final)s against %(difficulty)s, success (natural %(natural)s).")
        if p["success"]
        else _(
            "%(what)s: %(final)s against %(difficulty)s, failure (natural %(natural)s)."
        )
    )
    return text % values, p.get("section", "II-A-3")


def _split_rolled(p, who, names):
    return (
        _("Split roll %(face)s: the shot hits %(fighter)s.")
        % {"face": p["face"], "fighter": p["hits_label"]},
        "Tir dans la mêlée",
    )


def _wound_rolled(p, who, names):
    values = {
        "target": p["target_label"],
        "outcome": outcome_word(p["outcome"]),
        "location": location_word(p["location"]),
        "faces": faces_text(p["faces"]),
    }
    text = _("%(target)s: %(outcome)s, %(location)s %(faces)s.") % values
    if p["eliminated"]:
        text += " " + _("Eliminated.")
    return text, "II-B-1"


def _tactics_won(p, who, names):
    final_a, final_b = p["rounds"][-1]
    return (
        _("Tactics roll: %(winner)s wins, %(a)s against %(b)s.")
        % {"winner": side_word(p["winner"]), "a": final_a, "b": final_b},
        "IV-A-2",
    )


EVENTS = {
    "roll_updated": _roll_updated,
    "test_resolved": _test_resolved,
    "split_rolled": _split_rolled,
    "wound_rolled": _wound_rolled,
    "tactics_won": _tactics_won,
}
