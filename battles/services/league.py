"""The club league: one function per action, one transaction each.

DESIGN "League": clubs, seasons, results and their append-only history live
here; the standings and ratings are ``rules.league``'s pure functions over
the season's confirmed results. Every refusal raises ``LeagueError`` with a
message for the person and changes nothing.

Who may do what:

- any signed-in person: create a club (and become its first admin), join one
  through an invitation;
- an admin of the club: invite, revoke invitations, remove members, promote
  admins, issue a one-time password-reset link, create seasons, confirm,
  correct or void any result (with a reason);
- a member: report a result against another member, confirm or dispute a
  result reported against them.
"""

from __future__ import annotations

import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.live.league import announce_result
from battles.models.games import Game, GameSeat, SeatRole, hash_token
from battles.models.league import (
    Club,
    ClubRole,
    EntryAction,
    GameOutcome,
    Invitation,
    LeagueResult,
    Membership,
    PasswordResetLink,
    ResultEntry,
    ResultStatus,
    Season,
    new_public_key,
)
from battles.services.fighter_rows import army_points_destroyed
from battles.validation import FieldError
from rules.league import GameResult, rating_changes, ratings, round_robin, standings

User = get_user_model()

INVITATION_DAYS = 14
PASSWORD_RESET_HOURS = 24
PROVISIONAL_BELOW = 5


class LeagueError(FieldError):
    """A league action refused; the message is for the person, ``field`` its place
    (the project's one field error, ``battles.validation.FieldError``)."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message, field or "")


# --- clubs and members ---------------------------------------------------------


def membership(club: Club, user) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def create_club(user, name: str, description: str = "") -> Club:
    """A new club; its creator is its first admin."""
    name = name.strip()
    if not name:
        raise LeagueError(_("A club needs a name."), field="name")
    with transaction.atomic():
        if Club.objects.filter(name__iexact=name).exists():
            raise LeagueError(_("A club already has this name."), field="name")
        club = Club.objects.create(name=name, description=description.strip())
        Membership.objects.create(club=club, user=user, role=ClubRole.ADMIN)
    return club


def _require_admin(club: Club, user) -> Membership:
    member = membership(club, user)
    if member is None or not member.is_admin:
        raise LeagueError(_("Only an admin of the club may do this."))
    return member


@dataclass(frozen=True)
class IssuedToken:
    """A link's row and its token (known only right after it is made)."""

    row: Any
    token: str


def make_invitation(club: Club, admin) -> IssuedToken:
    """A one-person invitation link, valid ``INVITATION_DAYS``."""
    _require_admin(club, admin)
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=club,
            token_hash=hash_token(token),
            created_by=admin,
            expires=timezone.now() + timedelta(days=INVITATION_DAYS),
        )
    return IssuedToken(invitation, token)


def revoke_invitation(club: Club, admin, invitation_id: int) -> None:
    _require_admin(club, admin)
    with transaction.atomic():
        updated = Invitation.objects.filter(
            club=club, pk=invitation_id, used__isnull=True
        ).update(revoked=True)
    if not updated:
        raise LeagueError(_("This invitation was already used or does not exist."))


def _by_token(rows, token: str):
    """The row ``token`` opens, or None (rows keep only the token's hash)."""
    return rows.filter(token_hash=hash_token(token)).first()


def invitation_for(token: str, *, lock: bool = False) -> Invitation:
    """The invitation ``token`` opens, if it can still be used (else LeagueError)."""
    rows = Invitation.objects.select_related("club")
    invitation = _by_token(rows.select_for_update() if lock else rows, token)
    if invitation is None:
        raise LeagueError(_("This invitation does not lead to any club."))
    if invitation.revoked:
        raise LeagueError(
            _("This invitation was withdrawn. Ask an admin for a new one.")
        )
    if invitation.used is not None:
        raise LeagueError(_("This invitation has already been used."))
    if invitation.expires <= timezone.now():
        raise LeagueError(_("This invitation has expired. Ask an admin for a new one."))
    return invitation


def accept_invitation(token: str, user) -> Membership:
    """``user`` joins the club; the invitation is used up."""
    with transaction.atomic():
        invitation = invitation_for(token, lock=True)
        if Membership.objects.filter(club=invitation.club, user=user).exists():
            raise LeagueError(_("You are already a member of this club."))
        member = Membership.objects.create(club=invitation.club, user=user)
        invitation.used = timezone.now()
        invitation.used_by = user
        invitation.save(update_fields=["used", "used_by"])
    return member


