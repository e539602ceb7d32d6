"""What a phone shows of the tests rolled at the table (II-A), the scatter
(II-C-5) and the lasting effects (II-C-3, IV-D-3).

The decisions (who rolls, which odds, which fighters a side may test) are
read from the snapshot and the rules; the templates under
``templates/battles/games/panels/`` only lay them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.utils.formats import localize
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from battles.presenters.game.common import Panel, french, percent, percents
from battles.presenters.game.common import labels as fighter_labels
from battles.presenters.words import USE_WORDS, test_title
from rules.checks import lowest_final_result
from rules.game import choice_odds, who_decides
from rules.game import state as st
from rules.game.table_rolls import FEAR_CONVENTION, USES
from rules.game.upkeep_phase import (
    DURATIONS,
    EFFECT_KINDS,
    item_side,
    rally_certain,
    rally_difficulty,
    regeneration_odds,
)
from rules.several_dice import MAX_TEST_DICE

KIND_WORDS = {
    "harmful": _("Harmful effect"),
    "skill": _("Skill"),
    "spell": _("Spell"),
    "miracle": _("Miracle"),
    "other": _("Other effect"),
}
DURATION_WORDS = {
    "end_of_turn": _("Until the end of the turn"),
    "turns": _("A number of turns"),
    "permanent": _("Permanent"),
    "upkeep": _("While upkept (Entretien/X)"),
}


def _convention(pending: Mapping[str, Any], labels=None) -> str:
    context = pending.get("context") or {}
    if context.get("fear") and context.get("prompted"):
        # A Courage test the game asked for on a charge (IX, melee-sources §3).
        feared = (labels or {}).get(context.get("feared"), context.get("feared", ""))
        if context.get("dreadful") or context.get("characteristic") != "COU":
            # Terrifiant: 2d6, the lower kept; a fearsome fighter's own PEUR.
            dice = (
                gettext("2d6, the lower die kept (Terrifiant),")
                if context.get("dreadful")
                else "1d6"
            )
            return gettext(
                "%(feared)s's PEUR %(fear)s: %(dice)s + %(characteristic)s "
                "%(value)s must reach it, or the fighter is routed (IX)."
            ) % {
                "feared": feared,
                "fear": pending.get("difficulty", ""),
                "dice": dice,
                "characteristic": context.get("characteristic", ""),
                "value": pending.get("value", ""),
            }
        return gettext(
            "%(feared)s's PEUR %(fear)s is above this fighter's courage: 1d6 + "
            "COU must reach it, or the fighter is routed (IX)."
        ) % {"feared": feared, "fear": pending.get("difficulty", "")}
    if pending.get("section") == FEAR_CONVENTION:
        return gettext(
            "The rules call for a Courage test when charging a fighter with PEUR; "
            "chapter IX (fear) is not at hand, so the difficulty is the fear "
            "value: the table's convention."
        )
    if pending.get("section") == "IV-D-1":
        return gettext(
            "IV-D-1: a routed fighter may rally at the end of each turn; the "
            "difficulty (IX-E is not at hand) is the house ruling agreed at the "
            "game's creation."
        )
    return ""


def pending_panel(state: Mapping[str, Any], pending: Mapping[str, Any]):
    """The panel of a characteristic test that waits for a roll or a six."""
    labels = fighter_labels(state)
    context = pending["context"]
    roll = pending.get("roll")
    data: dict[str, Any] = {
        "pending": pending,
        "convention": _convention(pending, labels),
        "six": bool(roll),
        "dice": pending.get("dice", 1),
        "keep_lowest": bool(pending.get("keep_lowest")),
    }
    if pending["kind"] == "opposed":
        fighters = context["fighters"]
        data.update(
            opposed=True,
            rows=[
                {
                    "side": s,
                    "label": labels[fighters[s]],
                    "tag": side_tag(labels[fighters[s]], s),
                    "characteristic": context["characteristics"][s],
                    "value": pending["values"][s],
                    "odds": figure,
                }
                for s, figure in zip(
                    st.SIDES,
                    percents([pending["odds"], 1 - Fraction(pending["odds"])]),
                    strict=True,
                )
            ],
            faces_needed=2,
        )
        if roll:
            data["faces"] = {"a": roll["faces_a"], "b": roll["faces_b"]}
    else:
        data.update(
            opposed=False,
            characteristic=context["characteristic"],
            value=pending["value"],
            current=context["current"],
            modifier=context["modifier"],
            difficulty=pending["difficulty"],
            odds=percent(pending["odds"]),
            faces_needed=pending.get("dice", 1),
            # A test typed at the table for a skill (or a spell not on the
            # list) that cannot fail is still rolled, its final result may
            # count: the panel says it cannot fail.
            certain=Fraction(pending["odds"]) == 1,
            lowest=lowest_final_result(pending["value"]),
        )
        if roll:
            data["faces"] = {"": [f for t in roll["throws"] for f in t]}
            data["sixes"] = sum(1 for f in roll["throws"][-1] if f == 6)
    if roll:
        choice = choice_odds(pending) or {}
        data.update(
            keep=percent(choice.get("keep")),
            reroll=percent(choice.get("reroll")),
            best=choice.get("best"),
        )
    side = who_decides(pending) if roll else pending.get("side")
    return Panel(
        "table_roll",
        side=side,
        title=test_title(pending, labels),
        section=pending.get("section", ""),
        data=data,
    )


def _characteristics(state: Mapping[str, Any], fighter_id: str) -> str:
    """ "COU 5 · ATT 4 …": a fighter's current values, in one line."""
    values = ((c, st.value_of(state, fighter_id, c)) for c in st.CHARACTERISTICS)
    return " · ".join(
        f"{code} {localize(value)}" for code, value in values if value is not None
    )


