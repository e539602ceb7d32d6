"""The club league: one function per action, one transaction each.

DESIGN "League": clubs, seasons, results and their append-only history live
here; the standings and ratings are ``rules.league``'s pure functions over
the season's confirmed results. Every refusal raises ``LeagueError`` with a
message for the person and changes nothing.

Who may do what:

- any signed-in person: create a club (and become its first admin), join one
  through an invitation;
- an admin of the club: invite, revoke invitations, remove members, promote
  admins, create seasons; confirm, correct or void a result with a reason:
  of a game they played, only with the opponent's agreement; of others'
  games, at once, told to both players, who may dispute it; never a result
  reported before they became an admin. Never anyone's password
  (``battles.services.account_security``);
- a member: report a result against another member, confirm or dispute a
  result reported against them, dispute an admin's change of their game.
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
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.league.live.league import announce_result
from battles.league.models.league import (
    AuditAction,
    Club,
    ClubAudit,
    ClubRole,
    EntryAction,
    GameOutcome,
    Invitation,
    LeagueResult,
    Membership,
    ResultEntry,
    ResultStatus,
    Season,
    new_public_key,
)
from battles.league.services.peoples import canonical as canonical_people
from battles.league.services.peoples import namer as peoples_namer
from battles.league.services.ratings import club_history, player_curve
from battles.live.bus import announce_outcome
from battles.models.games import Game, GameSeat, SeatRole, hash_token
from battles.services.fighter_rows import army_points_destroyed
from battles.services.once import once
from battles.services.quotas import spend, who
from battles.validation import FieldError
from rules.league import (
    PROVISIONAL_GAMES,
    GameResult,
    round_robin,
    shown_rating,
    standings,
)

User = get_user_model()

INVITATION_DAYS = 14
PROVISIONAL_BELOW = PROVISIONAL_GAMES  # rules.league: one number, one place


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


def in_a_club(user) -> bool:
    """Whether ``user`` belongs to a club: only then has the home page results
    to wait for, and a live box (a stream) worth opening."""
    return user.is_authenticated and Membership.objects.filter(user=user).exists()


@once("club", by="user", error=LeagueError, fetch=lambda pk: Club.objects.get(pk=pk))
def create_club(user, name: str, description: str = "") -> Club:
    """A new club; its creator is its first admin."""
    name = name.strip()
    if not name:
        raise LeagueError(_("A club needs a name."), field="name")
    with transaction.atomic():
        spend("club", who(user=user), error=LeagueError)
        if Club.objects.filter(name__iexact=name).exists():
            raise LeagueError(_("A club already has this name."), field="name")
        club = Club.objects.create(
            name=name, description=description.strip(), founder=user
        )
        Membership.objects.create(
            club=club, user=user, role=ClubRole.ADMIN, admin_since=timezone.now()
        )
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


def invitation_token(invitation: Invitation) -> str | None:
    """The invitation's token, derived again from its nonce and the site's
    secret (so every admin device shows the link); None for an old one."""
    if not invitation.nonce:
        return None
    return salted_hmac(
        "battles.league.invitation", invitation.nonce, algorithm="sha256"
    ).hexdigest()


def _issued_again(pk: int) -> IssuedToken:
    invitation = Invitation.objects.get(pk=pk)
    return IssuedToken(invitation, invitation_token(invitation))


@once(
    "invitation",
    by="admin",
    error=LeagueError,
    fetch=_issued_again,
    pk_of=lambda i: i.row.pk,
)
def make_invitation(club: Club, admin) -> IssuedToken:
    """A one-person invitation link, valid ``INVITATION_DAYS``."""
    _require_admin(club, admin)
    with transaction.atomic():
        spend("invitation", who(user=admin), error=LeagueError)
        invitation = Invitation(
            club=club,
            nonce=secrets.token_urlsafe(16),
            created_by=admin,
            expires=timezone.now() + timedelta(days=INVITATION_DAYS),
        )
        token = invitation_token(invitation)
        invitation.token_hash = hash_token(token)
        invitation.save()
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


def _audit(club: Club, actor, subject_id, action: str, **data) -> ClubAudit:
    """One row of the club's audit, naming the account that acted."""
    if actor is not None:
        data.setdefault("account", actor.get_username())
    return ClubAudit.objects.create(
        club=club, actor=actor, subject_id=subject_id, action=action, data=data
    )


