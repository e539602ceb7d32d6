"""Magic and faith in words (X, XI): gems by element, spells and miracles in
the log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from battles.presenters.game.common import Panel, options, percent
from battles.presenters.game.floor import Offers
from battles.presenters.words import element_word, gem_words
from rules import magic as rules_magic
from rules.game import state as st
from rules.game.magic_phase import (
    counter_candidates,
    difficulty_needs,
    fervour_bounds_of,
    mana_maximum,
    mastered_elements,
    miracle_difficulty,
    ruling,
    skill_value,
    spell_difficulty,
)

# --- the mystic action on the activation panel ----------------------------------

MAX_EXTRA_OFFERED = 2  # buttons for +1 and +2 gems; more through the form


def _extra_element(after: Mapping[str, int]) -> str | None:
    """The element an extra gem is taken from: the most plentiful left."""
    best = max(rules_magic.ELEMENTS, key=lambda e: (after.get(e, 0), -len(e)))
    return best if after.get(best, 0) > 0 else None


def spells_of(state: Mapping[str, Any], fighter_id: str, offers: Offers) -> list[dict]:
    """The spells the magician may cast now (``legal_actions``), each with
    its cost and a button per mastery choice: none, +1, +2 gems (the best die
    kept, II-A-2), with the exact odds of each power test."""
    names = offers.choices("cast", "spell", fighter=fighter_id)
    if not names:
        return []
    fighter = state["fighters"][fighter_id]
    power = st.value_of(state, fighter_id, "POU")
    natural_one = ruling(state, "natural_one")
    found = []
    for name in names:
        spell = state["spells"][name]
        unknown = spell["cost"] is None  # entered for this cast
        after = (
            dict(fighter["gems"])
            if unknown
            else rules_magic.pay(fighter["gems"], spell["cost"])
        )
        # A number, or a formula of the caster's values; of the target's, its
        # odds wait for the target (the formula shown as printed).
        difficulty = spell_difficulty(state, spell, fighter_id, None)
        choices = []
        for extra in range(1 if unknown else MAX_EXTRA_OFFERED + 1):
            element = _extra_element(after) if extra else None
            if extra and (element is None or after.get(element, 0) < extra):
                break
            odds = None
            if difficulty is not None:
                odds = rules_magic.power_odds(
                    power, difficulty, extra, natural_one=natural_one
                )
            choices.append(
                {
                    "extra": extra,
                    "element": element or "",
                    "element_word": element_word(element) if element else "",
                    "odds": percent(odds) if odds is not None else "",
                }
            )
        found.append(
            {
                "name": name,
                "cost": "" if unknown else gem_words(spell["cost"]),
                "cost_unknown": unknown,
                "cost_text": spell.get("cost_text", ""),
                "difficulty": difficulty
                if difficulty is not None
                else spell["difficulty"],
                "needs_target": difficulty_needs(spell) == "target",
                "frequency": spell["frequency"],
                "choices": choices,
            }
        )
    return found


def miracles_of(
    state: Mapping[str, Any], fighter_id: str, offers: Offers
) -> list[dict]:
    """The miracles the faithful may call now, each with its fervour choices
    (up to the temporary faith left) and the odds of its test (HR-F2)."""
    names = offers.choices("call", "miracle", fighter=fighter_id)
    found = []
    faith = st.value_of(state, fighter_id, "FOI")
    natural_one = ruling(state, "natural_one")
    for name in names:
        miracle = state["miracles"][name]
        low, high = fervour_bounds_of(state, fighter_id, name)
        choices = []
        for fervour in range(low, min(high, low + 3) + 1):
            difficulty = miracle_difficulty(miracle, fervour)
            if difficulty is None:
                continue
            odds = rules_magic.power_odds(faith, difficulty, natural_one=natural_one)
            choices.append(
                {"fervour": fervour, "difficulty": difficulty, "odds": percent(odds)}
            )
        if choices:
            found.append({"name": name, "choices": choices})
    return found


def mystic_view(
    state: Mapping[str, Any], fighter_id: str, offers: Offers
) -> dict[str, Any]:
    """What the activation panel shows of a fighter's magic and faith."""
    fighter = state["fighters"][fighter_id]
    spells = spells_of(state, fighter_id, offers)
    miracles = miracles_of(state, fighter_id, offers)
    gems = fighter.get("gems")
    everyone = [f for s in st.SIDES for f in st.fighters_of(state, s)]
    unlisted = any(
        not entry.get("choices") for entry in offers.of("cast", fighter=fighter_id)
    )
    return {
        "spells": spells,
        # A magician who knows no spell: the spell named, its gems and
        # difficulty entered (in gems, not a single mana number).
        "unlisted": unlisted,
        "repeat_note": "mystic" in state["acted"].get(fighter_id, [])
        and bool(spells or miracles or unlisted),
        "miracles": miracles,
        "gems": gem_words(gems) if gems is not None else "",
        "is_magician": gems is not None,
        "faith": fighter.get("faith"),
        "targets": options(state, everyone) if spells or miracles or unlisted else [],
        "elements": [
            {"value": e, "label": element_word(e), "count": (gems or {}).get(e, 0)}
            for e in rules_magic.ELEMENTS
        ],
        "set_gems": gems is not None
        and offers.allows("set_mystic", fighter=fighter_id),
    }