# The tools at the table, in the order the panel shows them: the command
# ``legal_actions`` must list for each, its title and section, and the
# template of its form (fetched when the player opens it: tools/<name>).
TOOLS = {
    "test": ("characteristic_test", _("Roll a test"), "II-A"),
    "scatter": ("scatter", _("Scatter"), "II-C-5"),
    "effect": ("record_effect", _("Record a lasting effect"), "II-C-3"),
}
TOOL_OF_COMMAND = {command: name for name, (command, *_rest) in TOOLS.items()}


def table_tools(offers, side: str | None) -> list[dict[str, Any]]:
    """The tools ``side`` may use now (``offers``: its legal actions)."""
    if side is None:
        return []
    return [
        {
            "name": name,
            "title": title,
            "section": section,
            "body": f"battles/games/panels/tools/{name}.html",
        }
        for name, (command, title, section) in TOOLS.items()
        if offers.allows(command)
    ]


def side_tag(label: str, side: str) -> str:
    """ "(B)" after a fighter's name, unless its label already ends so (a
    namesake's label does: "Guerrier 1 (B)")."""
    tag = f"({side.upper()})"
    return "" if label.endswith(tag) else tag


def test_form(state: Mapping[str, Any], side: str, caster: str = "") -> dict:
    """What the "roll a test" form offers: a side tests its own living
    fighters (II-A); an opposed test picks any living adversary (II-A-3);
    several dice up to ``MAX_TEST_DICE`` (II-A-2). ``caster``: a fighter that just
    declared its mystic action, chosen with its spell (POU) or miracle (FOI)."""
    chosen = {"fighter": "", "code": "COU", "use": "other", "reserve": None}
    if caster in st.fighters_of(state, side):
        profile = st.card_of(state, caster)["profile"]
        magician = profile.get("POU") is not None
        if magician or profile.get("FOI") is not None:
            reserve = "mana" if magician else "faith"
            chosen = {
                "fighter": caster,
                "code": "POU" if magician else "FOI",
                "use": "spell" if magician else "miracle",
                "reserve": state["fighters"][caster].get(reserve),
                "reserve_word": gettext("mana") if magician else gettext("faith"),
            }
    mine = [
        {
            "id": f,
            "label": state["fighters"][f]["label"],
            "characteristics": _characteristics(state, f),
        }
        for f in st.fighters_of(state, side)
    ]
    theirs = [
        {"id": f, "label": state["fighters"][f]["label"]}
        for f in st.fighters_of(state, st.other(side))
    ]
    return {
        "fighters": mine,
        "opponents": theirs,
        "codes": st.CHARACTERISTICS,
        "uses": [(u, str(USE_WORDS[u])) for u in USES],
        "max_dice": MAX_TEST_DICE,
        "chosen": chosen,
    }