def audit_season(season: Season, actor, action: str) -> ClubAudit:
    """A season closed or reopened, in the club's audit."""
    return _audit(season.club, actor, None, action, season=season.name)


def _audit_result(result: LeagueResult, actor, action: str, reason: str = ""):
    """A result's change, in the club's audit: who, which game, why."""
    players = User.objects.in_bulk([result.player_a_id, result.player_b_id])
    return _audit(
        result.season.club,
        actor,
        None,
        action,
        result=result.pk,
        season=result.season.name,
        game=f"{players[result.player_a_id].get_username()} – "
        f"{players[result.player_b_id].get_username()}",
        score=f"{result.score_a}–{result.score_b}",
        status=result.status,
        reason=reason,
    )


def _is_founder(club: Club, user_id: int) -> bool:
    return club.founder_id is not None and club.founder_id == user_id


def _check_removal(club: Club, admin_member: Membership, member: Membership) -> None:
    """No admin above the rules: the founder and the last admin stay, and an
    admin is removed only by an admin who was there before them."""
    if member.is_admin:
        admins = Membership.objects.filter(club=club, role=ClubRole.ADMIN).count()
        if admins <= 1:
            raise LeagueError(_("The club's last admin cannot be removed."))
    if _is_founder(club, member.user_id):
        raise LeagueError(_("The club's founder cannot be removed."))
    if member.is_admin and member.user_id != admin_member.user_id:
        if not _is_founder(club, admin_member.user_id) and _seniority(
            admin_member
        ) > _seniority(member):
            raise LeagueError(
                _(
                    "An admin who was an admin before you can only be removed by "
                    "an older admin."
                )
            )


def _seniority(member: Membership) -> tuple:
    """When they became an admin (then when they joined): smaller is older."""
    return (member.admin_since or member.joined, member.joined, member.pk)


def removal_check(club: Club, admin, user_id: int) -> Membership:
    """The member ``admin`` asks to remove, if they may (else LeagueError)."""
    admin_member = _require_admin(club, admin)
    member = _member_of(club, user_id)
    _check_removal(club, admin_member, member)
    return member


def remove_member(club: Club, admin, user_id: int) -> None:
    """The member leaves the club; their results stay in the seasons, and an
    admin can restore them (the audit keeps their role and the date)."""
    with transaction.atomic():
        admin_member = (
            Membership.objects.select_for_update().filter(club=club, user=admin).first()
        )
        if admin_member is None or not admin_member.is_admin:
            raise LeagueError(_("Only an admin of the club may do this."))
        member = _member_of(club, user_id)
        _check_removal(club, admin_member, member)
        _audit(
            club,
            admin,
            member.user_id,
            AuditAction.MEMBER_REMOVED,
            role=member.role,
            joined=member.joined.isoformat(),
        )
        member.delete()


def removed_members(club: Club) -> list:
    """People removed from the club who are not back: whom an admin can restore."""
    current = Membership.objects.filter(club=club).values("user_id")
    rows = (
        ClubAudit.objects.filter(club=club, action=AuditAction.MEMBER_REMOVED)
        .exclude(subject_id__in=current)
        .select_related("subject", "actor")
        .order_by("-created", "-id")
    )
    seen, found = set(), []
    for row in rows:
        if row.subject_id not in seen:
            seen.add(row.subject_id)
            found.append(row)
    return found


def restore_member(club: Club, admin, user_id: int) -> Membership:
    """A removed member is back, as a member (an admin promotes them again)."""
    _require_admin(club, admin)
    with transaction.atomic():
        if not ClubAudit.objects.filter(
            club=club, subject_id=user_id, action=AuditAction.MEMBER_REMOVED
        ).exists():
            raise LeagueError(_("Only a removed member can be restored."))
        if Membership.objects.filter(club=club, user_id=user_id).exists():
            raise LeagueError(_("This person is already a member of the club."))
        member = Membership.objects.create(club=club, user_id=user_id)
        _audit(club, admin, user_id, AuditAction.MEMBER_RESTORED)
    return member


def promote_admin(club: Club, admin, user_id: int) -> Membership:
    _require_admin(club, admin)
    with transaction.atomic():
        member = _member_of(club, user_id)
        if member.is_admin:
            raise LeagueError(_("This member is already an admin."))
        member.role = ClubRole.ADMIN
        member.admin_since = timezone.now()
        member.save(update_fields=["role", "admin_since"])
        _audit(club, admin, user_id, AuditAction.ADMIN_PROMOTED)
    return member


