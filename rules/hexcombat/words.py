"""The sheet's words: the choices it names, and the shape of its answers.

The enums are the values a situation takes ("Capacité d'Arme", "Essoufflé",
"Terrain Accidenté"...); ``Modifier``, ``SheetItem`` and ``Advantage`` are what
the advantage and losses sections answer, each line quoting the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Capacity(StrEnum):
    """A weapon profile's capacity ("Capacité d'Arme"), best first."""

    SUPERIOR = "superior"  # ■ +2 "Supérieure"
    ADVANTAGED = "advantaged"  # □ +1 "Avantagée"
    ORDINARY = "ordinary"  # □ 0 "Ordinaire"
    DISADVANTAGED = "disadvantaged"  # ○ -1 "Désavantagée"
    INFERIOR = "inferior"  # ● -2 "Inférieure"


CAPACITY_VALUE = {
    Capacity.SUPERIOR: 2,
    Capacity.ADVANTAGED: 1,
    Capacity.ORDINARY: 0,
    Capacity.DISADVANTAGED: -1,
    Capacity.INFERIOR: -2,
}
CAPACITY_SYMBOL = {
    Capacity.SUPERIOR: "■",
    Capacity.ADVANTAGED: "□",
    Capacity.ORDINARY: "□",
    Capacity.DISADVANTAGED: "○",
    Capacity.INFERIOR: "●",
}
CAPACITY_FRENCH = {
    Capacity.SUPERIOR: "Supérieure",
    Capacity.ADVANTAGED: "Avantagée",
    Capacity.ORDINARY: "Ordinaire",
    Capacity.DISADVANTAGED: "Désavantagée",
    Capacity.INFERIOR: "Inférieure",
}


class Breath(StrEnum):
    """Breath levels: fresh, "Essoufflé", "A Bout De Souffle"."""

    FRESH = "fresh"
    BREATHLESS = "breathless"
    END_OF_BREATH = "end_of_breath"


class Morale(StrEnum):
    """A unit's cohesion: steady, "Ebranlé", "En Déroute"."""

    STEADY = "steady"
    SHAKEN = "shaken"
    ROUTED = "routed"


class Direction(StrEnum):
    """Where the attack or the shot comes from."""

    FRONT = "front"
    FLANK = "flank"  # "par le Flanc"
    REAR = "rear"  # "par l'Arrière"
    SAME_HEX = "same_hex"  # "sur le même Hex à partir d'une autre Position"


class Height(StrEnum):
    """ "Position Haute" / "Position Basse" of the attacker."""

    LEVEL = "level"
    HIGH = "high"
    LOW = "low"


class Altitude(StrEnum):
    """The shooter's altitude compared with the target's ("Détermination de
    l'Altitude": close flight and ground take the terrain's altitude)."""

    SAME = "same"
    HIGHER = "higher"
    LOWER = "lower"


class Terrain(StrEnum):
    """Terrain of a hex: "Terrain Clair", "Accidenté", "Difficile", "Eau", "Lave"."""

    CLEAR = "clear"
    ROUGH = "rough"
    DIFFICULT = "difficult"
    WATER = "water"
    LAVA = "lava"


HARSH_TERRAIN = (Terrain.DIFFICULT, Terrain.WATER, Terrain.LAVA)


class Position(StrEnum):
    """A unit's position in its hex."""

    GROUND = "ground"  # "Au Sol"
    CLOSE_FLIGHT = "close_flight"  # "Vol Rapproché"
    DISTANT_FLIGHT = "distant_flight"  # "Vol Distant"
    CLOSE_INFILTRATION = "close_infiltration"  # "Infiltration Rapprochée"
    DEEP_INFILTRATION = "deep_infiltration"  # "Infiltration Profonde"


INFILTRATED = (Position.CLOSE_INFILTRATION, Position.DEEP_INFILTRATION)


class HexSize(StrEnum):
    """A unit's size on the sheet: "Petite Taille", normal, "Grande Unité".

    Not the skirmish game's ``rules.size.Size`` (II-E-3), which has more steps.
    """

    SMALL = "small"
    NORMAL = "normal"
    LARGE = "large"


class Formation(StrEnum):
    """The defender's (target's) formation."""

    NONE = "none"
    SHIELD_WALL = "shield_wall"  # "Mur de Boucliers"
    TORTOISE = "tortoise"  # "Tortue"


class ShooterKind(StrEnum):
    """Unit types the shooting lines name."""

    ARCHERS = "archers"  # "Archers"
    CROSSBOWMEN = "crossbowmen"  # "Arbalétriers"
    ARTILLERY = "artillery"  # "Artillerie"
    SKIRMISHERS = "skirmishers"  # "Escarmoucheurs"
    LIGHT_CAVALRY = "light_cavalry"  # "Cavalerie Légère"
    OTHER = "other"


MISSILE_TROOPS = (ShooterKind.ARCHERS, ShooterKind.CROSSBOWMEN, ShooterKind.ARTILLERY)


class Weather(StrEnum):
    """ "Météo"."""

    CLEAR = "clear"
    OVERCAST = "overcast"  # "Couvert"
    RAIN = "rain"  # "Pluie"
    STORM = "storm"  # "Tempête"


class Visibility(StrEnum):
    """Mist and fog cap the range ("Portée de Tir")."""

    CLEAR = "clear"
    MIST = "mist"  # "Brume"
    FOG = "fog"  # "Brouillard"


class Wind(StrEnum):
    """ "Vent"."""

    CALM = "calm"
    BREEZE = "breeze"  # "Brise"
    STRONG = "strong"  # "Vent Fort"
    VIOLENT = "violent"  # "Vent Violent"


class Ammunition(StrEnum):
    """Ammunition levels ("Niveau de Munitions")."""

    FULL = "full"
    DIMINISHED = "diminished"  # "Munitions Diminuées"
    EXHAUSTED = "exhausted"  # "Munitions Epuisées"


class CadenceChoice(StrEnum):
    """Archers may shoot several times or once with a bonus ("Cadence de Tir")."""

    VOLLEY = "volley"
    AIMED = "aimed"


class MoraleProfile(StrEnum):
    """ "Profil de Moral" exceptions named in "Application des Pertes"."""

    ORDINARY = "ordinary"
    UNSHAKEABLE = "unshakeable"  # "Inébranlable"
    MAGIC = "magic"  # "Magique"
    DEMONIC = "demonic"  # "Démoniaque"


# The answers: lines, notes, advantages.


@dataclass(frozen=True)
class Modifier:
    """One line of an advantage: what, how much, and the sheet's line."""

    key: str
    label: str
    value: int
    sheet_line: str


@dataclass(frozen=True)
class SheetItem:
    """A note or checklist item quoting the sheet; ``value`` if it has a count."""

    key: str
    text: str
    sheet_line: str
    value: int | None = None


@dataclass(frozen=True)
class Advantage:
    """An advantage: the total and every line that made it."""

    section: str
    lines: tuple[Modifier, ...]
    notes: tuple[SheetItem, ...] = ()

    @property
    def total(self) -> int:
        """The sum of the lines."""
        return sum(line.value for line in self.lines)


@dataclass(frozen=True)
class StackedCharacter:
    """A "Personnage" stacked with the troop ("Troupe empilée avec un Personnage").

    The troop inherits the character's supports, and takes the character's
    weapon capacity when their weapon classes ("Classes d'Arme") are the same.
    """

    supports: int = 0
    capacity: Capacity = Capacity.ORDINARY
    same_weapon_class: bool = False
