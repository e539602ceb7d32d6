"""A tournament day inside a season: its players, Swiss rounds and pairings.

The pairings come from ``rules.league.swiss_round``; a pairing's game is an
ordinary ``LeagueResult`` of the season (reported by a player and confirmed
by the other, or recorded from a finished in-app game), linked to its table.
"""

from __future__ import annotations

import dataclasses

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from battles.league.models.league import MAX_SCORE, LeagueResult, ResultStatus, Season
from rules.league import SWISS_TIEBREAKERS, Scheme

# A table's result still in play; any other (void, withdrawn...) frees the table.
LIVE_RESULT = (ResultStatus.PENDING, ResultStatus.CONFIRMED, ResultStatus.DISPUTED)


MAX_ROUNDS = 12


def default_swiss_tiebreakers() -> list[str]:
    return list(SWISS_TIEBREAKERS)


class FirstRound(models.TextChoices):
    SEED = "seed", _("Random, from the seed shown to all")
    RATING = "rating", _("By club rating")


class Tournament(models.Model):
    """One day of Swiss rounds among some of the season's players."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=80)
    played_on = models.DateField(_("date"))
    # Where it is played, for the T³ file's tournament block (issue #29).
    place = models.CharField(_("place"), max_length=80, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    # The event's own rules (issue #29), set by the organiser.
    rounds_planned = models.PositiveSmallIntegerField(
        _("number of rounds"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
    )
    bye_points = models.PositiveSmallIntegerField(_("points of a bye"), default=3)
    bye_score = models.PositiveIntegerField(
        _("score of a bye"), default=0, validators=[MaxValueValidator(MAX_SCORE)]
    )
    forfeit_score = models.PositiveIntegerField(
        _("score of a forfeit win"),
        default=0,
        validators=[MaxValueValidator(MAX_SCORE)],
    )
    late_points = models.PositiveSmallIntegerField(
        _("points per missed round (late entry)"), default=0
    )
    tiebreakers = models.JSONField(default=default_swiss_tiebreakers)
    first_round = models.CharField(
        _("round 1"),
        max_length=8,
        choices=FirstRound.choices,
        default=FirstRound.SEED,
    )
    # Round 1's shuffle (rules.league.swiss_round's seed), shown to everyone.
    seed = models.CharField(_("seed of round 1"), max_length=40, blank=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        default=120,
        validators=[MinValueValidator(5), MaxValueValidator(600)],
    )
    # The organiser declared the standings final: no round, result or drop more.
    finished = models.DateTimeField(null=True, blank=True)
    # Grows with every change of the day (the live stream's version, with the
    # season's results' history).
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-played_on", "-id"]

    def __str__(self) -> str:
        return self.name

    def scheme(self) -> Scheme:
        """The season's points per result, with the day's byes and tie-breakers."""
        return dataclasses.replace(
            self.season.scheme(),
            tiebreakers=tuple(self.tiebreakers),
            bye=self.bye_points,
            bye_score=self.bye_score,
        )


class TournamentPlayer(models.Model):
    """Who plays the day, and with which people (the Swiss pairing's groups)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    people = models.CharField(_("people"), max_length=80, blank=True)
    # A guest without an account: ``user`` is a stand-in that cannot sign in
    # (inactive, no password), never a member of the club nor of the season.
    guest = models.BooleanField(default=False)
    # A late entry is paired from this round on.
    joined_round = models.PositiveSmallIntegerField(default=1)
    # A dropped player is never paired again and stays in the standings.
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)

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
    # The round clock, started by the organiser.
    clock_started = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)

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
    # A guest's table: its result is the day's only (the organiser enters it),
    # never a result of the season.
    outcome = models.CharField(max_length=4, blank=True)
    score_a = models.PositiveIntegerField(default=0)
    score_b = models.PositiveIntegerField(default=0)
    # Who forfeited the table's game (the organiser recorded it).
    forfeit_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # The in-app game started from this table (issue #29): its agreed result
    # counts for the table in one step.
    game = models.ForeignKey(
        "battles.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_tables",
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
        if self.is_bye or self.outcome:
            return False
        return self.result is None or self.result.status not in LIVE_RESULT

    def has(self, user_id: int) -> bool:
        return user_id in (self.player_a_id, self.player_b_id)

    def opponent_id(self, user_id: int) -> int | None:
        return self.player_b_id if user_id == self.player_a_id else self.player_a_id


class TournamentAdjustment(models.Model):
    """Bonus or penalty points (painting, fair play, a late list, a late
    entry's missed rounds) with their reason: the day's history keeps them."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="adjustments"
    )
    player = models.ForeignKey(
        TournamentPlayer, on_delete=models.CASCADE, related_name="adjustments"
    )
    points = models.SmallIntegerField()
    reason = models.CharField(max_length=200)
    # Counts in the standings after this round (0: from the start).
    after_round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return f"{self.points:+d} {self.reason}"
