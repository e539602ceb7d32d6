"""Spells and miracles as reference data (X, XI), like reference cards.

A spell or a miracle is a card as printed (imported from a community
catalogue, or typed): what the rules can read is stored as numbers and
choices, and every value as printed is kept beside it (``*_text``), with the
list of values an import did not understand (``unclear``). They live in the
shared library (no owner) or in a player's own collection, like reference
cards. An army's magicians and faithful carry the spells and miracles they
know (``ArmyCard.spells``, ``ArmyCard.miracles``), their points counted in the
army's total.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from battles.models.armies import SHARED
from battles.models.identity import Owner

MAX_MYSTIC_POINTS = 999


class MysticQuerySet(models.QuerySet):
    def visible_to(self, owner: Owner) -> MysticQuerySet:
        """The shared library plus the owner's own."""
        return self.filter(SHARED | owner.q())

    def shared(self) -> MysticQuerySet:
        return self.filter(SHARED)


class MysticSource(models.TextChoices):
    CATALOGUE = "catalogue", _("community catalogue")
    MANUAL = "manual", _("typed by hand")


class _Mystic(models.Model):
    """What a spell card and a miracle card share (magic-faith-sources.md §1)."""

    name = models.CharField(_("name"), max_length=120)
    difficulty = models.PositiveSmallIntegerField(
        _("difficulty"), null=True, blank=True
    )
    difficulty_text = models.CharField(
        _("difficulty as printed"), max_length=80, blank=True
    )
    range_cm = models.PositiveSmallIntegerField(_("range (cm)"), null=True, blank=True)
    range_text = models.CharField(_("range as printed"), max_length=80, blank=True)
    area = models.CharField(_("area of effect"), max_length=24, blank=True)
    area_text = models.CharField(_("area as printed"), max_length=120, blank=True)
    duration = models.CharField(_("duration"), max_length=24, blank=True)
    duration_text = models.CharField(
        _("duration as printed"), max_length=120, blank=True
    )
    points = models.PositiveSmallIntegerField(_("army points"), default=0)
    description = models.TextField(_("effect"), blank=True)
    source = models.CharField(
        max_length=16, choices=MysticSource.choices, default=MysticSource.MANUAL
    )
    source_detail = models.CharField(max_length=200, blank=True)
    external_id = models.CharField(max_length=64, blank=True)
    unclear = models.JSONField(
        _("values not understood"), default=list, blank=True
    )  # [[field, text], ...]
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = MysticQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Spell(_Mystic):
    """A spell card (C3 fields, [read] M6): path, gems by element,
    difficulty, range, area, duration, frequency, intensity, points."""

    path = models.CharField(_("path"), max_length=80, blank=True)
    cost = models.JSONField(_("gems by element"), default=dict, blank=True)
    cost_text = models.CharField(_("cost as printed"), max_length=80, blank=True)
    frequency = models.PositiveSmallIntegerField(_("frequency"), null=True, blank=True)
    frequency_text = models.CharField(
        _("frequency as printed"), max_length=40, blank=True
    )
    intensity = models.PositiveSmallIntegerField(_("intensity"), null=True, blank=True)

    class Meta(_Mystic.Meta):
        verbose_name = _("spell")
        verbose_name_plural = _("spells")
        constraints = [
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(owner__isnull=True, guest_key=""),
                name="spell_name_unique_in_library",
            ),
        ]

    def game_data(self) -> dict:
        """The spell as the rules read it (``setup["spells"][name]``)."""
        duration = self.duration if self.duration in GAME_DURATIONS else "instant"
        difficulty = self.difficulty
        if difficulty is None and self.difficulty_text:
            difficulty = self.difficulty_text[:40]  # a formula, worked out in play
        data = {
            "cost": dict(self.cost or {}),
            "difficulty": difficulty,
            "frequency": self.frequency,
            "duration": duration,
        }
        if not self.cost:  # no gem read ("X tenebre"): entered at each cast
            data["cost_text"] = self.cost_text[:40]
        return data


class Miracle(_Mystic):
    """A miracle card ([read] M7, M12): cult (or universal), fervour, the
    aspects C/A/D, difficulty (a number or a formula of the fervour), range,
    area, duration, points."""

    cult = models.CharField(_("cult"), max_length=80, blank=True)
    universal = models.BooleanField(_("universal"), default=False)
    fervour = models.PositiveSmallIntegerField(_("fervour"), null=True, blank=True)
    fervour_text = models.CharField(_("fervour as printed"), max_length=40, blank=True)
    creation = models.PositiveSmallIntegerField(_("creation"), null=True, blank=True)
    alteration = models.PositiveSmallIntegerField(
        _("alteration"), null=True, blank=True
    )
    destruction = models.PositiveSmallIntegerField(
        _("destruction"), null=True, blank=True
    )

    class Meta(_Mystic.Meta):
        verbose_name = _("miracle")
        verbose_name_plural = _("miracles")
        constraints = [
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(owner__isnull=True, guest_key=""),
                name="miracle_name_unique_in_library",
            ),
        ]

    @property
    def aspects(self) -> str:
        values = (self.creation, self.alteration, self.destruction)
        return "-".join("?" if v is None else str(v) for v in values)

    def game_data(self) -> dict:
        """The miracle as the rules read it (``setup["miracles"][name]``)."""
        duration = self.duration if self.duration in GAME_DURATIONS else "instant"
        difficulty = self.difficulty
        if difficulty is None and self.difficulty_text:
            difficulty = self.difficulty_text
        return {
            "cults": [] if self.universal or not self.cult else [self.cult],
            "fervour": self.fervour,
            "difficulty": difficulty,
            "duration": duration,
        }


# The durations the game records as lasting effects (rules.magic.DURATION_KINDS
# without those needing a number the card does not give).
GAME_DURATIONS = ("instant", "end_of_round", "game")
