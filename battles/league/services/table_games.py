"""A shared game started from a tournament table (issue #29): one step from
the game to its table.

A player of the table starts it from their table box: the game is created on
two phones, side A the starter's, side B seated to the opponent's account at
once (no share link to pass), and linked to the table. When the game is over
and both phones agree its result, it becomes the season's result and the
table's in the same transaction (``game_results.confirm_game_outcome``,
``tournament.attach_game_result``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from battles.league.models.league import LeagueResult
from battles.league.models.tournament import TournamentPairing
from battles.league.services.errors import LeagueError
from battles.league.services.tournament import _bump, _locked_pairing
from battles.models.games import Game, GameMode, GameSeat, SeatRole
from battles.models.identity import Owner
from battles.services.account_security import display_name
from battles.services.games import GameError, create_game

User = get_user_model()


def start_table_game(
    pairing: TournamentPairing, user, *, tap_key: str = "", **game_arguments: Any
) -> Game:
    """Start the table's game on two phones, linked to the table; a table
    whose game is started already gives that game (both players open it)."""
    with transaction.atomic():
        locked = _locked_pairing(pairing.pk, user)
        if locked.game_id is not None and not _abandoned(locked.game):
            return locked.game
        opponent = User.objects.select_related("profile").get(
            pk=locked.opponent_id(user.pk)
        )
        me = User.objects.select_related("profile").get(pk=user.pk)
        tournament = locked.round.tournament
        try:
            game = create_game(
                owner=Owner(user_id=user.pk),
                tap_key=tap_key,
                mode=GameMode.TWO_PHONES,
                title=_("%(day)s, round %(round)s, table %(table)s")
                % {
                    "day": tournament.name,
                    "round": locked.round.number,
                    "table": locked.table,
                },
                player_a=display_name(me)[:60],
                player_b=display_name(opponent)[:60],
                **game_arguments,
            )
        except GameError as error:
            raise LeagueError(error.message, field=error.field) from None
        GameSeat.objects.get_or_create(
            game=game,
            role=SeatRole.SIDE_B,
            defaults={"user": opponent, "player_name": display_name(opponent)[:60]},
        )
        locked.game = game
        locked.save(update_fields=["game"])
        _bump(tournament)
    return game


def _abandoned(game: Game | None) -> bool:
    """A linked game that can no longer give the table its result: gone, or
    over and counted nowhere (a new one may be started)."""
    if game is None:
        return True
    return game.finished and not LeagueResult.objects.filter(game=game).exists()


def table_of_game(game: Game) -> TournamentPairing | None:
    """The tournament table this game was started from, if any."""
    return (
        TournamentPairing.objects.filter(game=game)
        .select_related("round__tournament")
        .first()
    )
