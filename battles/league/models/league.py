"""A club's league: clubs, members, invitations, seasons, results.

DESIGN "League": standings and ratings are pure functions in ``rules.league``;
here are the rows they are computed from. A result's every change is one
``ResultEntry`` (who, when, what, why), appended and never changed; the
standings count confirmed results only.

Invitations work as share links do
(DESIGN "Join links"): a ``secrets.token_urlsafe(32)`` token of which only
the SHA-256 is stored, an expiry, and revocation.

A finished game's result (``GameOutcome``) is proposed by one phone and
confirmed by the other, as wound results are (``battles.models.agreement``);
when it names a season, the confirmation makes it a confirmed league result
in the same transaction.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from battles.models.games import SIDE_CHOICES, Game
from rules.league import TIEBREAKERS, Scheme

MAX_SCORE = 100_000
MAX_POINTS = 100


def new_public_key() -> str:
    return secrets.token_urlsafe(12)


def _points_field(label, default):
    return models.PositiveSmallIntegerField(
        label, default=default, validators=[MaxValueValidator(MAX_POINTS)]
    )


class Club(models.Model):
    """A club: a name, a public page, admins and members."""

    name = models.CharField(_("name"), max_length=80, unique=True)
    description = models.TextField(_("about the club"), max_length=2000, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Who made the club: no newer admin removes them.
    founder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")

    def __str__(self) -> str:
        return self.name


class ClubRole(models.TextChoices):
    ADMIN = "admin", _("Admin")
    MEMBER = "member", _("Member")


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clubs"
    )
    role = models.CharField(
        max_length=8, choices=ClubRole.choices, default=ClubRole.MEMBER
    )
    joined = models.DateTimeField(auto_now_add=True)
    # When they became an admin: a newer admin does not remove an older one.
    admin_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="member_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role == ClubRole.ADMIN


class Invitation(models.Model):
    """A link (and QR code) that lets one person join the club, once."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True)
    # The token is derived from this and the site's secret, so that every admin
    # device can show the link again (a database alone does not give it).
    nonce = models.CharField(max_length=32, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    revoked = models.BooleanField(default=False)
    used = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"invitation to {self.club_id}"

    @property
    def usable(self) -> bool:
        return not self.revoked and self.used is None and self.expires > timezone.now()


class PointsScale(models.TextChoices):
    WIN_DRAW_LOSS = "win_draw_loss", _("Win / draw / loss")
    GRADED = "graded", _("Graded: major and minor wins and losses")


class Pairing(models.TextChoices):
    ANYONE = "anyone", _("Play anyone")
    ROUND_ROBIN = "round_robin", _("Round robin (circle method)")


def default_tiebreakers() -> list[str]:
    return list(TIEBREAKERS)


class Season(models.Model):
    """A season of a club's league: dates, points, tie-breakers, pairing."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts = models.DateField(_("first day"))
    ends = models.DateField(_("last day"))
    scale = models.CharField(
        _("points per result"),
        max_length=16,
        choices=PointsScale.choices,
        default=PointsScale.WIN_DRAW_LOSS,
    )
    win = _points_field(_("win"), 3)
    draw = _points_field(_("draw"), 1)
    loss = _points_field(_("loss"), 0)
    major_win = _points_field(_("major win"), 5)
    minor_win = _points_field(_("minor win"), 4)
    minor_loss = _points_field(_("minor loss"), 1)
    major_loss = _points_field(_("major loss"), 0)
    margin = models.PositiveIntegerField(
        _("margin of a major result"),
        default=100,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SCORE)],
    )
    points_limit = models.PositiveIntegerField(
        _("army points limit"),
        default=400,
        validators=[MinValueValidator(1), MaxValueValidator(10_000)],
    )
    tiebreakers = models.JSONField(default=default_tiebreakers)
    pairing = models.CharField(
        _("pairing"), max_length=12, choices=Pairing.choices, default=Pairing.ANYONE
    )
    public_key = models.CharField(max_length=24, unique=True, default=new_public_key)
    # The public standings (no account needed) can be switched off.
    public = models.BooleanField(_("public standings"), default=True)
    created = models.DateTimeField(auto_now_add=True)
    # Who takes part, chosen per season (battles.league.services.seasons).
    participants = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="league_seasons"
    )
    # Closed by an admin, or past its last day: no new result, no confirmation,
    # until an admin reopens it (``reopened`` lets it take results late).
    closed = models.BooleanField(default=False)
    reopened = models.BooleanField(default=False)
    archived = models.BooleanField(default=False)

    class Meta:
        ordering = ["-starts", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends__gte=models.F("starts")), name="season_ends_after"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def scheme(self) -> Scheme:
        return Scheme(
            win=self.win,
            draw=self.draw,
            loss=self.loss,
            tiebreakers=tuple(self.tiebreakers),
            scale=self.scale,
            major_win=self.major_win,
            minor_win=self.minor_win,
            minor_loss=self.minor_loss,
            major_loss=self.major_loss,
            margin=self.margin,
        )

    def covers(self, day) -> bool:
        return self.starts <= day <= self.ends

    @property
    def is_open(self) -> bool:
        return self.covers(timezone.localdate()) and self.accepts_results

    @property
    def accepts_results(self) -> bool:
        """Results may be reported and confirmed: not closed nor archived, and
        not past its last day unless an admin reopened it."""
        if self.closed or self.archived:
            return False
        return self.reopened or timezone.localdate() <= self.ends


class ResultStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")
    VOID = "void", pgettext_lazy("result status", "Void")
    WITHDRAWN = "withdrawn", _("Withdrawn by its reporter")


class Outcome(models.TextChoices):
    A = "a", _("Player A won")
    B = "b", _("Player B won")
    DRAW = "draw", _("Draw")


class LeagueResult(models.Model):
    """One game of a season: who played whom, when, the outcome, the scores."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="results")
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    played_on = models.DateField(_("date"))
    outcome = models.CharField(_("outcome"), max_length=4, choices=Outcome.choices)
    score_a = models.PositiveIntegerField(
        default=0, validators=[MaxValueValidator(MAX_SCORE)]
    )
    score_b = models.PositiveIntegerField(
        default=0, validators=[MaxValueValidator(MAX_SCORE)]
    )
    people_a = models.CharField(max_length=80, blank=True)
    people_b = models.CharField(max_length=80, blank=True)
    army_a = models.CharField(max_length=120, blank=True)
    army_b = models.CharField(max_length=120, blank=True)
    status = models.CharField(
        max_length=10, choices=ResultStatus.choices, default=ResultStatus.PENDING
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The report form's one-use key: the same form sent twice makes one result.
    tap_key = models.CharField(max_length=40, null=True, blank=True, unique=True)
    # An admin's confirm, correct or void of a game they played, waiting for
    # another admin or the opponent: {"action", "by", "reason", "fields"}.
    proposal = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["played_on", "id"]
        constraints = [
            # A game counts once, in one season.
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(game__isnull=False),
                name="league_result_game_once",
            ),
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")),
                name="league_result_two_players",
            ),
        ]
        indexes = [models.Index(fields=["season", "status"])]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.player_a_id} v {self.player_b_id}"

    def side_of(self, user_id: int) -> str | None:
        if user_id == self.player_a_id:
            return "a"
        if user_id == self.player_b_id:
            return "b"
        return None

    def winner_id(self) -> int | None:
        return {"a": self.player_a_id, "b": self.player_b_id}.get(self.outcome)

    def as_data(self) -> dict:
        """The fields a history entry records."""
        return {
            "played_on": self.played_on.isoformat(),
            "outcome": self.outcome,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "people_a": self.people_a,
            "people_b": self.people_b,
            "army_a": self.army_a,
            "army_b": self.army_b,
            "status": self.status,
        }


