"""Peoples, reference cards and armies.

A reference card is a profile as printed (or typed, or imported): one card in
an army drives one card of the activation sequence (IV-A-1), and activates
``fighters`` fighters.

Who owns what
-------------
An army (and a custom card) belongs either to a logged-in user (``owner``) or
to a guest, through a random ``guest_key`` kept in the guest's session (not the
session key itself, which Django changes at login). Rows with neither are the
shared library: the demo cards and armies (``is_demo``) and catalogues
imported by the server's operator. Demo armies are read-only templates that a
player duplicates into their own.

Characteristic ranges (checked by the model's validators, so by every form and
every service):

========================  ==========
MOU                       0 to 30, one decimal (12.5)
flight MOU                0 to 60, one decimal (a flyer's "12,5/20")
INI ATT DEF TIR DIS       0 to 15
COU PEUR                  0 to 15 (a card has courage or fear, never both)
FOR RES                   0 to 20
POU FOI                   0 to 10
faith aspects             0 to 10 each (Création, Altération, Destruction)
cost (army points)        0 to 1000
weapon strength           0 to 20
weapon ranges (cm)        0 to 200, short <= medium <= long
fighters per card         1 to 20
========================  ==========
"""

from __future__ import annotations

import re
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Prefetch, Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from battles.models.identity import Owner  # noqa: F401  (re-exported: its old home)
from rules.game.state import CHARACTERISTICS

__all__ = [
    "Army",
    "ArmyCard",
    "ArmyQuerySet",
    "BaseShape",
    "CardAbility",
    "CardSource",
    "MysticRank",
    "People",
    "PeopleQuerySet",
    "Rank",
    "ReferenceCard",
    "ReferenceCardQuerySet",
    "Size",
    "Voie",
    "format_ability",
    "parse_abilities",
    "parse_ability",
]

# --- Ranges (see the module docstring) -------------------------------------
MOU_RANGE = (Decimal("0"), Decimal("30"))
FLIGHT_RANGE = (Decimal("0"), Decimal("60"))
SMALL_RANGE = (0, 15)  # INI ATT DEF TIR DIS COU PEUR
BIG_RANGE = (0, 20)  # FOR RES, weapon strength
MYSTIC_RANGE = (0, 10)  # POU FOI
COST_RANGE = (0, 1000)
DISTANCE_RANGE = (0, 200)
FIGHTERS_PER_CARD_RANGE = (1, 20)
FIGHTERS_IN_ARMY_CARD_RANGE = (1, 50)
POINTS_LIMIT_RANGE = (1, 10000)

# The model field holding each characteristic ("for" and "def" being Python
# keywords, FOR and DEF are stored as "force" and "defense").
CHARACTERISTIC_FIELDS = {
    "MOU": "mou",
    "INI": "ini",
    "ATT": "att",
    "FOR": "force",
    "DEF": "defense",
    "RES": "res",
    "TIR": "tir",
    "COU": "cou",
    "PEUR": "peur",
    "DIS": "dis",
    "POU": "pou",
    "FOI": "foi",
}


def _between(low, high) -> list:
    return [MinValueValidator(low), MaxValueValidator(high)]


SHARED = Q(owner__isnull=True, guest_key="")

# The code of the "name already taken" constraint errors (shown next to the name).
NAME_TAKEN = "name_taken"


class Voie(models.TextChoices):
    """The alliance path ("voie d'alliance") of a people."""

    LUMIERE = "lumiere", "Lumière"
    DESTIN = "destin", "Destin"
    TENEBRES = "tenebres", "Ténèbres"
    OTHER = "other", _("Other")


class Size(models.TextChoices):
    """Sizes as in ``rules.size`` (II-E-3); "Énorme/X" is very_large."""

    SMALL = "small", _("Small")
    NORMAL = "normal", _("Normal")
    LARGE = "large", _("Large")
    VERY_LARGE = "very_large", _("Very large (Énorme)")
    TITAN = "titan", _("Titan")


class BaseShape(models.TextChoices):
    SQUARE = "square", _("Square")
    ROUND = "round", _("Round")


