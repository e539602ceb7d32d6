"""The lines both advantages print: weapon system, capacities, supports, size,
formation.

"Calcul de l'Avantage au Choc" and "Calcul de l'Avantage au Tir" share these
lines, with the attacker/defender of the one standing for the shooter/target of
the other; each section passes its own label and the sheet's wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import _
from rules.hexcombat._numbers import checked_count, whole_number
from rules.hexcombat.words import (
    CAPACITY_FRENCH,
    CAPACITY_SYMBOL,
    CAPACITY_VALUE,
    Capacity,
    Formation,
    HexSize,
    Modifier,
    StackedCharacter,
)

STACKED_LINE = (
    "Troupe empilée avec un Personnage : la Troupe hérite des Supports du Personnage"
)
STACKED_CAPACITY_LINE = (
    "Prendre la Capacité d'Arme du Personnage si les Classes d'Arme sont identiques"
)
CAPACITY_SCALE = "■ +2 □ +1 □ 0 ○ -1 ● -2"


def effective_capacity(own: Capacity, character: StackedCharacter | None) -> Capacity:
    """The weapon capacity a troop uses, its stacked character's if same class."""
    if character is not None and character.same_weapon_class:
        return Capacity(character.capacity)
    return Capacity(own)


def _capacity_lines(
    key: str,
    own: Capacity,
    character: StackedCharacter | None,
    sign: int,
    label: str,
    sheet_line: str,
) -> list[Modifier]:
    """ "Selon les Capacités du Profil d'Arme": the capacity used (the stacked
    character's if same weapon class) counts ``sign`` times its scale value."""
    capacity = effective_capacity(Capacity(own), character)
    lines: list[Modifier] = []
    value = sign * CAPACITY_VALUE[capacity]
    if value:
        lines.append(
            Modifier(
                key,
                label,
                value,
                f"{sheet_line} {CAPACITY_SYMBOL[capacity]} "
                f"{CAPACITY_FRENCH[capacity]} ({CAPACITY_SCALE})",
            )
        )
    if character is not None and character.same_weapon_class:
        lines.append(
            Modifier(
                f"{key}_character_capacity",
                _("Weapon capacity taken from the stacked character"),
                0,
                STACKED_CAPACITY_LINE,
            )
        )
    return lines


def _support_lines(
    key: str,
    supports: int,
    character: StackedCharacter | None,
    sign: int,
    label: str,
    sheet_line: str,
) -> list[Modifier]:
    """ "+N" / "-M" supports, and those inherited from a stacked character."""
    lines = []
    supports = checked_count(supports, "Supports")
    if supports:
        lines.append(Modifier(key, label, sign * supports, sheet_line))
    if character is not None and checked_count(character.supports, "Supports"):
        lines.append(
            Modifier(
                f"{key}_character",
                _("Supports inherited from the stacked character"),
                sign * character.supports,
                STACKED_LINE,
            )
        )
    return lines


@dataclass(frozen=True)
class SideWording:
    """How a section words one side's weapon capacity and supports lines:
    (label, sheet line) each; ``sign`` +1 for the attacker or shooter, -1 for
    the defender or target (whose capacity and supports count against)."""

    key: str
    sign: int
    capacity: tuple[str, str]
    supports: tuple[str, str]


Side = tuple[SideWording, Capacity, int, StackedCharacter | None]


def capacity_and_support_lines(sides: Sequence[Side]) -> list[Modifier]:
    """Both sides' weapon capacities, then both sides' supports (the sheet's
    order), each side given as (wording, capacity, supports, stacked character)."""
    lines: list[Modifier] = []
    for words, capacity, _supports, character in sides:
        key, sign = f"{words.key}_capacity", words.sign
        lines += _capacity_lines(key, capacity, character, sign, *words.capacity)
    for words, _capacity, supports, character in sides:
        key, sign = f"{words.key}_supports", words.sign
        lines += _support_lines(key, supports, character, sign, *words.supports)
    return lines


@dataclass(frozen=True)
class SizeWording:
    """How one section words its four size lines: (label, sheet line) each."""

    own_small: tuple[str, str]
    other_small: tuple[str, str]
    own_stacked_large: tuple[str, str]
    other_stacked_large: tuple[str, str]


def size_lines(
    prefix: str,
    own: tuple[HexSize, int],
    other: tuple[HexSize, int],
    wording: SizeWording,
) -> list[Modifier]:
    """Small units (-4 / +4) and large units stacked with a large one (-2 / +2
    each), for the attacker or shooter (``own``: size and large units stacked
    with it) and the defender or target (``other``)."""
    own_size = HexSize(own[0])
    own_stacked = checked_count(own[1], "Stacked large units")
    other_size = HexSize(other[0])
    other_stacked = checked_count(other[1], "Stacked large units")
    lines = []
    if own_size == HexSize.SMALL:
        lines.append(Modifier(f"{prefix}_small", *_worded(wording.own_small, -4)))
    if other_size == HexSize.SMALL:
        lines.append(
            Modifier(f"{prefix}_other_small", *_worded(wording.other_small, 4))
        )
    if own_size == HexSize.LARGE and own_stacked:
        lines.append(
            Modifier(
                f"{prefix}_stacked_large",
                *_worded(wording.own_stacked_large, -2 * own_stacked),
            )
        )
    if other_size == HexSize.LARGE and other_stacked:
        lines.append(
            Modifier(
                f"{prefix}_other_stacked_large",
                *_worded(wording.other_stacked_large, 2 * other_stacked),
            )
        )
    return lines


def _worded(words: tuple[str, str], value: int) -> tuple[str, int, str]:
    label, sheet_line = words
    return label, value, sheet_line


def formation_lines(
    formation: Formation, prefix: str, labels: tuple[str, str], sheet_line: str
) -> list[Modifier]:
    """The defender's or target's formation: -1 in a shield wall, -2 in
    tortoise (``labels``: the section's words for each)."""
    formation = Formation(formation)
    if formation == Formation.NONE:
        return []
    shield_wall = formation == Formation.SHIELD_WALL
    shield_wall_label, tortoise_label = labels
    return [
        Modifier(
            f"{prefix}{formation.value}",
            shield_wall_label if shield_wall else tortoise_label,
            -1 if shield_wall else -2,
            sheet_line,
        )
    ]


def weapon_system_line(value: int) -> list[Modifier]:
    """ "-4 à +4 selon la Table de Système d'Arme"."""
    value = whole_number(value, "The weapon system modifier")
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


def other_line(value: int) -> list[Modifier]:
    """A card's or scenario's modifier the sheet does not list."""
    value = whole_number(value, "The other modifier")
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
