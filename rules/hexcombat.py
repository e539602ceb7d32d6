"""The hex combat sheet ("Fiche Combat", seed 003) for unit battles on a hex map.

Sections of the sheet, in its own words:

* "Table des Combats" (Jet 2D6 / Avantage => Nombre de Pertes): ``COMBAT_TABLE``,
  ``losses``, ``column_for``, and the exact odds ``loss_odds``/``volley_odds``.
* "Calcul de l'Avantage au Choc": ``ShockSituation`` -> ``shock_advantage``.
* "Calcul de l'Avantage au Tir": ``ShootingSituation`` -> ``shooting_advantage``
  and ``plan_shot`` (which adds the "Cadence de Tir" and "Portée de Tir").
* "Action Combattre/Duel au Choc" and "Action Combattre au Tir", Procédure:
  ``resolve`` (2D6 from a dice source, table read, a double costs the shooter
  one "Niveau de Munitions").
* "Cadence de Tir": ``cadence``. "Portée de Tir" and "Harcèlement": ``shooting_range``.
* "Application des Pertes": ``LossState`` -> ``loss_checklist``.

Choices where the sheet is silent or ambiguous (each one is tested):

* Reading the table: a column header is the LOWEST advantage of its band. An
  advantage between two printed headers reads the column to its left (the less
  favourable one for the attacker: +10 reads +9, -5 reads -7, -12 reads -16);
  below -16 reads -16, above +21 reads +21. On the negative side this makes the
  bands -2, -4..-3, -7..-5, -11..-8, -16..-12: widths 1, 2, 3, 4, 5, the regular
  progression the printed headers suggest. ``column_for`` says which column
  was read, and the app shows it.
* Weapon capacities ("Capacités du Profil d'Arme"): the sheet prints the same
  scale "■ +2 □ +1 □ 0 ○ -1 ● -2" for both sides. The attacker's (shooter's)
  capacity counts for the attacker; the defender's (target's) counts against
  him, so a superior defender is -2. The two "□" glyphs are the sheet's
  advantaged (+1) and ordinary (0); the names come from "Cadence de Tir" and
  "Portée de Tir": Supérieure, Avantagée, Ordinaire, Désavantagée, Inférieure.
* Every modifier line whose condition holds applies once: shock from rough
  into difficult terrain is -1 and -2.
* Shooting from "another position on the same hex" is +1 (the explicit line
  "+1 Tir par le Flanc ou autre Position sur le même Hex"); the "+0 ... ne pas
  tenir compte des Orientations" line is read as: no flank/rear from there.
* Range penalties: the line of sight crosses every hex from the adjacent one to
  the target's, so a target at distance d (adjacent = 1) costs archers and
  crossbowmen d - 1, and artillery one per full four, d // 4.
* Only the "Au Sol" position counts as "on the ground" for terrain penalties.
* A rough hex side between the units is an "Obstacle" for the charge bonus.

Pure Python: no Django, no I/O, no global random state; dice are passed in.
Labels are English (translated by the app); ``sheet_line`` quotes the sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from itertools import product

from rules.dice import DiceSource, ScriptedDice

__all__ = [
    "ADVANTAGE_LIMIT",
    "ammunition_after",
    "COLUMNS",
    "COMBAT_TABLE",
    "Advantage",
    "Altitude",
    "Ammunition",
    "Breath",
    "Cadence",
    "CadenceChoice",
    "Capacity",
    "Direction",
    "Formation",
    "Height",
    "LossState",
    "Modifier",
    "Morale",
    "MoraleProfile",
    "Position",
    "Resolution",
    "Roll",
    "SheetItem",
    "ShooterKind",
    "ShootingSituation",
    "ShockSituation",
    "ShotPlan",
    "ShotRange",
    "Size",
    "StackedCharacter",
    "Terrain",
    "Visibility",
    "Weather",
    "Wind",
    "cadence",
    "column_for",
    "double_odds",
    "effective_capacity",
    "loss_checklist",
    "loss_odds",
    "losses",
    "plan_shot",
    "resolve",
    "resolve_faces",
    "retreat_blockers",
    "shock_advantage",
    "shooting_advantage",
    "shooting_range",
    "volley_odds",
]


def _(message: str) -> str:
    """Marks an English label for translation; returns it unchanged.

    The rules stay free of Django: ``makemessages`` extracts these strings and
    the templates translate them when they show them.
    """
    return message


# ---------------------------------------------------------------------------
# Table des Combats
# ---------------------------------------------------------------------------

# The printed column headers. The seed's header row reads "-2 -" in the fifth
# column: a stray dash inside that cell (there is no tab after it). Every data
# row has exactly 22 tab-separated cells after the 2D6 total, and the header has
# 22 cells once "-2 -" is read as "-2", so the dash is no column of its own.
COLUMNS: tuple[int, ...] = (
    -16, -11, -7, -4, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 15, 17, 19, 21,
)  # fmt: skip

# Losses by 2D6 total (row) and column, exactly as printed; a blank cell is 0.
# fmt: off
COMBAT_TABLE: dict[int, tuple[int, ...]] = {
    #    -16 -11 -7 -4 -2 -1  0 +1 +2 +3 +4 +5 +6 +7 +8 +9 11 13 15 17 19 21
    2:  (1,  1,  1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4),
    3:  (0,  1,  1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3),
    4:  (0,  0,  1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
    5:  (0,  0,  0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3),
    6:  (0,  0,  0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2),
    7:  (0,  0,  0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2),
    8:  (0,  0,  0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2),
    9:  (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    10: (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1),
    11: (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1),
    12: (0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
}
# fmt: on

# The app refuses advantages outside this range as a mistyped or tampered value;
# ``losses`` itself reads any integer (beyond the ends it reads the end columns).
ADVANTAGE_LIMIT = 50

# 2D6 totals and their chances out of 36.
TWO_D6: dict[int, Fraction] = {
    total: Fraction(
        sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == total), 36
    )
    for total in range(2, 13)
}


def _check_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}.")
    return value


def column_for(advantage: int) -> int:
    """The printed column read for an advantage ("Table des Combats").

    The highest header not above the advantage (the column to the left when the
    advantage falls between two headers); -16 below the table, +21 above it.
    """
    advantage = _check_int(advantage, "The advantage")
    if advantage <= COLUMNS[0]:
        return COLUMNS[0]
    return max(column for column in COLUMNS if column <= advantage)


def losses(roll_2d6: int, advantage: int) -> int:
    """Number of losses ("Nombre de Pertes") for a 2D6 total and an advantage.

    Reads the "Table des Combats" row of the total (2..12, else ``ValueError``)
    in the column given by ``column_for``.
    """
    roll_2d6 = _check_int(roll_2d6, "The 2D6 total")
    if roll_2d6 not in COMBAT_TABLE:
        raise ValueError(f"Two d6 total 2 to 12, not {roll_2d6}.")
    return COMBAT_TABLE[roll_2d6][COLUMNS.index(column_for(advantage))]


def loss_odds(advantage: int) -> dict[int, Fraction]:
    """Exact chance of each number of losses for one 2D6 roll at ``advantage``.

    Keys are the loss counts that can happen (ascending); values sum to 1.
    """
    odds: dict[int, Fraction] = {}
    for total, chance in TWO_D6.items():
        count = losses(total, advantage)
        odds[count] = odds.get(count, Fraction(0)) + chance
    return dict(sorted(odds.items()))


def volley_odds(advantage: int, shots: int) -> dict[int, Fraction]:
    """Exact chance of each total of losses over ``shots`` rolls ("Cadence de Tir":
    "Sommer les Pertes avant de les appliquer")."""
    shots = _check_int(shots, "The number of shots")
    if shots < 1:
        raise ValueError("A shot needs at least one roll.")
    single = loss_odds(advantage)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _shot in range(shots):
        following: dict[int, Fraction] = {}
        for so_far, chance in total.items():
            for count, chance_count in single.items():
                key = so_far + count
                following[key] = following.get(key, Fraction(0)) + chance * chance_count
        total = following
    return dict(sorted(total.items()))


def double_odds(rolls: int) -> Fraction:
    """Chance that at least one of ``rolls`` 2D6 rolls is a double."""
    return 1 - Fraction(5, 6) ** rolls


# ---------------------------------------------------------------------------
# Words of the sheet
# ---------------------------------------------------------------------------


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


class Size(StrEnum):
    """ "Petite Taille", normal, "Grande Unité"."""

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


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


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


STACKED_LINE = (
    "Troupe empilée avec un Personnage : la Troupe hérite des Supports du Personnage"
)
STACKED_CAPACITY_LINE = (
    "Prendre la Capacité d'Arme du Personnage si les Classes d'Arme sont identiques"
)
CAPACITY_SCALE = "■ +2 □ +1 □ 0 ○ -1 ● -2"


def _count(value: int, name: str) -> int:
    value = _check_int(value, name)
    if value < 0:
        raise ValueError(f"{name} cannot be negative.")
    return value


def _capacity_lines(
    key: str,
    own: Capacity,
    character: StackedCharacter | None,
    sign: int,
    label: str,
    sheet_line: str,
) -> tuple[Capacity, list[Modifier]]:
    capacity = Capacity(own)
    lines: list[Modifier] = []
    if character is not None and character.same_weapon_class:
        capacity = Capacity(character.capacity)
        lines.append(
            Modifier(
                f"{key}_character_capacity",
                _("Weapon capacity taken from the stacked character"),
                0,
                STACKED_CAPACITY_LINE,
            )
        )
    value = sign * CAPACITY_VALUE[capacity]
    if value:
        lines.insert(
            0,
            Modifier(
                key,
                label,
                value,
                f"{sheet_line} {CAPACITY_SYMBOL[capacity]} "
                f"{CAPACITY_FRENCH[capacity]} ({CAPACITY_SCALE})",
            ),
        )
    return capacity, lines


def _support_lines(
    key: str,
    supports: int,
    character: StackedCharacter | None,
    sign: int,
    label: str,
    sheet_line: str,
) -> list[Modifier]:
    lines = []
    supports = _count(supports, "Supports")
    if supports:
        lines.append(Modifier(key, label, sign * supports, sheet_line))
    if character is not None and _count(character.supports, "Supports"):
        lines.append(
            Modifier(
                f"{key}_character",
                _("Supports inherited from the stacked character"),
                sign * character.supports,
                STACKED_LINE,
            )
        )
    return lines


def effective_capacity(own: Capacity, character: StackedCharacter | None) -> Capacity:
    """The weapon capacity a troop uses, its stacked character's if same class."""
    if character is not None and character.same_weapon_class:
        return Capacity(character.capacity)
    return Capacity(own)


