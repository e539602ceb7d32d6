"""The army file: an army as JSON data, and back (docs/army-json.md).

``export_army_json`` writes an army with every card's full profile, so another
server can recreate missing cards; ``import_army_json`` reads such a file,
untrusted, and refuses it whole with every problem found (``ArmyImportError``,
each problem with its path in the file).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from battles.models.armies import (
    CHARACTERISTIC_FIELDS,
    Army,
    ArmyCard,
    CardSource,
    Owner,
    People,
    ReferenceCard,
    Voie,
    format_ability,
    parse_ability,
)
from battles.models.mystic import Miracle, MysticSource, Spell
from battles.services.armies import (
    ArmyError,
    _free_name,
    _require_owner,
    _save,
    _set_abilities,
)
from battles.services.quotas import spend, who
from battles.validation import CONTROL_MESSAGE, has_control_characters

# The fields of a spell and a miracle the army file carries (with "name").
SPELL_FIELDS = (
    "path",
    "cost",
    "cost_text",
    "difficulty",
    "difficulty_text",
    "frequency",
    "frequency_text",
    "intensity",
    "duration",
    "duration_text",
    "range_cm",
    "range_text",
    "area",
    "area_text",
    "points",
    "description",
)
MIRACLE_FIELDS = (
    "cult",
    "universal",
    "fervour",
    "fervour_text",
    "creation",
    "alteration",
    "destruction",
    "difficulty",
    "difficulty_text",
    "duration",
    "duration_text",
    "range_cm",
    "range_text",
    "area",
    "area_text",
    "points",
    "description",
)

__all__ = [
    "ARMY_JSON_FORMAT",
    "ARMY_JSON_VERSION",
    "MAX_IMPORT_BYTES",
    "ArmyImportError",
    "card_profile",
    "export_army_json",
    "import_army_json",
]

ARMY_JSON_FORMAT = "confrontation-army"
ARMY_JSON_VERSION = 1
MAX_IMPORT_BYTES = 1024 * 1024
MAX_IMPORT_CARDS = 200


class ArmyImportError(ArmyError):
    """An army file refused whole; ``problems`` lists ``(path, message)``."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__([f"{path}: {message}" for path, message in problems])


def _json_number(value) -> int | float | None:
    """A decimal as JSON wants it: 10 rather than 10.0, 12.5 as is."""
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def card_profile(card: ReferenceCard, abilities: list[str] | None = None) -> dict:
    """The card's profile as JSON data (the army file's ``profile``).

    ``abilities`` replaces the card's own (for a card not saved yet).
    """
    mou = _json_number(card.mou)
    characteristics = {
        code: (mou if code == "MOU" else getattr(card, field_name))
        for code, field_name in CHARACTERISTIC_FIELDS.items()
    }
    weapon = None
    if card.weapon_strength is not None or card.ranges is not None:
        weapon = {
            "name": card.weapon_name,
            "strength": card.weapon_strength,
            "ranges": list(card.ranges) if card.ranges else None,
        }
    return {
        "name": card.name,
        "people": {"name": card.people.name, "voie": card.people.voie},
        "rank": card.rank,
        "mystic_rank": card.mystic_rank,
        "size": card.size,
        "base_shape": card.base_shape,
        "cost": card.cost,
        "cost_estimated": card.cost_estimated,
        "fighters_per_card": card.fighters_per_card,
        "characteristics": characteristics,
        "flight_mou": _json_number(card.mou_flight),
        "aspects": list(card.aspects) if card.aspects else None,
        "weapon": weapon,
        "abilities": (
            list(abilities)
            if abilities is not None
            else [str(ability) for ability in card.abilities.all()]
        ),
        "source": card.source,
        "source_detail": card.source_detail,
    }