def club_audit(club: Club, limit: int = 50) -> list[ClubAudit]:
    """What admins did to members (every admin of the club sees it)."""
    return list(
        club.audit.select_related("actor", "subject").order_by("-created", "-id")[
            :limit
        ]
    )


def notices_for(user) -> list[ClubAudit]:
    """What was done to ``user``'s account or membership, newest first."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        ClubAudit.objects.filter(subject=user)
        .select_related("club", "actor")
        .order_by("-created", "-id")[:20]
    )


def untold_notices(user) -> list[ClubAudit]:
    """The notices ``user`` has not been told yet; they are told from now on."""
    with transaction.atomic():
        rows = list(
            ClubAudit.objects.select_for_update(of=("self",))
            .filter(subject=user, told=False)
            .exclude(actor=user)
            .select_related("club", "actor")
            .order_by("created", "id")
        )
        ClubAudit.objects.filter(pk__in=[r.pk for r in rows]).update(told=True)
    return rows


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


# --- results -------------------------------------------------------------------


def _entry(result, actor, action, reason="", extra=None) -> ResultEntry:
    data = result.as_data()
    if extra:
        data.update(extra)
    return ResultEntry.objects.create(
        result=result, actor=actor, action=action, reason=reason, data=data
    )


def _announce(result: LeagueResult) -> None:
    """After commit: the season, both players and the club's admins (whose
    home page lists disputes and playing admins' changes) are told."""
    admins = Membership.objects.filter(
        club__seasons=result.season_id, role=ClubRole.ADMIN
    ).values_list("user_id", flat=True)
    users = sorted({result.player_a_id, result.player_b_id, *admins})
    season_id = result.season_id
    transaction.on_commit(lambda: announce_result(season_id, users))


def closed_message(season: Season) -> str:
    """Why a closed season takes no result (for a page to say)."""
    return _closed_message(season)


def _closed_message(season: Season) -> str:
    return _(
        "The season %(name)s is closed: no result can be reported or confirmed "
        "unless an admin reopens it."
    ) % {"name": season.name}


def _check_players_and_date(season, player_a_id, player_b_id, played_on) -> None:
    if player_a_id == player_b_id:
        raise LeagueError(_("A result is against someone else."), field="opponent")
    if not season.accepts_results:
        raise LeagueError(_closed_message(season))
    members = set(
        Membership.objects.filter(
            club_id=season.club_id, user_id__in=[player_a_id, player_b_id]
        ).values_list("user_id", flat=True)
    ) & set(
        season.participants.filter(pk__in=[player_a_id, player_b_id]).values_list(
            "pk", flat=True
        )
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


def check_not_future(played_on: date, field: str = "played_on") -> None:
    if played_on > timezone.localdate():
        raise LeagueError(_("A game cannot be played in the future."), field=field)


def check_score(outcome: str, score_a: int, score_b: int, *, field: str) -> None:
    """The outcome and the score agree: a win is never scored below the loser."""
    if (outcome == "a" and score_a < score_b) or (outcome == "b" and score_b < score_a):
        raise LeagueError(
            _("The winner's score cannot be below the loser's."), field=field
        )


def same_day_results(season: Season, player_a_id, player_b_id, played_on):
    """The season's live results between these two players on that day."""
    return season.results.filter(
        Q(player_a_id=player_a_id, player_b_id=player_b_id)
        | Q(player_a_id=player_b_id, player_b_id=player_a_id),
        played_on=played_on,
    ).exclude(status__in=[ResultStatus.VOID, ResultStatus.WITHDRAWN])


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
    second_game: bool = False,
    tap_key: str | None = None,
) -> LeagueResult:
    """A game played without the app; it waits for the opponent's confirmation.

    ``result`` is the reporter's: "won", "lost" or "draw". A second result of
    the same two players on the same day is refused unless ``second_game``
    says it was another game (then both see it flagged). ``tap_key``: the
    form's one-use key; the same form sent twice gives the first result back.
    """
    # The app's name of each people, whatever the spelling (one faction once).
    people_for, people_against = map(canonical_people, (people_for, people_against))
    if result not in OUTCOME_FROM_REPORTER:
        raise LeagueError(_("Choose won, lost or draw."), field="result")
    outcome = OUTCOME_FROM_REPORTER[result]
    check_score(outcome, score_for, score_against, field="score_for")
    with transaction.atomic():
        # One report at a time per season: the same form sent twice at once,
        # or the same game reported by both players, is judged after the other.
        Season.objects.select_for_update().filter(pk=season.pk).first()
        if tap_key:
            done = LeagueResult.objects.filter(tap_key=tap_key).first()
            if done is not None:
                if done.reported_by_id != reporter.pk:
                    raise LeagueError(_("This form was already used."))
                return done
        _check_players_and_date(season, reporter.pk, opponent_id, played_on)
        check_not_future(played_on)
        already = same_day_results(season, reporter.pk, opponent_id, played_on).exists()
        if already and not second_game:
            raise LeagueError(
                _(
                    "You two already have a result on this day. If it was "
                    "another game, tick “It was a second game that day”."
                ),
                field="second_game",
            )
        try:
            with transaction.atomic():
                row = LeagueResult.objects.create(
                    season=season,
                    player_a=reporter,
                    player_b_id=opponent_id,
                    played_on=played_on,
                    outcome=outcome,
                    score_a=score_for,
                    score_b=score_against,
                    people_a=people_for.strip(),
                    people_b=people_against.strip(),
                    army_a=army_for.strip(),
                    army_b=army_against.strip(),
                    reported_by=reporter,
                    tap_key=tap_key or None,
                )
        except IntegrityError:  # the same form, sent at the same moment
            done = LeagueResult.objects.filter(tap_key=tap_key).first()
            if tap_key and done is not None and done.reported_by_id == reporter.pk:
                return done
            raise
        extra = {"second_game": True} if already else None
        _entry(row, reporter, EntryAction.REPORTED, extra=extra)
        _announce(row)
    return row


