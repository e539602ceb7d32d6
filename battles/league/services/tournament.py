"""A tournament day inside a season: one function per action, one transaction each.

An admin of the club creates the day (its players, each with their people)
and its Swiss rounds one by one; ``rules.league.swiss_round`` pairs each
round, with the players' peoples as its ``groups``. A pairing's game is an
ordinary result of the season: a player of the table reports it and the
other confirms it (``battles.league.services.results``), or a finished in-app game
between them that counts in the season is attached to the table. The
standings after each round are ``rules.league.standings`` over the confirmed
results of the rounds so far.

The organiser runs the field (issue #29): drops (never paired again, kept
in the standings), late entries (paired from the next round, with the day's
points per missed round), a table's result entered or confirmed by the
organiser, forfeits with the day's forfeit score, a round deleted and paired
again while none of its results is in, a round clock, bonus and penalty
points with their reason, and a final "standings are final" state.

The day's own rules: the bye (``bye_points``, default a win as Best Coast
Pairings and Longshanks score it, and ``bye_score``), its tie-breakers
(default ``rules.league.SWISS_TIEBREAKERS``) and round 1 (a shuffle by the
seed shown to all, or by club rating).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.league.live.tournament import announce_tournament
from battles.league.models.league import (
    MAX_SCORE,
    EntryAction,
    LeagueResult,
    ResultStatus,
    Season,
)
from battles.league.models.tournament import (
    LIVE_RESULT,
    MAX_ROUNDS,
    FirstRound,
    Tournament,
    TournamentAdjustment,
    TournamentPairing,
    TournamentPlayer,
    TournamentRound,
)
from battles.league.services.admin_changes import admin_confirm
from battles.league.services.clubs import membership
from battles.league.services.errors import LeagueError
from battles.league.services.names import shown_names
from battles.league.services.ratings import club_history
from battles.league.services.results import (
    _announce,
    _closed_message,
    _entry,
    check_score,
    report_result,
)
from battles.league.services.seasons import club_members
from battles.services.once import once
from rules.league import (
    ALL_TIEBREAKERS,
    SWISS_TIEBREAKERS,
    GameResult,
    shown_rating,
    standings,
    swiss_round,
)

User = get_user_model()

MIN_PLAYERS = 2


def _require_admin(season: Season, user) -> None:
    member = membership(season.club, user)
    if member is None or not member.is_admin:
        raise LeagueError(_("Only an admin of the club may do this."))


def new_seed() -> str:
    """A fresh seed for round 1's shuffle (shown to all before it is paired)."""
    return secrets.token_hex(4)


def _check_rules(
    rounds_planned, bye_points, bye_score, forfeit_score, late_points, tiebreakers
):
    if not 1 <= rounds_planned <= MAX_ROUNDS:
        raise LeagueError(
            _("A day has 1 to %(n)s rounds.") % {"n": MAX_ROUNDS},
            field="rounds_planned",
        )
    for value, field in (
        (bye_points, "bye_points"),
        (bye_score, "bye_score"),
        (forfeit_score, "forfeit_score"),
        (late_points, "late_points"),
    ):
        if not 0 <= value <= MAX_SCORE:
            raise LeagueError(_("Enter a whole number, 0 or more."), field=field)
    if not tiebreakers or any(t not in ALL_TIEBREAKERS for t in tiebreakers):
        raise LeagueError(_("Choose the tie-breakers."), field="tiebreakers")
    if len(set(tiebreakers)) != len(tiebreakers):
        raise LeagueError(_("A tie-breaker is listed once."), field="tiebreakers")


