"""The 23 peoples of the game and the names community files give them.

A catalogue is named in English ("Daikinee Elves"), in French ("Elfes
Daïkinees"), with or without accents, often with a prefix or an edition
("Confrontation - Wolfen of Yllia (C5)"). ``people_for`` finds the people's
French name (the name the library uses, ``battles.demo.PEOPLES``) or None.
No database here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["PEOPLE_NAMES", "canonical_people", "normalized", "people_for"]

# French name (as in the library) -> the other names catalogues use.
PEOPLE_NAMES: dict[str, tuple[str, ...]] = {
    "Lions d'Alahan": ("Lions of Alahan", "Alahan Lions", "Kingdom of Alahan"),
    "Elfes Cynwäll": ("Cynwall Elves", "Elves of Cynwall", "Cynwall"),
    "Griffons d'Akkylannie": (
        "Griffins of Akkylannia",
        "Griffons of Akkylannia",
        "Akkylannian Griffins",
        "Griffins",
        "Griffons",
        "Akkylannia",
    ),
    "Keltois Sessairs": ("Sessair Kelts", "Kelts Sessair", "Sessairs", "Sessair"),
    "Nains de Tir-Na-Bor": (
        "Dwarves of Tir-Na-Bor",
        "Tir-Na-Bor Dwarves",
        "Tir-Na-Bor",
    ),
    "Utopie du Sphinx": ("Sphinx Utopia", "Utopia of the Sphinx", "Sphinx"),
    "Elfes Daïkinees": ("Daikinee Elves", "Elves of Daikinee", "Daikinee", "Daikinees"),
    "Orques de Bran-Ô-Kor": ("Orcs of Bran-O-Kor", "Bran-O-Kor Orcs", "Bran-O-Kor"),
    "Wolfen d'Yllia": ("Wolfen of Yllia", "Wolfen", "Wolfens"),
    "Gobelins de No-Dan-Kar": (
        "Goblins of No-Dan-Kar",
        "No-Dan-Kar Goblins",
        "Goblins",
        "No-Dan-Kar",
    ),
    "Orques du Béhémoth": (
        "Orcs of the Behemoth",
        "Behemoth Orcs",
        "Orcs of Behemoth",
        "Behemoth",
    ),
    "Concorde de l'Aigle": ("Concord of the Eagle", "Eagle Concord", "Concorde"),
    "Morts-vivants d'Achéron": (
        "Living Dead of Acheron",
        "Undead of Acheron",
        "Acheron Undead",
        "Acheron",
    ),
    "Alchimistes de Dirz": ("Alchemists of Dirz", "Dirz Alchemists", "Dirz"),
    "Keltois Drunes": ("Drune Kelts", "Kelts Drune", "Drunes", "Drune"),
    "Nains de Mid-Nor": ("Dwarves of Mid-Nor", "Mid-Nor Dwarves", "Mid-Nor"),
    "Alliance Ophidienne": ("Ophidian Alliance", "Ophidians", "Ophidian"),
    "Elfes Akkyshans": ("Akkyshan Elves", "Elves of Akkyshan", "Akkyshan", "Akkyshans"),
    "Dévoreurs de Vile-Tis": (
        "Devourers of Vile-Tis",
        "Vile-Tis Devourers",
        "Devourers",
        "Vile-Tis",
    ),
    "Horde de Dun-Scaïth": ("Horde of Dun-Scaith", "Dun-Scaith Horde", "Dun-Scaith"),
    "Cadwallon": ("Free City of Cadwallon", "Cadwallon"),
    "Élémentaires": ("Elementals", "Elementaires"),
    "Mercenaires": ("Mercenaries", "Mercenary", "Mercenaire"),
}


def normalized(name: str) -> str:
    """Lower case, no accents, words only: "Elfes Daïkinees" -> "elfes daikinees"."""
    text = unicodedata.normalize("NFKD", name or "")
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


# normalized name -> French name; the longest names first, so "Orcs of the
# Behemoth" wins over a shorter name found in the same title.
_NAMES: list[tuple[str, str]] = sorted(
    (
        (normalized(alias), french)
        for french, aliases in PEOPLE_NAMES.items()
        for alias in (french, *aliases)
    ),
    key=lambda item: -len(item[0]),
)


def people_for(catalogue_name: str) -> str | None:
    """The French name of the people a catalogue's name is about, or None.

    The whole name first, then a known name found word for word in it
    ("Confrontation C5 - Daikinee Elves" is "Elfes Daïkinees").
    """
    wanted = normalized(catalogue_name)
    if not wanted:
        return None
    for alias, french in _NAMES:
        if alias == wanted:
            return french
    padded = f" {wanted} "
    for alias, french in _NAMES:
        if f" {alias} " in padded:
            return french
    return None


def canonical_people(name: str, known: Iterable[str] = ()) -> str:
    """The app's name for the people ``name`` means, for the league's statistics.

    "griffons d'akkylannie", "Griffons d'Akkylannie" and "Griffins" are all
    "Griffons d'Akkylannie" (``people_for``); else a ``known`` name (the
    library's other shared peoples) equal to it but for case and accents;
    else ``name`` as typed, trimmed ("" stays ""), so nothing is lost.
    """
    name = (name or "").strip()
    if not name:
        return ""
    french = people_for(name)
    if french is not None:
        return french
    wanted = normalized(name)
    for other in known:
        if normalized(other) == wanted:
            return other
    return name
