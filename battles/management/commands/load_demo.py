"""``manage.py load_demo``: the demo peoples, cards and armies (idempotent)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from battles.demo import load_demo


class Command(BaseCommand):
    help = (
        "Load the demo peoples, reference cards (Profil Rackham and archetypes) "
        "and two ready armies. Running it again changes nothing."
    )

    def handle(self, *args, **options) -> None:
        changed = load_demo()
        if any(changed.values()):
            self.stdout.write(
                "Demo data loaded: {peoples} peoples, {cards} cards and {armies} "
                "armies created or updated.".format(**changed)
            )
        else:
            self.stdout.write("Demo data already up to date.")
