"""The upkeep phase (IV-D): the checklist (rallying, mana, faith...) and the
log's wording of it, of rout and reserves, and of a new turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from battles.presenters.game import magic, table_rolls
from battles.presenters.game.common import Panel, french
from battles.presenters.game.floor import Offers
from rules.game.upkeep_phase import reserve_bounds, side_markers


def panel(state: Mapping[str, Any], side: str | None, offers: Offers) -> Panel:
    """The checklist in the order of IV-D, what to do now first: the next
    line (with its controls when ``legal_actions`` lets this side tick it;
    a side ticks its own fighters' lines, either side a marker's), then the
    lines to come, then those done (folded)."""
    upkeep = state["upkeep"]
    in_french = french()
    tickable = set(offers.choices("tick_upkeep", "key"))
    lines = []
    for item in upkeep["items"]:
        reserve = item["step"] if item["step"] in ("faith", "mana") else None
        bounds = {}
        gems = None
        if reserve == "mana" and item.get("fighter"):
            gems = magic.recovery_view(state, item["fighter"])
        if gems:
            reserve = None  # X-G-1 in gems: the gains by element instead
        elif reserve and item.get("fighter"):
            bounds = reserve_bounds(state, item)
        lines.append(
            {
                **table_rolls.upkeep_extras(state, item, side),
                "key": item["key"],
                "label": item["label_fr"] if in_french else item["label_en"],
                "section": item["section"],
                "done": item["key"] in upkeep["ticked"],
                "next": item["key"] in tickable,
                "rally": item["step"] == "rally",
                "marker": item["step"] == "markers",
                "reserve": reserve,
                "current": bounds.get("current"),
                "reserve_low": bounds.get("low"),
                "reserve_high": bounds.get("high"),
                "reserve_code": bounds.get("characteristic"),
                "gems_recovery": gems,
            }
        )
    done = [line for line in lines if line["done"]]
    to_come = [line for line in lines if not line["done"]]
    # What this phone may tick first (both sides tick at once where IV-D's
    # order allows), else the line the game waits for.
    mine = [line for line in to_come if line["next"]]
    if mine:
        to_come.remove(mine[0])
        to_come.insert(0, mine[0])
    markers = side_markers(state, side) if side else []
    return Panel(
        "upkeep",
        side=None,
        title=_("Upkeep checklist"),
        section="IV-D",
        data={
            "now": to_come[0] if to_come else None,
            "to_come": to_come[1:],
            "done": done,
            # The lines keep their IV-D numbers, however they are grouped.
            "now_number": len(done) + 1,
            # IV-D-3-6: one tap removes every marker of this side's fighters.
            "all_markers": len(markers) if len(markers) > 1 else 0,
        },
    )


# --- the log's wording ------------------------------------------------------------


def _upkeep_ticked(p, who, names):
    label = (p.get("label_fr") if french() else None) or p.get("label_en")
    text = pgettext("upkeep", "Done: %(item)s.") % {"item": label}
    if p.get("rallied") is True:
        text += " " + _("The fighter rallies.")
    certain = p.get("rally_certain")
    if certain:
        text += (
            " "
            + _(
                "(COU %(courage)s against %(difficulty)s: the test cannot fail, no "
                "roll needed.)"
            )
            % certain
        )
    reserve = p.get("reserve")
    if reserve and reserve["reserve"] == "gems":  # X-G-1, in gems
        words = {
            "before": magic.gem_words(reserve["before"]),
            "after": magic.gem_words(reserve["after"]),
        }
        text += " " + _("Gems %(before)s → %(after)s.") % words
        if reserve.get("high") is not None:
            text += " " + _("At most %(high)s gems (house ruling).") % reserve
    elif reserve:
        words = {
            "before": reserve["before"],
            "after": reserve["after"],
            "high": reserve["high"],
            "code": reserve["characteristic"],
        }
        if reserve["reserve"] == "mana":
            line = _("Mana %(before)s → %(after)s")
        else:
            line = _("Temporary faith %(before)s → %(after)s")
        text += " " + line % words + " "
        text += _("(typed by the player, at most %(high)s: the card's %(code)s).") % (
            words
        )
    return text, p.get("section", "IV-D")


def _fighter_changed(p, who, names):
    changes = p.get("changes", {})
    if "routed" in changes:
        if changes["routed"]:
            section = p.get("section", "IV-D-1")  # IX: a failed Courage test
            return _("%(fighter)s is routed.") % {"fighter": p["label"]}, section
        return _("%(fighter)s rallies.") % {"fighter": p["label"]}, "IV-D-1"
    parts = []
    if "mana" in changes:
        parts.append(_("mana %(n)s") % {"n": changes["mana"]})
    if "faith" in changes:
        parts.append(_("temporary faith %(n)s") % {"n": changes["faith"]})
    if "gems" in changes:
        parts.append(_("gems %(gems)s") % {"gems": magic.gem_words(changes["gems"])})
    return f"{p['label']}: {', '.join(parts)}.", "IV-D-2"


def _turn_started(p, who, names):
    return _("Turn %(turn)s begins.") % {"turn": p["turn"]}, ""


EVENTS = {
    "upkeep_ticked": _upkeep_ticked,
    "fighter_changed": _fighter_changed,
    "turn_started": _turn_started,
}
