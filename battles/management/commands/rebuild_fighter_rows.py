"""``manage.py rebuild_fighter_rows [--check] [game ...]``: fighters from the log.

Each game's fighter, wound and sequence rows must say what its log says.
Without ``--check`` every game's rows are written again from its log, and the
games whose rows were out of step are named. With ``--check`` nothing is
written: the games out of step are reported, and the command exits with
status 1 if there is any.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from battles.models.games import Game
from battles.services.fighter_rows import out_of_step, rebuild


class Command(BaseCommand):
    help = (
        "Write every game's fighter, wound and activation sequence rows again "
        "from its event log; with --check, only report the games out of step "
        "(exit status 1), never mending them."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Report the games whose rows differ from their log; change nothing.",
        )
        parser.add_argument(
            "games", nargs="*", help="Public ids of the games (default: all)."
        )

    def run_from_argv(self, argv: list[str]) -> None:
        """A public id may start with "-" (``secrets.token_urlsafe``): every
        argument that is not one of the command's options is a game's id,
        passed after "--" so that argparse never reads it as an option."""
        parser = self.create_parser(argv[0], argv[1])
        options = parser._option_string_actions
        kept, ids = list(argv[:2]), []
        rest = iter(argv[2:])
        for arg in rest:
            if arg == "--":
                ids.extend(rest)
                break
            action = options.get(arg.split("=", 1)[0])
            if action is None:
                ids.append(arg)
                continue
            kept.append(arg)
            if action.nargs != 0 and "=" not in arg:
                kept.append(next(rest, ""))
        super().run_from_argv([*kept, "--", *ids] if ids else kept)

    def handle(self, *args, check: bool, games: list[str], **options) -> None:
        chosen = Game.objects.order_by("pk")
        if games:
            chosen = chosen.filter(public_id__in=games)
        out = 0
        total = 0
        for pk in chosen.values_list("pk", flat=True).iterator():
            total += 1
            with transaction.atomic():
                game = Game.objects.select_for_update(no_key=True).get(pk=pk)
                problems = out_of_step(game)
                if problems:
                    out += 1
                    verb = "out of step" if check else "out of step, rebuilt"
                    self.stderr.write(f"Game {game.public_id} {verb}:")
                    for problem in problems:
                        self.stderr.write(f"  {problem}")
                    if not check:
                        rebuild(game)
        summary = f"{total} games, {total - out} in step, {out} out of step"
        if check and out:
            raise CommandError(f"{summary}.", returncode=1)
        if check:
            self.stdout.write(f"{summary}.")
        else:
            self.stdout.write(f"{summary} (rebuilt from their log).")