@once(
    "tournament",
    by="admin",
    error=LeagueError,
    fetch=lambda pk: Tournament.objects.get(pk=pk),
)
def create_tournament(
    season: Season,
    admin,
    *,
    name: str,
    played_on: date,
    players: dict[int, str],
    place: str = "",
    rounds_planned: int = 4,
    bye_points: int = 3,
    bye_score: int = 0,
    forfeit_score: int = 0,
    late_points: int = 0,
    tiebreakers: tuple[str, ...] = SWISS_TIEBREAKERS,
    first_round: str = FirstRound.SEED,
    seed: str = "",
    round_minutes: int = 120,
) -> Tournament:
    """A tournament day: ``players`` maps each player's id to their people.

    ``seed`` shuffles round 1 (empty: by name); ``first_round="rating"``
    pairs round 1 by club rating instead.
    """
    _require_admin(season, admin)
    _check_rules(
        rounds_planned, bye_points, bye_score, forfeit_score, late_points, tiebreakers
    )
    if first_round not in FirstRound.values:
        raise LeagueError(_("Choose how round 1 is paired."), field="first_round")
    if not season.accepts_results:
        raise LeagueError(_closed_message(season))
    name = name.strip()
    if not name:
        raise LeagueError(_("A tournament needs a name."), field="name")
    if not season.covers(played_on):
        raise LeagueError(
            _("The date is outside the season (%(starts)s to %(ends)s).")
            % {"starts": season.starts, "ends": season.ends},
            field="played_on",
        )
    if len(players) < MIN_PLAYERS:
        raise LeagueError(_("Choose at least two players."), field="players")
    with transaction.atomic():
        members = {user.pk for user in club_members(season)}
        if not set(players) <= members:
            raise LeagueError(
                _("Every player must take part in the season."), field="players"
            )
        tournament = Tournament.objects.create(
            season=season,
            name=name,
            played_on=played_on,
            place=place.strip()[:80],
            created_by=admin,
            rounds_planned=rounds_planned,
            bye_points=bye_points,
            bye_score=bye_score,
            forfeit_score=forfeit_score,
            late_points=late_points,
            tiebreakers=list(tiebreakers),
            first_round=first_round,
            seed=seed.strip()[:40],
            round_minutes=round_minutes,
        )
        TournamentPlayer.objects.bulk_create(
            TournamentPlayer(tournament=tournament, user_id=user_id, people=people)
            for user_id, people in sorted(players.items())
        )
    return tournament


def _pairings(tournament: Tournament):
    return (
        TournamentPairing.objects.filter(round__tournament=tournament)
        .select_related("round", "player_a", "player_b", "result")
        .order_by("round__number", "table")
    )


def _game(pairing: TournamentPairing) -> GameResult | None:
    if pairing.outcome:  # a guest's table: the day's own result
        return GameResult(
            pairing.player_a.username,
            pairing.player_b.username,
            pairing.outcome,
            pairing.score_a,
            pairing.score_b,
        )
    result = pairing.result
    if result is None or result.status != ResultStatus.CONFIRMED:
        return None
    # The result may name the players the other way round from the pairing.
    return GameResult(
        result.player_a.username,
        result.player_b.username,
        result.outcome,
        result.score_a,
        result.score_b,
    )


def _round_complete(pairings) -> bool:
    return all(p.is_bye or _game(p) is not None for p in pairings)


def _bump(tournament: Tournament) -> None:
    """The day changed: its revision grows and, after commit, the phones
    watching it are told (as the home box is)."""
    Tournament.objects.filter(pk=tournament.pk).update(revision=F("revision") + 1)
    tournament_id, season_id = tournament.pk, tournament.season_id
    transaction.on_commit(lambda: announce_tournament(tournament_id, season_id))


def _lock(tournament: Tournament, admin) -> Tournament:
    """The day, locked, for an action of its organiser (an admin of the club)."""
    season = tournament.season
    _require_admin(season, admin)
    if not season.accepts_results:
        raise LeagueError(_closed_message(season))
    locked = (
        Tournament.objects.select_for_update()
        .select_related("season__club")
        .get(pk=tournament.pk)
    )
    if locked.finished is not None:
        raise LeagueError(_("The standings are final: the day is over."))
    return locked


def _history(locked: Tournament):
    """The day's pairings so far, the confirmed games, the byes, the
    adjustments (as ``rules.league`` takes them)."""
    pairings = list(
        _pairings(locked).select_related("result__player_a", "result__player_b")
    )
    games = [game for game in map(_game, pairings) if game is not None]
    byes = [p.player_a.username for p in pairings if p.is_bye]
    return pairings, games, byes