def effect_form(state: Mapping[str, Any], side: str) -> dict:
    """What the "record a lasting effect" form offers (II-C-3)."""
    labels = fighter_labels(state)
    return {
        "fighters": [
            {"id": f, "label": labels[f], "tag": side_tag(labels[f], s)}
            for s in st.SIDES
            for f in st.fighters_of(state, s)
        ],
        "casters": [
            {"id": f, "label": labels[f]}
            for f in st.fighters_of(state, side)
            if state["fighters"][f].get("mana") is not None
            or state["fighters"][f].get("faith") is not None
        ],
        "kinds": [(k, str(KIND_WORDS[k])) for k in EFFECT_KINDS],
        "durations": [(d, str(DURATION_WORDS[d])) for d in DURATIONS],
    }


TOOL_FORMS = {"test": test_form, "effect": effect_form}


def tool_form(
    state: Mapping[str, Any], side: str | None, tool: str, caster: str = ""
) -> dict | None:
    """The data of ``tool``'s form, for the tool the player opened (the test's
    with ``caster`` chosen, after a mystic action)."""
    build = TOOL_FORMS.get(tool)
    if not build or not side:
        return None
    return build(state, side, caster) if tool == "test" else build(state, side)


def effects_view(state: Mapping[str, Any], offers) -> list[dict[str, Any]]:
    """The lasting effects in play; ``may_end``: those ``offers``' side may
    end now (``legal_actions``: its own, outside their upkeep item)."""
    labels = fighter_labels(state)
    may_end = set(offers.choices("end_effect", "effect"))
    effects = []
    for effect in state.get("effects", []):
        duration = str(DURATION_WORDS.get(effect["duration"], effect["duration"]))
        if effect["duration"] == "turns":
            duration = gettext("%(n)s turn(s) left") % {"n": effect["turns_left"]}
        elif effect["duration"] == "upkeep":
            resource = (
                gettext("mana") if effect["resource"] == "mana" else gettext("faith")
            )
            duration = gettext("Upkeep: %(cost)s %(resource)s by %(caster)s") % {
                "cost": effect["cost"],
                "resource": resource,
                "caster": labels[effect["caster"]],
            }
        effects.append(
            {
                "id": effect["id"],
                "name": effect["name"],
                "kind": str(KIND_WORDS.get(effect["kind"], effect["kind"])),
                "fighter": labels[effect["fighter"]],
                "side": effect["side"],
                "duration": duration,
                "may_end": effect["id"] in may_end,
            }
        )
    return effects


def upkeep_extras(
    state: Mapping[str, Any], item: Mapping[str, Any], side: str | None
) -> dict[str, Any]:
    """What an upkeep line needs beyond its label: whose it is, its roll or
    its payment (IV-D-1, IV-D-3)."""
    owner = item_side(state, item)
    extras: dict[str, Any] = {"owner": owner, "mine": owner in (None, side)}
    fighter = item.get("fighter")
    if item["step"] == "rally" and fighter:
        has_courage = st.value_of(state, fighter, "COU") is not None
        extras["rally_test"] = has_courage
        if has_courage:
            extras["rally_difficulty"] = rally_difficulty(state, fighter)
            extras["courage"] = st.value_of(state, fighter, "COU")
            extras["rally_certain"] = extras["rally_difficulty"] is not None and (
                rally_certain(extras["courage"], extras["rally_difficulty"])
            )
    if item.get("effect"):
        effect = next(
            (e for e in state.get("effects", []) if e["id"] == item["effect"]), None
        )
        if effect and effect["duration"] == "upkeep":
            extras["upkeep_cost"] = effect["cost"]
            extras["resource"] = (
                gettext("mana") if effect["resource"] == "mana" else gettext("faith")
            )
    if item.get("regeneration") and fighter:
        wounded = state["fighters"][fighter]["steps"] > 0
        extras["regeneration"] = item["regeneration"] if wounded else None
        if wounded:
            extras["regeneration_odds"] = percent(
                regeneration_odds(item["regeneration"])
            )
    return extras