def export_army_json(army: Army) -> dict:
    """The army as the documented JSON data (docs/army-json.md), with every
    card's full profile so another server can recreate missing cards."""
    return {
        "format": ARMY_JSON_FORMAT,
        "version": ARMY_JSON_VERSION,
        "army": {
            "name": army.name,
            "people": {"name": army.people.name, "voie": army.people.voie},
            "points_limit": army.points_limit,
            "cards": [
                {
                    "fighters": army_card.fighters,
                    "is_ally": army_card.is_ally,
                    "profile": card_profile(army_card.card),
                    # X, XI: what the magician knows, the faithful calls.
                    "spells": [
                        mystic_json(spell, SPELL_FIELDS)
                        for spell in army_card.spells.all()
                    ],
                    "miracles": [
                        mystic_json(miracle, MIRACLE_FIELDS)
                        for miracle in army_card.miracles.all()
                    ],
                }
                for army_card in army.cards.all()
            ],
        },
    }


def mystic_json(item: Spell | Miracle, fields: tuple[str, ...]) -> dict:
    """A spell or a miracle as the army file carries it (every field, so
    another server can recreate it)."""
    return {"name": item.name, **{key: getattr(item, key) for key in fields}}


def _read_mystic(reader: _Reader, entry: dict, path: str) -> dict[str, list]:
    """The spells and miracles a card of the file knows, unsaved."""
    found: dict[str, list] = {"spells": [], "miracles": []}
    for key, model, fields in (
        ("spells", Spell, SPELL_FIELDS),
        ("miracles", Miracle, MIRACLE_FIELDS),
    ):
        items = entry.get(key, [])
        if not isinstance(items, list) or len(items) > MAX_IMPORT_CARDS:
            reader.problem(f"{path}.{key}", _("must be a list"))
            continue
        for index, data in enumerate(items):
            where = f"{path}.{key}[{index}]"
            data = reader.obj(data, where)
            name = " ".join(reader.text(data, "name", where).split())
            if not name:
                reader.problem(f"{where}.name", _("is missing"))
                continue
            values = {k: data[k] for k in fields if k in data}
            item = model(name=name, source=MysticSource.MANUAL, **values)
            try:
                item.full_clean(exclude=["owner"], validate_constraints=False)
            except (ValidationError, TypeError, ValueError) as error:
                messages = getattr(error, "message_dict", {"": [str(error)]})
                for field_name, errors in messages.items():
                    for message in errors:
                        reader.problem(f"{where}.{field_name}".rstrip("."), message)
                continue
            found[key].append(item)
    return found


def _known(owner: Owner, model, items: list) -> list:
    """Each spell or miracle of the file: the owner's or the library's of
    the same name, else created as the owner's."""
    result = []
    for item in items:
        candidates = list(model.objects.visible_to(owner).filter(name=item.name))
        own = [c for c in candidates if c.owner_id or c.guest_key]
        existing = (own or candidates or [None])[0]
        if existing is None:
            for key_name, value in owner.fields().items():
                setattr(item, key_name, value)
            item.save()
            existing = item
        result.append(existing)
    return result