def _adjustments(tournament: Tournament, up_to: int | None = None) -> dict[str, int]:
    rows = TournamentAdjustment.objects.filter(tournament=tournament)
    if up_to is not None:
        rows = rows.filter(after_round__lte=up_to)
    totals: dict[str, int] = {}
    for name, points in rows.values_list("player__user__username", "points"):
        totals[name] = totals.get(name, 0) + points
    return totals


def _rating_order(season: Season, names: list[str]) -> list[str]:
    """The players by club rating, best first (newcomers by name after)."""
    final = club_history(season.club_id).final
    rated = [n for n in names if n in final]
    rated.sort(key=lambda n: (-shown_rating(final[n]).value, n))
    return rated


@once(
    "round",
    by="admin",
    error=LeagueError,
    fetch=lambda pk: TournamentRound.objects.get(pk=pk),
)
def create_round(tournament: Tournament, admin) -> TournamentRound:
    """The next Swiss round, once every game of the previous one counts.

    Dropped players are left out; a late entry is paired from the round they
    joined for. Round 1 follows the day's seed (or the club rating).
    """
    with transaction.atomic():
        locked = _lock(tournament, admin)
        new_round = _pair_next(locked)
        _bump(locked)
    return new_round


def _pair_next(locked: Tournament) -> TournamentRound:
    pairings, games, byes = _history(locked)
    last = max((p.round.number for p in pairings), default=0)
    if last == 0:
        last = locked.rounds.count()  # a round with no table cannot exist
    current = [p for p in pairings if p.round.number == last]
    if last and not _round_complete(current):
        raise LeagueError(
            _("Round %(n)s is not over: every table's result must be confirmed first.")
            % {"n": last}
        )
    if last >= locked.rounds_planned:
        raise LeagueError(
            _("The day has %(n)s rounds: declare the standings final instead.")
            % {"n": locked.rounds_planned}
        )
    number = last + 1
    entrants = list(locked.players.select_related("user"))
    playing = [
        e for e in entrants if e.dropped_after is None and e.joined_round <= number
    ]
    if len(playing) < MIN_PLAYERS:
        raise LeagueError(_("Fewer than two players are left to pair."))
    names = {e.user.username: e.user for e in playing}
    groups = {e.user.username: e.people for e in playing if e.people}
    seeding = None
    if locked.first_round == FirstRound.RATING:
        seeding = _rating_order(locked.season, sorted(names))
    pairs = swiss_round(
        sorted(names),
        games,
        scheme=locked.scheme(),
        byes=byes,
        groups=groups,
        seed=locked.seed,
        seeding=seeding,
        adjustments=_adjustments(locked),
    )
    new_round = TournamentRound.objects.create(tournament=locked, number=number)
    table = 0
    rows = []
    for a, b in pairs:
        if b is not None:
            table += 1
        rows.append(
            TournamentPairing(
                round=new_round,
                table=table if b is not None else None,
                player_a=names[a],
                player_b=names[b] if b is not None else None,
            )
        )
    TournamentPairing.objects.bulk_create(rows)
    return new_round


def _current_round(locked: Tournament) -> TournamentRound | None:
    return locked.rounds.order_by("-number").first()


def repair_round(tournament: Tournament, admin) -> TournamentRound:
    """Delete the current round and pair it again (a result corrected, a
    drop or a late entry since it was paired), while none of its results is in."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        current = _current_round(locked)
        if current is None:
            raise LeagueError(_("No round is paired yet."))
        if current.pairings.filter(~Q(outcome="") | Q(result__isnull=False)).exists():
            raise LeagueError(
                _(
                    "A result of round %(n)s is in: the round can no longer be "
                    "paired again."
                )
                % {"n": current.number}
            )
        current.delete()
        new_round = _pair_next(locked)
        _bump(locked)
    return new_round


def _entrant(locked: Tournament, entrant_id: int) -> TournamentPlayer:
    found = (
        TournamentPlayer.objects.select_related("user")
        .filter(tournament=locked, pk=entrant_id)
        .first()
    )
    if found is None:
        raise LeagueError(_("This player is not in the day."), field="player")
    return found


def drop_player(tournament: Tournament, admin, entrant_id: int) -> TournamentPlayer:
    """The player leaves: never paired again, kept in the standings. A game
    of the current round still counts (or the organiser records a forfeit)."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        entrant = _entrant(locked, entrant_id)
        if entrant.dropped_after is not None:
            raise LeagueError(_("This player has already dropped."), field="player")
        current = _current_round(locked)
        entrant.dropped_after = current.number if current else 0
        entrant.save(update_fields=["dropped_after"])
        _bump(locked)
    return entrant


