"""``manage.py import_mystic_catalogue PATH...``: the spells and miracles of
community catalogues (AA-Spells.cat, AA-Miracles.cat) into the shared library
(see ``battles.files.mystic_catalogue``)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from battles.management.commands.import_catalogue import catalogue_file
from battles.services.armies import ArmyError
from battles.services.mystic import import_mystic_catalogue


class Command(BaseCommand):
    help = (
        "Import the 'Spell Card' and 'Miracle Card' profiles of BattleScribe / "
        "New Recruit catalogues as shared spells and miracles; every value not "
        "understood is listed. Importing the same file again updates, never "
        "duplicates."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)

    def handle(self, *args, paths: list[Path], **options):
        failed = False
        for path in paths:
            data = catalogue_file(path)
            try:
                summary = import_mystic_catalogue(data, source_detail=path.name)
            except ArmyError as error:
                self.stderr.write(f"{path}: refused: {' '.join(error.messages)}")
                failed = True
                continue
            self.stdout.write(
                f"{path}: {summary.catalogue or '?'}: {len(summary.imported)} "
                f"imported, {len(summary.updated)} updated, "
                f"{len(summary.unchanged)} unchanged, {len(summary.skipped)} "
                f"skipped, {len(summary.unclear)} value(s) not understood."
            )
            for name, why in summary.skipped:
                self.stdout.write(f"  skipped {name}: {why}")
            for name, field_name, text in summary.unclear:
                self.stdout.write(f"  not understood: {name}: {field_name} {text!r}")
        if failed:
            raise CommandError("Some files were refused.")
