"""A club with a season under way: the set-up the league tests start from."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from battles.league import services
from battles.league.models.league import Membership


def club_in_season(
    admin: str,
    members: tuple[str, ...],
    outsiders: tuple[str, ...] = (),
    *,
    club: str = "Les Griffons de Lyon",
    season: str = "Saison 2026",
    began_days_ago: int = 30,
    ends_in_days: int = 30,
    password: str | None = None,
) -> dict:
    """Players by name (``admin`` runs the club, ``members`` belong to it,
    ``outsiders`` do not), the club (``"club"``) and its open season
    (``"season"``), in one dict."""
    users = {
        name: get_user_model().objects.create_user(name, password=password)
        for name in (admin, *members, *outsiders)
    }
    the_club = services.create_club(users[admin], club)
    for name in members:
        Membership.objects.create(club=the_club, user=users[name])
    today = timezone.localdate()
    the_season = services.create_season(
        the_club,
        users[admin],
        name=season,
        starts=today - timedelta(days=began_days_ago),
        ends=today + timedelta(days=ends_in_days),
    )
    return {**users, "club": the_club, "season": the_season}
