"""Import a community catalogue's "Profile Card" profiles as reference cards.

The people: the one chosen on the form, else the one the catalogue's name
matches in English or French (``battles.files.people_names``), else a people of
that name the importer already has, else a new one, private to the importer
(shared only for the operator's command).

Idempotent: a profile updates the card that holds its profile id, else the
card of the same people and name that came from a catalogue; it never makes a
second card, and a profile equal to its card is listed as "unchanged". Cards
of another origin (a "Profil Rackham" demo card, a custom card) are never
overwritten: such a profile is skipped, and the summary says
why. A file that cannot be read is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from battles.files.army_json import card_profile
from battles.files.battlescribe import CatalogueError, read_catalogue
from battles.files.people_names import normalized, people_for
from battles.models.armies import CardSource, Owner, People, ReferenceCard
from battles.services.armies import ArmyError, _set_abilities

__all__ = ["ImportSummary", "import_catalogue"]


@dataclass
class ImportSummary:
    """What an import did, card by card."""

    catalogue: str
    people: str
    imported: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (name, why)
    # (name, reading assumed), e.g. a bare Cou/Fea number read as courage.
    assumed: list[tuple[str, str]] = field(default_factory=list)
    other_profiles: int = 0
    repeated: int = 0  # profiles the catalogue repeats identically, read once
    people_matched: bool = False  # the catalogue's name matched a people
    people_created: bool = False


def _cards_in_scope(owner: Owner | None):
    if owner is None:
        return ReferenceCard.objects.shared()
    return ReferenceCard.objects.owned_by(owner)


@transaction.atomic
def import_catalogue(
    data: bytes, *, owner: Owner | None = None, people: People | None = None
) -> ImportSummary:
    """Import the catalogue in ``data`` (.cat, .gst, .catz, .gstz bytes).

    ``owner`` None imports into the shared library (the operator's command);
    otherwise into that player's own cards. The people is ``people``, else the
    catalogue's name (created when new).
    """
    try:
        catalogue = read_catalogue(data)
    except CatalogueError as error:
        raise ArmyError({"file": [str(error)]}) from None
    if owner is not None and not owner.is_anyone:
        raise ArmyError(_("Nobody to own this: reload the page and try again."))
    matched = created = False
    if people is None:
        if not catalogue.name:
            raise ArmyError(
                {"people": [_("The catalogue has no name: choose its people.")]}
            )
        people, matched, created = _people_of(catalogue.name, owner)
    summary = ImportSummary(
        catalogue=catalogue.name,
        people=people.name,
        other_profiles=catalogue.other_profiles,
        repeated=catalogue.repeated,
        people_matched=matched,
        people_created=created,
    )
    scope = _cards_in_scope(owner).filter(people=people)
    seen: set[str] = set()
    for profile in catalogue.profiles:
        label = profile.name or profile.external_id or "?"
        if profile.problems:
            summary.skipped.append((label, "; ".join(profile.problems)))
            continue
        keys = {f"id:{profile.external_id}", f"name:{profile.name}"} - {"id:"}
        if keys & seen:
            summary.skipped.append((label, _("appears twice in the catalogue")))
            continue
        seen |= keys
        existing = None
        if profile.external_id:
            existing = scope.filter(external_id=profile.external_id).first()
        if existing is None:
            existing = scope.filter(name=profile.name).first()
        if existing is not None and existing.source != CardSource.CATALOGUE:
            summary.skipped.append(
                (
                    label,
                    _("a card of that name already exists (%(source)s): kept as it is")
                    % {"source": existing.attribution},
                )
            )
            continue
        card = existing or ReferenceCard(
            people=people, **(owner.fields() if owner else {})
        )
        before = card_profile(card) if existing else None
        before_id = existing.external_id if existing else None
        card.name = profile.name
        card.source = CardSource.CATALOGUE
        card.source_detail = catalogue.name[:120]
        card.external_id = profile.external_id
        for name, value in profile.values.items():
            setattr(card, name, value)
        try:
            card.full_clean()
        except ValidationError as error:
            summary.skipped.append((label, "; ".join(_messages(card, error))))
            continue
        abilities = [
            f"{name}/{value}" if value else name for name, value in profile.abilities
        ]
        summary.assumed.extend((label, note) for note in profile.notes)
        if existing is not None and before == card_profile(card, abilities):
            if existing.external_id != before_id:
                card.save(update_fields=["external_id"])
            summary.unchanged.append(label)
            continue
        card.save()
        _set_abilities(card, profile.abilities)
        (summary.updated if existing else summary.imported).append(label)
    return summary


def _people_of(name: str, owner: Owner | None) -> tuple[People, bool, bool]:
    """(people, matched a known name, created) for a catalogue's ``name``."""
    visible = (
        People.objects.shared() if owner is None else People.objects.visible_to(owner)
    )
    french = people_for(name)
    if french is not None:
        people = visible.filter(name=french).order_by("owner", "guest_key").first()
        if people is not None:
            return people, True, False
    wanted = normalized(name)
    for people in visible.order_by("owner", "guest_key", "name"):
        if normalized(people.name) == wanted:
            return people, False, False
    people = People(name=(french or name)[:80], **(owner.fields() if owner else {}))
    people.full_clean()
    people.save()
    return people, french is not None, True


def _messages(card: ReferenceCard, error: ValidationError) -> list[str]:
    messages = []
    for field_name, field_messages in error.message_dict.items():
        try:
            label = str(card._meta.get_field(field_name).verbose_name)
        except FieldDoesNotExist:  # "__all__"
            label = ""
        for message in field_messages:
            messages.append(f"{label}: {message}" if label else message)
    return messages
