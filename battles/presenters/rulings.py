"""House rulings (``rules.melee.HOUSE_RULINGS``) in words: the choices on the
new-game form, the rulings in force on the game page, and the note a result
decided by one carries ("house ruling: ...").

The rules own the list (each ruling's question, choices, default, section and
reason); this module words it, whatever rulings the list holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import melee

RULING_PREFIX = "ruling_"


# The rulings' values in words; a value not listed reads as its name.
VALUE_WORDS = {
    "loser_first": gettext_lazy("the loser places first, the winner sees it"),
    "before_initiative": gettext_lazy("both place before the Initiative"),
    "parried": gettext_lazy("parried"),
    "not_parried": gettext_lazy("not parried"),
    "several_dice": gettext_lazy("several dice"),
    "one_die": gettext_lazy("one die"),
    "at_the_table": gettext_lazy("at the table"),
    "none": gettext_lazy("none"),
    "all_defence": gettext_lazy("all its dice in defence"),
    "fights_normally": gettext_lazy("it fights as usual"),
    # magic and faith (rules.magic.HOUSE_RULINGS)
    "spent": gettext_lazy("spent"),
    "refunded": gettext_lazy("given back"),
    "starting_reserve": gettext_lazy("the reserve it starts with"),
    "power": gettext_lazy("its POU"),
    "any_gem": gettext_lazy("by any one gem"),
    "not_countered": gettext_lazy("not countered"),
    "used": gettext_lazy("yes"),
    "not_used": gettext_lazy("no"),
    "no_automatic_failure": gettext_lazy("no (Conf'Fédé)"),
    "fails": gettext_lazy("yes (C3)"),
    "entered": gettext_lazy("entered at the table"),
    "recovery_only": gettext_lazy("Recovery/X only"),
    "printed": gettext_lazy("the card's FOI"),
}


def value_word(value: str) -> str:
    """A ruling's value name in words ("not_parried": "not parried")."""
    return str(VALUE_WORDS.get(value, value.replace("_", " ")))


def ruling_field_texts(ruling: Any) -> dict[str, Any]:
    """The new-game form's label, choices and help of one ruling."""
    choices = [
        (
            value,
            _("%(value)s (the sources' default)") % {"value": value_word(value)}
            if value == ruling.default
            else value_word(value),
        )
        for value in ruling.choices
    ]
    choices.sort(key=lambda choice: choice[0] != ruling.default)
    return {
        "label": _("House ruling: %(question)s") % {"question": _(ruling.question)},
        "choices": choices,
        "help": _("%(reason)s (%(section)s)")
        % {"reason": _(ruling.reason), "section": ruling.section},
    }


def rulings_in_force(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The game's house rulings as the game page lists them."""
    chosen = state.get("house_rulings") or {}
    rows = []
    for name, ruling in melee.HOUSE_RULINGS.items():
        value = chosen.get(name, ruling.default)
        rows.append(
            {
                "name": name,
                "question": _(ruling.question),
                "value": value_word(value),
                "default": value == ruling.default,
                "reason": _(ruling.reason),
                "section": ruling.section,
            }
        )
    return rows


def ruling_note(
    event_payload: Mapping[str, Any], chosen: Mapping[str, str] | None = None
) -> str:
    """ "house ruling: ..." for a result a ruling decided, else "" (``chosen``:
    the game's rulings in force, ``state["house_rulings"]``)."""
    name = event_payload.get("house_ruling")
    ruling = melee.HOUSE_RULINGS.get(name) if name else None
    if ruling is None:
        return ""
    value = (chosen or {}).get(name, ruling.default)
    return _("house ruling: %(question)s %(value)s") % {
        "question": _(ruling.question),
        "value": value_word(value),
    }


def conventions() -> list[dict[str, Any]]:
    """What the sources leave open and the app plays one way only (magic and
    faith, ``rules.magic.CONVENTIONS``): shown with the rulings, not chosen."""
    from rules.magic import CONVENTIONS

    return [
        {
            "name": name,
            "question": _(ruling.question),
            "reason": _(ruling.reason),
            "section": ruling.section,
        }
        for name, ruling in CONVENTIONS.items()
    ]
