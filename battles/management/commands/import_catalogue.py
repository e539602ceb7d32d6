"""``manage.py import_catalogue PATH...``: BattleScribe catalogues into the
shared library (see ``battles.files.battlescribe`` for the format)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from battles.files.battlescribe import MAX_FILE_BYTES
from battles.models.armies import People
from battles.services.armies import ArmyError
from battles.services.catalogues import import_catalogue


def catalogue_file(path: Path) -> bytes:
    """A catalogue file's bytes; ``CommandError`` for one too big or unread."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CommandError(f"{path}: larger than 5 MB, refused.")
        return path.read_bytes()
    except OSError as error:
        raise CommandError(f"{path}: {error.strerror}.") from None


class Command(BaseCommand):
    help = (
        "Import the 'Profile Card' profiles of BattleScribe / New Recruit "
        "catalogues (.cat, .gst, .catz, .gstz) as shared reference cards. "
        "Importing the same file again updates, never duplicates."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument(
            "--people",
            help=(
                "The people of the cards (default: the people the catalogue's "
                "name matches in English or French, else that name)."
            ),
        )

    def handle(self, *args, paths: list[Path], people: str | None, **options):
        people_row = None
        if people:
            people_row = People.objects.shared().filter(name=people).first()
            if people_row is None:
                raise CommandError(f"No people named {people!r}.")
        failed = False
        for path in paths:
            data = catalogue_file(path)
            try:
                summary = import_catalogue(data, people=people_row)
            except ArmyError as error:
                self.stderr.write(f"{path}: refused: {' '.join(error.messages)}")
                failed = True
                continue
            self.stdout.write(
                f"{path}: {summary.catalogue or '?'} → {summary.people}: "
                f"{len(summary.imported)} imported, {len(summary.updated)} updated, "
                f"{len(summary.unchanged)} unchanged, {len(summary.skipped)} skipped."
            )
            for name, why in summary.skipped:
                self.stdout.write(f"  skipped {name}: {why}")
            for name, reading in summary.assumed:
                self.stdout.write(f"  assumed for {name}: {reading}")
        if failed:
            raise CommandError(
                "Some files were refused; nothing was written from them."
            )