class Rank(models.TextChoices):
    """A warrior's rank, as printed (the tier is in ``RANK_TIERS``)."""

    IRREGULIER = "irregulier", "Irrégulier"
    REGULIER = "regulier", "Régulier"
    VETERAN = "veteran", "Vétéran"
    CREATURE = "creature", "Créature"
    SPECIAL = "special", "Spécial"
    ELITE = "elite", "Élite"
    MACHINE_DE_GUERRE = "machine_de_guerre", "Machine de guerre"
    LEGENDE_VIVANTE = "legende_vivante", "Légende vivante"
    ALLIE_MAJEUR = "allie_majeur", "Allié majeur"


class MysticRank(models.TextChoices):
    """A magician's or a faithful's rank (tier in ``RANK_TIERS``)."""

    INITIE = "initie", "Initié"
    ADEPTE = "adepte", "Adepte"
    MAITRE = "maitre", "Maître"
    VIRTUOSE = "virtuose", "Virtuose"
    DEVOT = "devot", "Dévot"
    ZELOTE = "zelote", "Zélote"
    DOYEN = "doyen", "Doyen"
    AVATAR = "avatar", "Avatar"


RANK_TIERS = {
    Rank.IRREGULIER: 1,
    Rank.REGULIER: 1,
    Rank.VETERAN: 1,
    Rank.CREATURE: 1,
    Rank.SPECIAL: 2,
    Rank.ELITE: 2,
    Rank.MACHINE_DE_GUERRE: 2,
    Rank.LEGENDE_VIVANTE: 3,
    Rank.ALLIE_MAJEUR: 4,
    MysticRank.INITIE: 1,
    MysticRank.ADEPTE: 2,
    MysticRank.MAITRE: 3,
    MysticRank.VIRTUOSE: 4,
    MysticRank.DEVOT: 1,
    MysticRank.ZELOTE: 2,
    MysticRank.DOYEN: 3,
    MysticRank.AVATAR: 4,
}


class CardSource(models.TextChoices):
    """Where a profile comes from; shown on every card (attribution)."""

    RACKHAM = "rackham", "Profil Rackham"
    ARCHETYPE = "archetype", "archétype"
    CUSTOM = "custom", pgettext_lazy("a card's source", "custom")
    CATALOGUE = "catalogue", "catalogue"


class PeopleQuerySet(models.QuerySet):
    def visible_to(self, owner: Owner) -> PeopleQuerySet:
        """The shared peoples plus the ones ``owner``'s uploads created."""
        return self.filter(SHARED | owner.q())

    def shared(self) -> PeopleQuerySet:
        return self.filter(SHARED)


