"""Rolls in every phase (II-A): the panel that asks for a roll or a six's
decision, and the log's wording of rolls, tests and wounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from battles.presenters.game.common import Panel, labels, percent, percents
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


def _outcome_rows(odds: Mapping[str, str]) -> list[tuple[str, str]]:
    """The wound roll's outcomes and their odds, adding up to 100 %."""
    shown = [(word, p) for word, p in odds.items() if Fraction(p) > 0]
    figures = percents([p for _word, p in shown])
    return [
        (str(OUTCOMES[word]), figure)
        for (word, _p), figure in zip(shown, figures, strict=True)
    ]


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
        fighters = (pending.get("context") or {}).get("fighters") or {}
        data.update(
            values=pending["values"],
            # The Tactics roll is a DIS test (IV-A-2), a combat's Initiative
            # an INI test (VII-C-2); both opposed (II-A-3).
            characteristic="INI" if pending.get("purpose") == "initiative" else "DIS",
            fighters={s: labels(state).get(f, "") for s, f in fighters.items()},
            **dict(
                zip(
                    ("odds_a", "odds_b"),
                    percents([pending["odds"], 1 - Fraction(pending["odds"])]),
                    strict=True,
                )
            ),
            faces_needed=2,
        )
    elif kind == "wound":
        context = pending["context"]
        data.update(
            strength=context["strength"],
            resistance=context["resistance"],
            faces_needed=pending["dice"],
            outcomes=_outcome_rows(pending["odds"]),
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
            # An attack test against a committed parry: the odds are those of
            # the blow landing past the parry (VII-C-4), not of the test.
            "lands": bool(choice.get("lands")),
        },
    )


# --- the log's wording ------------------------------------------------------------


def _roll_updated(p, who, names):
    pending = p["pending"]
    if p.get("automatic") == "attack_succeeds":
        return _(
            "The six is kept without asking: with it the attack test succeeds "
            "and no parry waits; a reroll could only risk a failure."
        ), "II-A-1, VII-C-4"
    if p.get("reroll") is False:
        return _("%(side)s keeps the six.") % {"side": who}, "II-A-1"
    if p.get("reroll"):
        text = _("%(side)s rerolls the six: %(faces)s.")
        return text % {"side": who, "faces": faces_text(p["faces"])}, "II-A-1"
    faces = faces_text(p["faces"])
    shown = p["faces"]
    if pending.get("kind") == "opposed" and len(shown) % 2 == 0 and 6 not in shown[:-2]:
        # II-A-3: side A's die first, then side B's: say whose is whose, and
        # that a tie is rolled again.
        values = pending.get("values") or {}
        rounds = []
        for face_a, face_b in zip(shown[::2], shown[1::2], strict=True):
            text = _("%(a)s for side A, %(b)s for side B") % {
                "a": faces_text([face_a]),
                "b": faces_text([face_b]),
            }
            final_a = face_a + (values.get("a") or 0)
            final_b = face_b + (values.get("b") or 0)
            if final_a == final_b and 6 not in (face_a, face_b):
                text += " " + _("(a tie: rolled again)")
            rounds.append(text)
        # The rounds' separator: "; " in English, " ; " in French.
        faces = pgettext("between the rounds of an opposed roll", "; ").join(rounds)
    return (
        _("%(what)s: %(faces)s.")
        % {"what": pending_title(pending, names), "faces": faces},
        pending.get("section", ""),
    )


def _test_resolved(p, who, names):
    if p.get("purpose") == "attack" and p.get("section") == "VII-C-4":
        # The attack test has no difficulty: 0 or less fails (II-A-4).
        text = (
            _("%(what)s: %(final)s (natural %(natural)s), the attack test succeeds.")
            if p["success"]
            else _("%(what)s: %(final)s (natural %(natural)s), the attack fails.")
        )
        values = {"what": pending_title(p, names), **p}
        return text % values, "VII-C-4"
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
    """The winner's score first, each score said whose it is; then who rolled
    (each side's choice is secret until the roll is made: now it is said)."""
    finals = dict(zip(("a", "b"), p["rounds"][-1], strict=True))
    winner = p["winner"]
    loser = "b" if winner == "a" else "a"
    text = _("Tactics roll: %(winner)s wins, %(won)s against %(lost)s for %(loser)s.")
    text %= {
        "winner": side_word(winner, mid=True),
        "won": finals[winner],
        "lost": finals[loser],
        "loser": side_word(loser, mid=True),
    }
    labels, values = p.get("labels") or {}, p.get("values") or {}
    if set(labels) >= {"a", "b"} and set(values) >= {"a", "b"}:
        rolled = _(
            "%(fighter_a)s (DIS %(dis_a)s) rolled for %(side_a)s, "
            "%(fighter_b)s (DIS %(dis_b)s) for %(side_b)s."
        )
        text += " " + rolled % {
            "fighter_a": labels["a"],
            "dis_a": values["a"],
            "side_a": side_word("a", mid=True),
            "fighter_b": labels["b"],
            "dis_b": values["b"],
            "side_b": side_word("b", mid=True),
        }
    return text, "IV-A-2"


EVENTS = {
    "roll_updated": _roll_updated,
    "test_resolved": _test_resolved,
    "split_rolled": _split_rolled,
    "wound_rolled": _wound_rolled,
    "tactics_won": _tactics_won,
}