def add_late_player(
    tournament: Tournament, admin, user_id: int, people: str = ""
) -> TournamentPlayer:
    """A late entry, paired from the next round, with the day's points for
    each round missed (an adjustment the history shows)."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        members = {user.pk for user in club_members(locked.season)}
        if user_id not in members:
            raise LeagueError(
                _("Every player must take part in the season."), field="player"
            )
        if locked.players.filter(user_id=user_id).exists():
            raise LeagueError(_("This player is already in the day."), field="player")
        current = _current_round(locked)
        joined = current.number + 1 if current else 1
        entrant = TournamentPlayer.objects.create(
            tournament=locked,
            user_id=user_id,
            people=people,
            joined_round=joined,
        )
        missed = joined - 1
        if missed and locked.late_points:
            TournamentAdjustment.objects.create(
                tournament=locked,
                player=entrant,
                points=missed * locked.late_points,
                reason=_("Late entry: %(n)s round(s) missed") % {"n": missed},
                after_round=missed,
                created_by=admin,
            )
        _bump(locked)
    return entrant


def add_guest(
    tournament: Tournament, admin, name: str, people: str = ""
) -> TournamentPlayer:
    """A guest without an account: paired like anyone (from the next round
    once round 1 is paired); the organiser enters the results of their
    tables, which count for the day only, never in the season."""
    name = " ".join(name.split())[:60]
    if not name:
        raise LeagueError(_("Give the guest's name."), field="name")
    with transaction.atomic():
        locked = _lock(tournament, admin)
        base = _("%(name)s (guest)") % {"name": name}
        username, n = base, 1
        while User.objects.filter(username=username).exists():
            n += 1
            username = f"{base} {n}"
        # A stand-in that can never sign in: inactive, no usable password.
        user = User(username=username, is_active=False)
        user.set_unusable_password()
        user.save()
        current = _current_round(locked)
        entrant = TournamentPlayer.objects.create(
            tournament=locked,
            user=user,
            people=people,
            guest=True,
            joined_round=current.number + 1 if current else 1,
        )
        _bump(locked)
    return entrant


def add_adjustment(
    tournament: Tournament, admin, entrant_id: int, points: int, reason: str
) -> TournamentAdjustment:
    """Bonus (or, below 0, penalty) points with their reason, counted from
    the standings after the current round."""
    reason = reason.strip()
    if not reason:
        raise LeagueError(
            _("Say why (painting, fair play, a late list...)."), field="reason"
        )
    if points == 0 or abs(points) > 100:
        raise LeagueError(_("Give from -100 to 100 points, not 0."), field="points")
    with transaction.atomic():
        locked = _lock(tournament, admin)
        entrant = _entrant(locked, entrant_id)
        if entrant.user_id == admin.pk:
            raise LeagueError(
                _("You play in this tournament: another admin adjusts your points."),
                field="player",
            )
        current = _current_round(locked)
        row = TournamentAdjustment.objects.create(
            tournament=locked,
            player=entrant,
            points=points,
            reason=reason[:200],
            after_round=current.number if current else 0,
            created_by=admin,
        )
        _bump(locked)
    return row


def start_clock(tournament: Tournament, admin) -> TournamentRound:
    """The current round's clock starts now, for the day's round length."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        current = _current_round(locked)
        if current is None:
            raise LeagueError(_("Pair a round first."))
        now = timezone.now()
        current.clock_started = now
        current.ends_at = now + timedelta(minutes=locked.round_minutes)
        current.save(update_fields=["clock_started", "ends_at"])
        _bump(locked)
    return current


