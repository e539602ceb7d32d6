"""``manage.py restore PATH``: replace the database with a backup.

See ``battles.backup``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from battles.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Replace everything in the database with the backup at PATH (made by "
        "manage.py backup). Stop the server first: what it wrote after the "
        "backup is lost."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path")
        parser.add_argument("--database", default="default")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Do not ask for confirmation.",
        )

    def handle(self, *args, path: str, database: str, interactive: bool, **options):
        if interactive:
            answer = input(
                "This replaces everything in the database with the backup. "
                "Type 'yes' to go on: "
            )
            if answer.strip().lower() != "yes":
                raise CommandError("Restore cancelled.")
        try:
            used = restore(path, using=database)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored from {path} ({used}).")
