"""House rulings (``rules.melee.HOUSE_RULINGS``) in words: the choices on the
new-game form, the rulings in force on the game page, and the note a result
decided by one carries ("house ruling: ...").

The rules own the list (each ruling's question, choices, default, section and
reason); this module words it, whatever rulings the list holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import melee
from rules.magic import CONVENTIONS

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
    "lands": gettext_lazy("the blow lands"),
    "game": gettext_lazy("for the rest of the game, against that PEUR and lower"),
    "turn": gettext_lazy("for the rest of the turn, against that PEUR and lower"),
    "no_charge": gettext_lazy(
        "the charge does not happen, the fighter is routed where it stands"
    ),
    "routed_in_contact": gettext_lazy("the charge happens, the fighter fights routed"),
    "initiative_winner": gettext_lazy("the Initiative winner's side again"),
    "alternation_goes_on": gettext_lazy("the alternation goes on"),
    "highest_fear": gettext_lazy("the highest PEUR among its living adversaries"),
    "4": gettext_lazy("difficulty 4"),
    "5": gettext_lazy("difficulty 5"),
    "6": gettext_lazy("difficulty 6"),
    "7": gettext_lazy("difficulty 7"),
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

# Where a ruling's default comes from (``HouseRuling.basis``), said truly: a
# default the sources do not give never reads as "the sources' default".
BASIS_WORDS = {
    "read": gettext_lazy("the sources' default"),
    "inferred": gettext_lazy("default inferred from the sources"),
    "other_edition": gettext_lazy("default read in another edition"),
    "fan": gettext_lazy("default from a fan text"),
    "none": gettext_lazy("default chosen here: not found in the sources"),
}


def default_word(ruling: Any) -> str:
    """Where ``ruling``'s default comes from, in words."""
    return str(BASIS_WORDS.get(ruling.basis, BASIS_WORDS["none"]))


def value_word(value: str) -> str:
    """A ruling's value name in words ("not_parried": "not parried")."""
    return str(VALUE_WORDS.get(value, value.replace("_", " ")))


def ruling_field_texts(ruling: Any) -> dict[str, Any]:
    """The new-game form's label, choices and help of one ruling."""
    choices = [
        (
            value,
            _("%(value)s (default)") % {"value": value_word(value)}
            if value == ruling.default
            else value_word(value),
        )
        for value in ruling.choices
    ]
    choices.sort(key=lambda choice: choice[0] != ruling.default)
    return {
        "label": _("House ruling: %(question)s") % {"question": _(ruling.question)},
        "choices": choices,
        # Where the default comes from, in the help: an option's text is
        # cut short on a phone.
        "help": _("%(reason)s (%(section)s) · %(default)s.")
        % {
            "reason": _(ruling.reason),
            "section": ruling.section,
            "default": capfirst(default_word(ruling)),
        },
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
                "default_word": default_word(ruling),
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
    names = [event_payload.get("house_ruling"), *event_payload.get("house_rulings", [])]
    notes = []
    for name in dict.fromkeys(n for n in names if n):
        ruling = melee.HOUSE_RULINGS.get(name)
        if ruling is None:
            continue
        value = (chosen or {}).get(name, ruling.default)
        notes.append(
            _("house ruling: %(question)s %(value)s")
            % {"question": _(ruling.question), "value": value_word(value)}
        )
    return "; ".join(notes)


def conventions() -> list[dict[str, Any]]:
    """What the sources leave open and the app plays one way only (magic and
    faith, ``rules.magic.CONVENTIONS``): shown with the rulings, not chosen."""
    return [
        {
            "name": name,
            "question": _(ruling.question),
            "reason": _(ruling.reason),
            "section": ruling.section,
        }
        for name, ruling in CONVENTIONS.items()
    ]