def finish_tournament(tournament: Tournament, admin) -> Tournament:
    """The standings are final: no round, drop or table result more."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        pairings, _games, _byes = _history(locked)
        if not pairings:
            raise LeagueError(_("No round has been played."))
        last = max(p.round.number for p in pairings)
        if not _round_complete([p for p in pairings if p.round.number == last]):
            raise LeagueError(
                _("Round %(n)s is not over: every table's result must be confirmed.")
                % {"n": last}
            )
        locked.finished = timezone.now()
        locked.save(update_fields=["finished"])
        _bump(locked)
    return locked


def _organiser_table(locked: Tournament, pairing_id: int, admin) -> TournamentPairing:
    pairing = (
        TournamentPairing.objects.select_for_update(of=("self",))
        .select_related("round", "result", "player_a", "player_b")
        .filter(pk=pairing_id, round__tournament=locked)
        .first()
    )
    if pairing is None or pairing.is_bye:
        raise LeagueError(_("There is no such table."))
    if pairing.has(admin.pk):
        raise LeagueError(
            _("You play at this table: your opponent confirms your report.")
        )
    return pairing


def _has_guest(locked: Tournament, pairing: TournamentPairing) -> bool:
    return locked.players.filter(
        guest=True, user_id__in=[pairing.player_a_id, pairing.player_b_id]
    ).exists()


def _organiser_result(locked, pairing, admin, outcome, score_a, score_b, reason):
    """The table's result, confirmed: a result of the season, or, at a guest's
    table, the day's own (a guest plays no season)."""
    if _has_guest(locked, pairing):
        pairing.outcome, pairing.score_a, pairing.score_b = outcome, score_a, score_b
        pairing.save(update_fields=["outcome", "score_a", "score_b", "forfeit_by"])
        return None
    row = LeagueResult.objects.create(
        season=locked.season,
        player_a=pairing.player_a,
        player_b=pairing.player_b,
        played_on=locked.played_on,
        outcome=outcome,
        score_a=score_a,
        score_b=score_b,
        status=ResultStatus.CONFIRMED,
        reported_by=admin,
    )
    _entry(row, admin, EntryAction.ADMIN_CONFIRMED, reason=reason)
    _announce(row)
    pairing.result = row
    pairing.save(update_fields=["result", "forfeit_by"])
    return row


def record_table_result(
    tournament: Tournament,
    admin,
    pairing_id: int,
    *,
    outcome: str,
    score_a: int,
    score_b: int,
) -> LeagueResult | None:
    """The organiser enters a table's result (a player without a phone);
    ``outcome`` is "a", "b" or "draw" in the pairing's order."""
    if outcome not in ("a", "b", "draw"):
        raise LeagueError(_("Choose who won, or a draw."), field="outcome")
    check_score(outcome, score_a, score_b, field="score_a")
    with transaction.atomic():
        locked = _lock(tournament, admin)
        pairing = _organiser_table(locked, pairing_id, admin)
        if not pairing.awaits_report:
            raise LeagueError(_("This table's result is already recorded."))
        reason = _("Entered by the organiser, table %(t)s") % {"t": pairing.table}
        row = _organiser_result(
            locked, pairing, admin, outcome, score_a, score_b, reason
        )
        _bump(locked)
    return row


