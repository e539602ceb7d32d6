"""Clubs and members: create a club, invite and join, remove, restore and
promote members; the club's audit and the notices it gives its members.
One function per action, one transaction each."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from battles.league.models.league import (
    AuditAction,
    Club,
    ClubAudit,
    ClubRole,
    Invitation,
    LeagueResult,
    Membership,
    Season,
)
from battles.league.services.errors import LeagueError
from battles.models.games import hash_token
from battles.services.once import once
from battles.services.quotas import spend, who

User = get_user_model()


INVITATION_DAYS = 14

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