def _stack_lines(
    prefix: str,
    own_size: Size,
    own_stacked: int,
    other_size: Size,
    other_stacked: int,
    verb: str,
) -> list[Modifier]:
    lines = []
    own_stacked = _count(own_stacked, "Stacked large units")
    other_stacked = _count(other_stacked, "Stacked large units")
    if own_size == Size.SMALL:
        lines.append(
            Modifier(
                f"{prefix}_small",
                _("The attacker is small")
                if verb == "attack"
                else _("The shooter is small"),
                -4,
                "-4 L'attaquant est de Petite Taille"
                if verb == "attack"
                else "-4 Le Tireur est un de Petite Taille",
            )
        )
    if other_size == Size.SMALL:
        lines.append(
            Modifier(
                f"{prefix}_other_small",
                _("The defender is small")
                if verb == "attack"
                else _("The target is small"),
                4,
                "+4 Le défenseur est de Petite Taille"
                if verb == "attack"
                else "+4 La Cible est un de Petite Taille",
            )
        )
    if own_size == Size.LARGE and own_stacked:
        lines.append(
            Modifier(
                f"{prefix}_stacked_large",
                _("Large units stacked with the large attacker")
                if verb == "attack"
                else _("Large units stacked with the large shooter"),
                -2 * own_stacked,
                "-2 Pour chaque Grande Unité avec laquelle est Empilée La Grande Unité "
                + ("qui Attaque" if verb == "attack" else "qui Tire"),
            )
        )
    if other_size == Size.LARGE and other_stacked:
        lines.append(
            Modifier(
                f"{prefix}_other_stacked_large",
                _("Large units stacked with the large defender")
                if verb == "attack"
                else _("Large units stacked with the large target"),
                2 * other_stacked,
                "+2 Pour chaque Grande Unité avec laquelle La Grande Unité "
                + ("Attaquée" if verb == "attack" else "Ciblée")
                + " est Empilée",
            )
        )
    return lines


def _weapon_system_line(value: int) -> list[Modifier]:
    value = _check_int(value, "The weapon system modifier")
    if not -4 <= value <= 4:
        raise ValueError("The weapon system table gives -4 to +4.")
    if not value:
        return []
    return [
        Modifier(
            "weapon_system",
            _("Weapon system table"),
            value,
            "-4 à +4 selon la Table de Système d'Arme",
        )
    ]


def _other_line(value: int) -> list[Modifier]:
    value = _check_int(value, "The other modifier")
    if not value:
        return []
    return [
        Modifier(
            "other",
            _("Other modifier (a card or scenario rule, not on the sheet)"),
            value,
            "",
        )
    ]


# ---------------------------------------------------------------------------
# Calcul de l'Avantage au Choc
# ---------------------------------------------------------------------------

SHOCK_SECTION = "Calcul de l'Avantage au Choc"


