"""Read community catalogues (BattleScribe / New Recruit) for their profiles.

Files: ``.cat`` (a catalogue) and ``.gst`` (a game system) are XML; ``.catz``
and ``.gstz`` are the same zipped. Only profiles of the type "Profile Card"
are read (by ``typeName``/``profileTypeName``, or a ``typeId`` whose
``profileType`` is named "Profile Card"). Their characteristics:

==========  ===========================================
Mov         MOU ("12.5" or "12,5")
Ini         INI
Atk-Str     ATT and FOR ("4-7": ATT 4, FOR 7)
Def-Res     DEF and RES ("5-7")
Aim         TIR ("-" when none)
Cou/Fea     COU or PEUR ("4 C": courage 4; "5 F": fear 5)
Dis         DIS
Pow         POU
Fervour     FOI
Abilities   "Tueur né/1, Créature" (commas, semicolons or lines)
==========  ===========================================

The cost is the "pts" cost (a ``costType`` named "pts", or a cost named so) of
the nearest selection entry holding the profile.

Hostile files are refused before anything is read from them: no DTD, no
entities, no external references (defusedxml), at most 5 MB as uploaded and
50 MB unzipped, a zip whose compression ratio exceeds 100:1 is a zip bomb.
This module touches no database: ``battles.services.catalogues`` writes.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.utils.translation import gettext as _

from battles.models.armies import parse_abilities

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_UNZIPPED_BYTES",
    "Catalogue",
    "CatalogueError",
    "CatalogueProfile",
    "parse_catalogue_xml",
    "read_catalogue",
]

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_UNZIPPED_BYTES = 50 * 1024 * 1024
MAX_ZIP_RATIO = 100
MAX_ZIP_MEMBERS = 16
MAX_DEPTH = 100
PROFILE_TYPE = "profile card"
COST_NAME = "pts"


class CatalogueError(ValueError):
    """A file refused whole, with a message a player understands."""


@dataclass
class CatalogueProfile:
    """One "Profile Card" profile, read into reference card fields.

    ``problems`` says why it cannot become a card (then ``values`` is partial).
    """

    external_id: str
    name: str
    values: dict = field(default_factory=dict)
    abilities: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class Catalogue:
    name: str
    profiles: list[CatalogueProfile] = field(default_factory=list)
    other_profiles: int = 0  # profiles of other types, not read


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: Element, name: str) -> list[Element]:
    return [child for child in element if _local(child.tag) == name]


def _unzip(data: bytes) -> bytes:
    """The one .cat/.gst inside a .catz/.gstz, refusing zip bombs."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        raise CatalogueError(_("The file is not a readable zip archive.")) from None
    with archive:
        members = [info for info in archive.infolist() if not info.is_dir()]
        if len(members) > MAX_ZIP_MEMBERS:
            raise CatalogueError(_("The archive holds too many files."))
        wanted = [
            info
            for info in members
            if info.filename.lower().endswith((".cat", ".gst", ".xml"))
        ]
        if len(wanted) != 1:
            raise CatalogueError(
                _("The archive should hold exactly one .cat or .gst file.")
            )
        info = wanted[0]
        if info.file_size > MAX_UNZIPPED_BYTES:
            raise CatalogueError(_("The unzipped catalogue is larger than 50 MB."))
        if info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1):
            raise CatalogueError(
                _("The archive is compressed suspiciously well (a zip bomb?).")
            )
        try:
            with archive.open(info) as member:
                # Declared sizes can lie: never read more than the limit.
                content = member.read(MAX_UNZIPPED_BYTES + 1)
        except (zipfile.BadZipFile, RuntimeError, OSError, EOFError):
            raise CatalogueError(
                _("The archive is damaged or encrypted: cannot unzip it.")
            ) from None
        if len(content) > MAX_UNZIPPED_BYTES or len(content) > MAX_ZIP_RATIO * max(
            info.compress_size, 1
        ):
            raise CatalogueError(
                _("The archive is compressed suspiciously well (a zip bomb?).")
            )
        return content


def read_catalogue(data: bytes) -> Catalogue:
    """A catalogue from a file's bytes (.cat, .gst, .catz or .gstz).

    Raises ``CatalogueError`` for a file that is too big, not a catalogue,
    malformed or hostile.
    """
    if len(data) > MAX_FILE_BYTES:
        raise CatalogueError(_("The file is larger than 5 MB."))
    if not data.strip():
        raise CatalogueError(_("The file is empty."))
    if data[:4] == b"PK\x03\x04":
        data = _unzip(data)
    return parse_catalogue_xml(data)


def parse_catalogue_xml(xml: bytes) -> Catalogue:
    """A catalogue from BattleScribe XML (see the module docstring)."""
    try:
        root = fromstring(
            xml, forbid_dtd=True, forbid_entities=True, forbid_external=True
        )
    except DefusedXmlException:
        raise CatalogueError(
            _(
                "The file declares a DTD or entities, which a catalogue never "
                "needs: refused for safety."
            )
        ) from None
    except ParseError as error:
        raise CatalogueError(
            _("The file is not well-formed XML (%(error)s).") % {"error": error}
        ) from None
    if _local(root.tag) not in ("catalogue", "gameSystem"):
        raise CatalogueError(
            _("This is not a BattleScribe catalogue (.cat) or game system (.gst).")
        )
    name = " ".join((root.get("name") or "").split())
    profile_type_ids, characteristic_names = _profile_types(root)
    cost_type_ids = {
        cost_type.get("id")
        for cost_type in root.iter()
        if _local(cost_type.tag) == "costType"
        and (cost_type.get("name") or "").strip().lower() == COST_NAME
    }
    catalogue = Catalogue(name=name)
    _walk(
        root,
        None,
        0,
        catalogue,
        profile_type_ids,
        characteristic_names,
        cost_type_ids,
    )
    return catalogue


