"""The club-wide rating: one openskill rating per player that carries across
the club's seasons (issue 24), shown on the club's scale
(``rules.league.shown_rating``: 1500 for a newcomer).

Every confirmed result of every season of the club, oldest first (by date,
then by the order they were recorded), goes through ``rules.league``'s
``rating_changes``; the result is kept per process until a result of the
club changes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max

from battles.league.models.league import LeagueResult, ResultStatus
from rules.league import (
    PROVISIONAL_GAMES,
    GameResult,
    Rating,
    RatingChange,
    rating_changes,
)


@dataclass(frozen=True)
class ClubHistory:
    """Each confirmed game of the club, in rating order, with its change."""

    result_ids: list[int]
    dates: list[date]
    changes: list[RatingChange]
    final: dict[str, Rating]
    games: Counter

    def change_of(self) -> dict[int, RatingChange]:
        return dict(zip(self.result_ids, self.changes, strict=True))

    def provisional(self, player: str) -> bool:
        """Fewer than ``PROVISIONAL_GAMES`` games in the club, all seasons."""
        return self.games[player] < PROVISIONAL_GAMES


_HISTORIES: dict[tuple, ClubHistory] = {}
_HISTORIES_MAX = 16


def _confirmed(club_id: int):
    return LeagueResult.objects.filter(
        season__club_id=club_id, status=ResultStatus.CONFIRMED
    )


def club_history(club_id: int) -> ClubHistory:
    """The club's rating history (two queries; openskill only after a change)."""
    found = _confirmed(club_id).aggregate(
        count=Count("id"), last_id=Max("id"), last_change=Max("updated")
    )
    key = (club_id, found["count"], found["last_id"], found["last_change"])
    if key in _HISTORIES:
        return _HISTORIES[key]
    rows = list(
        _confirmed(club_id)
        .order_by("played_on", "id")
        .values_list(
            "pk",
            "played_on",
            "player_a__username",
            "player_b__username",
            "outcome",
            "score_a",
            "score_b",
        )
    )
    changes = rating_changes(GameResult(*row[2:]) for row in rows)
    final: dict[str, Rating] = {}
    games: Counter = Counter()
    for change in changes:
        final[change.result.player_a] = change.after_a
        final[change.result.player_b] = change.after_b
        games[change.result.player_a] += 1
        games[change.result.player_b] += 1
    history = ClubHistory(
        result_ids=[row[0] for row in rows],
        dates=[row[1] for row in rows],
        changes=changes,
        final=final,
        games=games,
    )
    if len(_HISTORIES) >= _HISTORIES_MAX:
        _HISTORIES.clear()
    _HISTORIES[key] = history
    return history


def player_curve(history: ClubHistory, player: str) -> list[tuple[date, Rating]]:
    """The player's club rating after each of their games, from their first
    rating (the model's default) on the day of their first game."""
    curve: list[tuple[date, Rating]] = []
    for day, change in zip(history.dates, history.changes, strict=True):
        if player == change.result.player_a:
            before, after = change.before_a, change.after_a
        elif player == change.result.player_b:
            before, after = change.before_b, change.after_b
        else:
            continue
        if not curve:
            curve.append((day, before))
        curve.append((day, after))
    return curve


__all__ = ["ClubHistory", "club_history", "player_curve"]