def describe(
    event: Mapping[str, Any], labels: Mapping[str, str]
) -> tuple[str, str] | None:
    """(text, section) of the log line for this module's events, else None."""
    kind = event["kind"]
    p = event.get("payload") or {}
    if kind == "pending_set" and (p.get("pending") or {}).get("purpose") == (
        "characteristic"
    ):
        pending = p["pending"]
        what = test_title(pending, labels)
        if pending["kind"] == "opposed":
            text = gettext("%(what)s: %(odds)s for side A.") % {
                "what": what,
                "odds": percent(pending["odds"]),
            }
        else:
            text = gettext(
                "%(what)s: %(value)s against %(difficulty)s, %(odds)s to succeed."
            ) % {
                "what": what,
                "value": pending["value"],
                "difficulty": pending["difficulty"],
                "odds": percent(pending["odds"]),
            }
        if pending.get("section") == FEAR_CONVENTION and not (
            pending["context"].get("prompted")
        ):
            text += " " + gettext("(Table convention: the fear value.)")
        return text, pending.get("section", "II-A-3")
    if kind == "test_certain":
        text = gettext(
            "%(what)s: %(value)s against %(difficulty)s cannot fail (its lowest"
            " final result is %(lowest)s): passed, no roll needed."
        ) % {
            "what": test_title(p, labels),
            "value": p["value"],
            "difficulty": p["difficulty"],
            "lowest": lowest_final_result(p["value"]),
        }
        context = p["context"]
        if context.get("modifier"):  # what made it certain, for the other side
            text += " " + gettext(
                "Current value %(current)s, circumstance modifier %(modifier)s "
                "(II-A-4)."
            ) % {"current": context["current"], "modifier": context["modifier"]}
        return text, p.get("section", "II-A-1")
    if kind == "opposed_resolved" and p.get("purpose") != "initiative":
        final_a, final_b = p["rounds"][-1]
        return (
            gettext("%(what)s: %(winner)s wins, %(a)s against %(b)s.")
            % {
                "what": test_title(p, labels),
                "winner": p["labels"][p["winner"]],
                "a": final_a,
                "b": final_b,
            },
            p.get("section", "II-A-3"),
        )
    if kind == "scatter_rolled":
        text = gettext(
            "Scatter%(label)s: %(cm)s cm towards arrow %(direction)s [%(d1)s] [%(d2)s]."
        ) % {
            "label": f" ({p['label']})" if p.get("label") else "",
            "cm": p["distance_cm"],
            "direction": p["direction"],
            "d1": p["faces"][0],
            "d2": p["faces"][1],
        }
        return text, "II-C-5"
    if kind == "effect_recorded":
        effect = p["effect"]
        return (
            gettext("Lasting effect: %(name)s (%(kind)s) on %(fighter)s.")
            % {
                "name": effect["name"],
                "kind": str(KIND_WORDS.get(effect["kind"], effect["kind"])),
                "fighter": p["label"],
            },
            "II-C-3",
        )
    if kind == "effect_ended":
        return (
            gettext("%(name)s on %(fighter)s ends.")
            % {"name": p["name"], "fighter": p["label"]},
            "II-C-3",
        )
    if kind == "upkeep_ticked" and (p.get("regeneration") or p.get("effect")):
        label = (p.get("label_fr") if french() else p.get("label_en")) or ""
        text = pgettext("upkeep", "Done: %(item)s.") % {"item": label}
        roll = p.get("regeneration")
        if roll:
            text += " " + (
                gettext(
                    "Régénération: [%(face)s] against %(x)s, one wound step healed."
                )
                if roll["success"]
                else gettext("Régénération: [%(face)s] against %(x)s, no effect.")
            ) % {"face": roll["faces"][0], "x": roll["difficulty"]}
        effect = p.get("effect")
        if effect and effect.get("paid"):
            text += " " + gettext("Upkeep paid.")
        elif effect and effect.get("ends"):
            text += " " + gettext("The effect ends.")
        return text, p.get("section", "IV-D-3")
    return None


__all__ = [
    "describe",
    "effects_view",
    "pending_panel",
    "test_form",
    "test_title",
    "upkeep_extras",
]