class EntryAction(models.TextChoices):
    REPORTED = "reported", _("reported")
    FROM_GAME = "from_game", _("recorded from a finished game, confirmed by both")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")
    ADMIN_CONFIRMED = "admin_confirmed", _("confirmed by an admin")
    CORRECTED = "corrected", _("corrected by an admin")
    VOIDED = "voided", _("voided by an admin")
    WITHDRAWN = "withdrawn", _("withdrawn by its reporter")
    PROPOSED = "proposed", _("proposed by an admin who played it")
    REFUSED = "refused", _("admin's proposal refused")
    OPPONENT_CONFIRMED = "opp_confirmed", _("confirmed by the opponent")
    AGREED_CORRECTION = "agreed_correct", _("corrected, agreed by the opponent")
    AGREED_VOID = "agreed_void", _("voided, agreed by the opponent")


class ResultEntry(models.Model):
    """One change of a result: who, when, what, why. Appended, never changed."""

    result = models.ForeignKey(
        LeagueResult, on_delete=models.CASCADE, related_name="entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=16, choices=EntryAction.choices)
    reason = models.CharField(max_length=500, blank=True)
    data = models.JSONField(default=dict)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["result", "id"]

    def __str__(self) -> str:
        return f"{self.result_id} {self.action}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValueError("A result's history is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("A result's history is append-only.")


class GameOutcome(models.Model):
    """The end-of-game result of a game, agreed by both phones.

    One side proposes (winner or draw, each side's score, optionally a season
    to count it for); the other confirms. A new proposal clears the other
    side's agreement. Once both agree it is settled.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="outcome")
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    score_a = models.PositiveIntegerField(
        default=0, validators=[MaxValueValidator(MAX_SCORE)]
    )
    score_b = models.PositiveIntegerField(
        default=0, validators=[MaxValueValidator(MAX_SCORE)]
    )
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    proposed_by = models.CharField(max_length=1, choices=SIDE_CHOICES)
    agreed_a = models.BooleanField(default=False)
    agreed_b = models.BooleanField(default=False)
    result = models.ForeignKey(
        LeagueResult, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game_id}: {self.outcome} {self.score_a}-{self.score_b}"

    @property
    def settled(self) -> bool:
        return self.agreed_a and self.agreed_b

    def agreed(self, side: str) -> bool:
        return self.agreed_a if side == "a" else self.agreed_b


class AuditAction(models.TextChoices):
    # The admin-made password links are gone (issue #29); old rows keep these.
    PASSWORD_LINK_MADE = "password_link_made", _("made a password link for")
    PASSWORD_LINK_USED = "password_link_used", _("set a new password with a link")
    PASSWORD_LINK_REFUSED = (
        "password_link_refused",
        _("tried a password link on a device the member never used"),
    )
    MEMBER_REMOVED = "member_removed", _("removed from the club")
    MEMBER_RESTORED = "member_restored", _("restored to the club")
    ADMIN_PROMOTED = "admin_promoted", _("made an admin")
    RESULT_CONFIRMED = "result_confirmed", _("confirmed a result")
    RESULT_CORRECTED = "result_corrected", _("corrected a result")
    RESULT_VOIDED = "result_voided", _("voided a result")
    RESULT_PROPOSED = "result_proposed", _("proposed a change to a game they played")
    RESULT_AGREED = "result_agreed", _("agreed to an admin's change of their game")
    RESULT_REFUSED = "result_refused", _("refused an admin's change of their game")
    RESULT_DISPUTED = "result_disputed", _("disputed an admin's change of their game")
    SEASON_CLOSED = "season_closed", _("closed a season")
    SEASON_REOPENED = "season_reopened", _("reopened a season")


class ClubAudit(models.Model):
    """What admins did to members, results and seasons (and what players
    answered to an admin's change): seen by every admin of the club, and told
    to the member it is about (``told`` once they have seen it). ``actor`` is
    the account that did it; ``data["account"]`` keeps its login as it was."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The member it is about (none for a result or a season: ``data`` says).
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    action = models.CharField(max_length=24, choices=AuditAction.choices)
    data = models.JSONField(default=dict)
    created = models.DateTimeField(default=timezone.now)
    told = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.action} {self.subject_id}"