def record_forfeit(
    tournament: Tournament, admin, pairing_id: int, forfeiter_id: int
) -> LeagueResult | None:
    """A player forfeits the table: the other wins with the day's forfeit
    score, 0 for the forfeiter (never a score typed by a player)."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        pairing = _organiser_table(locked, pairing_id, admin)
        if not pairing.has(forfeiter_id):
            raise LeagueError(_("Choose a player of this table."), field="forfeiter")
        if not pairing.awaits_report:
            raise LeagueError(_("This table's result is already recorded."))
        a_forfeits = forfeiter_id == pairing.player_a_id
        pairing.forfeit_by_id = forfeiter_id
        score = locked.forfeit_score
        reason = _("Forfeit at table %(t)s") % {"t": pairing.table}
        row = _organiser_result(
            locked,
            pairing,
            admin,
            "b" if a_forfeits else "a",
            0 if a_forfeits else score,
            score if a_forfeits else 0,
            reason,
        )
        _bump(locked)
    return row


def confirm_table_result(tournament: Tournament, admin, pairing_id: int):
    """The organiser confirms the result a player of the table reported (the
    opponent has no phone); the history names the organiser."""
    with transaction.atomic():
        locked = _lock(tournament, admin)
        pairing = _organiser_table(locked, pairing_id, admin)
        result = pairing.result
        if result is None or result.status != ResultStatus.PENDING:
            raise LeagueError(_("This table has no result waiting for confirmation."))
        reason = _("Confirmed by the organiser, table %(t)s") % {"t": pairing.table}
        row = admin_confirm(result, admin, reason)
        _bump(locked)
    return row


def _locked_pairing(pairing_id: int, user) -> TournamentPairing:
    # Lock the table's row alone first, then read it with its joins: on
    # PostgreSQL a ``FOR UPDATE OF`` with joins re-reads only the locked row
    # once the lock is granted, so a second report sent at the same moment
    # saw the table still without the result the first one had just recorded.
    list(
        TournamentPairing.objects.select_for_update().filter(pk=pairing_id).values("pk")
    )
    pairing = (
        TournamentPairing.objects.select_related(
            "round__tournament__season__club", "result"
        )
        .filter(pk=pairing_id)
        .first()
    )
    if pairing is None:
        raise LeagueError(_("There is no such table."))
    if not pairing.has(user.pk) or pairing.is_bye:
        raise LeagueError(_("Only the players of this table may do this."))
    if not pairing.awaits_report:
        raise LeagueError(_("This table's result is already recorded."))
    if pairing.round.tournament.players.filter(
        guest=True, user_id__in=[pairing.player_a_id, pairing.player_b_id]
    ).exists():
        raise LeagueError(
            _("Your opponent is a guest: the organiser enters this table's result.")
        )
    if pairing.round.tournament.finished is not None:
        raise LeagueError(_("The standings are final: the day is over."))
    return pairing


@once(
    "table report",
    by="reporter",
    error=LeagueError,
    fetch=lambda pk: LeagueResult.objects.get(pk=pk),
)
def report_pairing_result(
    pairing: TournamentPairing,
    reporter,
    *,
    result: str,
    score_for: int,
    score_against: int,
) -> LeagueResult:
    """A player of the table reports its game; the other confirms it as usual."""
    with transaction.atomic():
        locked = _locked_pairing(pairing.pk, reporter)
        tournament = locked.round.tournament
        peoples = dict(tournament.players.values_list("user_id", "people"))
        opponent_id = locked.opponent_id(reporter.pk)
        row = report_result(
            tournament.season,
            reporter,
            opponent_id=opponent_id,
            played_on=tournament.played_on,
            result=result,
            score_for=score_for,
            score_against=score_against,
            people_for=peoples.get(reporter.pk, ""),
            people_against=peoples.get(opponent_id, ""),
            # The table is its own game, even when a forced rematch meets a
            # pair that already played that day; the table's lock stops doubles.
            second_game=True,
        )
        locked.result = row
        locked.save(update_fields=["result"])
        _bump(tournament)
    return row


def games_to_count(pairing: TournamentPairing) -> list[LeagueResult]:
    """The season's results from finished in-app games between the table's
    players that no table holds yet (the newest first)."""
    if pairing.is_bye:
        return []
    tournament = pairing.round.tournament
    players = [pairing.player_a_id, pairing.player_b_id]
    return list(
        LeagueResult.objects.filter(
            season_id=tournament.season_id,
            game__isnull=False,
            player_a_id__in=players,
            player_b_id__in=players,
            pairing__isnull=True,
            status__in=LIVE_RESULT,
        ).order_by("-id")
    )


def count_game_for_pairing(pairing: TournamentPairing, user) -> LeagueResult:
    """Attach the finished in-app game the table's players recorded."""
    with transaction.atomic():
        locked = _locked_pairing(pairing.pk, user)
        found = games_to_count(locked)
        if not found:
            raise LeagueError(
                _(
                    "No finished game between you two counts in this season yet: "
                    "record its result at the end of the game first."
                )
            )
        locked.result = found[0]
        locked.save(update_fields=["result"])
        _bump(locked.round.tournament)
    return found[0]


