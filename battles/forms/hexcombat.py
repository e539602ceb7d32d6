"""Forms for the hex combat sheet ("Fiche Combat"): parse and validate only.

Each form turns a posted sheet into the rules' situation
(``rules.hexcombat.ShockSituation`` / ``FireSituation``) and the
"Application des Pertes" state; every sum is done by ``rules.hexcombat``.
"""

from __future__ import annotations

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from battles.validation import CheckedForm, FieldError, parse_faces
from rules import hexcombat as hx

CAPACITY_CHOICES = [
    (hx.Capacity.SUPERIOR, _("■ Superior (Supérieure) +2")),
    (hx.Capacity.ADVANTAGED, _("□ Advantaged (Avantagée) +1")),
    (hx.Capacity.ORDINARY, _("□ Ordinary (Ordinaire) 0")),
    (hx.Capacity.DISADVANTAGED, _("○ Disadvantaged (Désavantagée) −1")),
    (hx.Capacity.INFERIOR, _("● Inferior (Inférieure) −2")),
]
BREATH_CHOICES = [
    (hx.Breath.FRESH, _("Fresh")),
    (hx.Breath.BREATHLESS, _("Breathless (Essoufflé)")),
    (hx.Breath.END_OF_BREATH, _("At the end of breath (A Bout De Souffle)")),
]
MORALE_CHOICES = [
    (hx.Morale.STEADY, _("Steady")),
    (hx.Morale.SHAKEN, _("Shaken (Ebranlé)")),
    (hx.Morale.ROUTED, _("Routed (En Déroute)")),
]
DIRECTION_CHOICES = [
    (hx.Direction.FRONT, _("Front")),
    (hx.Direction.FLANK, _("Flank (Flanc)")),
    (hx.Direction.REAR, _("Rear (Arrière)")),
    (hx.Direction.SAME_HEX, _("Same hex, another position (même Hex)")),
]
HEIGHT_CHOICES = [
    (hx.Height.LEVEL, _("Level")),
    (hx.Height.HIGH, _("High position (Position Haute)")),
    (hx.Height.LOW, _("Low position (Position Basse)")),
]
ALTITUDE_CHOICES = [
    (hx.Altitude.SAME, _("Same altitude")),
    (hx.Altitude.HIGHER, _("Higher altitude (Altitude plus Haute)")),
    (hx.Altitude.LOWER, _("Lower altitude (Altitude plus Basse)")),
]
TERRAIN_CHOICES = [
    (hx.Terrain.CLEAR, _("Clear (Terrain Clair)")),
    (hx.Terrain.ROUGH, _("Rough (Accidenté)")),
    (hx.Terrain.DIFFICULT, _("Difficult (Difficile)")),
    (hx.Terrain.WATER, _("Water (Eau)")),
    (hx.Terrain.LAVA, _("Lava (Lave)")),
]
SHOT_TERRAIN_CHOICES = TERRAIN_CHOICES[:3]
POSITION_CHOICES = [
    (hx.Position.GROUND, _("On the ground (Au Sol)")),
    (hx.Position.CLOSE_FLIGHT, _("Close flight (Vol Rapproché)")),
    (hx.Position.DISTANT_FLIGHT, _("Distant flight (Vol Distant)")),
    (hx.Position.CLOSE_INFILTRATION, _("Close infiltration (Infiltration Rapprochée)")),
    (hx.Position.DEEP_INFILTRATION, _("Deep infiltration (Infiltration Profonde)")),
]
SIZE_CHOICES = [
    (hx.HexSize.NORMAL, _("Normal")),
    (hx.HexSize.SMALL, _("Small (Petite Taille)")),
    (hx.HexSize.LARGE, _("Large (Grande Unité)")),
]
FORMATION_CHOICES = [
    (hx.Formation.NONE, _("No formation")),
    (hx.Formation.SHIELD_WALL, _("Shield wall (Mur de Boucliers)")),
    (hx.Formation.TORTOISE, _("Tortoise (Tortue)")),
]
SHOOTER_CHOICES = [
    (hx.ShooterKind.ARCHERS, _("Archers")),
    (hx.ShooterKind.CROSSBOWMEN, _("Crossbowmen (Arbalétriers)")),
    (hx.ShooterKind.ARTILLERY, _("Artillery (Artillerie)")),
    (hx.ShooterKind.SKIRMISHERS, _("Skirmishers (Escarmoucheurs)")),
    (hx.ShooterKind.LIGHT_CAVALRY, _("Light cavalry (Cavalerie Légère)")),
    (hx.ShooterKind.OTHER, _("Other shooting unit")),
]
WEATHER_CHOICES = [
    (hx.Weather.CLEAR, _("Clear")),
    (hx.Weather.OVERCAST, _("Overcast (Couvert) −1")),
    (hx.Weather.RAIN, _("Rain (Pluie) −3")),
    (hx.Weather.STORM, _("Storm (Tempête) −4")),
]
VISIBILITY_CHOICES = [
    (hx.Visibility.CLEAR, _("Clear")),
    (hx.Visibility.MIST, _("Mist (Brume): 2 hexes at most")),
    (hx.Visibility.FOG, _("Fog (Brouillard): 1 hex at most")),
]
WIND_CHOICES = [
    (hx.Wind.CALM, _("Calm")),
    (hx.Wind.BREEZE, _("Breeze (Brise) −1")),
    (hx.Wind.STRONG, _("Strong wind (Vent Fort) −2")),
    (hx.Wind.VIOLENT, _("Violent wind (Vent Violent) −4")),
]
AMMUNITION_CHOICES = [
    (hx.Ammunition.FULL, _("Full")),
    (hx.Ammunition.DIMINISHED, _("Diminished (Munitions Diminuées) −1")),
    (hx.Ammunition.EXHAUSTED, _("Exhausted (Munitions Epuisées)")),
]
CADENCE_CHOICES = [
    (hx.CadenceChoice.VOLLEY, _("Every shot of its cadence")),
    (hx.CadenceChoice.AIMED, _("One shot with +1/+2 advantage")),
]
MORALE_PROFILE_CHOICES = [
    (hx.MoraleProfile.ORDINARY, _("Ordinary")),
    (hx.MoraleProfile.UNSHAKEABLE, _("Unshakeable (Inébranlable)")),
    (hx.MoraleProfile.MAGIC, _("Magic (Magique)")),
    (hx.MoraleProfile.DEMONIC, _("Demonic (Démoniaque)")),
]

