"""Read community catalogues (BattleScribe / New Recruit) for their profiles.

Files: ``.cat`` (a catalogue) and ``.gst`` (a game system) are XML; ``.catz``
and ``.gstz`` are the same zipped. Only profiles of the type "Profile Card"
are read (by ``typeName``/``profileTypeName``, or a ``typeId`` whose
``profileType`` is named "Profile Card"). Their characteristics:

==========  ==============================================================
Mov         MOU ("12.5" or "12,5"); a flyer's ground and flight movement
            "12,5/20", "7.5/15", "12,5 / 20" (MOU 12.5, flight MOU 20)
Ini         INI
Atk-Str     ATT and FOR ("4-7": ATT 4, FOR 7)
Def-Res     DEF and RES ("5-7")
Aim         TIR
Cou/Fea     COU or PEUR ("4 C": courage 4; "5 F": fear 5). A bare "4" is
            courage, or fear when the abilities say the fighter causes fear;
            the profile's ``notes`` say which reading was assumed.
Dis         DIS
Pow         POU
Fervour     FOI ("3"); a faithful's three aspects Création, Altération,
            Destruction written "1-1-1", "0\\2\\1", "0-1-1 (devout)" or
            "3 (1-1-1)" (FOI 3), here or in a column named "Aspects"
Abilities   "Tueur né/1, Créature" (commas, semicolons or lines)
==========  ==============================================================

A characteristic given as "-" (a war machine without DEF: "-/8" or "--8" in
Def-Res) is one the card does not have. A value no reading can mend
("7-117-8") makes the profile ``problems``: it is skipped, with the reason.

A name that appears twice in one catalogue: equal profiles are read once;
different ones are told apart by the name of their selection entry
("Guerrier (Bannière)"), or numbered when that does not tell them apart.

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
    notes: list[str] = field(default_factory=list)  # readings assumed
    entry: str = ""  # the name of the selection entry holding it

    def same_card(self, other: CatalogueProfile) -> bool:
        return (self.values, self.abilities, self.problems) == (
            other.values,
            other.abilities,
            other.problems,
        )


@dataclass
class Catalogue:
    name: str
    profiles: list[CatalogueProfile] = field(default_factory=list)
    other_profiles: int = 0  # profiles of other types, not read
    repeated: int = 0  # profiles read once because an equal one came before


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
    return parse_catalogue_xml(catalogue_xml(data))


def catalogue_xml(data: bytes) -> bytes:
    """A catalogue file's XML, unzipped where the file is (.catz, .gstz);
    ``CatalogueError`` for a file too big or empty."""
    if len(data) > MAX_FILE_BYTES:
        raise CatalogueError(_("The file is larger than 5 MB."))
    if not data.strip():
        raise CatalogueError(_("The file is empty."))
    if data[:4] == b"PK\x03\x04":
        data = _unzip(data)
    return data


def catalogue_root(xml: bytes) -> Element:
    """The root of a catalogue's (or game system's) XML, parsed without DTD
    or entities; ``CatalogueError`` for XML malformed, hostile or of
    another kind."""
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
    return root


def parse_catalogue_xml(xml: bytes) -> Catalogue:
    """A catalogue from BattleScribe XML (see the module docstring)."""
    root = catalogue_root(xml)
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
        (None, ""),
        0,
        catalogue,
        profile_type_ids,
        characteristic_names,
        cost_type_ids,
    )
    _tell_apart(catalogue)
    return catalogue


def _tell_apart(catalogue: Catalogue) -> None:
    """One profile per card: equal repeats dropped, different ones renamed."""
    kept: list[CatalogueProfile] = []
    for profile in catalogue.profiles:
        if any(
            other.name == profile.name and other.same_card(profile) for other in kept
        ):
            catalogue.repeated += 1
            continue
        kept.append(profile)
    by_name: dict[str, list[CatalogueProfile]] = {}
    for profile in kept:
        by_name.setdefault(profile.name, []).append(profile)
    taken = {profile.name for profile in kept}
    for name, namesakes in by_name.items():
        if len(namesakes) < 2 or not name:
            continue
        entries = [profile.entry for profile in namesakes]
        by_entry = len(set(entries)) == len(entries) and all(
            entry and entry != name for entry in entries
        )
        for number, profile in enumerate(namesakes, start=1):
            suffix = profile.entry if by_entry else str(number)
            wanted = f"{name} ({suffix})"[:120]
            while wanted in taken:
                wanted = f"{wanted[:110]} ({number})"
            taken.add(wanted)
            profile.name = wanted
    # A profile id shared by different profiles (one profile linked from two
    # entries with their own costs): each keeps an id of its own.
    ids: set[str] = set()
    for profile in kept:
        if profile.external_id and profile.external_id in ids:
            suffix = f"#{profile.entry or len(ids)}"
            profile.external_id = f"{profile.external_id[: 100 - len(suffix)]}{suffix}"
        ids.add(profile.external_id)
    catalogue.profiles = kept


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
    holder: tuple[int | None, str],
    depth: int,
    catalogue: Catalogue,
    profile_type_ids: set[str],
    characteristic_names: dict[str, str],
    cost_type_ids: set[str],
) -> None:
    if depth > MAX_DEPTH:
        raise CatalogueError(_("The file nests elements too deeply."))
    tag = _local(element.tag)
    cost, entry = holder
    if tag in ("selectionEntry", "selectionEntryGroup"):
        own_cost = _entry_cost(element, cost_type_ids)
        cost = own_cost if own_cost is not None else cost
        entry = " ".join((element.get("name") or "").split())[:60] or entry
    if tag == "profile":
        type_name = (
            element.get("typeName") or element.get("profileTypeName") or ""
        ).strip()
        type_id = element.get("typeId") or element.get("profileTypeId")
        if type_name.lower() == PROFILE_TYPE or type_id in profile_type_ids:
            profile = _read_profile(element, cost, characteristic_names)
            profile.entry = entry
            catalogue.profiles.append(profile)
        else:
            catalogue.other_profiles += 1
        return
    for child in element:
        _walk(
            child,
            (cost, entry),
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
PAIR = re.compile(r"(\d+|[-–—])\s*[-/–]\s*(\d+|[-–—])")
COURAGE_OR_FEAR = re.compile(r"(\d+)\s*([CcFfPp])\w*")
NUMBER = r"\d+(?:[.,]\d+)?"
MOVEMENT = re.compile(rf"({NUMBER})(?:\s*/\s*({NUMBER}))?")
# "1-1-1", "0\2\1", "0-1-1 (devout)", "3 (1-1-1)": [FOI] Création Altération
# Destruction [(faithful rank)].
ASPECTS = re.compile(
    r"(?:(\d+)\s*)?[(\[]?\s*(\d+)\s*[-\\/–]\s*(\d+)\s*[-\\/–]\s*(\d+)\s*[)\]]?"
    r"\s*(?:\(\s*([^\W\d]+)\s*\))?"
)
# The faithful's rank words a catalogue may add after the aspects.
FAITHFUL_RANKS = {
    "devout": "devot",
    "devot": "devot",
    "dévot": "devot",
    "zealot": "zelote",
    "zelote": "zelote",
    "zélote": "zelote",
    "dean": "doyen",
    "doyen": "doyen",
    "avatar": "avatar",
}
# An ability that makes a bare Cou/Fea number a fear value.
# ("Immunité à la peur" does not: only a name that starts with the word.)
CAUSES_FEAR = re.compile(
    r"(causes?\s+)?(peur|fear|terreur|terror|effrayant|frightening)\b", re.I
)
ASPECT_COLUMNS = ("aspects", "aspect", "aspects (c-a-d)")


def _decimal(raw: str) -> Decimal:
    return Decimal(raw.replace(",", "."))


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
        values[first], values[second] = (
            int(part) if part.isdigit() else None for part in match.groups()
        )

    _movement(profile, characteristics.get("mov", ""))
    number("ini", "Ini", "ini")
    pair("atk-str", "Atk-Str", "att", "force")
    pair("def-res", "Def-Res", "defense", "res")
    number("aim", "Aim", "tir")
    number("dis", "Dis", "dis")
    values["creation"] = values["alteration"] = values["destruction"] = None
    values["mystic_rank"] = ""  # unless the aspects name a faithful's rank
    for key, label, target in (("pow", "Pow", "pou"), ("fervour", "Fervour", "foi")):
        raw = characteristics.get(key, "")
        if ASPECTS.fullmatch(raw) and not raw.isdigit():
            values[target] = None
            _aspects(profile, raw, label, target)
        else:
            number(key, label, target)
    for key in ASPECT_COLUMNS:
        raw = characteristics.get(key, "")
        if raw.lower() not in NONE_WORDS:
            _aspects(profile, raw, "Aspects", None)
    profile.abilities = parse_abilities(characteristics.get("abilities", ""))
    _courage_or_fear(profile, characteristics.get("cou/fea", ""))
    return profile


def _movement(profile: CatalogueProfile, raw: str) -> None:
    """MOU, and a flyer's flight MOU after a slash ("12,5/20")."""
    values = profile.values
    values["mou"] = values["mou_flight"] = None
    if raw.lower() in NONE_WORDS:
        return
    match = MOVEMENT.fullmatch(raw)
    if match is None:
        profile.problems.append(
            _("Mov “%(raw)s” is not a number (or ground/flight like 12,5/20)")
            % {"raw": raw[:20]}
        )
        return
    values["mou"] = _decimal(match[1])
    if match[2] is not None:
        values["mou_flight"] = _decimal(match[2])