def _member_of(club: Club, user_id: int) -> Membership:
    member = Membership.objects.filter(club=club, user_id=user_id).first()
    if member is None:
        raise LeagueError(_("This person is not a member of the club."))
    return member


def remove_member(club: Club, admin, user_id: int) -> None:
    """The member leaves the club; their results stay in the seasons."""
    _require_admin(club, admin)
    with transaction.atomic():
        member = _member_of(club, user_id)
        admins = Membership.objects.filter(club=club, role=ClubRole.ADMIN).count()
        if member.is_admin and admins <= 1:
            raise LeagueError(_("The club's last admin cannot be removed."))
        member.delete()


def promote_admin(club: Club, admin, user_id: int) -> Membership:
    _require_admin(club, admin)
    with transaction.atomic():
        member = _member_of(club, user_id)
        member.role = ClubRole.ADMIN
        member.save(update_fields=["role"])
    return member


def issue_password_reset(club: Club, admin, user_id: int) -> IssuedToken:
    """A one-time link that lets a member choose a new password (no e-mail)."""
    _require_admin(club, admin)
    with transaction.atomic():
        _member_of(club, user_id)  # only a member's password can be reset
        PasswordResetLink.objects.filter(
            user_id=user_id, used__isnull=True, revoked=False
        ).update(revoked=True)
        token = secrets.token_urlsafe(32)
        link = PasswordResetLink.objects.create(
            user_id=user_id,
            club=club,
            issued_by=admin,
            token_hash=hash_token(token),
            expires=timezone.now() + timedelta(hours=PASSWORD_RESET_HOURS),
        )
    return IssuedToken(link, token)


def password_reset_for(token: str, *, lock: bool = False) -> PasswordResetLink:
    """The reset link ``token`` opens, if it can still be used (else LeagueError)."""
    rows = PasswordResetLink.objects.select_related("user")
    link = _by_token(rows.select_for_update() if lock else rows, token)
    if link is None or link.revoked:
        raise LeagueError(_("This link does not work. Ask an admin for a new one."))
    if link.used is not None:
        raise LeagueError(_("This link has already been used."))
    if link.expires <= timezone.now():
        raise LeagueError(_("This link has expired. Ask an admin for a new one."))
    return link


def use_password_reset(token: str, new_password: str):
    """Set the new password and use the link up (the form validated the password)."""
    with transaction.atomic():
        link = password_reset_for(token, lock=True)
        link.user.set_password(new_password)
        link.user.save(update_fields=["password"])
        link.used = timezone.now()
        link.save(update_fields=["used"])
    return link.user


# --- seasons -------------------------------------------------------------------


def create_season(club: Club, admin, **fields) -> Season:
    """A new season with the fields the form checked."""
    _require_admin(club, admin)
    if fields["ends"] < fields["starts"]:
        raise LeagueError(_("The season ends after it starts."), field="ends")
    with transaction.atomic():
        season = Season(club=club, **fields)
        season.full_clean()
        season.save()
    return season


def renew_public_link(season: Season, admin) -> Season:
    """A new public standings link; the old one stops working."""
    _require_admin(season.club, admin)
    with transaction.atomic():
        season.public_key = new_public_key()
        season.save(update_fields=["public_key"])
    return season


def season_players(season: Season) -> list:
    """The club's members and anyone with a confirmed result in the season."""
    counted = season.results.filter(status=ResultStatus.CONFIRMED)
    return list(
        User.objects.filter(
            Q(clubs__club_id=season.club_id)
            | Q(pk__in=counted.values("player_a_id"))
            | Q(pk__in=counted.values("player_b_id"))
        )
        .distinct()
        .order_by("username")
    )


def club_members(season: Season) -> list:
    """The club's members, by name (whom a result may be reported against)."""
    return list(User.objects.filter(clubs__club_id=season.club_id).order_by("username"))


def schedule(season: Season) -> list[list[tuple[str, str]]]:
    """The round-robin rounds between the club's members (circle method)."""
    names = list(
        Membership.objects.filter(club_id=season.club_id)
        .order_by("user__username")
        .values_list("user__username", flat=True)
    )
    return round_robin(names)