@dataclass(frozen=True)
class ShockSituation:
    """Everything "Calcul de l'Avantage au Choc" asks about one attack."""

    weapon_system: int = 0
    attacker_capacity: Capacity = Capacity.ORDINARY
    defender_capacity: Capacity = Capacity.ORDINARY
    attacker_supports: int = 0  # "Supports Offensifs de l'Attaquant"
    defender_supports: int = 0  # "Supports Défensifs du Défenseur"
    attacker_character: StackedCharacter | None = None
    defender_character: StackedCharacter | None = None
    attacker_charging: bool = False  # "Attaquant avec Marqueur Charge"
    attacker_cavalry: bool = False  # "Cav/Cav Lourde"
    defender_charge_marker: bool = False
    defender_cavalry: bool = False
    attacker_breath: Breath = Breath.FRESH
    defender_breath: Breath = Breath.FRESH
    attacker_shaken: bool = False
    defender_morale: Morale = Morale.STEADY
    direction: Direction = Direction.FRONT
    attacker_in_contact: bool = False  # "Unité Au Contact" (same-hex exception)
    height: Height = Height.LEVEL
    attacker_terrain: Terrain = Terrain.CLEAR
    defender_terrain: Terrain = Terrain.CLEAR
    obstacle: bool = False
    rough_hex_side: bool = False  # "Côté d'Hex Accidenté"
    attacker_position: Position = Position.GROUND
    defender_position: Position = Position.GROUND
    attacker_size: Size = Size.NORMAL
    defender_size: Size = Size.NORMAL
    attacker_stacked_large: int = 0
    defender_stacked_large: int = 0
    defender_formation: Formation = Formation.NONE
    supported: bool = True  # the attacker chose "Attaque Soutenue"
    impassable: bool = False  # impassable terrain or hex side for the attacker
    defensive_works: bool = False  # attacker in "Ouvrage Défensif"
    rotation_of_ranks: bool = False  # "Formation en Rotation des Rangs"
    other_modifier: int = 0  # a card's or scenario's modifier the sheet does not list


FLIGHT_SHOCK = {
    (Position.CLOSE_FLIGHT, Position.GROUND): (
        2,
        "+2 Attaque depuis une Position Vol Rapproché sur une Position Au Sol",
    ),
    (Position.GROUND, Position.CLOSE_FLIGHT): (
        -2,
        "-2 Attaque depuis une Position Au Sol sur un Position Vol Rapproché",
    ),
    (Position.DISTANT_FLIGHT, Position.CLOSE_FLIGHT): (
        2,
        "+2 Attaque depuis une Position Vol Distant sur une Position Vol Rapproché",
    ),
    (Position.CLOSE_FLIGHT, Position.DISTANT_FLIGHT): (
        -2,
        "-2 Attaque depuis une Position Vol Rapproché sur un Position Vol Distant",
    ),
}


def charge_bonus_applies(s: ShockSituation) -> bool:
    """The attacker's charge bonus needs the defender in clear terrain without
    obstacle (a rough hex side counts as an obstacle)."""
    return (
        s.attacker_charging
        and Terrain(s.defender_terrain) == Terrain.CLEAR
        and not s.obstacle
        and not s.rough_hex_side
    )


def attack_is_supported(s: ShockSituation) -> bool:
    """Whether the attack counts as "Soutenue" (no -4).

    A charging unit supports automatically; a unit cannot support onto terrain
    or across a hex side impassable for it (that wins over the charge).
    """
    if s.impassable:
        return False
    return s.attacker_charging or s.supported


def shock_advantage(s: ShockSituation) -> Advantage:
    """The attacker's "Avantage au Choc": every line of the sheet that applies."""
    lines: list[Modifier] = []
    notes: list[SheetItem] = []
    lines += _weapon_system_line(s.weapon_system)
    _cap, capacity_lines = _capacity_lines(
        "attacker_capacity",
        s.attacker_capacity,
        s.attacker_character,
        1,
        _("Attacker's weapon capacity"),
        "Selon les Capacités du Profil d'Arme de l'Attaquant",
    )
    lines += capacity_lines
    _cap, capacity_lines = _capacity_lines(
        "defender_capacity",
        s.defender_capacity,
        s.defender_character,
        -1,
        _("Defender's weapon capacity (counts against the attacker)"),
        "Selon les Capacités du Profil d'Arme du Défenseur",
    )
    lines += capacity_lines
    lines += _support_lines(
        "attacker_supports",
        s.attacker_supports,
        s.attacker_character,
        1,
        _("Attacker's offensive supports"),
        "+N ou N est le nombre de Supports Offensifs de l'Attaquant",
    )
    lines += _support_lines(
        "defender_supports",
        s.defender_supports,
        s.defender_character,
        -1,
        _("Defender's defensive supports"),
        "-M ou M est le nombre de Supports Défensifs du Défenseur",
    )
    if charge_bonus_applies(s):
        lines.append(
            Modifier(
                "attacker_charge",
                _("Attacker with a charge marker, defender in clear terrain"),
                4 if s.attacker_cavalry else 2,
                "+2/+4 Attaquant avec Marqueur Charge lorsque le Défenseur est en "
                "Terrain Clair sans Obstacle (+4 pour Cav/Cav Lourde)",
            )
        )
    elif s.attacker_charging:
        notes.append(
            SheetItem(
                "charge_no_bonus",
                _(
                    "No charge bonus: the defender is not in clear terrain "
                    "without obstacle"
                ),
                "+2/+4 Attaquant avec Marqueur Charge lorsque le Défenseur est en "
                "Terrain Clair sans Obstacle",
            )
        )
    if s.defender_charge_marker:
        lines.append(
            Modifier(
                "defender_charge",
                _("Defender with a charge marker"),
                -4 if s.defender_cavalry else -2,
                "-2/-4 Défenseur avec Marqueur Charge (-4 pour Cav/Cav Lourde)",
            )
        )
    attacker_breath = Breath(s.attacker_breath)
    if attacker_breath == Breath.BREATHLESS:
        lines.append(
            Modifier(
                "attacker_breathless",
                _("Attacker breathless"),
                -1,
                "-1 Attaquant Essoufflé",
            )
        )
    elif attacker_breath == Breath.END_OF_BREATH:
        lines.append(
            Modifier(
                "attacker_end_of_breath",
                _("Attacker at the end of breath"),
                -2,
                "-2 Attaquant A Bout De Souffle",
            )
        )
    if Breath(s.defender_breath) == Breath.END_OF_BREATH:
        lines.append(
            Modifier(
                "defender_end_of_breath",
                _("Defender at the end of breath"),
                1,
                "+1 Défenseur A Bout De Souffle",
            )
        )
    if s.attacker_shaken:
        lines.append(
            Modifier(
                "attacker_shaken", _("Attacker shaken"), -1, "-1 Attaquant Ebranlé"
            )
        )
    defender_morale = Morale(s.defender_morale)
    if defender_morale == Morale.SHAKEN:
        lines.append(
            Modifier("defender_shaken", _("Defender shaken"), 1, "+1 Défenseur Ebranlé")
        )
    elif defender_morale == Morale.ROUTED:
        lines.append(
            Modifier(
                "defender_routed", _("Defender routed"), 4, "+4 Défenseur En Déroute"
            )
        )
    lines += _shock_direction_lines(s)
    height = Height(s.height)
    if height == Height.HIGH:
        lines.append(
            Modifier(
                "high_position",
                _("Attack from a high position"),
                1,
                "+1 Attaque depuis Position Haute",
            )
        )
    elif height == Height.LOW:
        lines.append(
            Modifier(
                "low_position",
                _("Attack from a low position"),
                -1,
                "-1 Attaque depuis Position Basse",
            )
        )
    lines += _shock_terrain_lines(s)
    lines += _stack_lines(
        "attacker",
        Size(s.attacker_size),
        s.attacker_stacked_large,
        Size(s.defender_size),
        s.defender_stacked_large,
        "attack",
    )
    flight = FLIGHT_SHOCK.get(
        (Position(s.attacker_position), Position(s.defender_position))
    )
    if flight:
        lines.append(
            Modifier(
                "flight", _("Attack between flight positions"), flight[0], flight[1]
            )
        )
    formation = Formation(s.defender_formation)
    if formation != Formation.NONE:
        lines.append(
            Modifier(
                formation.value,
                _("Defender in a shield wall")
                if formation == Formation.SHIELD_WALL
                else _("Defender in tortoise"),
                -1 if formation == Formation.SHIELD_WALL else -2,
                "-1 Attaque sur une Formation en Mur de Boucliers, -2 en mode Tortue",
            )
        )
    lines_support, notes_support = _support_rule(s)
    lines += lines_support
    notes += notes_support
    lines += _other_line(s.other_modifier)
    return Advantage(SHOCK_SECTION, tuple(lines), tuple(notes))


