"""An admin's say over a result (DESIGN "League", issue #29): confirm,
correct or void with a reason, never alone over a game they played
(the opponent approves or refuses), told at once to both players, who may
dispute it; what waits for a member (their pending results and notices)."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.league.live.league import player_version
from battles.league.models.league import (
    AuditAction,
    ClubRole,
    EntryAction,
    LeagueResult,
    Membership,
    ResultEntry,
    ResultStatus,
    Season,
)
from battles.league.services.clubs import _audit_result, _require_admin, membership
from battles.league.services.errors import LeagueError
from battles.league.services.names import shown_names
from battles.league.services.peoples import canonical as canonical_people
from battles.league.services.results import (
    ADMIN_CHANGES,
    _announce,
    _closed_message,
    _entry,
    _locked_result,
    _plays_in,
    check_not_future,
    check_score,
)

User = get_user_model()


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
    pending = pending_for(user)
    disputes = disputes_to_settle(user)
    changed = admin_changes_for(user)
    results = [*pending, *disputes, *(entry.result for entry in changed)]
    people = {pk for r in results for pk in (r.player_a_id, r.player_b_id)}
    people |= {entry.actor_id for entry in changed}
    return {
        "pending": pending,
        "disputes": disputes,
        "changed": changed,
        "version": player_version(user.pk),
        "names": shown_names(people),  # display names (issue #29)
    }
