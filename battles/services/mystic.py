"""Spells and miracles: imported from community catalogues, known by an
army's magicians and faithful, and handed to the rules for a game (X, XI).

``import_mystic_catalogue`` reads the "Spell Card" and "Miracle Card"
profiles (``battles.files.mystic_catalogue``) into the shared library (or an
owner's collection): idempotent, a record updates the spell or miracle of
the same name that came from a catalogue; one typed by hand is never
overwritten. Every value not understood is listed in the summary and kept on
the record (``unclear``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from battles.files.army_json import MIRACLE_FIELDS, SPELL_FIELDS
from battles.files.battlescribe import CatalogueError
from battles.files.mystic_catalogue import MysticRecord, read_mystic_catalogue
from battles.models.armies import ArmyCard, Owner
from battles.models.mystic import Miracle, MysticSource, Spell
from battles.services.armies import ArmyError, _full_clean, _require_owner, _save
from battles.services.quotas import spend, who

__all__ = [
    "MysticImportSummary",
    "delete_mystic",
    "import_mystic_catalogue",
    "save_mystic",
    "mystic_setup",
    "set_known",
]


@dataclass
class MysticImportSummary:
    catalogue: str
    imported: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    unclear: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def read(self) -> int:
        return len(self.imported) + len(self.updated) + len(self.unchanged)


def _scope(model, owner: Owner | None):
    if owner is None:
        return model.objects.shared()
    return model.objects.filter(owner.q())


def _clean_name(name: str) -> str:
    """A miracle's name without the aspects the catalogue appends: "Lame
    oscure (1 0 1)" -> "Lame oscure"."""
    import re

    return re.sub(r"\s*\(\s*\d\s+\d\s+\d\s*\)\s*$", "", name).strip()[:120]


@transaction.atomic
def import_mystic_catalogue(
    data: bytes, *, owner: Owner | None = None, source_detail: str = ""
) -> MysticImportSummary:
    """Import a catalogue's spells and miracles (see the module docstring)."""
    try:
        catalogue = read_mystic_catalogue(data)
    except CatalogueError as error:
        raise ArmyError([str(error)]) from None
    summary = MysticImportSummary(catalogue=catalogue.name)
    detail = (source_detail or catalogue.name)[:200]
    for model, records, fields in (
        (Spell, catalogue.spells, SPELL_FIELDS),
        (Miracle, catalogue.miracles, MIRACLE_FIELDS),
    ):
        for record in records:
            _import_one(model, record, fields, owner, detail, summary)
    return summary


def _import_one(
    model,
    record: MysticRecord,
    fields: tuple[str, ...],
    owner: Owner | None,
    detail: str,
    summary: MysticImportSummary,
) -> None:
    name = _clean_name(record.name) if model is Miracle else record.name[:120]
    if not name:
        summary.skipped.append((record.name, _("no name")))
        return
    for field_name, text in record.unclear:
        summary.unclear.append((name, field_name, text))
    if ("card", "(empty)") in record.unclear:
        summary.skipped.append((name, _("a blank card")))
        return
    if name in summary.imported + summary.updated + summary.unchanged:
        summary.skipped.append((name, _("repeated in the file")))
        return
    values = {key: record.values.get(key) for key in fields}
    for key in fields:
        if values[key] is None and key.endswith(("_text", "path", "cult", "area")):
            values[key] = ""
        if key == "duration" and values[key] is None:
            values[key] = ""
        if key == "description":
            values[key] = values[key] or ""
        if key == "universal":
            values[key] = bool(values[key])
        if key == "cost" and values[key] is None:
            values[key] = {}
    for key in ("cost_text", "difficulty_text", "frequency_text", "range_text"):
        if key in values:
            values[key] = (values[key] or "")[:80]
    for key in ("area_text", "duration_text"):
        if key in values:
            values[key] = (values[key] or "")[:120]
    unclear = [list(pair) for pair in record.unclear]
    existing = _scope(model, owner).filter(name=name).first()
    if existing is not None and existing.source != MysticSource.CATALOGUE:
        summary.skipped.append((name, _("typed by hand: not overwritten")))
        return
    if existing is None:
        item = model(
            name=name,
            source=MysticSource.CATALOGUE,
            source_detail=detail,
            external_id=record.external_id[:64],
            unclear=unclear,
            **(owner.fields() if owner else {}),
            **values,
        )
        item.full_clean(validate_constraints=False)
        item.save()
        summary.imported.append(name)
        return
    changed = False
    for key, value in {**values, "unclear": unclear}.items():
        if getattr(existing, key) != value:
            setattr(existing, key, value)
            changed = True
    if changed:
        existing.full_clean(validate_constraints=False)
        existing.save()
        summary.updated.append(name)
    else:
        summary.unchanged.append(name)


