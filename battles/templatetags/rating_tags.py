"""The club rating on the club's scale (``rules.league.shown_rating``)."""

from __future__ import annotations

from django import template

from rules.league import PROVISIONAL_GAMES, RATING_BASE, shown_rating

register = template.Library()


@register.filter
def club_rating(rating):
    """A ``rules.league.Rating`` on the club's scale (``shown_rating``)."""
    return shown_rating(rating) if rating is not None else None


@register.simple_tag
def rating_rules() -> dict:
    """The club rating's newcomer value and provisional threshold (rules.league)."""
    return {"base": RATING_BASE, "games": PROVISIONAL_GAMES}
