"""Armies and reference cards: one function per player action.

Each function runs in one transaction and either does everything it says or
raises ``ArmyError`` (a ``ValidationError`` whose messages are keyed by the
field they are about) and writes nothing. Views call these; forms check the
input first, the models' validators and ``clean()`` check it again here, so a
service called from anywhere (a command, a test, a later API) is just as safe.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models.armies import (
    CHARACTERISTIC_FIELDS,
    NAME_TAKEN,
    Army,
    ArmyCard,
    CardAbility,
    CardSource,
    Owner,
    People,
    ReferenceCard,
    Voie,
    format_ability,
    parse_abilities,
    parse_ability,
)
from battles.validation import CONTROL_MESSAGE, has_control_characters

__all__ = [
    "ARMY_JSON_FORMAT",
    "ARMY_JSON_VERSION",
    "PROFILE_FIELDS",
    "RESTORE_WINDOW",
    "ArmyError",
    "ArmyImportError",
    "add_card",
    "card_profile",
    "change_count",
    "create_army",
    "create_custom_card",
    "delete_army",
    "duplicate_army",
    "export_army_json",
    "import_army_json",
    "remove_card",
    "undo_delete",
]

# A deleted army can be restored for this long, then it is purged for good.
RESTORE_WINDOW = timedelta(minutes=30)

ARMY_JSON_FORMAT = "confrontation-army"
ARMY_JSON_VERSION = 1
MAX_IMPORT_BYTES = 1024 * 1024
MAX_IMPORT_CARDS = 200

# The fields a player types for a profile (everything but ownership and origin).
PROFILE_FIELDS = (
    "name",
    "people",
    "rank",
    "mystic_rank",
    "size",
    "base_shape",
    "cost",
    *CHARACTERISTIC_FIELDS.values(),
    "weapon_name",
    "weapon_strength",
    "range_short",
    "range_medium",
    "range_long",
    "fighters_per_card",
)


class ArmyError(ValidationError):
    """An action a player asked for that cannot be done, and why.

    Built from a message or a ``{field: [messages]}`` dict, like Django's
    ``ValidationError``, so a view can put each message next to its field.
    """


class ArmyImportError(ArmyError):
    """An army file refused whole; ``problems`` lists ``(path, message)``."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__([f"{path}: {message}" for path, message in problems])


def _full_clean(instance, *, exclude: list[str] | None = None) -> None:
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as error:
        raise ArmyError(_by_field(error)) from error


def _by_field(error: ValidationError) -> dict[str, list[str]]:
    """The messages by field, a name-taken constraint's next to the name."""
    messages: dict[str, list[str]] = {}
    for field_name, errors in error.error_dict.items():
        for item in errors:
            target = "name" if item.code == NAME_TAKEN else field_name
            messages.setdefault(target, []).extend(item.messages)
    return messages


def _save(instance, *, field_name: str = "name") -> None:
    """Save, turning a lost race on a unique constraint into an ArmyError."""
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError as error:
        raise ArmyError(
            {field_name: [_("That name is already taken: choose another.")]}
        ) from error


def _require_owner(owner: Owner) -> None:
    if not owner.is_anyone:
        raise ArmyError(_("Nobody to own this: reload the page and try again."))


def _require_editable(army: Army) -> None:
    if army.is_shared:
        raise ArmyError(
            _("Demo armies are read-only: copy it into your armies to change it.")
        )
    if army.deleted_at is not None:
        raise ArmyError(_("This army was deleted."))


def _lock(army: Army) -> Army:
    """The army row, locked for this transaction (positions, counts)."""
    return Army.objects.select_for_update().get(pk=army.pk)