def attach_game_result(result: LeagueResult) -> TournamentPairing | None:
    """A finished in-app game both phones agreed on counts for its table at
    once: the table of the current round of a running day of its season where
    its two players meet and whose result is still to come (inside the
    agreement's transaction). A game started from a table counts for that
    table, whichever round it is."""
    if result.game_id is not None:
        linked = (
            TournamentPairing.objects.select_for_update(of=("self",))
            .select_related("round__tournament", "result")
            .filter(game_id=result.game_id, round__tournament__finished__isnull=True)
            .first()
        )
        if linked is not None and linked.awaits_report:
            linked.result = result
            linked.save(update_fields=["result"])
            _bump(linked.round.tournament)
            return linked
    players = {result.player_a_id, result.player_b_id}
    candidates = (
        TournamentPairing.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "result")
        .filter(
            round__tournament__season_id=result.season_id,
            round__tournament__finished__isnull=True,
            player_a_id__in=players,
            player_b_id__in=players,
        )
        .order_by("-round__number")
    )
    for pairing in candidates:
        tournament = pairing.round.tournament
        current = tournament.rounds.order_by("-number").first()
        if pairing.round_id != current.pk or not pairing.awaits_report:
            continue
        pairing.result = result
        pairing.save(update_fields=["result"])
        _bump(tournament)
        return pairing
    return None


# --- what the pages show ----------------------------------------------------------


@dataclass
class TableLine:
    """A table as the board shows it: in the pairing's order, the winner named."""

    pairing: TournamentPairing
    winner: Any = None  # the winning user, None for a draw or no result yet
    winner_score: int = 0
    loser_score: int = 0
    draw: bool = False
    counted: bool = False  # the result is confirmed

    @property
    def has_result(self) -> bool:
        if self.pairing.outcome:
            return True
        result = self.pairing.result
        return result is not None and result.status in LIVE_RESULT


def table_line(pairing: TournamentPairing) -> TableLine:
    line = TableLine(pairing)
    if pairing.outcome:  # a guest's table
        line.counted = True
        line.draw = pairing.outcome == "draw"
        a_won = pairing.outcome != "b"
        line.winner = (
            None if line.draw else (pairing.player_a if a_won else pairing.player_b)
        )
        line.winner_score = pairing.score_a if a_won else pairing.score_b
        line.loser_score = pairing.score_b if a_won else pairing.score_a
        return line
    result = pairing.result
    if pairing.is_bye or result is None or result.status not in LIVE_RESULT:
        return line
    line.counted = result.status == ResultStatus.CONFIRMED
    if result.outcome == "draw":
        line.draw = True
        line.winner_score, line.loser_score = result.score_a, result.score_b
        if result.player_a_id != pairing.player_a_id:
            line.winner_score, line.loser_score = result.score_b, result.score_a
        return line
    a_won = result.outcome == "a"
    line.winner = result.player_a if a_won else result.player_b
    line.winner_score = result.score_a if a_won else result.score_b
    line.loser_score = result.score_b if a_won else result.score_a
    return line


@dataclass
class RoundView:
    number: int
    pairings: list[TournamentPairing]
    complete: bool
    standings: list[Any]
    round: TournamentRound | None = None
    lines: list[TableLine] | None = None

    @property
    def has_results(self) -> bool:
        return any(p.result_id is not None or p.outcome for p in self.pairings)