def set_known(
    army_card: ArmyCard,
    owner: Owner,
    *,
    spells: list[str] | None = None,
    miracles: list[str] | None = None,
) -> None:
    """The spells a magician card knows, the miracles a faithful may call
    (names among those the owner sees); ``ArmyError`` for a name unknown or
    a card that is no magician (POU) or faithful (FOI)."""
    card = army_card.card
    with transaction.atomic():
        if spells is not None:
            if card.pou is None and spells:
                raise ArmyError([_("Only a magician (POU) knows spells.")])
            found = list(Spell.objects.visible_to(owner).filter(name__in=spells))
            _require_all(spells, found)
            army_card.spells.set(found)
        if miracles is not None:
            if card.foi is None and miracles:
                raise ArmyError([_("Only a faithful (FOI) calls miracles.")])
            found = list(Miracle.objects.visible_to(owner).filter(name__in=miracles))
            _require_all(miracles, found)
            army_card.miracles.set(found)


def _require_all(names: list[str], found: list) -> None:
    missing = sorted(set(names) - {item.name for item in found})
    if missing:
        raise ArmyError(
            [_("Unknown spell or miracle: %(names)s.") % {"names": ", ".join(missing)}]
        )


def mystic_setup(army_cards) -> tuple[dict, dict, list[list[str]], list[list[str]]]:
    """What a game's setup needs of the armies' spells and miracles:
    ``(spells, miracles, known spells per card, known miracles per card)``
    in the rules' shape (``setup["spells"]``, ``setup["miracles"]``, a card's
    ``"spells"`` and ``"miracles"``)."""
    spells: dict = {}
    miracles: dict = {}
    known_spells, known_miracles = [], []
    for army_card in army_cards:
        names = []
        for spell in army_card.spells.all():
            spells[spell.name] = spell.game_data()
            names.append(spell.name)
        known_spells.append(names)
        names = []
        for miracle in army_card.miracles.all():
            miracles[miracle.name] = miracle.game_data()
            names.append(miracle.name)
        known_miracles.append(names)
    return spells, miracles, known_spells, known_miracles


# --- typed by hand (issue #32): a player's own spells and miracles -----------------

MYSTIC_FIELDS = {
    Spell: (
        "name", "path", "cost", "difficulty", "difficulty_text", "frequency",
        "intensity", "range_cm", "area", "duration", "points", "description",
    ),
    Miracle: (
        "name", "cult", "universal", "fervour", "creation", "alteration",
        "destruction", "difficulty", "difficulty_text", "range_cm", "area",
        "duration", "points", "description",
    ),
}  # fmt: skip


def own_mystic(model, owner: Owner, pk: int):
    """The owner's own spell or miracle ``pk``, or None (the library's and
    another player's are not his to change)."""
    if not owner.is_anyone:
        return None
    return model.objects.filter(owner.q(), pk=pk).first()


def save_mystic(model, owner: Owner, values: dict, item=None):
    """Create (``item`` None) or change the owner's own spell or miracle,
    typed by hand; ``ArmyError`` by field (a name he already has, a value
    out of bounds). Its printed texts follow what is typed."""
    _require_owner(owner)
    unknown = set(values) - set(MYSTIC_FIELDS[model])
    if unknown:
        names = ", ".join(sorted(unknown))
        raise ArmyError([_("Unknown fields: %(f)s") % {"f": names}])
    name = (values.get("name") or "").strip()
    taken = model.objects.filter(owner.q(), name=name)
    if item is not None:
        taken = taken.exclude(pk=item.pk)
    if taken.exists():
        raise ArmyError({"name": [_("You already have one of that name.")]})
    with transaction.atomic():
        if item is None:
            item = model(source=MysticSource.MANUAL, **owner.fields())
        for key, value in values.items():
            setattr(item, key, value)
        item.name = name
        if model is Spell:
            item.cost_text = ", ".join(f"{n} {k}" for k, n in item.cost.items())[:80]
            item.frequency_text = "" if item.frequency is None else str(item.frequency)
        text = item.difficulty_text.strip()
        if item.difficulty is not None and (not text or text.isdigit()):
            item.difficulty_text = str(item.difficulty)
        item.unclear = []  # typed by hand: every value is the player's
        _full_clean(item, exclude=["owner"])
        if item.pk is None:
            spend("custom card", who(owner), error=ArmyError)
        _save(item)
    return item


def delete_mystic(item) -> None:
    """Delete the owner's spell or miracle: the army cards that knew it
    forget it (their points total with it)."""
    item.delete()