class People(models.Model):
    """A faction ("peuple") and its alliance path.

    The 23 peoples of the game (and the operator's imports) are shared; a
    people created by a player's upload (a catalogue or an army file whose
    people matches none) is private to that player, like their cards.
    """

    name = models.CharField(_("name"), max_length=80)
    voie = models.CharField(
        _("alliance path"), max_length=16, choices=Voie.choices, default=Voie.OTHER
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="peoples",
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)

    objects = PeopleQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("people")
        verbose_name_plural = _("peoples")
        constraints = [
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(owner__isnull=True, guest_key=""),
                name="people_name_unique_shared",
                violation_error_code=NAME_TAKEN,
            ),
            models.UniqueConstraint(
                fields=["owner", "name"],
                condition=Q(owner__isnull=False),
                name="people_name_unique_per_user",
                violation_error_code=NAME_TAKEN,
            ),
            models.UniqueConstraint(
                fields=["guest_key", "name"],
                condition=~Q(guest_key=""),
                name="people_name_unique_per_guest",
                violation_error_code=NAME_TAKEN,
            ),
            models.CheckConstraint(
                condition=Q(owner__isnull=True) | Q(guest_key=""),
                name="people_owned_by_user_or_guest_not_both",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_shared(self) -> bool:
        return self.owner_id is None and not self.guest_key


class ReferenceCardQuerySet(models.QuerySet):
    def visible_to(self, owner: Owner) -> ReferenceCardQuerySet:
        """The shared library plus the owner's own cards."""
        return self.filter(SHARED | owner.q())

    def owned_by(self, owner: Owner) -> ReferenceCardQuerySet:
        return self.filter(owner.q())

    def shared(self) -> ReferenceCardQuerySet:
        return self.filter(SHARED)

    def with_details(self) -> ReferenceCardQuerySet:
        return self.select_related("people").prefetch_related("abilities")


class ReferenceCard(models.Model):
    """A reference card: one profile, the fighters it activates by default."""

    name = models.CharField(_("name"), max_length=120)
    people = models.ForeignKey(
        People, on_delete=models.PROTECT, related_name="cards", verbose_name=_("people")
    )
    rank = models.CharField(_("rank"), max_length=24, choices=Rank.choices, blank=True)
    mystic_rank = models.CharField(
        _("magician or faithful rank"),
        max_length=24,
        choices=MysticRank.choices,
        blank=True,
    )
    size = models.CharField(
        _("size"), max_length=16, choices=Size.choices, default=Size.NORMAL
    )
    base_shape = models.CharField(
        _("base"), max_length=8, choices=BaseShape.choices, default=BaseShape.SQUARE
    )
    cost = models.PositiveIntegerField(
        _("cost (army points)"),
        null=True,
        blank=True,
        validators=_between(*COST_RANGE),
        help_text=_("Leave empty when the card prints no cost."),
    )
    cost_estimated = models.BooleanField(
        _("estimated cost"),
        default=False,
        help_text=_("No source prints this cost: it is an estimate."),
    )
    mou = models.DecimalField(
        "MOU",
        max_digits=3,
        decimal_places=1,
        null=True,
        blank=True,
        validators=_between(*MOU_RANGE),
    )
    mou_flight = models.DecimalField(
        _("flight MOU"),
        max_digits=3,
        decimal_places=1,
        null=True,
        blank=True,
        validators=_between(*FLIGHT_RANGE),
        help_text=_("A flyer's movement in flight; MOU is its movement on the ground."),
    )
    ini = models.SmallIntegerField(
        "INI", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    att = models.SmallIntegerField(
        "ATT", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    force = models.SmallIntegerField(
        "FOR", null=True, blank=True, validators=_between(*BIG_RANGE)
    )
    defense = models.SmallIntegerField(
        "DEF", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    res = models.SmallIntegerField(
        "RES", null=True, blank=True, validators=_between(*BIG_RANGE)
    )
    tir = models.SmallIntegerField(
        "TIR", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    cou = models.SmallIntegerField(
        "COU", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    peur = models.SmallIntegerField(
        "PEUR", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    dis = models.SmallIntegerField(
        "DIS", null=True, blank=True, validators=_between(*SMALL_RANGE)
    )
    pou = models.SmallIntegerField(
        "POU", null=True, blank=True, validators=_between(*MYSTIC_RANGE)
    )
    foi = models.SmallIntegerField(
        "FOI", null=True, blank=True, validators=_between(*MYSTIC_RANGE)
    )
    creation = models.SmallIntegerField(
        _("Création"), null=True, blank=True, validators=_between(*MYSTIC_RANGE)
    )
    alteration = models.SmallIntegerField(
        _("Altération"), null=True, blank=True, validators=_between(*MYSTIC_RANGE)
    )
    destruction = models.SmallIntegerField(
        _("Destruction"), null=True, blank=True, validators=_between(*MYSTIC_RANGE)
    )
    weapon_name = models.CharField(_("ranged weapon"), max_length=80, blank=True)
    weapon_strength = models.SmallIntegerField(
        _("weapon FOR"), null=True, blank=True, validators=_between(*BIG_RANGE)
    )
    range_short = models.PositiveSmallIntegerField(
        _("short range (cm)"),
        null=True,
        blank=True,
        validators=_between(*DISTANCE_RANGE),
    )
    range_medium = models.PositiveSmallIntegerField(
        _("medium range (cm)"),
        null=True,
        blank=True,
        validators=_between(*DISTANCE_RANGE),
    )
    range_long = models.PositiveSmallIntegerField(
        _("long range (cm)"),
        null=True,
        blank=True,
        validators=_between(*DISTANCE_RANGE),
    )
    fighters_per_card = models.PositiveSmallIntegerField(
        _("fighters per card"),
        default=1,
        validators=_between(*FIGHTERS_PER_CARD_RANGE),
    )
    source = models.CharField(
        _("source"),
        max_length=16,
        choices=CardSource.choices,
        default=CardSource.CUSTOM,
    )
    source_detail = models.CharField(
        _("source detail"),
        max_length=120,
        blank=True,
        help_text=_("The catalogue's name for a card imported from a catalogue."),
    )
    external_id = models.CharField(
        _("catalogue profile id"), max_length=100, blank=True, db_index=True
    )
    is_demo = models.BooleanField(_("demo data"), default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reference_cards",
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ReferenceCardQuerySet.as_manager()

    class Meta:
        ordering = ["people__name", "name"]
        verbose_name = _("reference card")
        verbose_name_plural = _("reference cards")
        constraints = [
            models.UniqueConstraint(
                fields=["people", "name"],
                condition=Q(owner__isnull=True, guest_key=""),
                name="card_name_unique_per_people_in_library",
                violation_error_code=NAME_TAKEN,
                violation_error_message=_(
                    "The library already has a card of that name for this people."
                ),
            ),
            models.UniqueConstraint(
                fields=["owner", "people", "name"],
                condition=Q(owner__isnull=False),
                name="card_name_unique_per_people_per_user",
                violation_error_code=NAME_TAKEN,
                violation_error_message=_(
                    "You already have a card of that name for this people."
                ),
            ),
            models.UniqueConstraint(
                fields=["guest_key", "people", "name"],
                condition=~Q(guest_key=""),
                name="card_name_unique_per_people_per_guest",
                violation_error_code=NAME_TAKEN,
                violation_error_message=_(
                    "You already have a card of that name for this people."
                ),
            ),
            models.CheckConstraint(
                condition=Q(fighters_per_card__gte=1),
                name="card_fighters_per_card_at_least_one",
            ),
            models.CheckConstraint(
                condition=Q(cou__isnull=True) | Q(peur__isnull=True),
                name="card_courage_or_fear_not_both",
                violation_error_message=_("A card has COU or PEUR, not both."),
            ),
            models.CheckConstraint(
                condition=Q(range_short__isnull=True)
                | Q(range_medium__isnull=True)
                | Q(range_short__lte=models.F("range_medium")),
                name="card_short_range_within_medium",
            ),
            models.CheckConstraint(
                condition=Q(range_medium__isnull=True)
                | Q(range_long__isnull=True)
                | Q(range_medium__lte=models.F("range_long")),
                name="card_medium_range_within_long",
            ),
            models.CheckConstraint(
                condition=Q(owner__isnull=True) | Q(guest_key=""),
                name="card_owned_by_user_or_guest_not_both",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.people.name})"

    def clean(self) -> None:
        """Checks across fields; the ranges of each field are its validators."""
        errors: dict[str, list] = {}
        if self.cou is not None and self.peur is not None:
            errors["peur"] = [_("A card has COU or PEUR, not both: clear one.")]
        ranges = (self.range_short, self.range_medium, self.range_long)
        has_weapon = bool(self.weapon_name) or self.weapon_strength is not None
        if any(value is not None for value in ranges) or has_weapon:
            if any(value is None for value in ranges):
                errors["range_long"] = [
                    _("A ranged weapon needs its three ranges: short, medium, long.")
                ]
            elif not (ranges[0] <= ranges[1] <= ranges[2]):
                errors["range_long"] = [
                    _("Ranges go up: short ≤ medium ≤ long (here %(r)s).")
                    % {"r": " / ".join(str(value) for value in ranges)}
                ]
            if self.weapon_strength is None:
                errors["weapon_strength"] = [_("A ranged weapon needs its FOR.")]
        aspects = (self.creation, self.alteration, self.destruction)
        if any(value is not None for value in aspects) and None in aspects:
            errors["destruction"] = [
                _("A faithful has three aspects: Création, Altération, Destruction.")
            ]
        if errors:
            raise ValidationError(errors)

    # --- Reading -------------------------------------------------------
    @property
    def attribution(self) -> str:
        """ "Profil Rackham", "archétype", "custom" or "catalogue: <name>";
        an archetype with a detail reads "archétype (profil wolfen estimé)"."""
        if self.source == CardSource.CATALOGUE and self.source_detail:
            # French puts a space before the colon: "catalogue : <name>".
            return gettext("catalogue: %(name)s") % {"name": self.source_detail}
        if self.source == CardSource.ARCHETYPE and self.source_detail:
            return f"{self.get_source_display()} ({self.source_detail})"
        return self.get_source_display()

    @property
    def ranges(self) -> tuple[int, int, int] | None:
        """(short, medium, long) in cm, as ``rules.shooting`` wants them."""
        if None in (self.range_short, self.range_medium, self.range_long):
            return None
        return (self.range_short, self.range_medium, self.range_long)

    @property
    def aspects(self) -> tuple[int, int, int] | None:
        """(Création, Altération, Destruction) of a faithful, or None."""
        if None in (self.creation, self.alteration, self.destruction):
            return None
        return (self.creation, self.alteration, self.destruction)

    @property
    def has_weapon(self) -> bool:
        return self.weapon_strength is not None and self.ranges is not None

    def characteristic(self, code: str):
        """The value of a characteristic by its French code (``"FOR"``)."""
        return getattr(self, CHARACTERISTIC_FIELDS[code])

    @property
    def characteristics(self) -> list[tuple[str, object]]:
        """[(code, value)] for the characteristics the card has (not None)."""
        return [
            (code, value)
            for code in CHARACTERISTICS
            if (value := self.characteristic(code)) is not None
        ]

    @property
    def ranks_display(self) -> str:
        parts = [self.get_mystic_rank_display(), self.get_rank_display()]
        return " · ".join(part for part in parts if part)

    @property
    def is_shared(self) -> bool:
        return self.owner_id is None and not self.guest_key

    @property
    def abilities_text(self) -> str:
        """ "Tueur né/1, Créature" from the (prefetched) abilities."""
        return ", ".join(str(ability) for ability in self.abilities.all())


ABILITY_SEPARATORS = re.compile(r"[,;\n]+")


def parse_ability(text: str) -> tuple[str, str]:
    """``"Régénération/5"`` -> ``("Régénération", "5")``; ``"Mercenaire"`` ->
    ``("Mercenaire", "")``. Spaces around the name and value are dropped."""
    name, _sep, value = text.partition("/")
    return " ".join(name.split()), value.strip()


def parse_abilities(text: str) -> list[tuple[str, str]]:
    """Abilities typed as one text, separated by commas, semicolons or lines:
    ``"Tueur né/1, Créature"`` -> ``[("Tueur né", "1"), ("Créature", "")]``.
    Empty items are dropped."""
    parsed = [parse_ability(item) for item in ABILITY_SEPARATORS.split(text or "")]
    return [(name, value) for name, value in parsed if name]


def format_ability(name: str, value: str) -> str:
    return f"{name}/{value}" if value else name


class CardAbility(models.Model):
    """A skill or ability printed on a card, with its optional value
    ("Régénération/5", "Commandement/X", "Mercenaire")."""

    card = models.ForeignKey(
        ReferenceCard, on_delete=models.CASCADE, related_name="abilities"
    )
    name = models.CharField(_("name"), max_length=60)
    value = models.CharField(_("value"), max_length=40, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("ability")
        verbose_name_plural = _("abilities")

    def __str__(self) -> str:
        return format_ability(self.name, self.value)


class ArmyQuerySet(models.QuerySet):
    def with_cards(self) -> ArmyQuerySet:
        """Everything an army page shows, in a fixed number of queries: the army
        with its people, then its cards with their profiles, then the
        abilities, the spells and the miracles the cards know (5 queries
        however many cards)."""
        return self.select_related("people", "owner").prefetch_related(
            Prefetch(
                "cards",
                queryset=ArmyCard.objects.select_related(
                    "card", "card__people"
                ).order_by("position", "id"),
            ),
            "cards__card__abilities",
            "cards__spells",
            "cards__miracles",
        )

    def alive(self) -> ArmyQuerySet:
        return self.filter(deleted_at__isnull=True)

    def owned_by(self, owner: Owner) -> ArmyQuerySet:
        return self.filter(owner.q())

    def demo(self) -> ArmyQuerySet:
        return self.filter(SHARED, is_demo=True)


class Army(models.Model):
    """A player's army: an ordered list of reference cards and a points limit.

    Deleting is soft (``deleted_at``) so the page can offer "undo" right after;
    ``battles.services.armies`` purges deleted armies after the restore window.
    """

    name = models.CharField(_("name"), max_length=100)
    people = models.ForeignKey(
        People,
        on_delete=models.PROTECT,
        related_name="armies",
        verbose_name=_("people"),
    )
    points_limit = models.PositiveIntegerField(
        _("points limit"), default=400, validators=_between(*POINTS_LIMIT_RANGE)
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="armies",
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    is_demo = models.BooleanField(_("demo data"), default=False)
    deleted_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ArmyQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("army")
        verbose_name_plural = _("armies")
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "name"],
                condition=Q(owner__isnull=False, deleted_at__isnull=True),
                name="army_name_unique_per_user",
                violation_error_code=NAME_TAKEN,
                violation_error_message=_("You already have an army of that name."),
            ),
            models.UniqueConstraint(
                fields=["guest_key", "name"],
                condition=~Q(guest_key="") & Q(deleted_at__isnull=True),
                name="army_name_unique_per_guest",
                violation_error_code=NAME_TAKEN,
                violation_error_message=_("You already have an army of that name."),
            ),
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(owner__isnull=True, guest_key="", deleted_at__isnull=True),
                name="army_name_unique_in_library",
                violation_error_code=NAME_TAKEN,
            ),
            models.CheckConstraint(
                condition=Q(points_limit__gte=1), name="army_points_limit_positive"
            ),
            models.CheckConstraint(
                condition=Q(owner__isnull=True) | Q(guest_key=""),
                name="army_owned_by_user_or_guest_not_both",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_shared(self) -> bool:
        return self.owner_id is None and not self.guest_key

    @property
    def points_total(self) -> int:
        """Sum of each card's cost × fighters (cards without a cost count 0).
        Uses the prefetched cards of ``Army.objects.with_cards()``."""
        return sum(army_card.points or 0 for army_card in self.cards.all())

    @property
    def cards_with_estimated_cost(self) -> int:
        return sum(
            1
            for army_card in self.cards.all()
            if army_card.card.cost is not None and army_card.card.cost_estimated
        )

    @property
    def cards_without_cost(self) -> int:
        return sum(1 for army_card in self.cards.all() if army_card.card.cost is None)

    @property
    def points_over_limit(self) -> int:
        """How many points above the limit (0 when within it)."""
        return max(0, self.points_total - self.points_limit)

    @property
    def fighters_total(self) -> int:
        return sum(army_card.fighters for army_card in self.cards.all())


class ArmyCard(models.Model):
    """One card of the army's activation sequence: a reference card and how
    many fighters it activates (IV-A-1)."""

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(
        ReferenceCard, on_delete=models.PROTECT, related_name="army_cards"
    )
    fighters = models.PositiveSmallIntegerField(
        _("fighters"), default=1, validators=_between(*FIGHTERS_IN_ARMY_CARD_RANGE)
    )
    position = models.PositiveIntegerField(default=0)
    is_ally = models.BooleanField(_("ally"), default=False)
    # X, XI: the spells a magician knows, the miracles a faithful may call.
    spells = models.ManyToManyField(
        "battles.Spell", blank=True, related_name="army_cards"
    )
    miracles = models.ManyToManyField(
        "battles.Miracle", blank=True, related_name="army_cards"
    )

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("army card")
        verbose_name_plural = _("army cards")
        constraints = [
            models.CheckConstraint(
                condition=Q(fighters__gte=1), name="army_card_fighters_at_least_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card.name} × {self.fighters}"

    @property
    def points(self) -> int | None:
        """cost × fighters, plus the points of the spells and miracles the
        card knows; None when the card prints no cost."""
        if self.card.cost is None:
            return None
        return self.card.cost * self.fighters + self.mystic_points

    @property
    def mystic_points(self) -> int:
        """The points of the spells and miracles this card knows."""
        return sum(s.points for s in self.spells.all()) + sum(
            m.points for m in self.miracles.all()
        )
