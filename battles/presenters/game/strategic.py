"""The strategic phase (IV-A): each side's private activation sequence, the
fighter for the Tactics roll, and the winner's choice of who speaks first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from battles.presenters.game.common import Panel, wait_panel
from battles.presenters.game.floor import Offers
from battles.presenters.words import rules_text, side_word
from rules.game import state as st
from rules.game import tactics_candidates


def panel(
    state: Mapping[str, Any],
    side: str,
    offers: Offers,
    draft: Sequence[str] | None = None,
) -> Panel:
    if state["step"] == "first_choice":
        winner = state["tactics"]["winner"]
        title = _("%(side)s won the Tactics roll: who speaks first?") % {
            "side": side_word(winner)
        }
        if not offers.allows("choose_first"):
            # The loser waits; the buttons are the winner's alone (IV-A-2).
            return wait_panel(winner, _("choosing who speaks first"), "IV-A-2")
        return Panel("first", side=winner, title=title, section="IV-A-2")
    sequence_done = state["sequences"][side] is not None or not offers.allows(
        "set_sequence"
    )
    fighter_done = state["tactics"]["fighters"][side] is not None or not (
        offers.allows("choose_tactics_fighter")
    )
    if sequence_done and fighter_done and not offers.allows("rallying_cry"):
        return Panel(
            "wait",
            side=st.other(side),
            title=_("Waiting for the other player's sequence and Tactics fighter."),
            section="IV-A",
        )
    cards = st.cards_in_play(state, side)
    order = [c for c in (draft or []) if c in cards]
    order += [c for c in cards if c not in order]
    if state["sequences"][side]:
        order = list(state["sequences"][side])
    candidates = [
        {
            "id": f,
            "label": state["fighters"][f]["label"],
            "ok": ok,
            "why": rules_text(why),
            "dis": st.value_of(state, f, "DIS"),
        }
        for f, ok, why in tactics_candidates(state, side)
    ]
    allowed = {entry["fighter"] for entry in offers.of("choose_tactics_fighter")}
    for candidate in candidates:
        candidate["ok"] = candidate["ok"] and candidate["id"] in allowed
    eligible = [c for c in candidates if c["ok"]]
    # The eligible fighter with the highest DIS is offered first (ties: the
    # order of the army list).
    best = max(eligible, key=lambda c: c["dis"] or 0)["id"] if eligible else None
    return Panel(
        "strategic",
        side=side,
        title=_("Strategic phase"),
        section="IV-A",
        data={
            "sequence": [
                {
                    "id": c,
                    "name": state["cards"][c]["name"],
                    "fighters": sum(
                        1
                        for f in state["cards"][c]["fighters"]
                        if not state["fighters"][f]["eliminated"]
                    ),
                }
                for c in order
            ],
            "sequence_done": sequence_done,
            "dropped": [
                state["cards"][c]["name"] for c in st.eliminated_cards(state, side)
            ],
            "candidates": candidates,
            "best": best,
            "fighter_done": fighter_done,
            "chosen": state["tactics"]["fighters"][side],
            "cries": _cries(state, side, offers),
        },
    )


def _cries(state: Mapping[str, Any], side: str, offers: Offers) -> list[dict]:
    """Cri de ralliement (IX), offered at the start of the strategic phase:
    who may sound it, and how many routed friends it would rally."""
    routed = sum(
        1 for f in st.fighters_of(dict(state), side) if state["fighters"][f]["routed"]
    )
    return [
        {
            "id": entry["fighter"],
            "label": state["fighters"][entry["fighter"]]["label"],
            "routed": routed,
        }
        for entry in offers.of("rallying_cry")
    ]


# --- the log's wording ------------------------------------------------------------


def _sequence_set(p, who, names):
    return _("%(side)s set its activation sequence.") % {"side": who}, "IV-A-1"


def _first_chosen(p, who, names):
    # One sentence per side: French needs the article ("Le camp B ...").
    if p["first"] == "a":
        return _("Side A will speak first."), "IV-B-1"
    if p["first"] == "b":
        return _("Side B will speak first."), "IV-B-1"
    return _("%(side)s will speak first.") % {"side": side_word(p["first"])}, "IV-B-1"


def _rallying_cry(p, who, names):
    rallied = p.get("rallied_labels") or []
    if rallied:
        text = _(
            "%(fighter)s sounds its Rallying Cry: %(rallied)s rally without a "
            "test; %(side)s gets +1 to its Courage tests this turn."
        )
    else:
        text = _(
            "%(fighter)s sounds its Rallying Cry: no routed fighter to rally; "
            "%(side)s gets +1 to its Courage tests this turn."
        )
    return text % {
        "fighter": p["label"],
        "rallied": ", ".join(rallied),
        "side": side_word(p["side"], mid=True),
    }, "IX"


EVENTS = {
    "rallying_cry": _rallying_cry,
    "sequence_set": _sequence_set,
    "tactics_fighter_set": lambda p, who, names: None,
    "first_chosen": _first_chosen,
}
