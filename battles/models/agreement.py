"""Agreement on results: the other phone confirms or disputes a wound roll.

With ``Game.require_confirmation`` a consequential result (a wound rolled on
my fighter by my opponent's phone) waits for my phone's answer. Each answer
is one row, never changed; a dispute also marks the action's events
``disputed`` so the log shows it.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from battles.models.games import SIDE_CHOICES, Game


class Verdict(models.TextChoices):
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


class ResultAgreement(models.Model):
    """One side's answer about the result of one action of the other side."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="answers")
    action = models.PositiveIntegerField()
    side = models.CharField(max_length=1, choices=SIDE_CHOICES)
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "action"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "action", "side"], name="result_answered_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id} action {self.action}: {self.side} {self.verdict}"