def _free_name(owner: Owner, wanted: str) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)``... the first the owner has free."""
    taken = set(
        Army.objects.alive()
        .owned_by(owner)
        .filter(name__startswith=wanted[:80])
        .values_list("name", flat=True)
    )
    if wanted not in taken:
        return wanted
    number = 2
    while f"{wanted[:90]} ({number})" in taken:
        number += 1
    return f"{wanted[:90]} ({number})"


# --- Armies ------------------------------------------------------------------
@transaction.atomic
def create_army(
    owner: Owner, *, name: str, people: People, points_limit: int = 400
) -> Army:
    """A new empty army for ``owner``."""
    _require_owner(owner)
    army = Army(
        name=(name or "").strip(),
        people=people,
        points_limit=points_limit,
        **owner.fields(),
    )
    _full_clean(army, exclude=["owner"])
    _save(army)
    return army


@transaction.atomic
def duplicate_army(army: Army, owner: Owner, *, name: str | None = None) -> Army:
    """A copy of ``army`` (the owner's own or a demo army) owned by ``owner``.

    The copy's name is ``name`` or "<name> (copy)", numbered if taken.
    """
    _require_owner(owner)
    if army.deleted_at is not None:
        raise ArmyError(_("This army was deleted."))
    wanted = (name or "").strip() or _("%(name)s (copy)") % {"name": army.name}
    copy = Army(
        name=_free_name(owner, wanted[:100]),
        people=army.people,
        points_limit=army.points_limit,
        **owner.fields(),
    )
    _full_clean(copy, exclude=["owner"])
    _save(copy)
    ArmyCard.objects.bulk_create(
        ArmyCard(
            army=copy,
            card_id=army_card.card_id,
            fighters=army_card.fighters,
            position=index,
            is_ally=army_card.is_ally,
        )
        for index, army_card in enumerate(army.cards.order_by("position", "id"))
    )
    return copy


def _purge_deleted_armies() -> None:
    Army.objects.filter(deleted_at__lt=timezone.now() - RESTORE_WINDOW).delete()


@transaction.atomic
def delete_army(army: Army) -> Army:
    """Delete ``army``, restorable with ``undo_delete`` for ``RESTORE_WINDOW``."""
    _require_editable(army)
    army = _lock(army)
    army.deleted_at = timezone.now()
    army.save(update_fields=["deleted_at", "updated"])
    _purge_deleted_armies()
    return army


@transaction.atomic
def undo_delete(owner: Owner, army_id: int) -> Army:
    """Bring back an army ``owner`` deleted less than ``RESTORE_WINDOW`` ago.

    If its name was taken meanwhile, it comes back numbered ("Griffons (2)").
    """
    army = (
        Army.objects.select_for_update()
        .owned_by(owner)
        .filter(pk=army_id, deleted_at__isnull=False)
        .first()
    )
    if army is None or army.deleted_at < timezone.now() - RESTORE_WINDOW:
        raise ArmyError(_("Too late to undo: that army is gone."))
    army.name = _free_name(owner, army.name)
    army.deleted_at = None
    _save(army)
    return army


# --- Cards of an army ------------------------------------------------------------
def _card_usable_by(card: ReferenceCard, army: Army) -> bool:
    if card.is_shared:
        return True
    if army.owner_id is not None:
        return card.owner_id == army.owner_id
    return bool(army.guest_key) and card.guest_key == army.guest_key


@transaction.atomic
def add_card(
    army: Army,
    card: ReferenceCard,
    *,
    fighters: int | None = None,
    is_ally: bool = False,
) -> ArmyCard:
    """Put ``card`` at the end of the army's cards, activating ``fighters``
    fighters (the card's default when None).

    A card of another people is refused unless added as an ally.
    """
    _require_editable(army)
    army = _lock(army)
    if not _card_usable_by(card, army):
        raise ArmyError({"card": [_("That card is not in your library.")]})
    if card.people_id != army.people_id:
        if not is_ally:
            raise ArmyError(
                {
                    "card": [
                        _(
                            "%(card)s belongs to %(people)s, not %(army_people)s: "
                            "add it as an ally."
                        )
                        % {
                            "card": card.name,
                            "people": card.people.name,
                            "army_people": army.people.name,
                        }
                    ]
                }
            )
    else:
        is_ally = False
    last = army.cards.aggregate(last=Max("position"))["last"]
    army_card = ArmyCard(
        army=army,
        card=card,
        fighters=card.fighters_per_card if fighters is None else fighters,
        position=0 if last is None else last + 1,
        is_ally=is_ally,
    )
    _full_clean(army_card)
    army_card.save()
    army.save(update_fields=["updated"])
    return army_card


def _army_card(army: Army, army_card_id: int) -> ArmyCard:
    try:
        return army.cards.select_related("card").get(pk=army_card_id)
    except (ArmyCard.DoesNotExist, ValueError, TypeError):
        raise ArmyError({"card": [_("That card is no longer in this army.")]}) from None


@transaction.atomic
def change_count(army: Army, army_card_id: int, delta: int) -> ArmyCard:
    """Add ``delta`` fighters (negative to remove) to one card of the army.

    A card keeps at least one fighter: remove the card to go below.
    """
    _require_editable(army)
    army = _lock(army)
    army_card = _army_card(army, army_card_id)
    fighters = army_card.fighters + delta
    if fighters < 1:
        raise ArmyError(
            {"fighters": [_("At least one fighter a card: remove the card instead.")]}
        )
    army_card.fighters = fighters
    _full_clean(army_card)
    army_card.save(update_fields=["fighters"])
    army.save(update_fields=["updated"])
    return army_card


@transaction.atomic
def remove_card(army: Army, army_card_id: int) -> None:
    """Take one card out of the army."""
    _require_editable(army)
    army = _lock(army)
    _army_card(army, army_card_id).delete()
    army.save(update_fields=["updated"])


# --- Reference cards ------------------------------------------------------------
def _set_abilities(card: ReferenceCard, abilities: list[tuple[str, str]]) -> None:
    card.abilities.all().delete()
    CardAbility.objects.bulk_create(
        CardAbility(card=card, name=name, value=value, position=index)
        for index, (name, value) in enumerate(abilities)
    )


def _check_abilities(abilities: list[tuple[str, str]]) -> None:
    for name, value in abilities:
        if len(name) > 60 or len(value) > 40:
            raise ArmyError(
                {
                    "abilities": [
                        _("“%(ability)s” is too long.")
                        % {"ability": format_ability(name, value)[:70]}
                    ]
                }
            )


@transaction.atomic
def create_custom_card(
    owner: Owner, *, abilities: str | list[str] = "", **profile: Any
) -> ReferenceCard:
    """A reference card typed by ``owner`` (source "custom").

    ``profile`` holds the ``PROFILE_FIELDS``; ``abilities`` is either one text
    ("Tueur né/1, Créature") or a list of "Name/Value" strings.
    """
    _require_owner(owner)
    unknown = set(profile) - set(PROFILE_FIELDS)
    if unknown:
        raise ArmyError(_("Unknown fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    if isinstance(profile.get("name"), str):
        profile["name"] = profile["name"].strip()
    card = ReferenceCard(source=CardSource.CUSTOM, **profile, **owner.fields())
    parsed = (
        parse_abilities(abilities)
        if isinstance(abilities, str)
        else [parse_ability(text) for text in abilities if text.strip()]
    )
    _check_abilities(parsed)
    _full_clean(card, exclude=["owner"])
    _save(card)
    _set_abilities(card, parsed)
    return card


def card_profile(card: ReferenceCard, abilities: list[str] | None = None) -> dict:
    """The card's profile as JSON data (the army file's ``profile``).

    ``abilities`` replaces the card's own (for a card not saved yet).
    """
    mou = card.mou
    if mou is not None:
        mou = Decimal(mou)
        mou = int(mou) if mou == mou.to_integral_value() else float(mou)
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
        "fighters_per_card": card.fighters_per_card,
        "characteristics": characteristics,
        "weapon": weapon,
        "abilities": (
            list(abilities)
            if abilities is not None
            else [str(ability) for ability in card.abilities.all()]
        ),
        "source": card.source,
        "source_detail": card.source_detail,
    }


# --- Export and import ------------------------------------------------------------
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
                }
                for army_card in army.cards.all()
            ],
        },
    }


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
    weapon = data.get("weapon")
    if weapon is not None:
        weapon = reader.obj(weapon, f"{path}.weapon")
        values["weapon_name"] = reader.text(
            weapon, "name", f"{path}.weapon", required=False
        )
        values["weapon_strength"] = reader.integer(weapon, "strength", f"{path}.weapon")
        ranges = weapon.get("ranges")
        if ranges is not None:
            if (
                not isinstance(ranges, list)
                or len(ranges) != 3
                or any(isinstance(r, bool) or not isinstance(r, int) for r in ranges)
            ):
                reader.problem(
                    f"{path}.weapon.ranges", _("must be three whole numbers")
                )
            else:
                values["range_short"], values["range_medium"], values["range_long"] = (
                    ranges
                )
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
    peoples = {people.name: people for people in People.objects.all()}
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
        entries.append((path, fighters, is_ally, card, abilities, profile))
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
            people.full_clean()
            people.save()
    made: dict[tuple[str, str], ReferenceCard] = {}
    army = Army(
        name=_free_name(owner, name),
        people=army_people,
        points_limit=points_limit,
        **owner.fields(),
    )
    _save(army)
    for position, (path, fighters, is_ally, card, abilities, profile) in enumerate(
        entries
    ):
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
        ArmyCard.objects.create(
            army=army,
            card=existing,
            fighters=fighters,
            position=position,
            is_ally=is_ally and existing.people_id != army.people_id,
        )
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
