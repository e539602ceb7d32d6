"""The shooter's "Avantage au Tir" ("Calcul de l'Avantage au Tir", seed 003).

``FireSituation`` says everything the section asks about one shot;
``fire_advantage`` adds up every line that applies, one small step per group
of lines on the sheet (capacities, supports, the shooter's state, direction,
altitude, terrain, distance, ammunition, size, weather and wind, formation),
in the sheet's order. ``plan_fire`` adds the "Cadence de Tir" and the "Portée
de Tir" (``rules.hexcombat.rate_and_range``) and says what forbids the shot.

"Fire", not "shooting": the skirmish game's shots are ``rules.shooting``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import _
from rules.hexcombat._numbers import whole_number
from rules.hexcombat.lines import (
    SideWording,
    SizeWording,
    capacity_and_support_lines,
    effective_capacity,
    formation_lines,
    other_line,
    size_lines,
    weapon_system_line,
)
from rules.hexcombat.rate_and_range import Cadence, FireRange, cadence, fire_range
from rules.hexcombat.words import (
    HARSH_TERRAIN,
    INFILTRATED,
    MISSILE_TROOPS,
    Advantage,
    Altitude,
    Ammunition,
    Breath,
    CadenceChoice,
    Capacity,
    Direction,
    Formation,
    HexSize,
    Modifier,
    Morale,
    Position,
    SheetItem,
    ShooterKind,
    StackedCharacter,
    Terrain,
    Visibility,
    Weather,
    Wind,
)

FIRE_SECTION = "Calcul de l'Avantage au Tir"


@dataclass(frozen=True)
class FireSituation:
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
    shooter_size: HexSize = HexSize.NORMAL
    target_size: HexSize = HexSize.NORMAL
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
    distance = whole_number(distance, "The distance")
    if distance < 1:
        raise ValueError("A target is at least 1 hex away.")
    kind = ShooterKind(kind)
    if kind in (ShooterKind.ARCHERS, ShooterKind.CROSSBOWMEN):
        return -(distance - 1)
    if kind == ShooterKind.ARTILLERY:
        return -(distance // 4)
    return 0


def fire_advantage(s: FireSituation) -> Advantage:
    """The shooter's "Avantage au Tir" (without the cadence's aimed-shot bonus)."""
    kind = ShooterKind(s.shooter_kind)
    lines: list[Modifier] = []
    lines += weapon_system_line(s.weapon_system)
    lines += capacity_and_support_lines(
        (
            (SHOOTER, s.shooter_capacity, s.shooter_supports, s.shooter_character),
            (TARGET, s.target_capacity, s.target_supports, s.target_character),
        )
    )
    lines += _shooter_and_target_state_lines(s)
    lines += _direction_lines(s)
    lines += _altitude_lines(s)
    lines += _terrain_lines(s)
    lines += _distance_lines(kind, s.distance)
    if Ammunition(s.ammunition) == Ammunition.DIMINISHED:
        lines.append(DIMINISHED_AMMUNITION)
    lines += size_lines(
        "shooter",
        (s.shooter_size, s.shooter_stacked_large),
        (s.target_size, s.target_stacked_large),
        SHOT_SIZES,
    )
    if kind in MISSILE_TROOPS:
        lines += _weather_lines(s)
    lines += _formation_lines(s)
    lines += other_line(s.other_modifier)
    return Advantage(FIRE_SECTION, tuple(lines))


SHOOTER = SideWording(
    "shooter",
    1,
    capacity=(
        _("Shooter's weapon capacity"),
        "Selon les Capacités du Profil d'Arme du Tireur",
    ),
    supports=(
        _("Shooter's shooting supports"),
        "+N ou N est le nombre de Supports de Tir du Tireur",
    ),
)
TARGET = SideWording(
    "target",
    -1,
    capacity=(
        _("Target's weapon capacity (counts against the shooter)"),
        "Selon les Capacités du Profil d'Arme de la Cible",
    ),
    supports=(
        _("Target's defensive supports"),
        "-M ou M est le nombre de Supports Défensifs de la Cible",
    ),
)
SHOT_SIZES = SizeWording(
    own_small=(_("The shooter is small"), "-4 Le Tireur est un de Petite Taille"),
    other_small=(_("The target is small"), "+4 La Cible est un de Petite Taille"),
    own_stacked_large=(
        _("Large units stacked with the large shooter"),
        "-2 Pour chaque Grande Unité avec laquelle est Empilée La Grande Unité "
        "qui Tire",
    ),
    other_stacked_large=(
        _("Large units stacked with the large target"),
        "+2 Pour chaque Grande Unité avec laquelle La Grande Unité Ciblée est Empilée",
    ),
)
SHOOTER_END_OF_BREATH = Modifier(
    "shooter_end_of_breath",
    _("Shooter at the end of breath"),
    -1,
    "-1 Tireur A Bout de Souffle",
)
SHOOTER_SHAKEN = Modifier(
    "shooter_shaken", _("Shooter shaken"), -1, "-1 Tireur Ebranlé"
)
TARGET_MORALE = {
    Morale.SHAKEN: Modifier(
        "target_shaken", _("Target shaken"), 1, "+1 Cible Ebranlée"
    ),
    Morale.ROUTED: Modifier(
        "target_routed", _("Target routed"), 2, "+2 Cible En Déroute"
    ),
}
FLANK_LINE = "+1 Tir par le Flanc ou autre Position sur le même Hex"
SHOT_DIRECTION = {
    Direction.FLANK: Modifier("shot_flank", _("Shot from the flank"), 1, FLANK_LINE),
    Direction.SAME_HEX: Modifier(
        "shot_same_hex",
        _("Shot from another position on the same hex (orientation ignored)"),
        1,
        FLANK_LINE,
    ),
    Direction.REAR: Modifier(
        "shot_rear", _("Shot from the rear"), 2, "+2 Tir par l'Arrière"
    ),
}
HIGHER = Modifier(
    "higher",
    _("Shot from a higher altitude or from distant flight"),
    1,
    "+1 Tir depuis une Altitude plus Haute ou si le Tireur est en Vol Distant",
)
LOWER = Modifier(
    "lower",
    _("Shot from a lower altitude or at a target in distant flight"),
    -1,
    "-1 Tir depuis une Altitude plus Basse ou vers une Cible en Vol Distant",
)
FROM_ROUGH = Modifier(
    "from_rough",
    _("Shot from rough or difficult terrain"),
    -1,
    "-1 Tir depuis Terrain Accidenté ou Difficile",
)
INTO_ROUGH = Modifier(
    "into_rough",
    _("Shot into rough terrain"),
    -2,
    "-2 Tir vers Terrain Accidenté (sauf si la Cible est en Vol Distant)",
)
INTO_DIFFICULT = Modifier(
    "into_difficult",
    _("Shot into difficult terrain"),
    -4,
    "-4 Tir vers Terrain Difficile (sauf si la Cible est en Vol Distant)",
)
BEHIND_ROUGH_SIDE = Modifier(
    "behind_rough_side",
    _("Target just behind a rough hex side"),
    -2,
    "-2 Tir lorsque la Cible est juste derrière un Côté d'Hex Accidenté",
)
DIMINISHED_AMMUNITION = Modifier(
    "ammunition",
    _("Shooter with diminished ammunition"),
    -1,
    "-1 Le Tireur avec Munitions Diminuées",
)


def _shooter_and_target_state_lines(s: FireSituation) -> list[Modifier]:
    lines = []
    if Breath(s.shooter_breath) == Breath.END_OF_BREATH:
        lines.append(SHOOTER_END_OF_BREATH)
    if s.shooter_shaken:
        lines.append(SHOOTER_SHAKEN)
    target = TARGET_MORALE.get(Morale(s.target_morale))
    return [*lines, target] if target else lines


def _direction_lines(s: FireSituation) -> list[Modifier]:
    line = SHOT_DIRECTION.get(Direction(s.direction))
    return [line] if line else []


def _altitude_lines(s: FireSituation) -> list[Modifier]:
    shooter_position = Position(s.shooter_position)
    target_position = Position(s.target_position)
    altitude = Altitude(s.altitude)
    lines = []
    if altitude == Altitude.HIGHER or shooter_position == Position.DISTANT_FLIGHT:
        lines.append(HIGHER)
    if altitude == Altitude.LOWER or target_position == Position.DISTANT_FLIGHT:
        lines.append(LOWER)
    return lines


def _terrain_lines(s: FireSituation) -> list[Modifier]:
    lines = []
    if Terrain(s.shooter_terrain) != Terrain.CLEAR:
        lines.append(FROM_ROUGH)
    target_terrain = Terrain(s.target_terrain)
    if Position(s.target_position) != Position.DISTANT_FLIGHT:
        if target_terrain == Terrain.ROUGH:
            lines.append(INTO_ROUGH)
        elif target_terrain in HARSH_TERRAIN:
            lines.append(INTO_DIFFICULT)
    if s.behind_rough_hex_side:
        lines.append(BEHIND_ROUGH_SIDE)
    return lines


def _distance_lines(kind: ShooterKind, distance: int) -> list[Modifier]:
    penalty = range_penalty(kind, distance)
    if not penalty:
        return []
    return [
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
    ]


def _weather_lines(s: FireSituation) -> list[Modifier]:
    """Weather and wind, which the sheet counts for missile troops only."""
    lines = []
    for key, modifier in (
        ("weather", WEATHER_MODIFIERS.get(Weather(s.weather))),
        ("wind", WIND_MODIFIERS.get(Wind(s.wind))),
    ):
        if modifier:
            value, label, sheet_line = modifier
            sheet_line = f"{sheet_line} (Archers, Arbalétriers, Artillerie)"
            lines.append(Modifier(key, label, value, sheet_line))
    return lines


def _formation_lines(s: FireSituation) -> list[Modifier]:
    return formation_lines(
        s.target_formation,
        "target_",
        (_("Target in a shield wall"), _("Target in tortoise")),
        "-1 si la Cible est une Formation en Mur de Boucliers, -2 en mode Tortue",
    )


@dataclass(frozen=True)
class FirePlan:
    """A shot before the roll: the advantage used, the cadence, the range, and
    the reasons the shot is not allowed (empty when it is)."""

    advantage: Advantage
    cadence: Cadence
    range: FireRange
    problems: tuple[SheetItem, ...] = field(default=())

    @property
    def allowed(self) -> bool:
        """True when nothing on the sheet forbids the shot."""
        return not self.problems


def plan_fire(s: FireSituation) -> FirePlan:
    """The advantage (with any aimed-shot bonus), cadence, range and problems."""
    base = fire_advantage(s)
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
    reach = fire_range(s.shooter_kind, capacity, s.visibility)
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
    advantage = Advantage(FIRE_SECTION, tuple(lines), base.notes)
    return FirePlan(advantage, rate, reach, tuple(problems))
