"""``manage.py verify_game FILE``: recompute every face and every result of a
downloaded log.

FILE is the JSON a finished game's verify page downloads
(``/games/<id>/log.json``). Nothing is read from the database or the server:
the seed in the file is checked against the fingerprint shown from the start,
then every roll of the app's dice is recomputed from the seed and its roll
number (``rules.verify``, the derivation the game rolls with). Rolls typed
from real dice are counted, not checked. Then the log is replayed through the
rules (``rules.story``): every action decided again from its recorded command
and its faces, every event compared. Exit status 1 on the first difference,
naming the event (seq and kind). ``--dice-only`` checks the faces alone (a log
downloaded before the commands were recorded).
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.story import check_story
from rules.verify import check_rolls, seed_matches


class Command(BaseCommand):
    help = (
        "Recompute every app-rolled face of a game's downloaded JSON log from "
        "its revealed seed, without the server; exit status 1 on any mismatch."
    )
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The log downloaded from the verify page.")
        parser.add_argument(
            "--dice-only",
            action="store_true",
            help="Check the faces only, not the results (a log from before the "
            "commands were recorded).",
        )

    def handle(self, *args, file: str, dice_only: bool = False, **options) -> None:
        try:
            log = json.loads(Path(file).read_text(encoding="utf-8"))
            seed, fingerprint = log["seed"], log["seed_sha256"]
            events = log["events"]
        except RecursionError:
            # A file nested deeper than any log (hostile or broken): a message,
            # not the parser's traceback.
            raise CommandError("Not a game log: nested too deeply.") from None
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CommandError(f"Not a game log: {error}") from None
        if not isinstance(seed, str) or not isinstance(fingerprint, str):
            raise CommandError("Not a game log: the seed is not a text.")
        if not seed:
            raise CommandError("The log holds no seed: the game was not over.")
        if not seed_matches(seed, fingerprint):
            raise CommandError(
                "The seed does not match the fingerprint shown from the start."
            )
        try:
            checks = check_rolls(events, seed)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise CommandError(f"Not a game log: {error}") from None
        except RecursionError:
            raise CommandError("Not a game log: nested too deeply.") from None
        bad = [check for check in checks if not check.ok]
        typed = sum(check.typed for check in checks)
        for check in bad:
            self.stdout.write(
                f"event {check.seq} (roll {check.roll}): logged "
                f"{' '.join(map(str, check.faces))}, the seed gives "
                f"{' '.join(map(str, check.expected))}"
            )
        seeded = len(checks) - typed
        self.stdout.write(
            f"{seeded - len(bad)} of {seeded} app-rolled rolls match the seed; "
            f"{typed} typed from real dice (not checked)."
        )
        if bad:
            raise CommandError(f"{len(bad)} roll(s) do not match the seed.")
        if dice_only:
            self.stdout.write("Results not checked (--dice-only).")
            return
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise CommandError("Not a game log: its events are not a list of events.")
        story = check_story(events, log.get("dice_mode"), finished=True)
        if story.difference is not None:
            self.stdout.write(str(story.difference))
            raise CommandError(
                f"The log's story differs from the rules at event "
                f"{story.difference.seq} ({story.difference.kind})."
            )
        self.stdout.write(
            f"{story.actions} actions decided again by the rules from their "
            f"commands and faces: all their events match."
        )
        if story.unchecked:
            raise CommandError(
                f"The first {story.unchecked} actions were logged before commands "
                "were recorded: their results cannot be proven (--dice-only checks "
                "the faces alone)."
            )
        self.stdout.write(f"All {story.events} events of the log are proven.")