@dataclass
class TournamentView:
    tournament: Tournament
    players: list[TournamentPlayer]
    rounds: list[RoundView]
    adjustments: list[TournamentAdjustment]
    tiebreakers: list[str]
    # Display names by user id, for the page (``names.shown_names``).
    names: dict[int, str] | None = None

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def final(self) -> bool:
        return self.tournament.finished is not None

    @property
    def can_pair_next(self) -> bool:
        if self.final or len(self.rounds) >= self.tournament.rounds_planned:
            return False
        return self.current is None or self.current.complete

    @property
    def can_repair(self) -> bool:
        return (
            not self.final and self.current is not None and not self.current.has_results
        )

    @property
    def can_finish(self) -> bool:
        return not self.final and self.current is not None and self.current.complete

    @property
    def active_players(self) -> list[TournamentPlayer]:
        return [e for e in self.players if e.dropped_after is None]


def tournament_view(tournament: Tournament) -> TournamentView:
    """Every round's tables and the standings after each round (a fixed
    number of queries)."""
    entrants = list(tournament.players.select_related("user"))
    names = [e.user.username for e in entrants]
    pairings = list(
        _pairings(tournament).select_related("result__player_a", "result__player_b")
    )
    rounds_by_number = {r.number: r for r in tournament.rounds.all()}
    adjustments = list(
        TournamentAdjustment.objects.filter(tournament=tournament).select_related(
            "player__user", "created_by"
        )
    )
    scheme = tournament.scheme()
    by_round: dict[int, list[TournamentPairing]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing.round.number, []).append(pairing)
    rounds, games, byes = [], [], []
    users = {e.user.username: e.user for e in entrants}
    entrant_of = {e.user.username: e for e in entrants}
    for number in sorted(by_round):
        tables = sorted(by_round[number], key=lambda p: (p.table is None, p.table))
        games += [game for game in map(_game, tables) if game is not None]
        byes += [p.player_a.username for p in tables if p.is_bye]
        extra: dict[str, int] = {}
        for row in adjustments:
            if row.after_round <= number:
                name = row.player.user.username
                extra[name] = extra.get(name, 0) + row.points
        lines = standings(names, games, scheme, byes=byes, adjustments=extra)
        rows = [
            {
                "line": line,
                "user": users.get(line.player),
                "entrant": entrant_of.get(line.player),
                "adjustment": extra.get(line.player, 0),
                # Shared ranks read "4=".
                "rank_text": f"{line.rank}=" if line.shared else str(line.rank),
                "columns": [getattr(line, name) for name in scheme.tiebreakers],
            }
            for line in lines
        ]
        rounds.append(
            RoundView(
                number,
                tables,
                _round_complete(tables),
                rows,
                rounds_by_number.get(number),
                [table_line(p) for p in tables],
            )
        )
    return TournamentView(
        tournament,
        entrants,
        rounds,
        adjustments,
        list(scheme.tiebreakers),
        shown_names(e.user_id for e in entrants),
    )


def my_table(user, tournament: Tournament | None = None) -> dict | None:
    """The player's table in the current round of a day still running (the
    home page's "Round 3: your table 4"), or None."""
    if not user.is_authenticated:
        return None
    entries = TournamentPlayer.objects.filter(
        user=user, dropped_after__isnull=True, tournament__finished__isnull=True
    )
    if tournament is not None:
        entries = entries.filter(tournament=tournament)
    entry = (
        entries.select_related("tournament")
        .order_by("-tournament__played_on", "-tournament_id")
        .first()
    )
    if entry is None:
        return None
    tournament = entry.tournament
    current = tournament.rounds.order_by("-number").first()
    if current is None:
        return None
    pairing = current.pairings.filter(
        Q(player_a_id=user.pk) | Q(player_b_id=user.pk)
    ).first()
    if pairing is None:
        return None
    return {"tournament": tournament, "round": current, "pairing": pairing}


__all__ = [
    "add_adjustment",
    "add_guest",
    "attach_game_result",
    "add_late_player",
    "confirm_table_result",
    "count_game_for_pairing",
    "drop_player",
    "finish_tournament",
    "my_table",
    "new_seed",
    "record_forfeit",
    "record_table_result",
    "repair_round",
    "start_clock",
    "table_line",
    "create_round",
    "create_tournament",
    "games_to_count",
    "report_pairing_result",
    "tournament_view",
]