@dataclass
class _Reader:
    """Walks untrusted JSON data, noting each problem with its path."""

    problems: list[tuple[str, str]] = field(default_factory=list)

    def problem(self, path: str, message: str) -> None:
        self.problems.append((path, str(message)))

    def obj(self, data: Any, path: str) -> dict:
        if not isinstance(data, dict):
            self.problem(path, _("must be an object"))
            return {}
        return data

    def text(self, data: dict, key: str, path: str, *, required=True) -> str:
        value = data.get(key, None if required else "")
        if value is None and not required:
            return ""
        if not isinstance(value, str):
            self.problem(f"{path}.{key}", _("must be text"))
            return ""
        if has_control_characters(value):  # a NUL would break PostgreSQL
            self.problem(f"{path}.{key}", CONTROL_MESSAGE)
            return ""
        return value

    def integer(self, data: dict, key: str, path: str, *, required=False):
        value = data.get(key)
        if value is None and not required:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(f"{path}.{key}", _("must be a whole number"))
            return None
        return value

    def three_numbers(self, data: dict, key: str, path: str) -> list[int] | None:
        """Three whole numbers (a faithful's aspects, a weapon's ranges), if any."""
        value = data.get(key)
        if value is None:
            return None
        if (
            not isinstance(value, list)
            or len(value) != 3
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            self.problem(f"{path}.{key}", _("must be three whole numbers"))
            return None
        return value

    def boolean(self, data: dict, key: str, path: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            self.problem(f"{path}.{key}", _("must be true or false"))
            return False
        return value


# Where a model field's error goes in the file.
_FIELD_PATHS = {
    **{
        field_name: f"characteristics.{code}"
        for code, field_name in CHARACTERISTIC_FIELDS.items()
    },
    "mou_flight": "flight_mou",
    "creation": "aspects",
    "alteration": "aspects",
    "destruction": "aspects",
    "weapon_name": "weapon.name",
    "weapon_strength": "weapon.strength",
    "range_short": "weapon.ranges",
    "range_medium": "weapon.ranges",
    "range_long": "weapon.ranges",
}


def _read_people(reader: _Reader, data: Any, path: str) -> tuple[str, str]:
    data = reader.obj(data, path)
    name = " ".join(reader.text(data, "name", path).split())
    voie = data.get("voie", Voie.OTHER)
    if voie not in Voie.values:
        reader.problem(f"{path}.voie", _("must be one of %(v)s") % {"v": Voie.values})
        voie = Voie.OTHER
    if not name:
        reader.problem(f"{path}.name", _("is missing"))
    elif len(name) > 80:
        reader.problem(f"{path}.name", _("is longer than 80 characters"))
    return name, voie


def _read_profile(
    reader: _Reader, data: Any, path: str, peoples: dict[str, People]
) -> tuple[ReferenceCard, list[str]] | None:
    """An unsaved card and its abilities from a file's profile, or None."""
    before = len(reader.problems)
    data = reader.obj(data, path)
    people_name, voie = _read_people(reader, data.get("people"), f"{path}.people")
    values: dict[str, Any] = {
        "name": reader.text(data, "name", path).strip(),
        "rank": reader.text(data, "rank", path, required=False),
        "mystic_rank": reader.text(data, "mystic_rank", path, required=False),
        "size": reader.text(data, "size", path, required=False) or "normal",
        "base_shape": reader.text(data, "base_shape", path, required=False) or "square",
        "cost": reader.integer(data, "cost", path),
        "cost_estimated": reader.boolean(data, "cost_estimated", path),
        "fighters_per_card": reader.integer(data, "fighters_per_card", path) or 1,
        "source": reader.text(data, "source", path, required=False) or "custom",
        "source_detail": reader.text(data, "source_detail", path, required=False),
    }
    characteristics = reader.obj(
        data.get("characteristics", {}), f"{path}.characteristics"
    )
    for code, field_name in CHARACTERISTIC_FIELDS.items():
        if code == "MOU":
            raw = characteristics.get("MOU")
            if raw is None:
                values["mou"] = None
            elif isinstance(raw, bool) or not isinstance(raw, int | float | str):
                reader.problem(f"{path}.characteristics.MOU", _("must be a number"))
            else:
                try:
                    values["mou"] = Decimal(str(raw).replace(",", "."))
                except InvalidOperation:
                    reader.problem(f"{path}.characteristics.MOU", _("must be a number"))
        else:
            values[field_name] = reader.integer(
                characteristics, code, f"{path}.characteristics"
            )
    flight = data.get("flight_mou")
    if flight is not None:
        if isinstance(flight, bool) or not isinstance(flight, int | float):
            reader.problem(f"{path}.flight_mou", _("must be a number"))
        else:
            values["mou_flight"] = Decimal(str(flight))
    aspects = reader.three_numbers(data, "aspects", path)
    if aspects is not None:
        values["creation"], values["alteration"], values["destruction"] = aspects
    weapon = data.get("weapon")
    if weapon is not None:
        weapon = reader.obj(weapon, f"{path}.weapon")
        values["weapon_name"] = reader.text(
            weapon, "name", f"{path}.weapon", required=False
        )
        values["weapon_strength"] = reader.integer(weapon, "strength", f"{path}.weapon")
        ranges = reader.three_numbers(weapon, "ranges", f"{path}.weapon")
        if ranges is not None:
            values["range_short"], values["range_medium"], values["range_long"] = ranges
    abilities = data.get("abilities", [])
    if not isinstance(abilities, list) or not all(
        isinstance(item, str) for item in abilities
    ):
        reader.problem(f"{path}.abilities", _("must be a list of texts"))
        abilities = []
    if values["source"] not in CardSource.values:
        reader.problem(
            f"{path}.source", _("must be one of %(v)s") % {"v": CardSource.values}
        )
    if len(reader.problems) > before:
        return None
    people = peoples.get(people_name) or People(name=people_name, voie=voie)
    peoples[people_name] = people
    card = ReferenceCard(people=people, **values)
    try:
        card.full_clean(
            exclude=["people", "owner"],
            validate_unique=False,
            validate_constraints=False,
        )
    except ValidationError as error:
        for field_name, messages in error.message_dict.items():
            where = (
                path
                if field_name == NON_FIELD_ERRORS
                else f"{path}.{_FIELD_PATHS.get(field_name, field_name)}"
            )
            for message in messages:
                reader.problem(where, message)
        return None
    parsed = [parse_ability(text) for text in abilities if text.strip()]
    for name, value in parsed:
        if len(name) > 60 or len(value) > 40:
            reader.problem(f"{path}.abilities", _("an ability is too long"))
            return None
    return card, [format_ability(name, value) for name, value in parsed]


def _load_json(data: bytes | str | dict) -> Any:
    if isinstance(data, dict):
        return data
    if isinstance(data, bytes):
        if len(data) > MAX_IMPORT_BYTES:
            raise ArmyImportError([("$", _("The file is larger than 1 MB."))])
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ArmyImportError([("$", _("The file is not UTF-8 text."))]) from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as error:
        raise ArmyImportError(
            [("$", _("The file is not valid JSON (%(e)s).") % {"e": error})]
        ) from None


def import_army_json(owner: Owner, data: bytes | str | dict) -> Army:
    """Create an army for ``owner`` from an army file (docs/army-json.md).

    Cards are matched by people and name: the owner's own card, else the
    shared library's, is used when its profile is the same; a missing card (or
    a library card whose profile differs) is created as the owner's. Any
    problem refuses the whole file with every problem found.
    """
    _require_owner(owner)
    document = _load_json(data)
    reader = _Reader()
    document = reader.obj(document, "$")
    if document.get("format") != ARMY_JSON_FORMAT:
        reader.problem("format", _("must be “%(f)s”") % {"f": ARMY_JSON_FORMAT})
    if document.get("version") != ARMY_JSON_VERSION:
        reader.problem(
            "version",
            _("must be %(v)s (this server reads version %(v)s)")
            % {"v": ARMY_JSON_VERSION},
        )
    army_data = reader.obj(document.get("army"), "army")
    name = reader.text(army_data, "name", "army").strip()
    if not name:
        reader.problem("army.name", _("is missing"))
    elif len(name) > 100:
        reader.problem("army.name", _("is longer than 100 characters"))
    # The importer's own people wins over a shared one of the same name.
    peoples = {
        people.name: people
        for people in sorted(
            People.objects.visible_to(owner), key=lambda people: not people.is_shared
        )
    }
    army_people_name, army_voie = _read_people(
        reader, army_data.get("people"), "army.people"
    )
    points_limit = reader.integer(army_data, "points_limit", "army", required=True)
    if points_limit is not None and not 1 <= points_limit <= 10000:
        reader.problem("army.points_limit", _("must be between 1 and 10000"))
    cards_data = army_data.get("cards", [])
    if not isinstance(cards_data, list):
        reader.problem("army.cards", _("must be a list"))
        cards_data = []
    if len(cards_data) > MAX_IMPORT_CARDS:
        reader.problem("army.cards", _("holds more than 200 cards"))
        cards_data = []
    army_people = peoples.get(army_people_name) or People(
        name=army_people_name, voie=army_voie
    )
    peoples[army_people_name] = army_people
    entries = []
    profiles_seen: dict[tuple[str, str], dict] = {}
    for index, entry in enumerate(cards_data):
        path = f"army.cards[{index}]"
        entry = reader.obj(entry, path)
        fighters = reader.integer(entry, "fighters", path, required=True)
        if fighters is not None and not 1 <= fighters <= 50:
            reader.problem(f"{path}.fighters", _("must be between 1 and 50"))
        is_ally = reader.boolean(entry, "is_ally", path)
        read = _read_profile(reader, entry.get("profile"), f"{path}.profile", peoples)
        if read is None:
            continue
        card, abilities = read
        key = (card.people.name, card.name)
        profile = card_profile(card, abilities)
        if key in profiles_seen and profiles_seen[key] != profile:
            reader.problem(
                f"{path}.profile",
                _("another card of this file has the same name with another profile"),
            )
        profiles_seen[key] = profile
        if card.people.name != army_people_name and not is_ally:
            reader.problem(
                f"{path}.is_ally",
                _("a card of another people must be marked as an ally"),
            )
        known = _read_mystic(reader, entry, path)
        entries.append((path, fighters, is_ally, card, abilities, profile, known))
    if reader.problems:
        raise ArmyImportError(reader.problems)
    try:
        with transaction.atomic():
            return _write_import(
                owner, name, army_people, points_limit, entries, peoples
            )
    except ArmyImportError:
        raise
    except ArmyError as error:
        raise ArmyImportError(
            [("army", message) for message in error.messages]
        ) from error


def _write_import(owner, name, army_people, points_limit, entries, peoples) -> Army:
    problems: list[tuple[str, str]] = []
    for people in peoples.values():
        if people.pk is None:
            for key_name, value in owner.fields().items():
                setattr(people, key_name, value)
            people.full_clean()
            people.save()
    made: dict[tuple[str, str], ReferenceCard] = {}
    army = Army(
        name=_free_name(owner, name),
        people=army_people,
        points_limit=points_limit,
        **owner.fields(),
    )
    spend("army", who(owner), error=ArmyError)
    _save(army)
    for position, (
        path,
        fighters,
        is_ally,
        card,
        abilities,
        profile,
        known,
    ) in enumerate(entries):
        card.people = card.people  # the People now has a pk
        key = (card.people.name, card.name)
        existing = made.get(key) or _matching_card(owner, card)
        if existing is not None and card_profile(existing) != profile:
            if not existing.is_shared:
                problems.append(
                    (
                        f"{path}.profile",
                        _(
                            "you already have a card “%(name)s” of %(people)s "
                            "with another profile: rename one of them"
                        )
                        % {"name": card.name, "people": card.people.name},
                    )
                )
                continue
            existing = None
        if existing is None:
            for key_name, value in owner.fields().items():
                setattr(card, key_name, value)
            card.is_demo = False
            _save(card)
            _set_abilities(card, [parse_ability(text) for text in abilities])
            existing = card
        made[key] = existing
        army_card = ArmyCard.objects.create(
            army=army,
            card=existing,
            fighters=fighters,
            position=position,
            is_ally=is_ally and existing.people_id != army.people_id,
        )
        if known["spells"]:
            army_card.spells.set(_known(owner, Spell, known["spells"]))
        if known["miracles"]:
            army_card.miracles.set(_known(owner, Miracle, known["miracles"]))
    if problems:
        raise ArmyImportError(problems)
    return army


def _matching_card(owner: Owner, card: ReferenceCard) -> ReferenceCard | None:
    candidates = (
        ReferenceCard.objects.visible_to(owner)
        .filter(people=card.people, name=card.name)
        .select_related("people")
        .prefetch_related("abilities")
    )
    own = [candidate for candidate in candidates if not candidate.is_shared]
    return (own or list(candidates) or [None])[0]