def _shock_direction_lines(s: ShockSituation) -> list[Modifier]:
    direction = Direction(s.direction)
    if direction == Direction.FLANK:
        return [
            Modifier("flank", _("Attack on the flank"), 2, "+2 Attaque par le Flanc")
        ]
    if direction == Direction.REAR:
        return [
            Modifier("rear", _("Attack from the rear"), 4, "+4 Attaque par l'Arrière")
        ]
    if direction == Direction.SAME_HEX:
        if (
            s.attacker_in_contact
            and Position(s.attacker_position) == Position.CLOSE_INFILTRATION
            and Position(s.defender_position) == Position.GROUND
        ):
            return [
                Modifier(
                    "same_hex_infiltration",
                    _(
                        "Same hex: unit in contact in close infiltration against a "
                        "unit on the ground attacks on the flank"
                    ),
                    2,
                    "Sauf une Unité Au Contact et Infiltration Rapprochée contre une "
                    "Unité Au Sol : Attaque de Flanc",
                )
            ]
        return [
            Modifier(
                "same_hex",
                _("Attack on the same hex from another position (orientation ignored)"),
                0,
                "+0 Attaque sur le même Hex à partir d'une autre Position : ne pas "
                "tenir compte des Orientations",
            )
        ]
    return []


def _shock_terrain_lines(s: ShockSituation) -> list[Modifier]:
    on_ground = Position.GROUND in (
        Position(s.attacker_position),
        Position(s.defender_position),
    )
    if not on_ground:
        return []
    terrains = {Terrain(s.attacker_terrain), Terrain(s.defender_terrain)}
    lines = []
    if Terrain.ROUGH in terrains:
        lines.append(
            Modifier(
                "rough_terrain",
                _("Attack from or into rough terrain"),
                -1,
                "-1 Attaque depuis et/ou vers Terrain Accidenté si au moins une des "
                "Unités est Au Sol",
            )
        )
    if terrains & set(HARSH_TERRAIN):
        lines.append(
            Modifier(
                "difficult_terrain",
                _("Attack from or into difficult terrain, water or lava"),
                -2,
                "-2 Attaque depuis et/ou vers Terrain Difficile, Eau ou Lave si au "
                "moins une des Unités est Au Sol",
            )
        )
    if s.rough_hex_side:
        lines.append(
            Modifier(
                "rough_hex_side",
                _("Attack across a rough hex side"),
                -1,
                "-1 Attaque au travers d'un Côté d'Hex Accidenté si au moins une des "
                "Unités est Au Sol",
            )
        )
    return lines


UNSUPPORTED_LINE = "-4 Attaque non Soutenue"


def _support_rule(s: ShockSituation) -> tuple[list[Modifier], list[SheetItem]]:
    notes: list[SheetItem] = []
    if s.impassable and (s.supported or s.attacker_charging):
        notes.append(
            SheetItem(
                "support_impassable",
                _(
                    "No support onto terrain or across a hex side impassable for "
                    "the unit"
                ),
                "Une Unité ne peut Soutenir l'Attaque sur un Terrain Impassable pour "
                "elle ou au travers d'un côté d'Hex Impassable pour elle",
            )
        )
    if attack_is_supported(s):
        if s.attacker_charging:
            notes.append(
                SheetItem(
                    "support_charge",
                    _("A charging unit supports automatically and is not winded"),
                    "Une Unité Chargeant Soutient automatiquement l'Attaque et ne "
                    "s'Essouffle pas",
                )
            )
        elif s.rotation_of_ranks:
            notes.append(
                SheetItem(
                    "support_rotation",
                    _("Rotation of ranks: support without an extra fatigue level"),
                    "Une Formation en Rotation des Rangs peut soutenir l'attaque sans "
                    "Essoufflement supplémentaire",
                )
            )
        else:
            notes.append(
                SheetItem(
                    "support_fatigue",
                    _(
                        "Supported attack: the attacker takes an extra fatigue level "
                        "(unless it is not fatigable)"
                    ),
                    "Attaque Soutenue : l'Attaquant prend un Niveau de Fatigue "
                    "Supplémentaire, sauf si non Fatigable ou Formation en mode "
                    "Rotation des Rangs",
                )
            )
        return [], notes
    if s.defensive_works:
        notes.append(
            SheetItem(
                "defensive_works",
                _("Unsupported, but a unit in defensive works does not suffer -4"),
                "Une Unité en Ouvrage Défensif ne subit pas ce malus",
            )
        )
        return [], notes
    return [
        Modifier("unsupported", _("Unsupported attack"), -4, UNSUPPORTED_LINE)
    ], notes


# ---------------------------------------------------------------------------
# Calcul de l'Avantage au Tir, Cadence de Tir, Portée de Tir
# ---------------------------------------------------------------------------

SHOOTING_SECTION = "Calcul de l'Avantage au Tir"


