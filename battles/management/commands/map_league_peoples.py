"""Rename the league's free-text peoples to the app's list (issue 24).

``manage.py map_league_peoples`` renames them; ``--dry-run`` only tells.
The names that match no people of the app are listed and left as they are.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from battles.league.services.peoples import map_league_peoples


class Command(BaseCommand):
    help = "Rename the league results' peoples to the app's list of peoples."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Tell what would change only."
        )

    def handle(self, *args, dry_run: bool = False, **options):
        mapping = map_league_peoples(dry_run=dry_run)
        verb = "would rename" if dry_run else "renamed"
        for (old, new), count in sorted(mapping.renamed.items()):
            self.stdout.write(f"{verb} {old!r} -> {new!r} ({count})")
        for name, count in sorted(mapping.unknown.items()):
            self.stdout.write(f"unknown people {name!r} ({count}), left as typed")
        total = sum(mapping.renamed.values())
        self.stdout.write(f"{total} entries {verb}.")
