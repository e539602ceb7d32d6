"""The rules' English identifiers in the player's language (terms as in the seeds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from rules import magic as rules_magic
from rules.errors import IllegalAction, Message

OUTCOMES = {
    "none": _("no wound"),
    "stunned": _("Stunned (Sonné)"),
    "light": _("Light wound (Blessure légère)"),
    "serious": _("Serious wound (Blessure grave)"),
    "critical": _("Critical wound (Blessure critique)"),
    "killed": _("Killed outright (Tué net)"),
}
LOCATIONS = {
    "legs": _("legs"),
    "arms": _("arms"),
    "abdomen": _("abdomen"),
    "thorax": _("thorax"),
    "head": _("head"),
}
CONDITIONS = {
    "none": _("unhurt"),
    "light": _("light wound"),
    "serious": _("serious wound"),
    "critical": _("critical wound"),
    "killed": _("killed"),
}
PHASES = {
    "strategic": _("Strategic phase"),
    "activation": _("Activation phase"),
    "combat": _("Combat phase"),
    "upkeep": _("Upkeep phase"),
    "finished": _("Game over"),
}
PHASE_SECTIONS = {
    "strategic": "IV-A",
    "activation": "IV-B",
    "combat": "IV-C",
    "upkeep": "IV-D",
    "finished": "",
}
ACTIONS = {
    "charge": _("Charge"),
    "engagement": _("Engagement"),
    "run": _("Run (Course)"),
    "covered_move": _("Covered move (Déplacement à couvert)"),
    "walk": _("Walk (Marche)"),
    "shoot": _("Shoot (Tir)"),
    "mystic": _("Mystic action"),
    "disengage": _("Disengage"),
}
DRAW_ACTIONS = {
    "draw": _("Draw the top card"),
    "reserve": _("Put the top card in reserve"),
    "play_reserve": _("Play the reserve"),
    "play_reserve_and_top": _("Play the reserve and the top card"),
    "refuse": _("Use a refusal"),
}
RANGE_BANDS = {
    "short": _("short range"),
    "medium": _("medium range"),
    "long": _("long range"),
}
SIDES = {"a": pgettext_lazy("side", "Side A"), "b": pgettext_lazy("side", "Side B")}
# The same words within a sentence ("Waiting for side B", "en attente du camp B").
SIDES_MID = {
    "a": pgettext_lazy("side, mid-sentence", "side A"),
    "b": pgettext_lazy("side, mid-sentence", "side B"),
}


def outcome_word(outcome: str) -> str:
    return str(OUTCOMES.get(outcome, outcome))


def location_word(location: str) -> str:
    return str(LOCATIONS.get(location, location))


def phase_word(phase: str) -> str:
    return str(PHASES.get(phase, phase))


def action_word(action: str) -> str:
    return str(ACTIONS.get(action, action))


def side_word(side: str | None, *, mid: bool = False) -> str:
    """A side in words: "Side A" to open a sentence, ``mid``: "side A" within
    one (after a word or a colon)."""
    return str((SIDES_MID if mid else SIDES).get(side or "", side or ""))


def rules_text(message: Any) -> str:
    """A sentence from ``rules/`` in the player's language.

    An ``IllegalAction`` or a ``rules.errors.Message`` is a template marked
    ``_()`` and its values: the template goes through gettext, then the values
    (themselves translated when they are messages) fill it in.
    """
    if isinstance(message, (IllegalAction, Message)):
        return message.render(gettext, get_language() or "en")
    return str(message)


def pending_title(pending: dict, labels: dict[str, str]) -> str:
    """What a pending roll or choice is about, in the player's language."""
    purpose = pending.get("purpose")
    context = pending.get("context") or {}

    def name(key: str) -> str:
        return labels.get(context.get(key, ""), context.get(key, ""))

    if purpose == "tactics":
        return gettext("Tactics roll")
    if purpose == "initiative":
        return gettext("Initiative test (INI against INI)")
    if purpose == "characteristic":  # any test rolled at the table (II-A)
        return test_title(pending, labels)
    if purpose == "shot":
        return gettext("%(shooter)s shoots %(target)s") % {
            "shooter": name("fighter"),
            "target": name("target"),
        }
    if purpose == "disengage":
        return gettext("%(fighter)s disengages (%(method)s)") % {
            "fighter": name("fighter"),
            "method": context.get("method", ""),
        }
    if purpose == "attack":
        return gettext("%(attacker)s attacks %(target)s") % {
            "attacker": name("attacker"),
            "target": name("target"),
        }
    if purpose == "parry":
        if pending.get("kind") == "choice":
            return gettext("%(target)s may parry") % {"target": name("target")}
        return gettext("%(target)s parries") % {"target": name("target")}
    if purpose == "defence":  # a parry's defence test (VII-C-4)
        return gettext("%(target)s parries %(attacker)s") % {
            "target": name("target"),
            "attacker": name("attacker"),
        }
    if purpose == "wound":
        return gettext("Wound roll on %(target)s") % {"target": name("target")}
    if purpose == "split":
        return gettext("Split roll (shot into a melee)")
    if purpose == "form_combats":
        return gettext("The Tactics winner splits the melees into combats")
    if purpose == "choose_combat":
        return gettext("%(side)s picks the next combat") % {
            "side": side_word(pending.get("side"))
        }
    return str(pending.get("purpose", ""))


# --- a test at the table, the gems of a reserve ----------------------------------

USE_WORDS = {
    "courage": _("Courage against fear"),
    "rally": _("Rally"),
    "spell": _("Spell"),
    "miracle": _("Miracle"),
    "skill": _("Skill"),
    "other": _("Other"),
    # The panel cites the section itself (VII-C-4): not twice in the title.
    "defence": _("parry"),
}


def test_title(pending: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """What a characteristic test is about: fighter, characteristic, purpose."""
    context = pending.get("context") or {}
    use = str(USE_WORDS.get(context.get("use", ""), context.get("use", "")))
    if context.get("label"):
        use = f"{use} · {context['label']}"
    if "fighters" in context:
        fighters = context["fighters"]
        chars = context["characteristics"]
        return gettext("%(a)s (%(ca)s) against %(b)s (%(cb)s): %(use)s") % {
            "a": labels.get(fighters["a"], fighters["a"]),
            "ca": chars["a"],
            "b": labels.get(fighters["b"], fighters["b"]),
            "cb": chars["b"],
            "use": use,
        }
    fighter = context.get("fighter", "")
    return gettext("%(fighter)s: %(characteristic)s test (%(use)s)") % {
        "fighter": labels.get(fighter, fighter),
        "characteristic": context.get("characteristic", ""),
        "use": use,
    }


ELEMENT_WORDS = {
    "light": _("light"),
    "darkness": _("darkness"),
    "air": _("air"),
    "water": _("water"),
    "fire": _("fire"),
    "earth": _("earth"),
    "neutral": _("neutral"),
}


def element_word(element: str) -> str:
    return str(ELEMENT_WORDS.get(element, element))


def gem_words(gems: Mapping[str, int] | None) -> str:
    """ "2 fire, 1 light" (the elements with gems, in the rules' order);
    "0" when there is none."""
    gems = gems or {}
    parts = [  # in the rules' order (a database may reorder a JSON object)
        f"{gems[element]} {element_word(element)}"
        for element in rules_magic.GEM_KINDS
        if gems.get(element)
    ]
    return ", ".join(parts) or "0"
