"""Words and values of the league's tie-breaker columns."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from battles.league.forms.league import TIEBREAKER_LABELS
from battles.league.services.admin_changes import waiting_box

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


@register.simple_tag
def entry_summary(entry, result) -> str:
    """What a history entry recorded, in words: "Bertrand won 180–60, 22/11/2026"."""
    from datetime import date

    from django.utils.formats import date_format

    data = entry.data or {}
    outcome = data.get("outcome")
    if outcome == "draw":
        words = _("Draw")
    elif outcome in ("a", "b"):
        winner = result.player_a if outcome == "a" else result.player_b
        words = _("%(who)s won") % {"who": winner.get_username()}
    else:
        words = ""
    try:
        day = date_format(
            date.fromisoformat(data.get("played_on", "")), "SHORT_DATE_FORMAT"
        )
    except (TypeError, ValueError):
        day = ""
    said = f"{words} {data.get('score_a', '')}–{data.get('score_b', '')}, {day}"
    log = data.get("log")
    if log and data.get("differs_from_log"):
        said += " · " + _("not the log's army points destroyed (%(a)s–%(b)s)") % {
            "a": log.get("a", ""),
            "b": log.get("b", ""),
        }
    counter = data.get("counter")
    if counter:
        said += " · " + _("as the opponent saw it: %(words)s") % {
            "words": _outcome_words(counter, result)
        }
    return said


def _outcome_words(data: dict, result) -> str:
    outcome = data.get("outcome")
    if outcome == "draw":
        words = _("Draw")
    else:
        winner = result.player_a if outcome == "a" else result.player_b
        words = _("%(who)s won") % {"who": winner.get_username()}
    return f"{words} {data.get('score_a', '')}–{data.get('score_b', '')}"


@register.simple_tag
def proposal_words(result) -> str:
    """A playing admin's waiting change, in words."""
    from django.contrib.auth import get_user_model

    proposal = result.proposal or {}
    who = get_user_model().objects.filter(pk=proposal.get("by")).first()
    name = who.get_username() if who else "?"
    action = proposal.get("action")
    if action == "correct":
        what = _("correct it to: %(words)s") % {
            "words": _outcome_words(proposal.get("fields") or {}, result)
        }
    elif action == "void":
        what = _("void it")
    else:
        what = _("confirm it")
    return _("%(who)s, who played this game, asks to %(what)s. Reason: %(reason)s") % {
        "who": name,
        "what": what,
        "reason": proposal.get("reason", ""),
    }


@register.inclusion_tag("battles/league/waiting.html", takes_context=True)
def league_waiting_box(context) -> dict:
    """The home page's "results waiting for your confirmation" box (polled)."""
    return {**waiting_box(context["request"].user), "request": context["request"]}


@register.filter
def person(user, names=None) -> str:
    """A member as a league page names her (issue #29): her display name from
    ``names`` (by user id, ``battles.league.services.names.shown_names``),
    else her login."""
    if user is None:
        return ""
    return (names or {}).get(user.pk) or user.get_username()