MAX_COUNT = 20


def _choice(label, choices, initial, help_text=""):
    return forms.TypedChoiceField(
        label=label,
        choices=choices,
        initial=initial,
        help_text=help_text,
        coerce=str,
    )


def _count(label, initial=0, maximum=MAX_COUNT, help_text=""):
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=maximum,
        initial=initial,
        help_text=help_text,
    )


def _flag(label, initial=False, help_text=""):
    return forms.BooleanField(
        label=label, required=False, initial=initial, help_text=help_text
    )


class SheetForm(CheckedForm):
    """What both combats share: the weapon system table, another modifier,
    the faces rolled with real dice and the "Application des Pertes" facts."""

    mode = ""
    fieldsets: tuple = ()
    # The rules' situation this form fills in, and its two sides (the prefixes
    # of their fields, e.g. "attacker_character_supports").
    situation_class: type[hx.ShockSituation] | type[hx.FireSituation]
    sides: tuple[str, str]

    weapon_system = forms.IntegerField(
        label=_("Weapon system table (Table de Système d'Arme)"),
        min_value=-4,
        max_value=4,
        initial=0,
        help_text=_("−4 to +4"),
    )
    other_modifier = forms.IntegerField(
        label=_("Other modifier (card, scenario)"),
        min_value=-hx.ADVANTAGE_LIMIT,
        max_value=hx.ADVANTAGE_LIMIT,
        initial=0,
        help_text=_("A modifier the sheet does not list, −50 to +50"),
    )
    faces = forms.CharField(
        label=_("Faces rolled with real dice"),
        required=False,
        max_length=20,
        help_text=_("Two digits per roll, e.g. 3 5"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    loss_steps_left = forms.IntegerField(
        label=_("Steps the attacked stack has left"),
        required=False,
        min_value=1,
        max_value=50,
        help_text=_("Optional: tells whether the retreat is forced"),
    )
    loss_formation = _flag(_("The attacked unit is a formation (Formation)"))
    loss_morale_profile = _choice(
        _("Morale profile (Profil de Moral)"),
        MORALE_PROFILE_CHOICES,
        hx.MoraleProfile.ORDINARY,
    )
    loss_engaged = _flag(_("Engaged on the flank or rear by an enemy unit"))
    loss_rear_blocked = _flag(
        _("No hex of its rear zone is free of flank or rear engagement")
    )
    loss_contact_marker = _flag(_("The attacked unit has a contact marker"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            ids = [f"id_{name}_error"]
            if field.help_text:
                ids.append(f"id_{name}_helptext")
            field.widget.attrs["aria-describedby"] = " ".join(ids)

    def clean_faces(self) -> tuple[int, ...]:
        try:
            return tuple(parse_faces(self.cleaned_data.get("faces")))
        except FieldError as error:
            raise forms.ValidationError(error.message, code="face") from None

    def grouped(self):
        """The fieldsets as (legend, [bound fields]) for the template."""
        fieldsets = (*self.fieldsets, (LOSSES_LEGEND, LOSS_FIELDS))
        return [(legend, [self[name] for name in names]) for legend, names in fieldsets]

    def loss_state(self, losses: int, *, shock: bool) -> hx.LossState:
        data = self.cleaned_data
        return hx.LossState(
            losses=losses,
            shock=shock,
            morale_profile=data["loss_morale_profile"],
            formation=data["loss_formation"],
            engaged_flank_or_rear=data["loss_engaged"],
            rear_zone_safe=not data["loss_rear_blocked"],
            steps_left=data["loss_steps_left"],
            contact_marker=data["loss_contact_marker"],
            **self.loss_facts(),
        )

    def situation(self) -> hx.ShockSituation | hx.FireSituation:
        """The rules' situation: every field of the same name, and the two
        sides' stacked characters."""
        data = self.cleaned_data
        characters = {f"{side}_character": self._character(side) for side in self.sides}
        names = set(self.situation_class.__dataclass_fields__) - set(characters)
        return self.situation_class(
            **characters, **{name: data[name] for name in names}
        )

    def _character(self, side: str) -> hx.StackedCharacter | None:
        data = self.cleaned_data
        if not data[f"{side}_character"]:
            return None
        return hx.StackedCharacter(
            supports=data[f"{side}_character_supports"],
            capacity=hx.Capacity(data[f"{side}_character_capacity"]),
            same_weapon_class=data[f"{side}_character_same_class"],
        )

    def loss_facts(self) -> dict:
        raise NotImplementedError


LOSSES_LEGEND = _("The attacked unit, for the losses (Application des Pertes)")
LOSS_FIELDS = (
    "loss_steps_left",
    "loss_formation",
    "loss_morale_profile",
    "loss_engaged",
    "loss_rear_blocked",
    "loss_contact_marker",
)


def _stacked_character(side: str, label: str) -> type[forms.Form]:
    """The fields of a character stacked with ``side``'s troop ("Troupe empilée
    avec un Personnage"), as a form a sheet's form inherits them from."""
    fields = {
        "character": _flag(label),
        "character_supports": _count(_("The character's supports")),
        "character_capacity": _choice(
            _("The character's weapon capacity"),
            CAPACITY_CHOICES,
            hx.Capacity.ORDINARY,
        ),
        "character_same_class": _flag(
            _("Same weapon class (Classe d'Arme): take the character's capacity")
        ),
    }
    return type(forms.Form)(
        f"{side.title()}Character",
        (forms.Form,),
        {
            "__module__": __name__,
            **{f"{side}_{name}": field for name, field in fields.items()},
        },
    )


def _character_names(side: str) -> tuple[str, ...]:
    return tuple(
        f"{side}_{name}"
        for name in (
            "character",
            "character_supports",
            "character_capacity",
            "character_same_class",
        )
    )


class ShockForm(
    SheetForm,
    _stacked_character("attacker", _("A character is stacked with the attacker")),
    _stacked_character("defender", _("A character is stacked with the defender")),
):
    """ "Calcul de l'Avantage au Choc"."""

    mode = "shock"
    situation_class = hx.ShockSituation
    sides = ("attacker", "defender")
    attacker_capacity = _choice(
        _("Attacker's weapon capacity"), CAPACITY_CHOICES, hx.Capacity.ORDINARY
    )
    defender_capacity = _choice(
        _("Defender's weapon capacity"),
        CAPACITY_CHOICES,
        hx.Capacity.ORDINARY,
        _("Counts against the attacker: a superior defender is −2"),
    )
    attacker_supports = _count(_("Offensive supports (Supports Offensifs)"))
    defender_supports = _count(_("Defensive supports (Supports Défensifs)"))
    attacker_charging = _flag(_("Attacker with a charge marker (Marqueur Charge)"))
    attacker_cavalry = _flag(_("Attacker is cavalry or heavy cavalry (Cav/Cav Lourde)"))
    defender_charge_marker = _flag(_("Defender with a charge marker (Marqueur Charge)"))
    defender_cavalry = _flag(_("Defender is cavalry or heavy cavalry (Cav/Cav Lourde)"))
    attacker_breath = _choice(_("Attacker's breath"), BREATH_CHOICES, hx.Breath.FRESH)
    defender_breath = _choice(_("Defender's breath"), BREATH_CHOICES, hx.Breath.FRESH)
    attacker_shaken = _flag(_("Attacker shaken (Attaquant Ebranlé)"))
    defender_morale = _choice(_("Defender's morale"), MORALE_CHOICES, hx.Morale.STEADY)
    direction = _choice(_("Attack from"), DIRECTION_CHOICES, hx.Direction.FRONT)
    attacker_in_contact = _flag(
        _("Attacker in contact (Au Contact)"),
        help_text=_(
            "Same hex, close infiltration against a unit on the ground: a flank attack"
        ),
    )
    height = _choice(_("Attacker's height"), HEIGHT_CHOICES, hx.Height.LEVEL)
    attacker_terrain = _choice(_("Attacker's terrain"), TERRAIN_CHOICES, "clear")
    defender_terrain = _choice(_("Defender's terrain"), TERRAIN_CHOICES, "clear")
    obstacle = _flag(_("An obstacle between them (Obstacle)"))
    rough_hex_side = _flag(_("Across a rough hex side (Côté d'Hex Accidenté)"))
    attacker_position = _choice(
        _("Attacker's position"), POSITION_CHOICES, hx.Position.GROUND
    )
    defender_position = _choice(
        _("Defender's position"), POSITION_CHOICES, hx.Position.GROUND
    )
    attacker_size = _choice(_("Attacker's size"), SIZE_CHOICES, hx.HexSize.NORMAL)
    defender_size = _choice(_("Defender's size"), SIZE_CHOICES, hx.HexSize.NORMAL)
    attacker_stacked_large = _count(
        _("Large units stacked with the large attacker"), maximum=6
    )
    defender_stacked_large = _count(
        _("Large units stacked with the large defender"), maximum=6
    )
    defender_formation = _choice(
        _("Defender's formation"), FORMATION_CHOICES, hx.Formation.NONE
    )
    supported = _flag(
        _("Supported attack (Attaque Soutenue)"),
        initial=True,
        help_text=_("Unsupported: −4. A charging unit supports automatically."),
    )
    rotation_of_ranks = _flag(_("Formation in rotation of ranks (Rotation des Rangs)"))
    impassable = _flag(_("Impassable terrain or hex side for the attacker"))
    defensive_works = _flag(_("Attacker in defensive works (Ouvrage Défensif)"))

    fieldsets = (
        (
            _("Weapons and supports"),
            (
                "weapon_system",
                "attacker_capacity",
                "defender_capacity",
                "attacker_supports",
                "defender_supports",
            ),
        ),
        (
            _("Charge, breath and morale"),
            (
                "attacker_charging",
                "attacker_cavalry",
                "defender_charge_marker",
                "defender_cavalry",
                "attacker_breath",
                "defender_breath",
                "attacker_shaken",
                "defender_morale",
            ),
        ),
        (
            _("Direction, height and terrain"),
            (
                "direction",
                "attacker_in_contact",
                "height",
                "attacker_terrain",
                "defender_terrain",
                "obstacle",
                "rough_hex_side",
                "attacker_position",
                "defender_position",
            ),
        ),
        (
            _("Sizes and formations"),
            (
                "attacker_size",
                "defender_size",
                "attacker_stacked_large",
                "defender_stacked_large",
                "defender_formation",
            ),
        ),
        (
            _("Support (Attaque Soutenue)"),
            ("supported", "rotation_of_ranks", "impassable", "defensive_works"),
        ),
        (
            _("Stacked characters (Troupe empilée avec un Personnage)"),
            (
                *_character_names("attacker"),
                *_character_names("defender"),
                "other_modifier",
            ),
        ),
    )

    def loss_facts(self) -> dict:
        data = self.cleaned_data
        return {
            "routed": data["defender_morale"] == hx.Morale.ROUTED,
            "shaken": data["defender_morale"] == hx.Morale.SHAKEN,
            "charge_marker": data["defender_charge_marker"],
            "attack_supported": hx.attack_is_supported(self.situation()),
            "attacker_charging": data["attacker_charging"],
        }


class ShootingForm(
    SheetForm,
    _stacked_character("shooter", _("A character is stacked with the shooter")),
    _stacked_character("target", _("A character is stacked with the target")),
):
    """ "Calcul de l'Avantage au Tir"."""

    mode = "shooting"
    situation_class = hx.FireSituation
    sides = ("shooter", "target")
    shooter_kind = _choice(_("Shooting unit"), SHOOTER_CHOICES, hx.ShooterKind.ARCHERS)
    cadence_choice = _choice(
        _("Archers' cadence (Cadence de Tir)"),
        CADENCE_CHOICES,
        hx.CadenceChoice.VOLLEY,
        _("Ordinary archers: 2 shots or 1 at +1; superior or advantaged: 3 or 1 at +2"),
    )
    distance = forms.IntegerField(
        label=_("Distance to the target in hexes"),
        min_value=1,
        max_value=30,
        initial=1,
        help_text=_("Adjacent = 1"),
    )
    shooter_capacity = _choice(
        _("Shooter's weapon capacity"), CAPACITY_CHOICES, hx.Capacity.ORDINARY
    )
    target_capacity = _choice(
        _("Target's weapon capacity"),
        CAPACITY_CHOICES,
        hx.Capacity.ORDINARY,
        _("Counts against the shooter: a superior target is −2"),
    )
    shooter_supports = _count(_("Shooting supports (Supports de Tir)"))
    target_supports = _count(_("Target's defensive supports (Supports Défensifs)"))
    shooter_breath = _choice(_("Shooter's breath"), BREATH_CHOICES, hx.Breath.FRESH)
    shooter_shaken = _flag(_("Shooter shaken (Tireur Ebranlé)"))
    target_morale = _choice(_("Target's morale"), MORALE_CHOICES, hx.Morale.STEADY)
    target_charge_marker = _flag(_("Target with a charge marker (Marqueur Charge)"))
    ammunition = _choice(
        _("Shooter's ammunition (Munitions)"), AMMUNITION_CHOICES, "full"
    )
    direction = _choice(_("Shot from"), DIRECTION_CHOICES, hx.Direction.FRONT)
    altitude = _choice(_("Shooter's altitude"), ALTITUDE_CHOICES, hx.Altitude.SAME)
    shooter_position = _choice(
        _("Shooter's position"), POSITION_CHOICES, hx.Position.GROUND
    )
    target_position = _choice(
        _("Target's position"), POSITION_CHOICES, hx.Position.GROUND
    )
    shooter_terrain = _choice(
        _("Shooter's terrain"), SHOT_TERRAIN_CHOICES, hx.Terrain.CLEAR
    )
    target_terrain = _choice(_("Target's terrain"), SHOT_TERRAIN_CHOICES, "clear")
    behind_rough_hex_side = _flag(
        _("Target just behind a rough hex side (Côté d'Hex Accidenté)")
    )
    shooter_size = _choice(_("Shooter's size"), SIZE_CHOICES, hx.HexSize.NORMAL)
    target_size = _choice(_("Target's size"), SIZE_CHOICES, hx.HexSize.NORMAL)
    shooter_stacked_large = _count(
        _("Large units stacked with the large shooter"), maximum=6
    )
    target_stacked_large = _count(
        _("Large units stacked with the large target"), maximum=6
    )
    target_formation = _choice(
        _("Target's formation"), FORMATION_CHOICES, hx.Formation.NONE
    )
    weather = _choice(_("Weather (Météo)"), WEATHER_CHOICES, hx.Weather.CLEAR)
    wind = _choice(_("Wind (Vent)"), WIND_CHOICES, hx.Wind.CALM)
    visibility = _choice(_("Mist or fog"), VISIBILITY_CHOICES, hx.Visibility.CLEAR)

    fieldsets = (
        (
            _("Shooter, cadence and range"),
            ("shooter_kind", "cadence_choice", "distance", "ammunition"),
        ),
        (
            _("Weapons and supports"),
            (
                "weapon_system",
                "shooter_capacity",
                "target_capacity",
                "shooter_supports",
                "target_supports",
            ),
        ),
        (
            _("Breath and morale"),
            (
                "shooter_breath",
                "shooter_shaken",
                "target_morale",
                "target_charge_marker",
            ),
        ),
        (
            _("Direction, altitude and terrain"),
            (
                "direction",
                "altitude",
                "shooter_position",
                "target_position",
                "shooter_terrain",
                "target_terrain",
                "behind_rough_hex_side",
            ),
        ),
        (
            _("Sizes and formations"),
            (
                "shooter_size",
                "target_size",
                "shooter_stacked_large",
                "target_stacked_large",
                "target_formation",
            ),
        ),
        (
            _("Weather and wind (archers, crossbows, artillery)"),
            ("weather", "wind", "visibility"),
        ),
        (
            _("Stacked characters (Troupe empilée avec un Personnage)"),
            (
                *_character_names("shooter"),
                *_character_names("target"),
                "other_modifier",
            ),
        ),
    )

    def loss_facts(self) -> dict:
        data = self.cleaned_data
        return {
            "routed": data["target_morale"] == hx.Morale.ROUTED,
            "shaken": data["target_morale"] == hx.Morale.SHAKEN,
            "charge_marker": data["target_charge_marker"],
        }


FORMS: dict[str, type[SheetForm]] = {"shock": ShockForm, "shooting": ShootingForm}


def initial_data(form_class: type[SheetForm]) -> QueryDict:
    """The form's initial values as posted data (checkboxes on only if set)."""
    data = QueryDict(mutable=True)
    for name, field in form_class.base_fields.items():
        if isinstance(field, forms.BooleanField):
            if field.initial:
                data[name] = "on"
        elif field.initial is not None:
            data[name] = str(field.initial)
    return data