@dataclass(frozen=True)
class ShootingSituation:
    """Everything "Calcul de l'Avantage au Tir" asks about one shot."""

    shooter_kind: ShooterKind = ShooterKind.ARCHERS
    weapon_system: int = 0
    shooter_capacity: Capacity = Capacity.ORDINARY
    target_capacity: Capacity = Capacity.ORDINARY
    shooter_supports: int = 0  # "Supports de Tir du Tireur"
    target_supports: int = 0  # "Supports Défensifs de la Cible"
    shooter_character: StackedCharacter | None = None
    target_character: StackedCharacter | None = None
    shooter_breath: Breath = Breath.FRESH
    shooter_shaken: bool = False
    target_morale: Morale = Morale.STEADY
    direction: Direction = Direction.FRONT
    altitude: Altitude = Altitude.SAME
    shooter_position: Position = Position.GROUND
    target_position: Position = Position.GROUND
    shooter_terrain: Terrain = Terrain.CLEAR
    target_terrain: Terrain = Terrain.CLEAR
    behind_rough_hex_side: bool = False
    distance: int = 1  # hexes to the target, adjacent = 1
    ammunition: Ammunition = Ammunition.FULL
    shooter_size: Size = Size.NORMAL
    target_size: Size = Size.NORMAL
    shooter_stacked_large: int = 0
    target_stacked_large: int = 0
    weather: Weather = Weather.CLEAR
    visibility: Visibility = Visibility.CLEAR
    wind: Wind = Wind.CALM
    target_formation: Formation = Formation.NONE
    cadence_choice: CadenceChoice = CadenceChoice.VOLLEY
    other_modifier: int = 0  # a card's or scenario's modifier the sheet does not list


WEATHER_MODIFIERS = {
    Weather.OVERCAST: (-1, _("Overcast"), "-1 si la Météo est Couvert"),
    Weather.RAIN: (-3, _("Rain"), "-3 si la Météo est Pluie"),
    Weather.STORM: (-4, _("Storm"), "-4 si la Météo est Tempête"),
}
WIND_MODIFIERS = {
    Wind.BREEZE: (-1, _("Breeze"), "-1 si le Vent est Brise"),
    Wind.STRONG: (-2, _("Strong wind"), "-2 si le Vent est Vent Fort"),
    Wind.VIOLENT: (-4, _("Violent wind"), "-4 si le Vent est Vent Violent"),
}


