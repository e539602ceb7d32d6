"""The attacker's "Avantage au Choc" ("Calcul de l'Avantage au Choc", seed 003).

``ShockSituation`` says everything the section asks about one attack;
``shock_advantage`` adds up every line that applies, one small step per group
of lines on the sheet (capacities, supports, charge, breath, morale, direction,
height, terrain, size, flight, formation, support), in the sheet's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import _
from rules.hexcombat.lines import (
    SideWording,
    SizeWording,
    capacity_and_support_lines,
    formation_lines,
    other_line,
    size_lines,
    weapon_system_line,
)
from rules.hexcombat.words import (
    HARSH_TERRAIN,
    Advantage,
    Breath,
    Capacity,
    Direction,
    Formation,
    Height,
    HexSize,
    Modifier,
    Morale,
    Position,
    SheetItem,
    StackedCharacter,
    Terrain,
)

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
    attacker_size: HexSize = HexSize.NORMAL
    defender_size: HexSize = HexSize.NORMAL
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
    lines += weapon_system_line(s.weapon_system)
    lines += capacity_and_support_lines(
        (
            (ATTACKER, s.attacker_capacity, s.attacker_supports, s.attacker_character),
            (DEFENDER, s.defender_capacity, s.defender_supports, s.defender_character),
        )
    )
    charge, notes = _charge_lines(s)
    lines += charge
    lines += _breath_lines(s)
    lines += _morale_lines(s)
    lines += _shock_direction_lines(s)
    lines += _height_lines(s)
    lines += _shock_terrain_lines(s)
    lines += size_lines(
        "attacker",
        (s.attacker_size, s.attacker_stacked_large),
        (s.defender_size, s.defender_stacked_large),
        ATTACK_SIZES,
    )
    lines += _flight_lines(s)
    lines += _formation_lines(s)
    support, support_notes = _support_rule(s)
    lines += support
    notes += support_notes
    lines += other_line(s.other_modifier)
    return Advantage(SHOCK_SECTION, tuple(lines), tuple(notes))


ATTACKER = SideWording(
    "attacker",
    1,
    capacity=(
        _("Attacker's weapon capacity"),
        "Selon les Capacités du Profil d'Arme de l'Attaquant",
    ),
    supports=(
        _("Attacker's offensive supports"),
        "+N ou N est le nombre de Supports Offensifs de l'Attaquant",
    ),
)
DEFENDER = SideWording(
    "defender",
    -1,
    capacity=(
        _("Defender's weapon capacity (counts against the attacker)"),
        "Selon les Capacités du Profil d'Arme du Défenseur",
    ),
    supports=(
        _("Defender's defensive supports"),
        "-M ou M est le nombre de Supports Défensifs du Défenseur",
    ),
)
ATTACK_SIZES = SizeWording(
    own_small=(_("The attacker is small"), "-4 L'attaquant est de Petite Taille"),
    other_small=(_("The defender is small"), "+4 Le défenseur est de Petite Taille"),
    own_stacked_large=(
        _("Large units stacked with the large attacker"),
        "-2 Pour chaque Grande Unité avec laquelle est Empilée La Grande Unité "
        "qui Attaque",
    ),
    other_stacked_large=(
        _("Large units stacked with the large defender"),
        "+2 Pour chaque Grande Unité avec laquelle La Grande Unité Attaquée "
        "est Empilée",
    ),
)


def _charge_lines(s: ShockSituation) -> tuple[list[Modifier], list[SheetItem]]:
    """The attacker's charge bonus (or why it has none), the defender's marker."""
    lines: list[Modifier] = []
    notes: list[SheetItem] = []
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
    return lines, notes


ATTACKER_BREATH = {
    Breath.BREATHLESS: Modifier(
        "attacker_breathless", _("Attacker breathless"), -1, "-1 Attaquant Essoufflé"
    ),
    Breath.END_OF_BREATH: Modifier(
        "attacker_end_of_breath",
        _("Attacker at the end of breath"),
        -2,
        "-2 Attaquant A Bout De Souffle",
    ),
}
DEFENDER_BREATH = {
    Breath.END_OF_BREATH: Modifier(
        "defender_end_of_breath",
        _("Defender at the end of breath"),
        1,
        "+1 Défenseur A Bout De Souffle",
    ),
}
ATTACKER_SHAKEN = Modifier(
    "attacker_shaken", _("Attacker shaken"), -1, "-1 Attaquant Ebranlé"
)
DEFENDER_MORALE = {
    Morale.SHAKEN: Modifier(
        "defender_shaken", _("Defender shaken"), 1, "+1 Défenseur Ebranlé"
    ),
    Morale.ROUTED: Modifier(
        "defender_routed", _("Defender routed"), 4, "+4 Défenseur En Déroute"
    ),
}
HEIGHT = {
    Height.HIGH: Modifier(
        "high_position",
        _("Attack from a high position"),
        1,
        "+1 Attaque depuis Position Haute",
    ),
    Height.LOW: Modifier(
        "low_position",
        _("Attack from a low position"),
        -1,
        "-1 Attaque depuis Position Basse",
    ),
}


def _breath_lines(s: ShockSituation) -> list[Modifier]:
    attacker = ATTACKER_BREATH.get(Breath(s.attacker_breath))
    defender = DEFENDER_BREATH.get(Breath(s.defender_breath))
    return [line for line in (attacker, defender) if line]


def _morale_lines(s: ShockSituation) -> list[Modifier]:
    attacker = ATTACKER_SHAKEN if s.attacker_shaken else None
    defender = DEFENDER_MORALE.get(Morale(s.defender_morale))
    return [line for line in (attacker, defender) if line]


def _height_lines(s: ShockSituation) -> list[Modifier]:
    line = HEIGHT.get(Height(s.height))
    return [line] if line else []


def _flight_lines(s: ShockSituation) -> list[Modifier]:
    flight = FLIGHT_SHOCK.get(
        (Position(s.attacker_position), Position(s.defender_position))
    )
    if not flight:
        return []
    value, sheet_line = flight
    return [Modifier("flight", _("Attack between flight positions"), value, sheet_line)]


def _formation_lines(s: ShockSituation) -> list[Modifier]:
    return formation_lines(
        s.defender_formation,
        "",
        (_("Defender in a shield wall"), _("Defender in tortoise")),
        "-1 Attaque sur une Formation en Mur de Boucliers, -2 en mode Tortue",
    )


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
