"""Loading a game for the person asking, with what they may see and do."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from battles.identity import Viewer, requester
from battles.models.games import Game
from battles.services.games import seat_roles


def get_game_for_viewer(request: HttpRequest, public_id: str) -> tuple[Game, Viewer]:
    """The game and the requester's seat; 404 for someone with no seat in it.

    An outsider learns nothing, not even that the game exists.
    """
    try:
        game = Game.objects.get(public_id=public_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    roles = seat_roles(game, requester(request))
    if not roles:
        raise Http404("No such game.")
    return game, Viewer(frozenset(roles))


def get_game_for_side(
    request: HttpRequest, public_id: str, side: str
) -> tuple[Game, Viewer]:
    """Like ``get_game_for_viewer`` but the requester must hold ``side``."""
    game, viewer = get_game_for_viewer(request, public_id)
    if side not in ("a", "b") or not viewer.may_act_for(side):
        raise PermissionDenied("A phone acts only for the side it holds.")
    return game, viewer