def is_second_game(result: LeagueResult) -> bool:
    """Reported as another game of the same two players on the same day."""
    return result.entries.filter(
        action=EntryAction.REPORTED, data__second_game=True
    ).exists()


def withdraw_result(result: LeagueResult, user) -> LeagueResult:
    """The reporter takes back a report still waiting for the opponent."""
    with transaction.atomic():
        locked = _locked_result(result.pk)
        if user.pk != locked.reported_by_id:
            raise LeagueError(_("Only whoever reported this result may withdraw it."))
        if locked.status != ResultStatus.PENDING:
            raise LeagueError(_("This result is no longer waiting for an answer."))
        locked.status = ResultStatus.WITHDRAWN
        locked.save(update_fields=["status", "updated"])
        _entry(locked, user, EntryAction.WITHDRAWN)
        _announce(locked)
    return locked


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


def _player_answer(
    result: LeagueResult, user, verdict: str, reason: str = "", extra=None
) -> LeagueResult:
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
        if not locked.season.accepts_results:
            raise LeagueError(_closed_message(locked.season))
        locked.status = verdict
        locked.save(update_fields=["status", "updated"])
        action = (
            EntryAction.CONFIRMED
            if verdict == ResultStatus.CONFIRMED
            else EntryAction.DISPUTED
        )
        _entry(locked, user, action, reason, extra)
        _announce(locked)
    return locked


def confirm_result(result: LeagueResult, user) -> LeagueResult:
    """The opponent agrees: the result counts from now on."""
    return _player_answer(result, user, ResultStatus.CONFIRMED)


def dispute_result(
    result: LeagueResult,
    user,
    reason: str = "",
    *,
    outcome: str | None = None,
    score_a: int | None = None,
    score_b: int | None = None,
) -> LeagueResult:
    """The opponent disagrees, says why and what the score was; an admin settles
    it (confirm, correct or void), seeing it among the disputes to settle."""
    reason = reason.strip()
    if not reason:
        raise LeagueError(_("Say what is wrong with this result."), field="reason")
    counter = None
    if outcome is not None:
        if outcome not in ("a", "b", "draw"):
            raise LeagueError(_("Choose who won, or a draw."), field="outcome")
        check_score(outcome, score_a or 0, score_b or 0, field="score_a")
        counter = {"outcome": outcome, "score_a": score_a or 0, "score_b": score_b or 0}
    extra = {"counter": counter} if counter else None
    with transaction.atomic():
        locked = _locked_result(result.pk)
        change = admin_change_to_dispute(locked, user)
        if change is None:
            return _player_answer(result, user, ResultStatus.DISPUTED, reason, extra)
        # An admin changed the game of two others: either player disputes it.
        if not locked.season.accepts_results:
            raise LeagueError(_closed_message(locked.season))
        locked.status = ResultStatus.DISPUTED
        locked.save(update_fields=["status", "updated"])
        _entry(
            locked,
            user,
            EntryAction.DISPUTED,
            reason,
            {**(extra or {}), "of_admin_change": change.pk},
        )
        _audit_result(locked, user, AuditAction.RESULT_DISPUTED, reason)
        _announce(locked)
    return locked


