"""A tournament day inside a season: one function per action, one transaction each.

An admin of the club creates the day (its players, each with their people)
and its Swiss rounds one by one; ``rules.league.swiss_round`` pairs each
round, with the players' peoples as its ``groups``. A pairing's game is an
ordinary result of the season: a player of the table reports it and the
other confirms it (``battles.services.league``), or a finished in-app game
between them that counts in the season is attached to the table. The
standings after each round are ``rules.league.standings`` over the confirmed
results of the rounds so far.

House ruling "bye": a bye scores no points (the standings count games
only, as ``swiss_round`` ranks players); it goes to the lowest-ranked player
who has not had one, so it never lifts anybody above a player who played.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from battles.models.league import LeagueResult, ResultStatus, Season
from battles.models.tournament import (
    LIVE_RESULT,
    Tournament,
    TournamentPairing,
    TournamentPlayer,
    TournamentRound,
)
from battles.services import league as league_services
from battles.services.league import LeagueError
from battles.services.once import once
from rules.league import GameResult, standings, swiss_round

User = get_user_model()

MIN_PLAYERS = 2


def _require_admin(season: Season, user) -> None:
    member = league_services.membership(season.club, user)
    if member is None or not member.is_admin:
        raise LeagueError(_("Only an admin of the club may do this."))


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
) -> Tournament:
    """A tournament day: ``players`` maps each player's id to their people."""
    _require_admin(season, admin)
    if not season.accepts_results:
        raise LeagueError(league_services._closed_message(season))
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
        members = {user.pk for user in league_services.club_members(season)}
        if not set(players) <= members:
            raise LeagueError(
                _("Every player must take part in the season."), field="players"
            )
        tournament = Tournament.objects.create(
            season=season, name=name, played_on=played_on, created_by=admin
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


@once(
    "round",
    by="admin",
    error=LeagueError,
    fetch=lambda pk: TournamentRound.objects.get(pk=pk),
)
def create_round(tournament: Tournament, admin) -> TournamentRound:
    """The next Swiss round, once every game of the previous one counts."""
    season = tournament.season
    _require_admin(season, admin)
    if not season.accepts_results:
        raise LeagueError(league_services._closed_message(season))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        pairings = list(
            _pairings(locked).select_related("result__player_a", "result__player_b")
        )
        last = max((p.round.number for p in pairings), default=0)
        current = [p for p in pairings if p.round.number == last]
        if last and not _round_complete(current):
            raise LeagueError(
                _(
                    "Round %(n)s is not over: every table's result must be "
                    "confirmed first."
                )
                % {"n": last}
            )
        entrants = list(locked.players.select_related("user"))
        names = {entrant.user.username: entrant.user for entrant in entrants}
        games = [game for game in map(_game, pairings) if game is not None]
        byes = [p.player_a.username for p in pairings if p.is_bye]
        groups = {e.user.username: e.people for e in entrants if e.people}
        pairs = swiss_round(
            sorted(names), games, scheme=season.scheme(), byes=byes, groups=groups
        )
        new_round = TournamentRound.objects.create(tournament=locked, number=last + 1)
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
        row = league_services.report_result(
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
    return found[0]


# --- what the pages show ----------------------------------------------------------


@dataclass
class RoundView:
    number: int
    pairings: list[TournamentPairing]
    complete: bool
    standings: list[Any]


@dataclass
class TournamentView:
    tournament: Tournament
    players: list[TournamentPlayer]
    rounds: list[RoundView]

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def can_pair_next(self) -> bool:
        return self.current is None or self.current.complete


def tournament_view(tournament: Tournament) -> TournamentView:
    """Every round's tables and the standings after each round (a fixed
    number of queries)."""
    entrants = list(tournament.players.select_related("user"))
    names = [e.user.username for e in entrants]
    pairings = list(
        _pairings(tournament).select_related("result__player_a", "result__player_b")
    )
    scheme = tournament.season.scheme()
    by_round: dict[int, list[TournamentPairing]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing.round.number, []).append(pairing)
    rounds, games = [], []
    users = {e.user.username: e.user for e in entrants}
    for number in sorted(by_round):
        tables = sorted(by_round[number], key=lambda p: (p.table is None, p.table))
        games += [game for game in map(_game, tables) if game is not None]
        lines = standings(names, games, scheme)
        rows = [{"line": line, "user": users.get(line.player)} for line in lines]
        rounds.append(RoundView(number, tables, _round_complete(tables), rows))
    return TournamentView(tournament, entrants, rounds)


__all__ = [
    "count_game_for_pairing",
    "create_round",
    "create_tournament",
    "games_to_count",
    "report_pairing_result",
    "tournament_view",
]
