"""Words and values of the league's tie-breaker columns."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from battles.forms.league import TIEBREAKER_LABELS

register = template.Library()


@register.simple_tag
def tiebreaker_label(name: str) -> str:
    return str(TIEBREAKER_LABELS.get(name, name))


@register.simple_tag
def tiebreaker_short(name: str) -> str:
    shorts = {
        # Translators: column heading, head to head ("confrontation directe").
        "head_to_head": _("H2H"),
        # Translators: column heading, goal average (score for minus against).
        "goal_average": _("GA"),
        # Translators: column heading, total scored.
        "score_for": _("SF"),
        # Translators: column heading, strength of schedule.
        "strength_of_schedule": _("SoS"),
    }
    return shorts.get(name, name)


@register.simple_tag
def tiebreaker_value(line, name: str):
    return getattr(line, name, "")