ADMIN_CHANGES = (
    EntryAction.ADMIN_CONFIRMED,
    EntryAction.CORRECTED,
    EntryAction.VOIDED,
)


def disputed_counter(result: LeagueResult) -> dict | None:
    """The score as the disputing player saw it (their dispute's counter)."""
    if result.status != ResultStatus.DISPUTED:
        return None
    last = result.entries.filter(action=EntryAction.DISPUTED).order_by("-id").first()
    return (last.data or {}).get("counter") if last else None


def has_say(result: LeagueResult, member) -> bool:
    """Whether ``member`` may settle ``result`` as an admin: an admin before
    it was reported (``_require_say``)."""
    if member is None or not member.is_admin:
        return False
    return (member.admin_since or member.joined) <= result.created


def admin_change_to_dispute(result: LeagueResult, user) -> ResultEntry | None:
    """The admin's change a player of ``result`` may dispute: the last entry,
    when it is another person's confirm, correction or void."""
    if not user.is_authenticated or not _plays_in(result, user):
        return None
    if result.status in (ResultStatus.DISPUTED, ResultStatus.PENDING):
        return None
    last = result.entries.order_by("-id").first()
    if last is None or last.action not in ADMIN_CHANGES or last.actor_id == user.pk:
        return None
    return last


def admin_changes_for(user, days: int = 30) -> list[ResultEntry]:
    """What admins did to ``user``'s results lately (their home page tells
    them at once, with the reason and the way to dispute it)."""
    if not user.is_authenticated:
        return []
    since = timezone.now() - timedelta(days=days)
    return list(
        ResultEntry.objects.filter(
            Q(result__player_a=user) | Q(result__player_b=user),
            action__in=ADMIN_CHANGES,
            created__gte=since,
        )
        .exclude(actor=user)
        .select_related(
            "actor", "result__season", "result__player_a", "result__player_b"
        )
        .order_by("-created", "-id")[:10]
    )


def disputes_to_settle(user) -> list[LeagueResult]:
    """Disputed results in the clubs ``user`` is an admin of (their home page
    lists them). A playing admin's change waits for the opponent alone."""
    if not user.is_authenticated:
        return []
    clubs = Membership.objects.filter(user=user, role=ClubRole.ADMIN).values("club_id")
    return list(
        LeagueResult.objects.filter(
            season__club_id__in=clubs, status=ResultStatus.DISPUTED
        )
        .select_related("season__club", "player_a", "player_b")
        .order_by("played_on", "id")[:50]
    )


def _admin_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise LeagueError(
            _("Say why (the reason is kept in the history)."), field="reason"
        )
    return reason


def _plays_in(result: LeagueResult, user) -> bool:
    return user.pk in (result.player_a_id, result.player_b_id)


def _propose(locked: LeagueResult, admin, action: str, reason: str, fields=None):
    """An admin who played the game: the change waits for another admin or the
    opponent (``approve_proposal``)."""
    locked.proposal = {
        "action": action,
        "by": admin.pk,
        "reason": reason,
        "fields": fields or {},
    }
    locked.save(update_fields=["proposal", "updated"])
    _entry(locked, admin, EntryAction.PROPOSED, reason, {"proposal": locked.proposal})
    _audit_result(locked, admin, AuditAction.RESULT_PROPOSED, reason)
    _announce(locked)
    return locked


AUDITED = {
    EntryAction.ADMIN_CONFIRMED: AuditAction.RESULT_CONFIRMED,
    EntryAction.VOIDED: AuditAction.RESULT_VOIDED,
    EntryAction.CORRECTED: AuditAction.RESULT_CORRECTED,
    EntryAction.OPPONENT_CONFIRMED: AuditAction.RESULT_AGREED,
    EntryAction.AGREED_VOID: AuditAction.RESULT_AGREED,
    EntryAction.AGREED_CORRECTION: AuditAction.RESULT_AGREED,
}


def _apply_settle(locked, actor, reason, status, action, extra=None):
    locked.status = status
    locked.proposal = None
    locked.save(update_fields=["status", "proposal", "updated"])
    _entry(locked, actor, action, reason, extra)
    _audit_result(locked, actor, AUDITED[action], reason)
    _announce(locked)
    return locked