# --- results -------------------------------------------------------------------


def _entry(result, actor, action, reason="", extra=None) -> ResultEntry:
    data = result.as_data()
    if extra:
        data.update(extra)
    return ResultEntry.objects.create(
        result=result, actor=actor, action=action, reason=reason, data=data
    )


def _announce(result: LeagueResult) -> None:
    season_id, users = result.season_id, [result.player_a_id, result.player_b_id]
    transaction.on_commit(lambda: announce_result(season_id, users))


def _check_players_and_date(season, player_a_id, player_b_id, played_on) -> None:
    if player_a_id == player_b_id:
        raise LeagueError(_("A result is against someone else."), field="opponent")
    members = set(
        Membership.objects.filter(
            club_id=season.club_id, user_id__in=[player_a_id, player_b_id]
        ).values_list("user_id", flat=True)
    )
    if player_a_id not in members:
        raise LeagueError(_("You do not play in this season."))
    if player_b_id not in members:
        raise LeagueError(
            _("This player does not play in this season."), field="opponent"
        )
    if not season.covers(played_on):
        raise LeagueError(
            _("The date is outside the season (%(starts)s to %(ends)s).")
            % {"starts": season.starts, "ends": season.ends},
            field="played_on",
        )


OUTCOME_FROM_REPORTER = {"won": "a", "lost": "b", "draw": "draw"}


def report_result(
    season: Season,
    reporter,
    *,
    opponent_id: int,
    played_on: date,
    result: str,
    score_for: int,
    score_against: int,
    people_for: str = "",
    people_against: str = "",
    army_for: str = "",
    army_against: str = "",
) -> LeagueResult:
    """A game played without the app; it waits for the opponent's confirmation.

    ``result`` is the reporter's: "won", "lost" or "draw".
    """
    if result not in OUTCOME_FROM_REPORTER:
        raise LeagueError(_("Choose won, lost or draw."), field="result")
    with transaction.atomic():
        _check_players_and_date(season, reporter.pk, opponent_id, played_on)
        row = LeagueResult.objects.create(
            season=season,
            player_a=reporter,
            player_b_id=opponent_id,
            played_on=played_on,
            outcome=OUTCOME_FROM_REPORTER[result],
            score_a=score_for,
            score_b=score_against,
            people_a=people_for.strip(),
            people_b=people_against.strip(),
            army_a=army_for.strip(),
            army_b=army_against.strip(),
            reported_by=reporter,
        )
        _entry(row, reporter, EntryAction.REPORTED)
        _announce(row)
    return row


def _locked_result(result_id: int) -> LeagueResult:
    found = (
        LeagueResult.objects.select_for_update()
        .filter(pk=result_id)
        .select_related("season__club")
        .first()
    )
    if found is None:
        raise LeagueError(_("There is no such result."))
    return found


def _player_answer(result: LeagueResult, user, verdict: str) -> LeagueResult:
    with transaction.atomic():
        locked = _locked_result(result.pk)
        if user.pk not in (locked.player_a_id, locked.player_b_id):
            raise LeagueError(_("Only the players of this game may answer."))
        if user.pk == locked.reported_by_id:
            raise LeagueError(
                _("You reported this result: your opponent confirms it, not you.")
            )
        if locked.status != ResultStatus.PENDING:
            raise LeagueError(_("This result is no longer waiting for an answer."))
        locked.status = verdict
        locked.save(update_fields=["status", "updated"])
        action = (
            EntryAction.CONFIRMED
            if verdict == ResultStatus.CONFIRMED
            else EntryAction.DISPUTED
        )
        _entry(locked, user, action)
        _announce(locked)
    return locked


def confirm_result(result: LeagueResult, user) -> LeagueResult:
    """The opponent agrees: the result counts from now on."""
    return _player_answer(result, user, ResultStatus.CONFIRMED)


def dispute_result(result: LeagueResult, user) -> LeagueResult:
    """The opponent disagrees: an admin settles it (confirm, correct or void)."""
    return _player_answer(result, user, ResultStatus.DISPUTED)


def _admin_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise LeagueError(
            _("Say why (the reason is kept in the history)."), field="reason"
        )
    return reason


