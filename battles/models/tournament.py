"""A tournament day inside a season: its players, Swiss rounds and pairings.

The pairings come from ``rules.league.swiss_round``; a pairing's game is an
ordinary ``LeagueResult`` of the season (reported by a player and confirmed
by the other, or recorded from a finished in-app game), linked to its table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from battles.models.league import LeagueResult, ResultStatus, Season

# A table's result still in play; any other (void, withdrawn...) frees the table.
LIVE_RESULT = (ResultStatus.PENDING, ResultStatus.CONFIRMED, ResultStatus.DISPUTED)


class Tournament(models.Model):
    """One day of Swiss rounds among some of the season's players."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=80)
    played_on = models.DateField(_("date"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-played_on", "-id"]

    def __str__(self) -> str:
        return self.name


class TournamentPlayer(models.Model):
    """Who plays the day, and with which people (the Swiss pairing's groups)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    people = models.CharField(_("people"), max_length=80, blank=True)

    class Meta:
        ordering = ["tournament", "user__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournament_player_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_round_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class TournamentPairing(models.Model):
    """One table of a round; ``player_b`` empty is a bye (no table)."""

    round = models.ForeignKey(
        TournamentRound, on_delete=models.CASCADE, related_name="pairings"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    result = models.OneToOneField(
        LeagueResult,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pairing",
    )

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="tournament_table_once",
            )
        ]

    def __str__(self) -> str:
        return f"round {self.round_id} table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def awaits_report(self) -> bool:
        """A game table whose result is still to be reported (again)."""
        if self.is_bye:
            return False
        return self.result is None or self.result.status not in LIVE_RESULT

    def has(self, user_id: int) -> bool:
        return user_id in (self.player_a_id, self.player_b_id)

    def opponent_id(self, user_id: int) -> int | None:
        return self.player_b_id if user_id == self.player_a_id else self.player_a_id
