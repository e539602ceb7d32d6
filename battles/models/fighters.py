"""A game's fighters, their wounds and the sides' activation sequences, as rows.

The event log stays the truth and ``Game.state`` its snapshot; these rows
mirror the snapshot so the admin, the summary and a league can query them
(DESIGN: "Django models store ... wound steps and activation sequences").
They are written only by ``battles.services.fighter_rows``, in the same
transaction as the events, from the state the engine built; the management
command ``rebuild_fighter_rows`` checks or rebuilds them from the log.

Fighters and cards keep the keys the rules engine gives them (``"a3.2"`` is
the second fighter of side A's third card, ``"a3"`` that card).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from battles.models.games import SIDE_CHOICES, Game, GameEvent

__all__ = [
    "ActivationSequence",
    "ActivationSequenceCard",
    "Fighter",
    "FighterWound",
]


class Fighter(models.Model):
    """One fighter of a game, as the snapshot has it now (II-B wound steps)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fighters")
    key = models.CharField(max_length=16)
    side = models.CharField(_("side"), max_length=1, choices=SIDE_CHOICES)
    card_key = models.CharField(max_length=8)
    card_name = models.CharField(_("reference card"), max_length=120)
    # Where the card came from when the game started (null if since deleted).
    army_card = models.ForeignKey(
        "battles.ArmyCard",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    reference_card = models.ForeignKey(
        "battles.ReferenceCard",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The army points of the fighter's card (cost × fighters) when the game
    # started, shared among the card's ``card_fighters`` fighters.
    card_points = models.PositiveIntegerField(null=True, blank=True)
    card_fighters = models.PositiveSmallIntegerField(default=1)
    label = models.CharField(_("fighter"), max_length=160)
    wound_steps = models.PositiveSmallIntegerField(_("wound steps"), default=0)
    stunned = models.BooleanField(_("stunned"), default=False)
    routed = models.BooleanField(_("routed"), default=False)
    eliminated = models.BooleanField(_("eliminated"), default=False)
    eliminated_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    eliminated_phase = models.CharField(max_length=16, blank=True)
    mana = models.PositiveSmallIntegerField(_("mana"), null=True, blank=True)
    faith = models.PositiveSmallIntegerField(
        _("temporary faith"), null=True, blank=True
    )

    class Meta:
        ordering = ["game", "side", "id"]
        verbose_name = _("fighter")
        verbose_name_plural = _("fighters")
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="fighter_key_unique"),
        ]

    def __str__(self) -> str:
        return self.label


class FighterWound(models.Model):
    """One wound a fighter received (II-B), in the order of the log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    fighter = models.ForeignKey(
        Fighter, on_delete=models.CASCADE, related_name="wounds"
    )
    # The attacker, when the log names one (a shot into a melee may hit a friend).
    attacker = models.ForeignKey(
        Fighter,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="wounds_dealt",
    )
    event = models.ForeignKey(GameEvent, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    action = models.PositiveIntegerField()
    turn = models.PositiveSmallIntegerField(_("turn"))
    phase = models.CharField(_("phase"), max_length=16)
    location = models.CharField(_("location"), max_length=32, blank=True)
    outcome = models.CharField(_("outcome"), max_length=32)
    steps_added = models.PositiveSmallIntegerField(_("wound steps added"))
    steps_after = models.PositiveSmallIntegerField(_("wound steps after"))
    eliminated = models.BooleanField(_("eliminated"), default=False)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("wound")
        verbose_name_plural = _("wound history")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="fighter_wound_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.fighter_id} #{self.seq} {self.outcome}"


class ActivationSequenceQuerySet(models.QuerySet):
    def readable_by(
        self, roles: set[str] | frozenset[str]
    ) -> ActivationSequenceQuerySet:
        """The sequences someone holding ``roles`` may read (IV-A-1: hidden).

        A side reads its own; once the game is over everyone reads them all.
        A phone holding both sides is passed between the players (a hand-over
        screen guards each sequence on the board): it shows none until the end.
        """
        over = Q(game__finished_at__isnull=False)
        sides = [role for role in roles if role in ("a", "b")]
        if len(sides) == 2:
            sides = []
        return self.filter(over | Q(side__in=sides))

    def of_finished_games(self) -> ActivationSequenceQuerySet:
        return self.filter(game__finished_at__isnull=False)


class ActivationSequence(models.Model):
    """A side's activation sequence for one turn (IV-A-1), private to that side
    until the game ends; locked by the Tactics roll (IV-A-2)."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="activation_sequences"
    )
    side = models.CharField(_("side"), max_length=1, choices=SIDE_CHOICES)
    turn = models.PositiveSmallIntegerField(_("turn"))
    # The Tactics roll that locked it (null: not rolled yet).
    locked_by = models.ForeignKey(
        GameEvent,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)

    objects = ActivationSequenceQuerySet.as_manager()

    class Meta:
        ordering = ["game", "turn", "side"]
        verbose_name = _("activation sequence")
        verbose_name_plural = _("activation sequences")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "side", "turn"], name="activation_sequence_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.side} T{self.turn}"

    @property
    def locked(self) -> bool:
        return self.locked_by_id is not None


class ActivationSequenceCard(models.Model):
    """One card of a sequence, at its place (1 is drawn first)."""

    sequence = models.ForeignKey(
        ActivationSequence, on_delete=models.CASCADE, related_name="cards"
    )
    position = models.PositiveSmallIntegerField()
    card_key = models.CharField(max_length=8)
    card_name = models.CharField(_("reference card"), max_length=120)

    class Meta:
        ordering = ["sequence", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["sequence", "position"], name="activation_sequence_card_place"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.card_name}"