def _apply_correct(
    locked, actor, reason, fields: dict, extra=None, action=EntryAction.CORRECTED
):
    before = locked.as_data()
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.status = ResultStatus.CONFIRMED
    locked.proposal = None
    locked.save()
    _entry(locked, actor, action, reason, {"before": before, **(extra or {})})
    _audit_result(locked, actor, AUDITED[action], reason)
    _announce(locked)
    return locked


SETTLE = {
    "confirm": (
        ResultStatus.CONFIRMED,
        EntryAction.ADMIN_CONFIRMED,
        gettext_lazy("This result is already confirmed."),
    ),
    "void": (
        ResultStatus.VOID,
        EntryAction.VOIDED,
        gettext_lazy("This result is already void."),
    ),
}


def _require_not_frozen(season: Season) -> None:
    """A closed or archived season's results stand as they are until an admin
    reopens it; past its last day, an admin still settles what is left."""
    if season.closed or season.archived:
        raise LeagueError(_closed_message(season))


def _require_say(locked: LeagueResult, admin) -> Membership:
    """An admin of the club who was one before the result was reported: an
    admin promoted afterwards has no say over it (no sock puppet approves)."""
    member = _require_admin(locked.season.club, admin)
    since = member.admin_since or member.joined
    if since > locked.created:
        raise LeagueError(
            _(
                "You became an admin after this result was reported: you have "
                "no say over it."
            )
        )
    return member


def _admin_settle(result: LeagueResult, admin, reason: str, kind: str) -> LeagueResult:
    """An admin confirms or voids ``result``; of a game they played, it waits
    for the opponent's agreement."""
    reason = _admin_reason(reason)
    status, action, already = SETTLE[kind]
    with transaction.atomic():
        locked = _locked_result(result.pk)
        _require_say(locked, admin)
        _require_not_frozen(locked.season)
        if locked.status == status:
            raise LeagueError(str(already))
        if _plays_in(locked, admin):
            return _propose(locked, admin, kind, reason)
        return _apply_settle(locked, admin, reason, status, action)


def admin_confirm(result: LeagueResult, admin, reason: str) -> LeagueResult:
    return _admin_settle(result, admin, reason, "confirm")


def admin_void(result: LeagueResult, admin, reason: str) -> LeagueResult:
    return _admin_settle(result, admin, reason, "void")


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
    """An admin sets the result right; the corrected result is confirmed (of a
    game they played: once another admin or the opponent agrees)."""
    reason = _admin_reason(reason)
    people_a, people_b = map(canonical_people, (people_a, people_b))
    if outcome not in ("a", "b", "draw"):
        raise LeagueError(_("Choose who won, or a draw."), field="outcome")
    check_score(outcome, score_a, score_b, field="score_a")
    with transaction.atomic():
        locked = _locked_result(result.pk)
        _require_say(locked, admin)
        _require_not_frozen(locked.season)
        if not locked.season.covers(played_on):
            raise LeagueError(_("The date is outside the season."), field="played_on")
        check_not_future(played_on)
        fields = {
            "played_on": played_on,
            "outcome": outcome,
            "score_a": score_a,
            "score_b": score_b,
            "people_a": people_a.strip(),
            "people_b": people_b.strip(),
        }
        if _plays_in(locked, admin):
            stored = {**fields, "played_on": played_on.isoformat()}
            return _propose(locked, admin, "correct", reason, stored)
        return _apply_correct(locked, admin, reason, fields)


def may_answer_proposal(result: LeagueResult, user, member=None) -> bool:
    """Only the opponent of the admin who proposed: a result belongs to its two
    players, and no other admin (nor a second account of his) agrees for one."""
    proposal = result.proposal
    if not proposal or user.pk == proposal["by"]:
        return False
    return _plays_in(result, user)


