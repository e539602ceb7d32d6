"""``manage.py backup PATH``: the whole database into one file (``battles.backup``)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from battles.backup import BackupError, backup


class Command(BaseCommand):
    help = (
        "Back up the whole database to PATH: on SQLite a copy made with the "
        "online backup API (safe while the server runs), on PostgreSQL every "
        "row as JSON in one consistent snapshot. Restore with manage.py restore."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path")
        parser.add_argument(
            "--format",
            choices=["sqlite", "json"],
            default="",
            help="sqlite (SQLite only, the default there) or json (any database).",
        )
        parser.add_argument("--database", default="default")

    def handle(self, *args, path: str, format: str, database: str, **options):
        try:
            used = backup(path, using=database, fmt=format)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up to {path} ({used}).")