def _admin_settle(
    result: LeagueResult,
    admin,
    reason: str,
    status: str,
    action: str,
    already: str,
) -> LeagueResult:
    """An admin gives ``result`` the ``status``, recorded as ``action``.

    ``already`` is the error shown when the result has that status already.
    """
    reason = _admin_reason(reason)
    with transaction.atomic():
        locked = _locked_result(result.pk)
        _require_admin(locked.season.club, admin)
        if locked.status == status:
            raise LeagueError(already)
        locked.status = status
        locked.save(update_fields=["status", "updated"])
        _entry(locked, admin, action, reason)
        _announce(locked)
    return locked


def admin_confirm(result: LeagueResult, admin, reason: str) -> LeagueResult:
    return _admin_settle(
        result,
        admin,
        reason,
        ResultStatus.CONFIRMED,
        EntryAction.ADMIN_CONFIRMED,
        _("This result is already confirmed."),
    )


def admin_void(result: LeagueResult, admin, reason: str) -> LeagueResult:
    return _admin_settle(
        result,
        admin,
        reason,
        ResultStatus.VOID,
        EntryAction.VOIDED,
        _("This result is already void."),
    )


def admin_correct(
    result: LeagueResult,
    admin,
    reason: str,
    *,
    played_on: date,
    outcome: str,
    score_a: int,
    score_b: int,
    people_a: str = "",
    people_b: str = "",
) -> LeagueResult:
    """An admin sets the result right; the corrected result is confirmed."""
    reason = _admin_reason(reason)
    if outcome not in ("a", "b", "draw"):
        raise LeagueError(_("Choose who won, or a draw."), field="outcome")
    with transaction.atomic():
        locked = _locked_result(result.pk)
        _require_admin(locked.season.club, admin)
        if not locked.season.covers(played_on):
            raise LeagueError(_("The date is outside the season."), field="played_on")
        before = locked.as_data()
        locked.played_on = played_on
        locked.outcome = outcome
        locked.score_a = score_a
        locked.score_b = score_b
        locked.people_a = people_a.strip()
        locked.people_b = people_b.strip()
        locked.status = ResultStatus.CONFIRMED
        locked.save()
        _entry(locked, admin, EntryAction.CORRECTED, reason, {"before": before})
        _announce(locked)
    return locked


def pending_for(user) -> list[LeagueResult]:
    """Results reported against ``user`` that wait for their answer."""
    if not user.is_authenticated:
        return []
    return list(
        LeagueResult.objects.filter(status=ResultStatus.PENDING)
        .filter(Q(player_a=user) | Q(player_b=user))
        .exclude(reported_by=user)
        .select_related("season__club", "player_a", "player_b")
        .order_by("played_on", "id")
    )


def confirmed_results(season: Season):
    return (
        season.results.filter(status=ResultStatus.CONFIRMED)
        .select_related("player_a", "player_b")
        .order_by("played_on", "id")
    )


def _game_results(results) -> list[GameResult]:
    return [
        GameResult(
            r.player_a.username, r.player_b.username, r.outcome, r.score_a, r.score_b
        )
        for r in results
    ]


# --- standings, ratings, statistics ---------------------------------------------------


@dataclass
class StandingRow:
    """A standings line with what the page adds: people played, rating."""

    line: Any
    user: Any
    peoples: list[str] = field(default_factory=list)
    rating: Any = None
    provisional: bool = True


@dataclass
class SeasonTable:
    season: Season
    rows: list[StandingRow]

    @property
    def results(self):
        """The confirmed results, oldest first (for the printable page)."""
        return confirmed_results(self.season)


# The computed standings and ratings of a season, per process, keyed by a
# fingerprint of its confirmed results: a page view recomputes only after a
# change. Small: a club has a few seasons open at once.
_COMPUTED: dict[tuple, tuple] = {}
_COMPUTED_MAX = 32


def _fingerprint(season: Season) -> tuple:
    """Changes whenever a result is added, confirmed, corrected or voided."""
    found = season.results.filter(status=ResultStatus.CONFIRMED).aggregate(
        count=Count("id"), last_id=Max("id"), last_change=Max("updated")
    )
    return (
        season.pk,
        season.created,
        season.scheme(),
        found["count"],
        found["last_id"],
        found["last_change"],
    )


