"""Games: the event log, the snapshot folded from it, seats and join links.

A game's truth is its append-only log (``GameEvent``); ``Game.state`` is the
snapshot ``rules.game.replay`` gives for that log, kept on the row so reads
are cheap, and ``Game.version`` the number of the last event (DESIGN: "Event
log"). Undo appends; nothing is ever deleted from the log.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from battles.models.fast_json import FastJSONField

SIDE_CHOICES = [("a", _("Side A")), ("b", _("Side B"))]


def new_public_id() -> str:
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """What a link's row keeps of its token: the token itself is never stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_dice_seed() -> str:
    return secrets.token_hex(32)


class GameMode(models.TextChoices):
    TWO_PHONES = "two_phones", _("Two phones (each player on their own)")
    ONE_PHONE = "one_phone", _("One phone passed between the players")


class DiceMode(models.TextChoices):
    APP = "app", _("The app rolls (seeded, verifiable)")
    ENTERED = "entered", _("We roll real dice and enter the faces")


class GameQuerySet(models.QuerySet):
    def for_user_or_guest(self, user_id: int | None, guest_key: str) -> GameQuerySet:
        """Games where this person holds a seat (a side or a spectator's)."""
        seats = Q(pk__in=[])
        if user_id is not None:
            seats |= Q(seats__user_id=user_id)
        if guest_key:
            seats |= Q(seats__guest_key=guest_key)
        return self.filter(seats).distinct()


class Game(models.Model):
    """One game of Confrontation between side A and side B."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    title = models.CharField(_("title"), max_length=120, blank=True)
    mode = models.CharField(
        _("how you play"),
        max_length=12,
        choices=GameMode.choices,
        default=GameMode.TWO_PHONES,
    )
    dice_mode = models.CharField(
        _("dice"), max_length=8, choices=DiceMode.choices, default=DiceMode.APP
    )
    require_confirmation = models.BooleanField(
        _("results wait for the other phone's confirmation"), default=False
    )
    army_a = models.ForeignKey(
        "battles.Army",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    army_b = models.ForeignKey(
        "battles.Army",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The snapshot: rules.game.replay(events) must give exactly this.
    state = FastJSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    # DESIGN "Dice": secret until the end, its SHA-256 shown from the start.
    dice_seed = models.CharField(max_length=64, default=new_dice_seed)
    dice_seed_hash = models.CharField(max_length=64, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated", "-id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.title or gettext("Game %(id)s") % {"id": self.public_id}

    def save(self, *args, **kwargs) -> None:
        if not self.dice_seed_hash:
            self.dice_seed_hash = hashlib.sha256(self.dice_seed.encode()).hexdigest()
        super().save(*args, **kwargs)

    @property
    def finished(self) -> bool:
        return self.state.get("phase") == "finished"

    @cached_property
    def seat_list(self) -> list[GameSeat]:
        """The seats, read once for this loaded game: a board asks them for
        the viewer's roles and for the sides' player names."""
        return list(self.seats.all())

    @property
    def seed_revealed(self) -> bool:
        return self.finished


class EventJSONField(FastJSONField):
    """A ``FastJSONField`` inserted as a plain value on PostgreSQL.

    Django inserts several rows at once there through ``UNNEST`` of one
    array per column; psycopg then quotes each JSON value again inside a text
    array, in Python, one substitution per quote: an action's snapshot of the
    state has hundreds, about a millisecond of the action. A field with a
    placeholder of its own keeps Django's ``VALUES`` list, quoted by libpq.
    """

    def get_placeholder(self, value, compiler, connection) -> str:
        return "%s"


class GameEvent(models.Model):
    """One entry of a game's append-only log (DESIGN: "Event log").

    Events of one player action share ``action`` (the seq of its first
    event). The first event of an action carries the idempotency key of the
    tap, a hash of the command, the command itself, and the dice it drew
    (``dice`` with ``dice_source``) so the verify page can recompute
    app-rolled faces and ``rules.story`` every result drawn from them.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    action = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    side = models.CharField(max_length=1, choices=SIDE_CHOICES, blank=True)
    payload = EventJSONField(default=dict)
    created = models.DateTimeField(default=timezone.now)
    idempotency_key = models.CharField(max_length=64, blank=True)
    command_hash = models.CharField(max_length=64, blank=True)
    dice = EventJSONField(default=list, blank=True)
    dice_source = models.CharField(max_length=8, blank=True)
    disputed = models.BooleanField(default=False)
    # On an action's first event: the command the phone sent (one command, or
    # ``{"batch": [...]}``), so the log replays through the rules and proves
    # every result, not only every face (``rules.story``). Null before it was
    # recorded, and on the events after an action's first.
    command = EventJSONField(null=True, blank=True)
    # On an action's first event: the game's state just before it, so an undo
    # restores it without replaying the log (kept for the latest actions only).
    state_before = EventJSONField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seq"], name="game_event_seq_unique"
            ),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="game_event_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"

    def as_rules_event(self) -> dict:
        """The event as ``rules.game`` reads it."""
        return {
            "seq": self.seq,
            "action": self.action,
            "kind": self.kind,
            "side": self.side or None,
            "payload": self.payload,
        }


class SeatRole(models.TextChoices):
    SIDE_A = "a", _("Side A")
    SIDE_B = "b", _("Side B")
    SPECTATOR = "spectator", _("Spectator")


class GameSeat(models.Model):
    """Who holds a side of a game, or watches it: a user or a guest's session."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    role = models.CharField(max_length=10, choices=SeatRole.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="game_seats",
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    player_name = models.CharField(_("player name"), max_length=60, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A side is held once; spectators may be many.
            models.UniqueConstraint(
                fields=["game", "role"],
                condition=Q(role__in=["a", "b"]),
                name="game_side_held_once",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(guest_key=""),
                name="game_seat_has_a_holder",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.role}"


class JoinLinkRole(models.TextChoices):
    SIDE_B = "b", _("Opponent (side B)")
    SPECTATOR = "spectator", _("Spectator")


class JoinLink(models.Model):
    """A share link: an unguessable token, stored hashed, revocable, expiring."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="links")
    role = models.CharField(max_length=10, choices=JoinLinkRole.choices)
    token_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    revoked = models.BooleanField(default=False)
    used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.game_id} {self.role} link"

    hash_token = staticmethod(hash_token)

    @property
    def usable(self) -> bool:
        if self.revoked or self.expires <= timezone.now():
            return False
        return self.role == JoinLinkRole.SPECTATOR or self.used is None
