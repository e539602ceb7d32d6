"""How often and how far a unit shoots: "Cadence de Tir" and "Portée de Tir".

``cadence`` (archers roll 1 to 3 times by weapon capacity, or once with a
bonus), ``fire_range`` (hexes by unit type, artillery by capacity, capped by
mist and fog; "Harcèlement" checks no line of sight).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.hexcombat.words import (
    CAPACITY_FRENCH,
    CadenceChoice,
    Capacity,
    ShooterKind,
    Visibility,
)


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
class FireRange:
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


def fire_range(
    kind: ShooterKind, capacity: Capacity, visibility: Visibility = Visibility.CLEAR
) -> FireRange:
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
    return FireRange(hexes, line_of_sight, harassment, tuple(lines))