def approve_proposal(result: LeagueResult, user) -> LeagueResult:
    """Another admin or the opponent agrees with a playing admin's change."""
    with transaction.atomic():
        locked = _locked_result(result.pk)
        member = membership(locked.season.club, user)
        if not may_answer_proposal(locked, user, member):
            raise LeagueError(
                _("Only the opponent agrees, not the admin who proposed.")
            )
        _require_not_frozen(locked.season)
        proposal = locked.proposal
        extra = {"proposed_by": proposal["by"]}
        if proposal["action"] == "correct":
            fields = dict(proposal["fields"])
            fields["played_on"] = date.fromisoformat(fields["played_on"])
            return _apply_correct(
                locked,
                user,
                proposal["reason"],
                fields,
                extra,
                action=EntryAction.AGREED_CORRECTION,
            )
        status = SETTLE[proposal["action"]][0]
        action = (
            EntryAction.OPPONENT_CONFIRMED
            if proposal["action"] == "confirm"
            else EntryAction.AGREED_VOID
        )
        return _apply_settle(locked, user, proposal["reason"], status, action, extra)


def refuse_proposal(result: LeagueResult, user, reason: str) -> LeagueResult:
    """Another admin or the opponent refuses a playing admin's change."""
    reason = _admin_reason(reason)
    with transaction.atomic():
        locked = _locked_result(result.pk)
        member = membership(locked.season.club, user)
        if not may_answer_proposal(locked, user, member):
            raise LeagueError(
                _("Only the opponent answers, not the admin who proposed.")
            )
        locked.proposal = None
        locked.save(update_fields=["proposal", "updated"])
        _entry(locked, user, EntryAction.REFUSED, reason)
        _audit_result(locked, user, AuditAction.RESULT_REFUSED, reason)
        _announce(locked)
    return locked


def pending_for(user) -> list[LeagueResult]:
    """Results reported against ``user`` that wait for their answer, and a
    playing admin's change to a game of theirs that waits for them."""
    if not user.is_authenticated:
        return []
    rows = (
        LeagueResult.objects.filter(Q(player_a=user) | Q(player_b=user))
        .filter(
            Q(status=ResultStatus.PENDING) & ~Q(reported_by=user)
            | Q(proposal__isnull=False)
        )
        .select_related("season__club", "player_a", "player_b")
        .order_by("played_on", "id")
    )
    return [r for r in rows if not (r.proposal and r.proposal.get("by") == user.pk)]


def waiting_box(user) -> dict:
    """The home page's box: what waits for ``user``'s answer, and for an
    admin the disputes to settle."""
    from battles.league.live.league import player_version

    return {
        "pending": pending_for(user),
        "disputes": disputes_to_settle(user),
        "changed": admin_changes_for(user),
        "version": player_version(user.pk),
    }


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
    """Standings lines and peoples per player, from the results."""
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
    value = (standings(names, games, season.scheme()), peoples)
    if len(_COMPUTED) >= _COMPUTED_MAX:
        _COMPUTED.clear()
    _COMPUTED[fingerprint] = value
    return value


def season_table(season: Season) -> SeasonTable:
    """The standings (``rules.league.standings``) with peoples and the club
    rating (across seasons, ``battles.league.services.ratings``).

    A fixed number of queries whatever the number of results; the ratings
    (openskill, the slow part) are recomputed only after a change.
    """
    players = season_players(season)
    by_name = {user.username: user for user in players}
    fingerprint = (*_fingerprint(season), tuple(by_name))
    lines, peoples = _computed(season, fingerprint, list(by_name))
    club = club_history(season.club_id)
    rows = [
        StandingRow(
            line=line,
            user=by_name[line.player],
            peoples=[name for name, _count in peoples[line.player].most_common()],
            rating=club.final.get(line.player),
            provisional=club.provisional(line.player),
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
    """History, opponents, peoples played, rating curve and luck of one player.

    The rating is the club's, across seasons (``battles.league.services.ratings``):
    each game's change, the curve over all the player's games in the club.
    """
    results = list(confirmed_results(season).select_related("game"))
    club = club_history(season.club_id)
    change_of = club.change_of()
    history, luck = [], []
    opponents: dict[int, dict] = {}
    peoples: Counter = Counter()
    running_expected = running_obtained = 0.0
    for result in results:
        side = result.side_of(user.pk)
        if side is None:
            continue
        change = change_of[result.pk]
        other = result.player_b if side == "a" else result.player_a
        before, after = (
            (change.before_a, change.after_a)
            if side == "a"
            else (change.before_b, change.after_b)
        )
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
                "change": shown_rating(after).value - shown_rating(before).value,
                "rating": after,
            }
        )
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
        curve=[
            {"date": day, "rating": rating}
            for day, rating in player_curve(club, user.username)
        ],
        rating=club.final.get(user.username),
        provisional=club.provisional(user.username),
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
    one_name = peoples_namer()  # entries typed before the list: one faction once
    per: dict[str, dict] = defaultdict(lambda: {"games": 0, "wins": 0})
    matchups: dict[str, dict[str, dict]] = defaultdict(
        lambda: defaultdict(lambda: {"games": 0, "wins": 0})
    )
    for result in season.results.filter(status=ResultStatus.CONFIRMED).only(
        "people_a", "people_b", "outcome"
    ):
        a = one_name(result.people_a) or _("(not given)")
        b = one_name(result.people_b) or _("(not given)")
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
    proposal = {"outcome": winner, "score_a": scores["a"], "score_b": scores["b"]}
    seasons = seasons_for_game(game)
    if len(seasons) == 1:  # members of one open season: it counts there
        proposal["season"] = seasons[0].pk
    return proposal


