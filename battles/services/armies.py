"""Armies and reference cards: one function per player action.

Each function runs in one transaction and either does everything it says or
raises ``ArmyError`` (a ``ValidationError`` whose messages are keyed by the
field they are about) and writes nothing. Views call these; forms check the
input first, the models' validators and ``clean()`` check it again here, so a
service called from anywhere (a command, a test, a later API) is just as safe.

The files an army travels in (the army JSON file, community catalogues) are
read and written in ``battles.files``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
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
    format_ability,
    parse_abilities,
    parse_ability,
)
from battles.services.once import once
from battles.services.quotas import spend, who

__all__ = [
    "PROFILE_FIELDS",
    "PROFILE_FLIGHT_AND_FAITH",
    "PROFILE_IDENTITY",
    "PROFILE_WEAPON",
    "RESTORE_WINDOW",
    "ArmyError",
    "add_card",
    "change_count",
    "create_army",
    "create_custom_card",
    "delete_army",
    "duplicate_army",
    "remove_card",
    "undo_delete",
]

# A deleted army can be restored for this long, then it is purged for good.
RESTORE_WINDOW = timedelta(minutes=30)

# The fields a player types for a profile (everything but ownership and origin),
# in the groups a card prints them (the card form shows them so).
PROFILE_IDENTITY = (
    "name",
    "people",
    "rank",
    "mystic_rank",
    "size",
    "base_shape",
    "cost",
    "fighters_per_card",
)
PROFILE_FLIGHT_AND_FAITH = ("mou_flight", "creation", "alteration", "destruction")
PROFILE_WEAPON = (
    "weapon_name",
    "weapon_strength",
    "range_short",
    "range_medium",
    "range_long",
)
PROFILE_FIELDS = (
    *PROFILE_IDENTITY,
    *CHARACTERISTIC_FIELDS.values(),
    *PROFILE_FLIGHT_AND_FAITH,
    *PROFILE_WEAPON,
)


class ArmyError(ValidationError):
    """An action a player asked for that cannot be done, and why.

    Built from a message or a ``{field: [messages]}`` dict, like Django's
    ``ValidationError``, so a view can put each message next to its field.
    """


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
@once("army", by="owner", error=ArmyError, fetch=lambda pk: Army.objects.get(pk=pk))
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
    spend("army", who(owner), error=ArmyError)
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
    spend("army", who(owner), error=ArmyError)
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

    A card already in the army (as an ally or not, the same way) is not added
    a second time: its count goes up by ``fighters`` instead, so a second tap
    on "Add" raises the count rather than making a second row. A card of
    another people is refused unless added as an ally.
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
    fighters = card.fighters_per_card if fighters is None else fighters
    already = army.cards.filter(card=card, is_ally=is_ally).order_by("position").first()
    if already is not None:
        already.fighters += fighters
        _full_clean(already)
        already.save(update_fields=["fighters"])
        army.save(update_fields=["updated"])
        return already
    last = army.cards.aggregate(last=Max("position"))["last"]
    army_card = ArmyCard(
        army=army,
        card=card,
        fighters=fighters,
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
@once(
    "custom card",
    by="owner",
    error=ArmyError,
    fetch=lambda pk: ReferenceCard.objects.get(pk=pk),
)
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
    spend("custom card", who(owner), error=ArmyError)
    _save(card)
    _set_abilities(card, parsed)
    return card