def _profile_types(root: Element) -> tuple[set[str], dict[str, str]]:
    ids: set[str] = set()
    names: dict[str, str] = {}
    for element in root.iter():
        if _local(element.tag) != "profileType":
            continue
        if (element.get("name") or "").strip().lower() == PROFILE_TYPE:
            ids.add(element.get("id") or "")
        for characteristic_type in element.iter():
            if _local(characteristic_type.tag) == "characteristicType":
                names[characteristic_type.get("id") or ""] = (
                    characteristic_type.get("name") or ""
                )
    ids.discard("")
    return ids, names


def _entry_cost(entry: Element, cost_type_ids: set[str]) -> int | None:
    for costs in _children(entry, "costs"):
        for cost in _children(costs, "cost"):
            if (
                cost.get("typeId") in cost_type_ids
                or (cost.get("name") or "").strip().lower() == COST_NAME
            ):
                try:
                    value = Decimal(cost.get("value") or "")
                except InvalidOperation:
                    return None
                return int(value.to_integral_value()) if value >= 0 else None
    return None


def _walk(
    element: Element,
    cost: int | None,
    depth: int,
    catalogue: Catalogue,
    profile_type_ids: set[str],
    characteristic_names: dict[str, str],
    cost_type_ids: set[str],
) -> None:
    if depth > MAX_DEPTH:
        raise CatalogueError(_("The file nests elements too deeply."))
    tag = _local(element.tag)
    if tag in ("selectionEntry", "selectionEntryGroup"):
        own_cost = _entry_cost(element, cost_type_ids)
        cost = own_cost if own_cost is not None else cost
    if tag == "profile":
        type_name = (
            element.get("typeName") or element.get("profileTypeName") or ""
        ).strip()
        type_id = element.get("typeId") or element.get("profileTypeId")
        if type_name.lower() == PROFILE_TYPE or type_id in profile_type_ids:
            catalogue.profiles.append(
                _read_profile(element, cost, characteristic_names)
            )
        else:
            catalogue.other_profiles += 1
        return
    for child in element:
        _walk(
            child,
            cost,
            depth + 1,
            catalogue,
            profile_type_ids,
            characteristic_names,
            cost_type_ids,
        )


def _characteristics(profile: Element, names: dict[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for element in profile.iter():
        if _local(element.tag) != "characteristic":
            continue
        name = element.get("name") or names.get(element.get("typeId") or "", "")
        value = element.text if element.text is not None else element.get("value")
        found[name.strip().lower()] = (value or "").strip()
    return found


NONE_WORDS = {"", "-", "–", "—", "n/a", "x"}
PAIR = re.compile(r"(\d+)\s*[-/–]\s*(\d+)")
COURAGE_OR_FEAR = re.compile(r"(\d+)\s*([CcFfPp])\w*")


def _read_profile(
    element: Element, cost: int | None, names: dict[str, str]
) -> CatalogueProfile:
    profile = CatalogueProfile(
        external_id=(element.get("id") or "")[:100],
        name=" ".join((element.get("name") or "").split()),
    )
    if not profile.name:
        profile.problems.append(_("the profile has no name"))
    values = profile.values
    values["cost"] = cost
    characteristics = _characteristics(element, names)

    def number(key: str, label: str, target: str) -> None:
        raw = characteristics.get(key, "")
        if raw.lower() in NONE_WORDS:
            values[target] = None
        elif raw.isdigit():
            values[target] = int(raw)
        else:
            profile.problems.append(
                _("%(label)s “%(raw)s” is not a whole number")
                % {"label": label, "raw": raw[:20]}
            )

    def pair(key: str, label: str, first: str, second: str) -> None:
        raw = characteristics.get(key, "")
        if raw.lower() in NONE_WORDS:
            values[first] = values[second] = None
            return
        match = PAIR.fullmatch(raw)
        if match is None:
            profile.problems.append(
                _("%(label)s “%(raw)s” is not two numbers like 4-7")
                % {"label": label, "raw": raw[:20]}
            )
            return
        values[first], values[second] = int(match[1]), int(match[2])

    mov = characteristics.get("mov", "")
    if mov.lower() in NONE_WORDS:
        values["mou"] = None
    else:
        try:
            values["mou"] = Decimal(mov.replace(",", "."))
        except InvalidOperation:
            profile.problems.append(
                _("Mov “%(raw)s” is not a number") % {"raw": mov[:20]}
            )
    number("ini", "Ini", "ini")
    pair("atk-str", "Atk-Str", "att", "force")
    pair("def-res", "Def-Res", "defense", "res")
    number("aim", "Aim", "tir")
    number("dis", "Dis", "dis")
    number("pow", "Pow", "pou")
    number("fervour", "Fervour", "foi")
    raw = characteristics.get("cou/fea", "")
    values["cou"] = values["peur"] = None
    if raw.lower() not in NONE_WORDS:
        match = COURAGE_OR_FEAR.fullmatch(raw)
        if match is None:
            profile.problems.append(
                _("Cou/Fea “%(raw)s” is not like “4 C” or “5 F”") % {"raw": raw[:20]}
            )
        elif match[2].upper() == "C":
            values["cou"] = int(match[1])
        else:
            values["peur"] = int(match[1])
    profile.abilities = parse_abilities(characteristics.get("abilities", ""))
    return profile