def _computed(season: Season, fingerprint: tuple, names: list[str]) -> tuple:
    """Standings lines, ratings and peoples per player, from the results."""
    if fingerprint in _COMPUTED:
        return _COMPUTED[fingerprint]
    rows = list(
        season.results.filter(status=ResultStatus.CONFIRMED)
        .order_by("played_on", "id")
        .values_list(
            "player_a__username",
            "player_b__username",
            "outcome",
            "score_a",
            "score_b",
            "people_a",
            "people_b",
        )
    )
    games = [
        GameResult(a, b, outcome, sa, sb) for a, b, outcome, sa, sb, _pa, _pb in rows
    ]
    peoples: dict[str, Counter] = defaultdict(Counter)
    for a, b, _outcome, _sa, _sb, people_a, people_b in rows:
        if people_a:
            peoples[a][people_a] += 1
        if people_b:
            peoples[b][people_b] += 1
    value = (standings(names, games, season.scheme()), ratings(games), peoples)
    if len(_COMPUTED) >= _COMPUTED_MAX:
        _COMPUTED.clear()
    _COMPUTED[fingerprint] = value
    return value


def season_table(season: Season) -> SeasonTable:
    """The standings (``rules.league.standings``) with peoples and ratings.

    A fixed number of queries whatever the number of results; the ratings
    (openskill, the slow part) are recomputed only after a change.
    """
    players = season_players(season)
    by_name = {user.username: user for user in players}
    fingerprint = (*_fingerprint(season), tuple(by_name))
    lines, rated, peoples = _computed(season, fingerprint, list(by_name))
    rows = [
        StandingRow(
            line=line,
            user=by_name[line.player],
            peoples=[name for name, _count in peoples[line.player].most_common()],
            rating=rated.get(line.player),
            provisional=line.played < PROVISIONAL_BELOW,
        )
        for line in lines
    ]
    return SeasonTable(season=season, rows=rows)


@dataclass
class PlayerPage:
    user: Any
    season: Season
    history: list[dict]
    opponents: list[dict]
    peoples: list[tuple[str, int]]
    curve: list[dict]
    rating: Any
    provisional: bool
    luck: list[dict]
    pending: list[LeagueResult]


def player_page(season: Season, user) -> PlayerPage:
    """History, opponents, peoples played, rating curve and luck of one player."""
    results = list(confirmed_results(season).select_related("game"))
    games = _game_results(results)
    changes = rating_changes(games)
    history, curve, luck = [], [], []
    opponents: dict[int, dict] = {}
    peoples: Counter = Counter()
    rating = None
    running_expected = running_obtained = 0.0
    for result, change in zip(results, changes, strict=True):
        side = result.side_of(user.pk)
        if side is None:
            continue
        other = result.player_b if side == "a" else result.player_a
        before, after = (
            (change.before_a, change.after_a)
            if side == "a"
            else (change.before_b, change.after_b)
        )
        rating = after
        own_people = result.people_a if side == "a" else result.people_b
        if own_people:
            peoples[own_people] += 1
        outcome = (
            "draw"
            if result.outcome == "draw"
            else ("won" if result.outcome == side else "lost")
        )
        score_for = result.score_a if side == "a" else result.score_b
        score_against = result.score_b if side == "a" else result.score_a
        history.append(
            {
                "result": result,
                "opponent": other,
                "outcome": outcome,
                "score_for": score_for,
                "score_against": score_against,
                "people": own_people,
                "change": after.ordinal - before.ordinal,
                "rating": after,
            }
        )
        if not curve:  # the curve starts from the model's first rating
            curve.append({"date": None, "ordinal": before.ordinal})
        curve.append({"date": result.played_on, "ordinal": after.ordinal})
        record = opponents.setdefault(
            other.pk, {"user": other, "won": 0, "drawn": 0, "lost": 0}
        )
        record[{"won": "won", "draw": "drawn", "lost": "lost"}[outcome]] += 1
        if result.game_id is not None:
            seen = _luck_of(result.game, side)
            if seen is not None:
                running_expected += seen["expected"]
                running_obtained += seen["successes"]
                luck.append(
                    {
                        "date": result.played_on,
                        "expected": seen["expected"],
                        "successes": seen["successes"],
                        "tests": seen["tests"],
                        "luck": seen["successes"] - seen["expected"],
                        "season_luck": running_obtained - running_expected,
                    }
                )
    return PlayerPage(
        user=user,
        season=season,
        history=list(reversed(history)),
        opponents=sorted(opponents.values(), key=lambda o: o["user"].username),
        peoples=peoples.most_common(),
        curve=curve,
        rating=rating,
        provisional=len(history) < PROVISIONAL_BELOW,
        luck=luck,
        pending=[r for r in pending_for(user) if r.season_id == season.pk],
    )