def combat_casters(
    state: Mapping[str, Any], side: str, offers: Offers
) -> list[dict[str, Any]]:
    """The warrior-mages and warrior-monks of ``side`` who may cast or call
    now in the combat phase (ch. 4 [read] M2, the ``combat_casting``
    convention: ``legal_actions`` lists them), each with his spell and
    miracle forms as on the activation panel."""
    found = []
    for fighter_id in st.fighters_of(state, side):
        if not (
            offers.allows("cast", fighter=fighter_id)
            or offers.allows("call", fighter=fighter_id)
        ):
            continue
        view = mystic_view(state, fighter_id, offers)
        view["set_gems"] = False  # the reserve is set on the fighters' list
        found.append(
            {
                "id": fighter_id,
                "label": state["fighters"][fighter_id]["label"],
                "mystic": view,
            }
        )
    return found


# --- the upkeep: mana recovered in gems (X-G-1) -----------------------------------


def recovery_view(state: Mapping[str, Any], fighter_id: str) -> dict[str, Any] | None:
    """The mana line of a magician counted in gems: the elements he masters
    (the gains typed by element), his reserve, its maximum (HR-M1) and
    Recovery/X; None for a magician whose mana is a number."""
    gems = state["fighters"][fighter_id].get("gems")
    if gems is None:
        return None
    maximum = mana_maximum(state, fighter_id)
    return {
        "elements": [
            {"value": e, "label": element_word(e)}
            for e in mastered_elements(state, fighter_id)
        ],
        "now": gem_words(gems),
        "high": maximum,
        "recovery": skill_value(state, fighter_id, "Récupération", "Recovery"),
        "recovery_only": ruling(state, "mana_recovery") == "recovery_only",
    }


# --- the counter-magic window (X, HR-M4) -----------------------------------------


def counter_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    """The adversary's magicians asked whether to counter the spell waiting:
    pay the opposed gems (no roll, the spell cancelled), or let it be."""
    pending = state["pending"]
    cast = pending["context"]["cast"]
    caster = state["fighters"][cast["fighter"]]
    payable = counter_candidates(state, st.other(pending["side"]), cast["cost"])
    magicians = [
        {
            "id": fighter_id,
            "label": state["fighters"][fighter_id]["label"],
            "pay": gem_words(payable[fighter_id]),
            "gems": gem_words(state["fighters"][fighter_id]["gems"]),
        }
        for fighter_id in pending["candidates"]
        if fighter_id in payable and offers.allows("counter", fighter=fighter_id)
    ]
    decline = next(iter(pending["candidates"]), "")
    return Panel(
        "counter",
        side=pending["side"],
        title=_("%(caster)s casts %(spell)s: counter it?")
        % {"caster": caster["label"], "spell": cast["spell"]},
        section="X",
        data={
            "spell": cast["spell"],
            "caster": caster["label"],
            "cost": gem_words(cast["cost"]),
            "target": state["fighters"][cast["target"]]["label"]
            if cast.get("target")
            else "",
            "magicians": magicians,
            "decline": decline,
        },
    )


# --- the log's wording -------------------------------------------------------------


def _spell_cast(p, who, names):
    text = _("%(fighter)s casts %(spell)s: pays %(cost)s") % {
        "fighter": p["label"],
        "spell": p["spell"],
        "cost": gem_words(p["cost"]),
    }
    if p.get("extra"):
        text += " " + _("and %(extra)s for mastery (%(dice)s dice, the best kept)") % {
            "extra": gem_words(p["extra"]),
            "dice": p["dice"],
        }
    if p.get("target_label"):
        text += " " + _("on %(target)s") % {"target": p["target_label"]}
    text += ". " + _("Power test %(power)s against %(difficulty)s (%(odds)s).") % {
        "power": p["power"],
        "difficulty": p["difficulty"],
        "odds": percent(p["odds"]),
    }
    return text, p.get("section", "X")


def _spell_countered(p, who, names):
    return (
        _("%(fighter)s counters %(spell)s of %(caster)s: pays %(paid)s; no effect.")
        % {
            "fighter": p["label"],
            "spell": p["spell"],
            "caster": p["caster_label"],
            "paid": gem_words(p["paid"]),
        },
        p.get("section", "X"),
    )


def _miracle_called(p, who, names):
    text = _(
        "%(fighter)s calls %(miracle)s with fervour %(fervour)s (temporary faith "
        "%(before)s → %(after)s)"
    ) % {
        "fighter": p["label"],
        "miracle": p["miracle"],
        "fervour": p["fervour"],
        "before": p["faith_before"],
        "after": p["faith_after"],
    }
    if p.get("target_label"):
        text += " " + _("on %(target)s") % {"target": p["target_label"]}
    text += ". " + _("FOI test against %(difficulty)s (%(odds)s).") % {
        "difficulty": p["difficulty"],
        "odds": percent(p["odds"]),
    }
    return text, p.get("section", "XI")


EVENTS = {
    "spell_cast": _spell_cast,
    "spell_countered": _spell_countered,
    "miracle_called": _miracle_called,
}
