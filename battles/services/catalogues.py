"""Import a community catalogue's "Profile Card" profiles as reference cards.

Idempotent: a profile updates the card that holds its profile id, else the
card of the same people and name that came from a catalogue; it never makes a
second card. Cards of another origin (a "Profil Rackham" demo card, a custom
card) are never overwritten: such a profile is skipped, and the summary says
why. A file that cannot be read is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from battles.files.army_json import card_profile
from battles.files.battlescribe import CatalogueError, read_catalogue
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
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (name, why)
    other_profiles: int = 0


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
    if people is None:
        if not catalogue.name:
            raise ArmyError(
                {"people": [_("The catalogue has no name: choose its people.")]}
            )
        people, _created = People.objects.get_or_create(name=catalogue.name[:80])
    summary = ImportSummary(
        catalogue=catalogue.name,
        people=people.name,
        other_profiles=catalogue.other_profiles,
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
        if existing is not None and before == card_profile(card, abilities):
            card.save(update_fields=["external_id"])
            summary.skipped.append((label, _("already up to date")))
            continue
        card.save()
        _set_abilities(card, profile.abilities)
        (summary.updated if existing else summary.imported).append(label)
    return summary


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
