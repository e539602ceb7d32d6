"""Read spells and miracles from community catalogues (BattleScribe / New
Recruit): the profiles of type "Spell Card" and "Miracle Card".

The community files (squera/newrecruit-confrontation-C5 ``AA-Spells.cat``
and ``AA-Miracles.cat``, an Italian fan edition) hold every value as a
string. What can be read is read; every value is kept as printed; each value
that was not understood is listed (``unclear``), never dropped.

Spell Card   Intensity, Mana Cost ("2 Tenebra", "X tenebre"), Difficulty ("7",
             "POT + 3", "3 + target RES", "libera"), Frequence ("1",
             "Illimitata", "unique"), Duration ("I", "UER", "game end"), Range
             ("20 cm", "P"), Area of effect ("1 EF", "1 FF", "S"), Description.
Miracle Card Aspetti ("0 1 1": C A D), Fervore ("2", "x libero"), Difficoltà
             ("6", "x + 4", "for bersaglio"), Area, Portata, Durata,
             Descrizione.

The spell's path is the name of the group it is listed in; a miracle's cult
the name of its group (a "[Vie] Universal" group is universal). Points: the
entry's "pts" cost. The same safety limits as ``battles.files.battlescribe``.
This module touches no database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from django.utils.translation import gettext as _

from battles.files.battlescribe import (
    CatalogueError,
    _local,
    catalogue_root,
    catalogue_xml,
)
from rules.magic import parse_difficulty

SPELL_TYPE = "spell card"
MIRACLE_TYPE = "miracle card"

# Element names as the catalogues write them (Italian and English).
ELEMENT_NAMES = {
    "tenebra": "darkness",
    "tenebre": "darkness",
    "darkness": "darkness",
    "luce": "light",
    "light": "light",
    "aria": "air",
    "air": "air",
    "acqua": "water",
    "water": "water",
    "fuoco": "fire",
    "fire": "fire",
    "terra": "earth",
    "earth": "earth",
    "neutra": "neutral",
    "neutral": "neutral",
    "neutro": "neutral",
}
DURATIONS = {
    "i": "instant",
    "instant": "instant",
    "istantaneo": "instant",
    "uer": "end_of_round",
    "until end of round": "end_of_round",
    "game end": "game",
    "fine partita": "game",
    "special": "special",
    "speciale": "special",
    "s": "special",
}
FREQUENCIES_UNLIMITED = {"illimitata", "unlimited", "unlimites", "illimitato"}
AREAS = {
    "1 ef": "enemy_fighter",
    "1 enemy fighter": "enemy_fighter",
    "1 f": "fighter",
    "1 fighter": "fighter",
    "1 ff": "friendly_fighter",
    "1ff": "friendly_fighter",
    "1 friendly fighter": "friendly_fighter",
    "p": "personal",
    "personal": "personal",
    "il mago": "personal",
    "s": "special",
    "special": "special",
}
RANGES = {
    "p": "personal",
    "personal": "personal",
    "contatto": "contact",
    "contact": "contact",
    "s": "special",
    "special": "special",
}


@dataclass
class MysticRecord:
    """One spell or miracle as read: ``values`` for the model's fields,
    ``printed`` every value as the file gives it, ``unclear`` the
    (field, text) pairs that were not understood."""

    kind: str  # "spell" or "miracle"
    external_id: str
    name: str
    group: str = ""
    values: dict = field(default_factory=dict)
    printed: dict = field(default_factory=dict)
    unclear: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class MysticCatalogue:
    name: str
    spells: list[MysticRecord] = field(default_factory=list)
    miracles: list[MysticRecord] = field(default_factory=list)

    @property
    def unclear(self) -> list[tuple[str, str, str]]:
        """(record name, field, text) of every value not understood."""
        return [
            (record.name, name, text)
            for record in [*self.spells, *self.miracles]
            for name, text in record.unclear
        ]


def read_mystic_catalogue(data: bytes) -> MysticCatalogue:
    """The spells and miracles of a catalogue file (.cat or .catz)."""
    root = catalogue_root(catalogue_xml(data))
    catalogue = MysticCatalogue(name=" ".join((root.get("name") or "").split()))
    _walk(root, catalogue, group="", entry=None, depth=0)
    return catalogue


def _text(value: str | None) -> str:
    return " ".join((value or "").split())


def _walk(
    element: Element,
    catalogue: MysticCatalogue,
    *,
    group: str,
    entry: Element | None,
    depth: int,
) -> None:
    if depth > 100:
        raise CatalogueError(_("The catalogue is nested too deeply."))
    tag = _local(element.tag)
    holds_profile = any(_local(child.tag) == "profiles" for child in element)
    if tag == "selectionEntryGroup" or (tag == "selectionEntry" and not holds_profile):
        group = _text(element.get("name")) or group  # a path, a cult, a list
    if tag == "selectionEntry":
        entry = element
    if tag == "profile":
        kind = (element.get("typeName") or "").strip().lower()
        if kind in (SPELL_TYPE, MIRACLE_TYPE):
            record = _record(element, entry, group, kind)
            target = catalogue.spells if kind == SPELL_TYPE else catalogue.miracles
            target.append(record)
        return
    for child in element:
        _walk(child, catalogue, group=group, entry=entry, depth=depth + 1)


def _characteristics(profile: Element) -> dict[str, str]:
    found = {}
    for holder in profile:
        if _local(holder.tag) != "characteristics":
            continue
        for characteristic in holder:
            name = _text(characteristic.get("name")).lower()
            found[name] = (characteristic.text or "").strip()
    return found


def _costs(entry: Element | None) -> dict[str, str]:
    found: dict[str, str] = {}
    if entry is None:
        return found
    for holder in entry:
        if _local(holder.tag) != "costs":
            continue
        for cost in holder:
            found[_text(cost.get("name")).lower()] = cost.get("value") or ""
    return found


def _record(
    profile: Element, entry: Element | None, group: str, kind: str
) -> MysticRecord:
    name = _text(entry.get("name") if entry is not None else profile.get("name"))
    record = MysticRecord(
        kind="spell" if kind == SPELL_TYPE else "miracle",
        external_id=(entry.get("id") if entry is not None else profile.get("id")) or "",
        name=name,
        group=group,
    )
    values = _characteristics(profile)
    costs = _costs(entry)
    record.printed = {k: v for k, v in values.items()}
    if not any(values.values()):
        record.unclear.append(("card", "(empty)"))  # a card left blank
    points = costs.get("pts", "")
    record.values["points"] = _whole(points) or 0
    if record.kind == "spell":
        _read_spell(record, values, costs)
    else:
        _read_miracle(record, values, costs)
    return record


def _whole(text: str) -> int | None:
    text = (text or "").strip()
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() and 0 <= number <= 999 else None


def _note(record: MysticRecord, name: str, text: str) -> None:
    if text:
        record.unclear.append((name, text))


def _read_spell(record: MysticRecord, values: dict, costs: dict) -> None:
    v = record.values
    v["path"] = record.group
    intensity = values.get("intensity", "")
    v["intensity"] = _whole(intensity)
    if intensity and v["intensity"] is None:
        _note(record, "intensity", intensity)
    v["cost"], v["cost_text"] = _mana_cost(record, values.get("mana cost", ""))
    _difficulty(record, values.get("difficulty", ""))
    frequency = values.get("frequence", values.get("frequency", ""))
    v["frequency_text"] = frequency
    v["frequency"] = _whole(frequency)
    key = frequency.strip().lower()
    if v["frequency"] is None and key not in FREQUENCIES_UNLIMITED | {"unique"}:
        _note(record, "frequency", frequency)
    _duration(record, values.get("duration", ""))
    _range(record, values.get("range", ""))
    _area(record, values.get("area of effect", ""))
    v["description"] = values.get("description", "")
    pow_cost = _whole(costs.get("pow", ""))
    v["power_points"] = pow_cost or 0


def _mana_cost(record: MysticRecord, text: str) -> tuple[dict[str, int], str]:
    """ "2 Tenebra" -> {"darkness": 2}; "X tenebre" keeps its text (its X is
    chosen at the table); anything else is listed as not understood."""
    found = re.fullmatch(r"\s*(\d{1,2}|x)\s+([a-zA-Z]+)\s*(.*)", text, re.IGNORECASE)
    element = ELEMENT_NAMES.get(found.group(2).lower()) if found else None
    if not found or element is None:
        _note(record, "mana cost", text)
        return {}, text
    if found.group(3):
        _note(record, "mana cost", text)  # "(4)": a second reading
    if found.group(1).lower() == "x":
        _note(record, "mana cost", text)  # a number chosen at the table
        return {}, text
    return {element: int(found.group(1))}, text


_ITALIAN = (
    ("bersaglio", "target"),
    ("pot", "pow"),
    ("pau", "fear"),
    ("for", "str"),
)


def _difficulty(record: MysticRecord, text: str) -> None:
    v = record.values
    v["difficulty_text"] = text
    v["difficulty"] = None
    if not text:
        return
    difficulty = parse_difficulty(text)
    if difficulty.kind == "unknown":
        difficulty = parse_difficulty(_normal_formula(text))
    if difficulty.kind == "number":
        v["difficulty"] = difficulty.value
    elif difficulty.kind == "unknown":
        _note(record, "difficulty", text)


def _normal_formula(text: str) -> str:
    """ "3 + target RES", "2 + ATT bersaglio", "target's ATT +3", "x + 4" ->
    "RES+3", "ATT+2", "ATT+3", "fervour+4" (a characteristic, then + k)."""
    words = re.sub(r"[’'`]s\b", "", text.lower())
    words = words.replace("del bersaglio", "").replace("bersaglio", "")
    words = words.replace("target", "").replace("del", "")
    number = re.search(r"([+-])?\s*(\d{1,2})", words)
    base = re.search(r"\b(for|str|att|res|pau|peu|fear|pot|pow|pou|x)\b", words)
    if not base:
        return text
    name = {"x": "fervour"}.get(base.group(1), base.group(1))
    if not number:
        return name
    sign = "-" if number.group(1) == "-" else "+"
    return f"{name}{sign}{number.group(2)}"


def _duration(record: MysticRecord, text: str) -> None:
    key = text.strip().lower()
    record.values["duration_text"] = text
    record.values["duration"] = DURATIONS.get(key, "")
    if text and not record.values["duration"]:
        _note(record, "duration", text)


def _range(record: MysticRecord, text: str) -> None:
    key = text.strip().lower()
    found = re.fullmatch(r"(\d{1,3})\s*cm", key)
    record.values["range_text"] = text
    record.values["range_cm"] = int(found.group(1)) if found else None
    if text and not found and key not in RANGES:
        _note(record, "range", text)


def _area(record: MysticRecord, text: str) -> None:
    key = text.strip().lower()
    record.values["area_text"] = text
    record.values["area"] = AREAS.get(key, "")
    if text and not record.values["area"]:
        _note(record, "area", text)


def _read_miracle(record: MysticRecord, values: dict, costs: dict) -> None:
    v = record.values
    group = record.group
    universal = "universal" in group.lower()
    cult = re.sub(r"^\[[^\]]*\]\s*", "", group).strip()
    cult = re.sub(r"\s*\([^)]*\)\s*$", "", cult).strip()
    v["cult"] = "" if universal else cult
    v["universal"] = universal
    aspects = values.get("aspetti", values.get("aspects", ""))
    numbers = re.findall(r"\d", aspects)
    if len(numbers) == 3:
        v["creation"], v["alteration"], v["destruction"] = (int(n) for n in numbers)
    else:
        v["creation"] = v["alteration"] = v["destruction"] = None
        _note(record, "aspects", aspects)
    fervour = values.get("fervore", values.get("fervour", ""))
    v["fervour_text"] = fervour
    v["fervour"] = _whole(fervour)
    if fervour and v["fervour"] is None and "libero" not in fervour.lower():
        _note(record, "fervour", fervour)
    if not fervour and any(values.values()):
        _note(record, "fervour", "(empty)")
    difficulty = next(
        (values[k] for k in values if k.startswith("difficolt")),
        values.get("difficulty", ""),
    )
    _difficulty(record, difficulty)
    _duration(record, values.get("durata", values.get("duration", "")))
    _range(record, values.get("portata", values.get("range", "")))
    _area(record, values.get("area", ""))
    v["description"] = values.get("descrizione", values.get("description", ""))
    v["faith_points"] = _whole(costs.get("fede", "")) or 0


__all__ = [
    "MysticCatalogue",
    "MysticRecord",
    "read_mystic_catalogue",
]