def range_penalty(kind: ShooterKind, distance: int) -> int:
    """Hexes crossed by the line of sight: -1 each after the adjacent one for
    archers and crossbowmen, -1 per full four for artillery (distance counts
    the target's hex, adjacent = 1)."""
    distance = _check_int(distance, "The distance")
    if distance < 1:
        raise ValueError("A target is at least 1 hex away.")
    kind = ShooterKind(kind)
    if kind in (ShooterKind.ARCHERS, ShooterKind.CROSSBOWMEN):
        return -(distance - 1)
    if kind == ShooterKind.ARTILLERY:
        return -(distance // 4)
    return 0


def shooting_advantage(s: ShootingSituation) -> Advantage:
    """The shooter's "Avantage au Tir" (without the cadence's aimed-shot bonus)."""
    lines: list[Modifier] = []
    kind = ShooterKind(s.shooter_kind)
    lines += _weapon_system_line(s.weapon_system)
    lines += _capacity_lines(
        "shooter_capacity",
        s.shooter_capacity,
        s.shooter_character,
        1,
        _("Shooter's weapon capacity"),
        "Selon les Capacités du Profil d'Arme du Tireur",
    )[1]
    lines += _capacity_lines(
        "target_capacity",
        s.target_capacity,
        s.target_character,
        -1,
        _("Target's weapon capacity (counts against the shooter)"),
        "Selon les Capacités du Profil d'Arme de la Cible",
    )[1]
    lines += _support_lines(
        "shooter_supports",
        s.shooter_supports,
        s.shooter_character,
        1,
        _("Shooter's shooting supports"),
        "+N ou N est le nombre de Supports de Tir du Tireur",
    )
    lines += _support_lines(
        "target_supports",
        s.target_supports,
        s.target_character,
        -1,
        _("Target's defensive supports"),
        "-M ou M est le nombre de Supports Défensifs de la Cible",
    )
    if Breath(s.shooter_breath) == Breath.END_OF_BREATH:
        lines.append(
            Modifier(
                "shooter_end_of_breath",
                _("Shooter at the end of breath"),
                -1,
                "-1 Tireur A Bout de Souffle",
            )
        )
    if s.shooter_shaken:
        lines.append(
            Modifier("shooter_shaken", _("Shooter shaken"), -1, "-1 Tireur Ebranlé")
        )
    target_morale = Morale(s.target_morale)
    if target_morale == Morale.SHAKEN:
        lines.append(
            Modifier("target_shaken", _("Target shaken"), 1, "+1 Cible Ebranlée")
        )
    elif target_morale == Morale.ROUTED:
        lines.append(
            Modifier("target_routed", _("Target routed"), 2, "+2 Cible En Déroute")
        )
    direction = Direction(s.direction)
    if direction in (Direction.FLANK, Direction.SAME_HEX):
        lines.append(
            Modifier(
                "shot_flank" if direction == Direction.FLANK else "shot_same_hex",
                _("Shot from the flank")
                if direction == Direction.FLANK
                else _(
                    "Shot from another position on the same hex (orientation ignored)"
                ),
                1,
                "+1 Tir par le Flanc ou autre Position sur le même Hex",
            )
        )
    elif direction == Direction.REAR:
        lines.append(
            Modifier("shot_rear", _("Shot from the rear"), 2, "+2 Tir par l'Arrière")
        )
    shooter_position = Position(s.shooter_position)
    target_position = Position(s.target_position)
    altitude = Altitude(s.altitude)
    if altitude == Altitude.HIGHER or shooter_position == Position.DISTANT_FLIGHT:
        lines.append(
            Modifier(
                "higher",
                _("Shot from a higher altitude or from distant flight"),
                1,
                "+1 Tir depuis une Altitude plus Haute ou si le Tireur est en Vol "
                "Distant",
            )
        )
    if altitude == Altitude.LOWER or target_position == Position.DISTANT_FLIGHT:
        lines.append(
            Modifier(
                "lower",
                _("Shot from a lower altitude or at a target in distant flight"),
                -1,
                "-1 Tir depuis une Altitude plus Basse ou vers une Cible en Vol "
                "Distant",
            )
        )
    if Terrain(s.shooter_terrain) != Terrain.CLEAR:
        lines.append(
            Modifier(
                "from_rough",
                _("Shot from rough or difficult terrain"),
                -1,
                "-1 Tir depuis Terrain Accidenté ou Difficile",
            )
        )
    target_terrain = Terrain(s.target_terrain)
    if target_position != Position.DISTANT_FLIGHT:
        if target_terrain == Terrain.ROUGH:
            lines.append(
                Modifier(
                    "into_rough",
                    _("Shot into rough terrain"),
                    -2,
                    "-2 Tir vers Terrain Accidenté (sauf si la Cible est en Vol "
                    "Distant)",
                )
            )
        elif target_terrain in HARSH_TERRAIN:
            lines.append(
                Modifier(
                    "into_difficult",
                    _("Shot into difficult terrain"),
                    -4,
                    "-4 Tir vers Terrain Difficile (sauf si la Cible est en Vol "
                    "Distant)",
                )
            )
    if s.behind_rough_hex_side:
        lines.append(
            Modifier(
                "behind_rough_side",
                _("Target just behind a rough hex side"),
                -2,
                "-2 Tir lorsque la Cible est juste derrière un Côté d'Hex Accidenté",
            )
        )
    penalty = range_penalty(kind, s.distance)
    if penalty:
        lines.append(
            Modifier(
                "distance",
                _("Hexes crossed by the line of sight"),
                penalty,
                "-1 pour les Unités d'Artillerie pour chaque quadruplet complet "
                "d'Hex traversés par la Ligne de Vue"
                if kind == ShooterKind.ARTILLERY
                else "-1 pour chaque Hex traversé par la Ligne de Vue après l'Hex "
                "Adjacent, pour les Archers et les Arbalétriers",
            )
        )
    if Ammunition(s.ammunition) == Ammunition.DIMINISHED:
        lines.append(
            Modifier(
                "ammunition",
                _("Shooter with diminished ammunition"),
                -1,
                "-1 Le Tireur avec Munitions Diminuées",
            )
        )
    lines += _stack_lines(
        "shooter",
        Size(s.shooter_size),
        s.shooter_stacked_large,
        Size(s.target_size),
        s.target_stacked_large,
        "shoot",
    )
    if kind in MISSILE_TROOPS:
        weather = WEATHER_MODIFIERS.get(Weather(s.weather))
        if weather:
            lines.append(
                Modifier(
                    "weather",
                    weather[1],
                    weather[0],
                    f"{weather[2]} (Archers, Arbalétriers, Artillerie)",
                )
            )
        wind = WIND_MODIFIERS.get(Wind(s.wind))
        if wind:
            lines.append(
                Modifier(
                    "wind",
                    wind[1],
                    wind[0],
                    f"{wind[2]} (Archers, Arbalétriers, Artillerie)",
                )
            )
    formation = Formation(s.target_formation)
    if formation != Formation.NONE:
        lines.append(
            Modifier(
                f"target_{formation.value}",
                _("Target in a shield wall")
                if formation == Formation.SHIELD_WALL
                else _("Target in tortoise"),
                -1 if formation == Formation.SHIELD_WALL else -2,
                "-1 si la Cible est une Formation en Mur de Boucliers, -2 en mode "
                "Tortue",
            )
        )
    lines += _other_line(s.other_modifier)
    return Advantage(SHOOTING_SECTION, tuple(lines))


@dataclass(frozen=True)
class Cadence:
    """How many rolls a shooting action makes, and an aimed-shot bonus."""

    shots: int
    bonus: int
    sheet_line: str


CADENCE_SECTION = "Cadence de Tir"


def cadence(
    kind: ShooterKind,
    capacity: Capacity,
    choice: CadenceChoice = CadenceChoice.VOLLEY,
) -> Cadence:
    """ "Cadence de Tir": archers shoot 1, 2 or 3 times by weapon capacity (or
    once with +1/+2 advantage instead of 2/3 times); every other unit once."""
    kind, capacity, choice = (
        ShooterKind(kind),
        Capacity(capacity),
        CadenceChoice(choice),
    )
    if kind != ShooterKind.ARCHERS:
        return Cadence(1, 0, "Une Unité frappe 1 fois sauf les Archers")
    if capacity in (Capacity.INFERIOR, Capacity.DISADVANTAGED):
        return Cadence(
            1,
            0,
            "1 fois pour les Archers avec Capacité d'Arme : Inférieure ou Désavantagée",
        )
    if capacity == Capacity.ORDINARY:
        line = (
            "2 fois pour les Archers avec Capacité d'Arme : Ordinaire (ou 1 Tir avec "
            "+1 Avantage)"
        )
        return (
            Cadence(1, 1, line)
            if choice == CadenceChoice.AIMED
            else Cadence(2, 0, line)
        )
    line = (
        "3 fois pour les Archers avec Capacité d'Arme : Supérieure ou Avantagée (ou "
        "1 Tir avec +2 Avantage)"
    )
    return Cadence(1, 2, line) if choice == CadenceChoice.AIMED else Cadence(3, 0, line)


@dataclass(frozen=True)
class ShotRange:
    """A unit's range in hexes; harassment checks no line of sight."""

    hexes: int | None
    line_of_sight: bool = True
    harassment: bool = False
    sheet_lines: tuple[str, ...] = ()


ARTILLERY_RANGE = {
    Capacity.INFERIOR: 4,
    Capacity.DISADVANTAGED: 6,
    Capacity.ORDINARY: 8,
    Capacity.ADVANTAGED: 10,
    Capacity.SUPERIOR: 12,
}


def shooting_range(
    kind: ShooterKind, capacity: Capacity, visibility: Visibility = Visibility.CLEAR
) -> ShotRange:
    """ "Portée de Tir" (and "Harcèlement"): hexes by unit type, artillery by
    weapon capacity, capped at 2 in mist and 1 in fog. ``hexes`` is None when
    the sheet gives this unit type no range."""
    kind, capacity, visibility = (
        ShooterKind(kind),
        Capacity(capacity),
        Visibility(visibility),
    )
    lines: list[str] = []
    line_of_sight = True
    harassment = False
    hexes: int | None
    if kind in (ShooterKind.ARCHERS, ShooterKind.CROSSBOWMEN):
        hexes = 3
        lines.append("3 Hex pour les Archers et les Arbalétriers")
    elif kind == ShooterKind.ARTILLERY:
        hexes = ARTILLERY_RANGE[capacity]
        lines.append(
            f"{hexes} Hex pour Artilleries avec Capacité d'Arme "
            f"{CAPACITY_FRENCH[capacity]}"
        )
    elif kind in (ShooterKind.SKIRMISHERS, ShooterKind.LIGHT_CAVALRY):
        hexes, line_of_sight, harassment = 2, False, True
        lines.append(
            "Harcèlement : Portée 2 Hex mais aucune Ligne de Vue n'est vérifiée"
        )
    else:
        hexes = None
    if hexes is not None and visibility == Visibility.MIST and hexes > 2:
        hexes = 2
        lines.append("2 Hex Maximum si Brume")
    if hexes is not None and visibility == Visibility.FOG and hexes > 1:
        hexes = 1
        lines.append("1 Hex Maximum si Brouillard")
    return ShotRange(hexes, line_of_sight, harassment, tuple(lines))


@dataclass(frozen=True)
class ShotPlan:
    """A shot before the roll: the advantage used, the cadence, the range, and
    the reasons the shot is not allowed (empty when it is)."""

    advantage: Advantage
    cadence: Cadence
    range: ShotRange
    problems: tuple[SheetItem, ...] = field(default=())

    @property
    def allowed(self) -> bool:
        """True when nothing on the sheet forbids the shot."""
        return not self.problems


def plan_shot(s: ShootingSituation) -> ShotPlan:
    """The advantage (with any aimed-shot bonus), cadence, range and problems."""
    base = shooting_advantage(s)
    capacity = effective_capacity(s.shooter_capacity, s.shooter_character)
    rate = cadence(s.shooter_kind, capacity, s.cadence_choice)
    lines = list(base.lines)
    if rate.bonus:
        lines.append(
            Modifier(
                "aimed_shot",
                _("One aimed shot instead of several"),
                rate.bonus,
                rate.sheet_line,
            )
        )
    reach = shooting_range(s.shooter_kind, capacity, s.visibility)
    problems: list[SheetItem] = []
    if Ammunition(s.ammunition) == Ammunition.EXHAUSTED:
        problems.append(
            SheetItem(
                "ammunition_exhausted",
                _("A unit with exhausted ammunition cannot shoot"),
                "Une Unité qui a un Marqueur Munitions Epuisées ne peut plus Tirer",
            )
        )
    if (
        Position(s.shooter_position) in INFILTRATED
        or Position(s.target_position) in INFILTRATED
    ):
        problems.append(
            SheetItem(
                "infiltrated",
                _("Neither the shooter nor the target may be infiltrated"),
                "Ni l'Unité Tireur, ni l'Unité cible n'est en Position Infiltrée",
            )
        )
    if reach.hexes is not None and s.distance > reach.hexes:
        problems.append(
            SheetItem(
                "out_of_range",
                _("The target is out of range (maximum in hexes)"),
                "Portée de Tir",
                reach.hexes,
            )
        )
    advantage = Advantage(SHOOTING_SECTION, tuple(lines), base.notes)
    return ShotPlan(advantage, rate, reach, tuple(problems))


# ---------------------------------------------------------------------------
# Resolution: "Lancer 2D6 de Jet de Résultat de Combat et consulter la Table"
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """One 2D6 "Jet de Résultat de Combat" and the losses it reads."""

    faces: tuple[int, int]
    losses: int

    @property
    def total(self) -> int:
        """The 2D6 total, the table's row."""
        return sum(self.faces)

    @property
    def double(self) -> bool:
        """A double (1-1, 2-2, ...): a shooter loses one ammunition level."""
        return self.faces[0] == self.faces[1]


@dataclass(frozen=True)
class Resolution:
    """The rolls of one combat action at one advantage, losses summed."""

    advantage: int
    column: int
    rolls: tuple[Roll, ...]

    @property
    def losses(self) -> int:
        """All the losses, summed before they are applied."""
        return sum(roll.losses for roll in self.rolls)

    @property
    def doubles(self) -> int:
        """How many rolls were doubles (for shooting: ammunition levels lost)."""
        return sum(roll.double for roll in self.rolls)


def resolve(advantage: int, dice: DiceSource, *, shots: int = 1) -> Resolution:
    """Roll 2D6 ``shots`` times from ``dice`` and read the table at ``advantage``."""
    shots = _check_int(shots, "The number of shots")
    if shots < 1:
        raise ValueError("A combat action rolls at least once.")
    column = column_for(advantage)
    rolls = []
    for _shot in range(shots):
        faces = (dice.d6(), dice.d6())
        rolls.append(Roll(faces, losses(sum(faces), advantage)))
    return Resolution(advantage, column, tuple(rolls))


def resolve_faces(
    advantage: int, faces: Sequence[int], *, shots: int = 1
) -> Resolution:
    """Read the table for faces rolled with real dice (two per shot)."""
    if len(faces) != 2 * shots:
        raise ValueError(f"Enter {2 * shots} faces, two per roll.")
    return resolve(advantage, ScriptedDice(faces), shots=shots)


AMMUNITION_LEVELS = (Ammunition.FULL, Ammunition.DIMINISHED, Ammunition.EXHAUSTED)


def ammunition_after(level: Ammunition, doubles: int) -> Ammunition:
    """The ammunition level after a shooting action that rolled ``doubles``
    doubles: one "Niveau de Munitions" lost per double, down to exhausted."""
    index = AMMUNITION_LEVELS.index(Ammunition(level)) + _count(doubles, "Doubles")
    return AMMUNITION_LEVELS[min(index, len(AMMUNITION_LEVELS) - 1)]


# ---------------------------------------------------------------------------
# Application des Pertes
# ---------------------------------------------------------------------------

LOSSES_SECTION = "Application des Pertes"


@dataclass(frozen=True)
class LossState:
    """What "Application des Pertes" needs to know about the attacked hex."""

    losses: int
    shock: bool = True  # False for a shot
    routed: bool = False
    charge_marker: bool = False
    contact_marker: bool = False
    morale_profile: MoraleProfile = MoraleProfile.ORDINARY
    formation: bool = False
    shaken: bool = False
    engaged_flank_or_rear: bool = False
    rear_zone_safe: bool = True
    steps_left: int | None = None  # steps of the attacked stack, if known
    attack_supported: bool = True
    attacker_charging: bool = False


def retreat_blockers(state: LossState) -> tuple[SheetItem, ...]:
    """The retreat conditions that fail ("Le Recul ... est autorisé si")."""
    blockers = []
    if state.routed:
        blockers.append(
            SheetItem(
                "retreat_routed",
                _("The attacked unit is routed"),
                "L'Unité attaquée n'est pas en Déroute",
            )
        )
    if state.charge_marker:
        blockers.append(
            SheetItem(
                "retreat_charge_marker",
                _("The attacked unit has a charge marker"),
                "L'Unité attaquée n'a pas de Marqueur Charge",
            )
        )
    if MoraleProfile(state.morale_profile) == MoraleProfile.UNSHAKEABLE:
        blockers.append(
            SheetItem(
                "retreat_unshakeable",
                _("The attacked unit has an unshakeable morale profile"),
                "L'Unité attaquée n'est pas un Profil de Moral Inébranlable",
            )
        )
    if state.engaged_flank_or_rear:
        blockers.append(
            SheetItem(
                "retreat_engaged",
                _("The attacked unit (and its stack) is engaged on the flank or rear"),
                "L'Unité (et sa pile) attaquée n'est pas Engagée par le Flanc ou "
                "l'Arrière par une Unité ennemie",
            )
        )
    if (
        state.formation
        and state.shaken
        and MoraleProfile(state.morale_profile) != MoraleProfile.DEMONIC
    ):
        blockers.append(
            SheetItem(
                "retreat_shaken_formation",
                _("A shaken formation cannot retreat (unless its morale is demonic)"),
                "L'Unité n'est pas une Formation Ebranlée (exception : son Moral est "
                "Démoniaque)",
            )
        )
    if not state.rear_zone_safe:
        blockers.append(
            SheetItem(
                "retreat_rear_zone",
                _("No hex of its rear zone is free of flank or rear engagement"),
                "Sur un des Hex de sa Zone Arrière (Formations : deux Hex contigus), "
                "l'Unité attaquée ne sera Engagée ni par le Flanc ni par l'Arrière",
            )
        )
    return tuple(blockers)


def loss_checklist(state: LossState) -> tuple[SheetItem, ...]:
    """The "Application des Pertes" items that apply, in order, for ``state``."""
    count = _count(state.losses, "Losses")
    if count == 0:
        return (
            SheetItem(
                "no_loss",
                _("No loss: nothing to apply"),
                "Si au moins une Perte est obtenue, appliquer ces Pertes",
            ),
        )
    items: list[SheetItem] = [
        SheetItem(
            "one_by_one",
            _("Apply the losses one by one on the attacked unit"),
            "Si au moins une Perte est obtenue, appliquer ces Pertes, une par une",
            count,
        )
    ]
    steps_left = state.steps_left
    if steps_left is not None:
        steps_left = _count(steps_left, "Steps left")
    if count > 1:
        items.append(
            SheetItem(
                "steps_before_last",
                _(
                    "Before the last loss: one step lost per loss result (if the unit "
                    "is destroyed, on the units stacked with it, defender's choice)"
                ),
                "Sinon 1 Pas de Perte est pris sur l'Unité attaquée et si celle-ci "
                "est Détruite, sur les Unités Empilées avec elle",
                count - 1,
            )
        )
    blockers = retreat_blockers(state)
    destroyed = steps_left is not None and (
        steps_left < count or (steps_left == count and bool(blockers))
    )
    forced = False
    if steps_left is not None and steps_left < count:
        pass  # destroyed before the last loss result: no retreat to decide
    elif blockers:
        items.append(
            SheetItem(
                "retreat_not_allowed",
                _("Last loss: retreat not allowed, one step lost"),
                "Le Recul de toutes les Unités situées dans l'Hex attaqué est "
                "autorisé si : ...",
            )
        )
        items += blockers
    else:
        forced = steps_left is not None and steps_left == count
        items.append(
            SheetItem(
                "retreat_forced" if forced else "retreat_allowed",
                _(
                    "Last loss: the stack must retreat, it is the only way to avoid "
                    "destruction"
                )
                if forced
                else _("Last loss: the stack may retreat instead of losing a step"),
                "Obligation de Reculer si : l'Unité peut Reculer ET c'est le seul "
                "moyen d'éviter la Destruction"
                if forced
                else "Il s'agit du dernier Résultat de Perte",
            )
        )
        items += _retreat_procedure(state)
    if state.charge_marker:
        items.append(
            SheetItem(
                "loss_charge_marker",
                _(
                    "A unit with a charge marker that takes a loss loses the marker "
                    "and takes a breath level"
                ),
                "Si une Unité avec Marqueur Charge prend une Perte, elle perd son "
                "Marqueur Charge et prend un Niveau d'Essoufflement",
            )
        )
    if destroyed:
        items.append(
            SheetItem(
                "destroyed",
                _("The attacked stack is destroyed: any remaining losses are ignored"),
                "Si toutes les Unités de l'Hex attaqué ont été Détruites et qu'il "
                "reste des Résultats de Perte, ceux-ci sont ignorés",
            )
        )
    elif blockers or forced:
        items.append(
            SheetItem(
                "morale_test",
                _("Morale test, dice modifier = the number of steps lost"),
                "Test de Moral avec comme Modificateur de Dés : le nombre de Pas "
                "perdus",
                count if blockers else count - 1,
            )
        )
    else:
        items.append(
            SheetItem(
                "morale_test_choice",
                _(
                    "Morale test, dice modifier = the number of steps lost: this "
                    "many without a retreat, one fewer if the stack retreats"
                ),
                "Test de Moral avec comme Modificateur de Dés : le nombre de Pas "
                "perdus",
                count,
            )
        )
    items += _whatever_the_absorption(state)
    return tuple(items)


def _retreat_procedure(state: LossState) -> list[SheetItem]:
    items = [
        SheetItem(
            "retreat_move",
            _(
                "Every unit of the attacked stack moves one hex away from the "
                "attacker or changes position; those that cannot stay and the stack "
                "loses one step"
            ),
            "Toutes les Unités de la pile Attaquée doivent s'éloigner de l'Entité "
            "attaquante d'un Hex ou en changeant de Position",
        ),
        SheetItem(
            "retreat_where",
            _(
                "Not onto a hex or position where movement is forbidden; units may "
                "retreat to different hexes; after the retreat, not engaged on the "
                "flank or rear"
            ),
            "Une Unité ne peut Reculer sur un Hex/Position pour lequel le Mouvement "
            "est interdit",
        ),
    ]
    if state.formation:
        items.append(
            SheetItem(
                "retreat_pivot",
                _("A formation that can pivot instead of retreating must pivot"),
                "Si une Formation peut Pivoter plutôt que reculer avec ces deux Hex, "
                "elle doit Pivoter",
            )
        )
    profile = MoraleProfile(state.morale_profile)
    if profile == MoraleProfile.MAGIC or (
        profile == MoraleProfile.DEMONIC and state.shaken
    ):
        items.append(
            SheetItem(
                "retreat_no_cohesion_loss",
                _("No cohesion level lost (magic morale, or shaken demonic morale)"),
                "exception : Unités de Profil de Moral Magique, Unité de Moral "
                "Démoniaque Ebranlée",
            )
        )
    else:
        items.append(
            SheetItem(
                "retreat_cohesion",
                _("Each unit of the attacked hex loses one cohesion level"),
                "Chaque Unité de l'Hex attaqué perd d'un Niveau de Cohésion",
            )
        )
    return items


def _whatever_the_absorption(state: LossState) -> list[SheetItem]:
    items = []
    if state.charge_marker:
        items.append(
            SheetItem(
                "defender_charge_marker",
                _(
                    "Defender's charge marker: remove it, or turn it to its Contact "
                    "side if still adjacent to an enemy; the unit takes a breath level"
                ),
                "Retirer le Marqueur Charge ou le retourner sur sa face Contact si "
                "l'Unité est toujours Adjacente à une Unité ennemie",
            )
        )
    if state.contact_marker:
        items.append(
            SheetItem(
                "defender_contact_marker",
                _(
                    "Defender's contact marker: remove it if no longer adjacent to an "
                    "enemy"
                ),
                "Pour chaque Unité Défenseur/Cible qui possède un Marqueur Contact, "
                "le retirer si l'Unité n'est plus Adjacente à une Unité ennemie",
            )
        )
    if state.shock and state.attack_supported:
        items.append(
            SheetItem(
                "advance",
                _(
                    "If the attacked hex is free, the attacker and its stacked "
                    "characters must advance into it (not onto close flight if it "
                    "cannot fly, not onto the ground from close flight, not onto "
                    "close infiltration if it cannot infiltrate)"
                ),
                "Si à la fin d'un Combat de Choc l'Hex attaqué est libre et que "
                "l'attaque était Soutenue, l'Unité Attaquante doit avancer",
            )
        )
    if state.shock and state.attacker_charging:
        items.append(
            SheetItem(
                "advance_charge_marker",
                _(
                    "After the advance: a charging attacker still engaging an enemy "
                    "keeps its charge marker (no new engagement test); otherwise it "
                    "loses it and takes a breath level"
                ),
                "Si à la suite de cette Avance, l'Unité Engage toujours une Unité "
                "ennemie et Chargeait, le Marqueur Charge est conservé",
            )
        )
    items.append(
        SheetItem(
            "chosen_spell",
            _("Each character that takes a loss loses its chosen spell at once"),
            "Chaque Personnage qui subit une perte et qui a un Sort Choisi sous lui, "
            "le perd immédiatement",
        )
    )
    return items
