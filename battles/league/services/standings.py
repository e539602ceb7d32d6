"""A season's standings, ratings and statistics: ``rules.league``'s pure
functions over its confirmed results, computed once per change."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from battles.league.models.league import (
    LeagueResult,
    ResultStatus,
    Season,
)
from battles.league.services.admin_changes import pending_for
from battles.league.services.names import shown_names
from battles.league.services.peoples import namer as peoples_namer
from battles.league.services.ratings import club_history, player_curve
from battles.league.services.seasons import season_players
from battles.models.games import Game
from battles.services.games import game_summary
from rules.league import (
    PROVISIONAL_GAMES,
    GameResult,
    shown_rating,
    standings,
)

User = get_user_model()


PROVISIONAL_BELOW = PROVISIONAL_GAMES  # rules.league: one number, one place


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
    # Display names by user id, for the page (``names.shown_names``).
    names: dict[int, str] = field(default_factory=dict)

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
    names = shown_names(user.pk for user in players)
    return SeasonTable(season=season, rows=rows, names=names)


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
