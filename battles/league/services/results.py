"""A league result from its players: report, withdraw, confirm, dispute;
its append-only history. One function per action, one transaction each."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.league.live.league import announce_result
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
from battles.league.services.clubs import _audit_result
from battles.league.services.errors import LeagueError
from battles.league.services.peoples import canonical as canonical_people

User = get_user_model()


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


ADMIN_CHANGES = (
    EntryAction.ADMIN_CONFIRMED,
    EntryAction.CORRECTED,
    EntryAction.VOIDED,
)


def _plays_in(result: LeagueResult, user) -> bool:
    return user.pk in (result.player_a_id, result.player_b_id)


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


def result_history(result: LeagueResult) -> list[ResultEntry]:
    return list(result.entries.select_related("actor").order_by("id"))


def results_visible_to(season: Season):
    return season.results.select_related(
        "player_a", "player_b", "reported_by"
    ).order_by("-played_on", "-id")
