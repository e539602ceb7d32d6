"""The combat phase (IV-C): splitting the melees into combats, picking the
next combat, attacks and parries, and the log's wording of them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from battles.presenters.game.common import Panel, labels, options, percent
from battles.presenters.game.floor import Offers
from battles.presenters.words import pending_title, side_word
from rules import odds
from rules.game import COMBAT_CONVENTION, attack_difficulty
from rules.game import state as st
from rules.melee import Combat, choices_of


def panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    combat = state["combat"]
    pending = state.get("pending")
    if pending and pending.get("purpose") == "parry":
        return Panel(
            "parry",
            side=pending["side"],
            title=pending_title(pending, labels(state)),
            section="IV-C",
            data={
                "odds": percent(pending["parry_odds"]),
                "attack_final": pending["context"]["attack_final"],
            },
        )
    if pending and pending.get("purpose") == "form_combats":
        return _form_combats_panel(state)
    combats = [
        {
            "index": index,
            "number": index + 1,
            "one": state["fighters"][item["one"]]["label"],
            "many": [state["fighters"][f]["label"] for f in item["many"]],
            "done": item["done"],
            "open": index in offers.choices("choose_combat", "combat"),
            "current": combat["current"] == index,
        }
        for index, item in enumerate(combat["combats"])
    ]
    if combat["current"] is None:
        return Panel(
            "choose_combat",
            side=combat["picker"],
            title=_("%(side)s picks the next combat")
            % {"side": side_word(combat["picker"])},
            section="IV-C",
            data={"combats": combats},
        )
    return _combat_panel(state, side, offers)


def _form_combats_panel(state: Mapping[str, Any]) -> Panel:
    combat = state["combat"]
    fighters = state["fighters"]
    suggestion = [
        {
            "one": fighters[c["one"]]["label"],
            "many": [fighters[f]["label"] for f in c["many"]],
        }
        for c in combat["suggestion"]
    ]
    contacts = [
        {
            "one": one,
            "two": two,
            "labels": (fighters[one]["label"], fighters[two]["label"]),
        }
        for one, two in state["contacts"]
    ]
    suggested = choices_of(
        [Combat(c["one"], tuple(c["many"])) for c in combat["suggestion"]]
    )
    facing = [
        {
            "id": fighter_id,
            "label": fighters[fighter_id]["label"],
            "side": fighters[fighter_id]["side"],
            "options": options(state, st.adversaries_in_contact(state, fighter_id)),
            "selected": suggested.get(fighter_id),
        }
        for fighter_id in sorted(
            {f for pair in state["contacts"] for f in pair},
            key=lambda f: (fighters[f]["side"], f),
        )
    ]
    return Panel(
        "form_combats",
        side=state["tactics"]["winner"],
        title=_("Split the melees into combats"),
        section="IV-C",
        data={"suggestion": suggestion, "contacts": contacts, "facing": facing},
    )


def _combat_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    combat = state["combat"]
    item = combat["combats"][combat["current"]]
    rows = []
    for fighter_id in [item["one"], *item["many"]]:
        data = state["fighters"][fighter_id]
        dice = item["dice"][fighter_id]
        used = item["used"][fighter_id]
        rows.append(
            {
                "id": fighter_id,
                "label": data["label"],
                "side": data["side"],
                "mine": data["side"] == side,
                "eliminated": data["eliminated"],
                "attack": dice["attack"],
                "defence": dice["defence"],
                "attack_left": dice["attack"] - used["attack"],
                "defence_left": dice["defence"] - used["defence"],
                "att": st.value_of(state, fighter_id, "ATT"),
                "def": st.value_of(state, fighter_id, "DEF"),
            }
        )
    dice_forms = {entry["fighter"] for entry in offers.of("set_combat_dice")}
    for row in rows:
        row["mine"] = row["id"] in dice_forms
    attacks = []
    for entry in offers.of("attack"):
        attacker = entry["attacker"]
        att = st.value_of(state, attacker, "ATT") or 0
        for target in entry.get("choices", {}).get("target", []):
            difficulty = attack_difficulty(state, item, target)
            attacks.append(
                {
                    "attacker": attacker,
                    "target": target,
                    "label": _("%(a)s attacks %(t)s")
                    % {
                        "a": state["fighters"][attacker]["label"],
                        "t": state["fighters"][target]["label"],
                    },
                    "odds": percent(odds.test_success(att, difficulty)),
                    "difficulty": difficulty,
                }
            )
    return Panel(
        "combat",
        side=side,
        title=_("Combat %(n)s") % {"n": combat["current"] + 1},
        section="IV-C",
        data={
            "rows": rows,
            "attacks": attacks,
            "difficulty": item["difficulty"],
            "convention": COMBAT_CONVENTION,
            "in_combat": offers.allows("end_combat"),
        },
    )


# --- the log's wording ------------------------------------------------------------


def _combat_updated(p, who, names):
    if "formed" in p:
        n = len(p["formed"])
        text = ngettext(
            "The melees are split into %(n)s combat.",
            "The melees are split into %(n)s combats.",
            n,
        )
        return text % {"n": n}, "IV-C"
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
        text = _("%(what)s: ATT %(value)s against %(difficulty)s.")
    elif pending.get("purpose") == "parry":
        text = _("%(what)s: DEF %(value)s against %(difficulty)s.")
    else:
        return None
    values = {
        "what": pending_title(pending, names),
        "value": pending["value"],
        "difficulty": pending["difficulty"],
    }
    return text % values, "IV-C"


def _pending_set(p, who, names):
    pending = p.get("pending") or {}
    if pending.get("purpose") == "disengage":
        text = _("%(what)s: difficulty %(difficulty)s.")
        values = {
            "what": pending_title(pending, names),
            "difficulty": pending["difficulty"],
        }
        return text % values, "Désengagement"
    if pending.get("kind") == "wound" and pending.get("purpose") != "shot":
        target = names.get((pending.get("context") or {}).get("target", ""), "")
        if target:
            text = _("%(fighter)s takes the blow without parrying.")
            return text % {"fighter": target}, "IV-C"
        return _("%(side)s takes the blow without parrying.") % {"side": who}, "IV-C"
    return None


def _contacts_changed(p, who, names):
    if "labels" not in p:
        return None
    text = (
        _("%(one)s and %(two)s are now in contact.")
        if p["contact"]
        else _("%(one)s and %(two)s are no longer in contact.")
    )
    return text % {"one": p["labels"][0], "two": p["labels"][1]}, "II-E"


EVENTS = {
    "combat_updated": _combat_updated,
    "pending_set": _pending_set,
    "contacts_changed": _contacts_changed,
}
