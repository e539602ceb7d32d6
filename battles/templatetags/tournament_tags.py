"""The home page's "Round 3: your table 4" box (live, as the waiting box is)."""

from __future__ import annotations

from django import template

from battles.league.live.tournament import tournament_version
from battles.league.services.tournament import my_table

register = template.Library()


@register.inclusion_tag("battles/league/tournament_home.html", takes_context=True)
def tournament_table_box(context) -> dict:
    request = context["request"]
    found = my_table(request.user)
    if found is None:
        return {"found": None}
    # The version, then the table again: never a stale table under a new version.
    version = tournament_version(found["tournament"].pk)
    found = my_table(request.user, found["tournament"]) or found
    return {**found, "found": found, "version": version, "request": request}