def differs_from_log(outcome: GameOutcome | None, destroyed: dict | None) -> bool:
    """A proposed score that is not the army points the log says were destroyed."""
    if outcome is None or not destroyed:
        return False
    return (outcome.score_a, outcome.score_b) != (destroyed["a"], destroyed["b"])


def side_names(game: Game) -> dict[str, str]:
    """Each side's player name (the seat's, else its account's, else "side A"),
    for the forms to say."""
    names = {"a": _("side A"), "b": _("side B")}
    users = {
        u.pk: u.get_username()
        for u in User.objects.filter(
            pk__in=[seat.user_id for seat in game.seat_list if seat.user_id]
        )
    }
    for seat in game.seat_list:
        if seat.role in names:
            name = seat.player_name or users.get(seat.user_id)
            if name:
                names[seat.role] = name
    return names


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
            club_id__in=clubs_a & clubs_b,
            starts__lte=today,
            ends__gte=today,
            closed=False,
            archived=False,
        )
        .filter(participants=users["a"])
        .filter(participants=users["b"])
        .select_related("club")
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
            # Agreed without a season: both may still count it afterwards.
            if current.result_id is not None or season is None:
                raise LeagueError(_("Both players already agreed on this result."))
        check_score(outcome, score_a, score_b, field="score_a")
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
        transaction.on_commit(lambda: announce_outcome(locked.pk))
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
            # A tournament table of these two players waiting for its result
            # takes it at once (issue #29: one step from the game to the table).
            from battles.league.services.tournament import attach_game_result

            attach_game_result(current.result)
        current.save()
        transaction.on_commit(lambda: announce_outcome(locked.pk))
    return current


def _result_from_game(game: Game, agreed: GameOutcome) -> LeagueResult:
    season = agreed.season
    users = _seat_users(game)
    if season.pk not in {s.pk for s in seasons_for_game(game)}:
        raise LeagueError(_("Both players must be members of this open season."))
    state = game.state or {}
    sides = state.get("sides") or {}
    played_on = (
        timezone.localdate(game.finished_at)
        if game.finished_at
        else timezone.localdate()
    )
    if not season.covers(played_on):
        raise LeagueError(
            _("The game was played outside the season (%(starts)s to %(ends)s).")
            % {"starts": season.starts, "ends": season.ends}
        )
    destroyed = army_points_destroyed(game)
    try:
        with transaction.atomic():
            result = LeagueResult.objects.create(
                season=season,
                player_a_id=users["a"],
                player_b_id=users["b"],
                played_on=played_on,
                outcome=agreed.outcome,
                score_a=agreed.score_a,
                score_b=agreed.score_b,
                people_a=canonical_people(
                    str((sides.get("a") or {}).get("people", ""))
                )[:80],
                people_b=canonical_people(
                    str((sides.get("b") or {}).get("people", ""))
                )[:80],
                army_a=str((sides.get("a") or {}).get("army", ""))[:120],
                army_b=str((sides.get("b") or {}).get("army", ""))[:120],
                status=ResultStatus.CONFIRMED,
                reported_by_id=users[agreed.proposed_by],
                game=game,
            )
    except IntegrityError:
        raise LeagueError(_("This game already counts in a season.")) from None
    extra = {"game": game.public_id, "log": {"a": destroyed["a"], "b": destroyed["b"]}}
    if differs_from_log(agreed, destroyed):
        extra["differs_from_log"] = True
    _entry(result, None, EntryAction.FROM_GAME, extra=extra)
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
    "make_invitation",
    "people_statistics",
    "player_page",
    "promote_admin",
    "propose_game_outcome",
    "remove_member",
    "report_result",
    "revoke_invitation",
    "season_table",
]