def _luck_of(game: Game, side: str) -> dict | None:
    """Tests, successes and expected successes of ``side`` in ``game``.

    The same reading of the logged odds as the end-of-game summary
    (``rules.game.summary``): expected = the sum of the odds before each roll.
    """
    from battles.services.games import game_summary

    try:
        sides = game_summary(game)["sides"]
    except Exception:  # a log the rules cannot read any more: no luck figure
        return None
    data = sides.get(side)
    if data is None:
        return None
    return {
        "tests": data["tests"],
        "successes": data["successes"],
        "expected": data["expected"],
    }


def people_statistics(season: Season) -> dict:
    """Games, wins and win rate per people, and the match-up table."""
    per: dict[str, dict] = defaultdict(lambda: {"games": 0, "wins": 0})
    matchups: dict[str, dict[str, dict]] = defaultdict(
        lambda: defaultdict(lambda: {"games": 0, "wins": 0})
    )
    for result in season.results.filter(status=ResultStatus.CONFIRMED).only(
        "people_a", "people_b", "outcome"
    ):
        a = result.people_a or _("(not given)")
        b = result.people_b or _("(not given)")
        for own, other, side in ((a, b, "a"), (b, a, "b")):
            per[own]["games"] += 1
            per[own]["wins"] += int(result.outcome == side)
            matchups[own][other]["games"] += 1
            matchups[own][other]["wins"] += int(result.outcome == side)
    names = sorted(per)
    rows = [
        {
            "people": name,
            "games": per[name]["games"],
            "wins": per[name]["wins"],
            "win_rate": per[name]["wins"] / per[name]["games"],
        }
        for name in names
    ]
    table = [
        {
            "people": name,
            "cells": [
                matchups[name][other] if matchups[name][other]["games"] else None
                for other in names
            ],
        }
        for name in names
    ]
    return {"rows": rows, "names": names, "table": table}


# --- a finished game's result -------------------------------------------------------


def default_outcome(game: Game) -> dict[str, Any]:
    """What the end-of-game form proposes: scores destroyed and the winner."""
    scores = army_points_destroyed(game)
    finished = (game.state or {}).get("finished") or {}
    if finished.get("winner") in ("a", "b"):
        winner = finished["winner"]
    elif scores["a"] != scores["b"]:
        winner = "a" if scores["a"] > scores["b"] else "b"
    else:
        winner = "draw"
    return {"outcome": winner, "score_a": scores["a"], "score_b": scores["b"]}


def _seat_users(game: Game) -> dict[str, int | None]:
    users = {"a": None, "b": None}
    for seat in GameSeat.objects.filter(
        game=game, role__in=[SeatRole.SIDE_A, SeatRole.SIDE_B]
    ):
        users[seat.role] = seat.user_id
    return users


def seasons_for_game(game: Game) -> list[Season]:
    """Open seasons in which both seats' accounts play (members of the club)."""
    users = _seat_users(game)
    if None in users.values() or users["a"] == users["b"]:
        return []
    today = timezone.localdate()
    clubs_a = set(
        Membership.objects.filter(user_id=users["a"]).values_list("club_id", flat=True)
    )
    clubs_b = set(
        Membership.objects.filter(user_id=users["b"]).values_list("club_id", flat=True)
    )
    return list(
        Season.objects.filter(
            club_id__in=clubs_a & clubs_b, starts__lte=today, ends__gte=today
        ).select_related("club")
    )


