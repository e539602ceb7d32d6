"""A season managed by the club's admins: one function per action, one
transaction each.

- **edit** the season's name, dates and rules while no result counts (once
  one does, changing the points or the tie-breakers would rewrite standings
  the players have seen);
- **who takes part**, chosen per season (any time: a late joiner is added,
  a player who leaves keeps the results they played);
- **close**: no result is reported or confirmed any more (nor, once past its
  last day, any result at all) until an admin **reopens** it;
- **archive** a closed or finished season (it leaves the club's list);
- **delete** a season that holds no result and no tournament day.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.league.models.league import (
    AuditAction,
    Club,
    ResultStatus,
    Season,
    new_public_key,
)
from battles.league.services.clubs import _require_admin, audit_season
from battles.league.services.errors import LeagueError
from battles.services.once import once
from rules.league import (
    round_robin,
)

User = get_user_model()


def _locked(season: Season) -> Season:
    return Season.objects.select_for_update().select_related("club").get(pk=season.pk)


def edit_season(season: Season, admin, **fields) -> Season:
    """New name, dates and rules, while no result of the season counts."""
    _require_admin(season.club, admin)
    fields.pop("participants", None)
    with transaction.atomic():
        locked = _locked(season)
        if locked.results.filter(status=ResultStatus.CONFIRMED).exists():
            raise LeagueError(
                _(
                    "A result already counts in this season: its dates and rules "
                    "can no longer change."
                )
            )
        starts, ends = fields["starts"], fields["ends"]
        if ends < starts:
            raise LeagueError(_("The season ends after it starts."), field="ends")
        outside = (
            locked.results.exclude(status=ResultStatus.VOID)
            .exclude(played_on__gte=starts, played_on__lte=ends)
            .exists()
        )
        if outside:
            raise LeagueError(
                _("A result waiting for confirmation was played outside these dates."),
                field="starts",
            )
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.full_clean()
        locked.save()
    return locked


def set_participants(season: Season, admin, user_ids) -> Season:
    """Who takes part in the season: members of the club only."""
    _require_admin(season.club, admin)
    user_ids = set(user_ids)
    with transaction.atomic():
        locked = _locked(season)
        members = set(
            User.objects.filter(
                clubs__club_id=locked.club_id, pk__in=user_ids
            ).values_list("pk", flat=True)
        )
        if members != user_ids:
            raise LeagueError(
                _("Every player must be a member of the club."), field="participants"
            )
        locked.participants.set(members)
    return locked


def close_season(season: Season, admin) -> Season:
    _require_admin(season.club, admin)
    with transaction.atomic():
        locked = _locked(season)
        if locked.closed:
            raise LeagueError(_("This season is already closed."))
        locked.closed, locked.reopened = True, False
        locked.save(update_fields=["closed", "reopened"])
        audit_season(locked, admin, AuditAction.SEASON_CLOSED)
    return locked


def reopen_season(season: Season, admin) -> Season:
    """Results may be reported and confirmed again, even past its last day."""
    _require_admin(season.club, admin)
    with transaction.atomic():
        locked = _locked(season)
        if locked.accepts_results:
            raise LeagueError(_("This season is open."))
        locked.closed = locked.archived = False
        locked.reopened = True
        locked.save(update_fields=["closed", "archived", "reopened"])
        audit_season(locked, admin, AuditAction.SEASON_REOPENED)
    return locked


def archive_season(season: Season, admin) -> Season:
    _require_admin(season.club, admin)
    with transaction.atomic():
        locked = _locked(season)
        if locked.archived:
            raise LeagueError(_("This season is already archived."))
        if not locked.closed and locked.ends >= timezone.localdate():
            raise LeagueError(_("Close the season before archiving it."))
        locked.archived, locked.closed, locked.reopened = True, True, False
        locked.save(update_fields=["archived", "closed", "reopened"])
    return locked


def delete_season(season: Season, admin) -> None:
    """Only a season that holds no result (of any status) and no tournament."""
    _require_admin(season.club, admin)
    with transaction.atomic():
        locked = _locked(season)
        if locked.results.exists() or locked.tournaments.exists():
            raise LeagueError(
                _(
                    "This season holds results: close or archive it instead "
                    "(its results stay)."
                )
            )
        locked.delete()


def can_edit_rules(season: Season) -> bool:
    return not season.results.filter(status=ResultStatus.CONFIRMED).exists()


__all__ = [
    "archive_season",
    "can_edit_rules",
    "close_season",
    "delete_season",
    "edit_season",
    "reopen_season",
    "set_participants",
]


# --- seasons -------------------------------------------------------------------


@once(
    "season", by="admin", error=LeagueError, fetch=lambda pk: Season.objects.get(pk=pk)
)
def create_season(club: Club, admin, **fields) -> Season:
    """A new season with the fields the form checked."""
    _require_admin(club, admin)
    participants = fields.pop("participants", None)
    if fields["ends"] < fields["starts"]:
        raise LeagueError(_("The season ends after it starts."), field="ends")
    with transaction.atomic():
        season = Season(club=club, **fields)
        season.full_clean()
        season.save()
        if participants is None:  # everyone, unless the admin chose
            participants = User.objects.filter(clubs__club=club)
        season.participants.set(participants)
    return season


def set_public_standings(season: Season, admin, public: bool) -> Season:
    """Switch the public standings (no account needed) on or off."""
    _require_admin(season.club, admin)
    with transaction.atomic():
        season.public = public
        season.save(update_fields=["public"])
    return season


def renew_public_link(season: Season, admin) -> Season:
    """A new public standings link; the old one stops working."""
    _require_admin(season.club, admin)
    with transaction.atomic():
        season.public_key = new_public_key()
        season.save(update_fields=["public_key"])
    return season


def season_players(season: Season) -> list:
    """The season's players and anyone with a confirmed result in it."""
    counted = season.results.filter(status=ResultStatus.CONFIRMED)
    return list(
        User.objects.filter(
            Q(league_seasons=season)
            | Q(pk__in=counted.values("player_a_id"))
            | Q(pk__in=counted.values("player_b_id"))
        )
        .distinct()
        .order_by("username")
    )


def club_members(season: Season) -> list:
    """The season's players still in the club, by name (whom a result may be
    reported against)."""
    return list(
        User.objects.filter(clubs__club_id=season.club_id, league_seasons=season)
        .distinct()
        .order_by("username")
    )


def schedule(season: Season) -> list[list[tuple[str, str]]]:
    """The round-robin rounds between the season's players still in the club
    (circle method): not every member of the club."""
    return round_robin([user.get_username() for user in club_members(season)])