def _aspects(
    profile: CatalogueProfile, raw: str, label: str, faith_target: str | None
) -> None:
    """Création, Altération, Destruction (and FOI, a faithful rank) from
    "1-1-1", "0\\2\\1", "0-1-1 (devout)" or "3 (1-1-1)"."""
    values = profile.values
    match = ASPECTS.fullmatch(raw)
    rank = FAITHFUL_RANKS.get((match[5] or "").lower()) if match else None
    if match is None or (match[5] and rank is None):
        profile.problems.append(
            _(
                "%(label)s “%(raw)s” is not three aspects like 1-1-1 "
                "(Création, Altération, Destruction)"
            )
            % {"label": label, "raw": raw[:20]}
        )
        return
    if match[1] is not None and faith_target is not None:
        values[faith_target] = int(match[1])
    values["creation"], values["alteration"], values["destruction"] = (
        int(match[2]),
        int(match[3]),
        int(match[4]),
    )
    if rank:
        values["mystic_rank"] = rank


def _courage_or_fear(profile: CatalogueProfile, raw: str) -> None:
    values = profile.values
    values["cou"] = values["peur"] = None
    if raw.lower() in NONE_WORDS:
        return
    if raw.isdigit():
        causes_fear = any(CAUSES_FEAR.match(name) for name, _v in profile.abilities)
        values["peur" if causes_fear else "cou"] = int(raw)
        profile.notes.append(
            _("Cou/Fea “%(raw)s” read as fear: the abilities say it causes fear")
            % {"raw": raw}
            if causes_fear
            else _("Cou/Fea “%(raw)s” read as courage (no C or F)") % {"raw": raw}
        )
        return
    match = COURAGE_OR_FEAR.fullmatch(raw)
    if match is None:
        profile.problems.append(
            _("Cou/Fea “%(raw)s” is not like “4 C” or “5 F”") % {"raw": raw[:20]}
        )
    elif match[2].upper() == "C":
        values["cou"] = int(match[1])
    else:
        values["peur"] = int(match[1])