def propose_game_outcome(
    game: Game,
    side: str,
    *,
    outcome: str,
    score_a: int,
    score_b: int,
    season_id: int | None = None,
) -> GameOutcome:
    """``side`` proposes the game's result; the other side's agreement is cleared."""
    if side not in ("a", "b"):
        raise LeagueError(_("Only a player of this game may record its result."))
    if outcome not in ("a", "b", "draw"):
        raise LeagueError(_("Choose who won, or a draw."), field="outcome")
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        if not locked.finished:
            raise LeagueError(_("The game is not finished yet."))
        season = None
        if season_id is not None:
            season = next(
                (s for s in seasons_for_game(locked) if s.pk == season_id), None
            )
            if season is None:
                raise LeagueError(
                    _("Both players must be members of this open season."),
                    field="season",
                )
            if LeagueResult.objects.filter(game=locked).exists():
                raise LeagueError(_("This game already counts in a season."))
        current = GameOutcome.objects.filter(game=locked).first()
        if current is not None and current.settled:
            raise LeagueError(_("Both players already agreed on this result."))
        values = {
            "outcome": outcome,
            "score_a": score_a,
            "score_b": score_b,
            "season": season,
            "proposed_by": side,
            "agreed_a": side == "a",
            "agreed_b": side == "b",
        }
        if current is None:
            current = GameOutcome.objects.create(game=locked, **values)
        else:
            for name, value in values.items():
                setattr(current, name, value)
            current.save()
    return current


def confirm_game_outcome(game: Game, side: str, *, sides_held=()) -> GameOutcome:
    """``side`` agrees with the other side's proposal.

    When both agree and the proposal names a season, the game becomes a
    confirmed result of that season in the same transaction (one step).
    """
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        current = GameOutcome.objects.select_for_update().filter(game=locked).first()
        if current is None:
            raise LeagueError(_("No result has been proposed for this game yet."))
        if current.settled:
            raise LeagueError(_("Both players already agreed on this result."))
        if side not in ("a", "b") or current.agreed(side):
            raise LeagueError(
                _("You proposed this result: the other player confirms it.")
            )
        setattr(current, f"agreed_{side}", True)
        if current.season_id is not None:
            current.result = _result_from_game(locked, current)
        current.save()
    return current


def _result_from_game(game: Game, agreed: GameOutcome) -> LeagueResult:
    season = agreed.season
    users = _seat_users(game)
    if season.pk not in {s.pk for s in seasons_for_game(game)}:
        raise LeagueError(_("Both players must be members of this open season."))
    state = game.state or {}
    sides = state.get("sides") or {}
    try:
        with transaction.atomic():
            result = LeagueResult.objects.create(
                season=season,
                player_a_id=users["a"],
                player_b_id=users["b"],
                played_on=timezone.localdate(),
                outcome=agreed.outcome,
                score_a=agreed.score_a,
                score_b=agreed.score_b,
                people_a=str((sides.get("a") or {}).get("people", ""))[:80],
                people_b=str((sides.get("b") or {}).get("people", ""))[:80],
                army_a=str((sides.get("a") or {}).get("army", ""))[:120],
                army_b=str((sides.get("b") or {}).get("army", ""))[:120],
                status=ResultStatus.CONFIRMED,
                reported_by_id=users[agreed.proposed_by],
                game=game,
            )
    except IntegrityError:
        raise LeagueError(_("This game already counts in a season.")) from None
    _entry(result, None, EntryAction.FROM_GAME, extra={"game": game.public_id})
    _announce(result)
    return result


def game_outcome(game: Game) -> GameOutcome | None:
    return GameOutcome.objects.filter(game=game).select_related("season").first()


def result_history(result: LeagueResult) -> list[ResultEntry]:
    return list(result.entries.select_related("actor").order_by("id"))


def results_visible_to(season: Season):
    return season.results.select_related(
        "player_a", "player_b", "reported_by"
    ).order_by("-played_on", "-id")


__all__ = [
    "LeagueError",
    "accept_invitation",
    "admin_confirm",
    "admin_correct",
    "admin_void",
    "army_points_destroyed",
    "confirm_game_outcome",
    "confirm_result",
    "create_club",
    "create_season",
    "default_outcome",
    "dispute_result",
    "invitation_for",
    "issue_password_reset",
    "make_invitation",
    "people_statistics",
    "player_page",
    "promote_admin",
    "propose_game_outcome",
    "remove_member",
    "report_result",
    "revoke_invitation",
    "season_table",
    "use_password_reset",
]
