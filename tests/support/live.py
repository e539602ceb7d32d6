"""Helpers for the shared-game tests: a demo game, the bot playing it, SSE."""

from __future__ import annotations

import random

from battles.models.armies import Army, Owner
from battles.models.games import Game, GameSeat, SeatRole
from tests.support.cast import OPPONENT, OWNER, SPECTATOR
from tests.support.game_bot import next_command
from tests.support.sse import SSEMessage, parse_sse  # noqa: F401


def demo_armies() -> tuple[Army, Army]:
    from battles.demo import load_demo

    if not Army.objects.demo().exists():
        load_demo()
    first, second = Army.objects.demo().order_by("pk")[:2]
    return first, second


def new_game(owner: Owner = OWNER, **options) -> Game:
    """A game of the two first demo armies, side A held by ``owner``."""
    from battles.services.games import create_game

    army_a, army_b = demo_armies()
    return create_game(owner=owner, army_a=army_a, army_b=army_b, **options)


def seat(game: Game, owner: Owner, role: str) -> GameSeat:
    return GameSeat.objects.create(
        game=game, role=role, user_id=owner.user_id, guest_key=owner.guest_key
    )


def new_game_form(army_a: Army, army_b: Army, **fields) -> dict:
    """What the new-game form posts for a two-phone game of 4 turns with the
    app's dice; ``fields`` change or add to it."""
    return {
        "army_a": army_a.pk,
        "army_b": army_b.pk,
        "turns": 4,
        "mode": "two_phones",
        "dice_mode": "app",
        **fields,
    }


def guests_game(
    owner_key: str, opponent_key: str, *, wolfen_first: bool = False, **options
) -> Game:
    """A game of the two demo armies between two guests: ``owner_key`` holds
    side A (the Griffons, or the Wolfen if ``wolfen_first``), ``opponent_key``
    side B."""
    from battles.services.games import create_game

    army_a, army_b = demo_armies()
    if wolfen_first:
        army_a, army_b = army_b, army_a
    game = create_game(
        owner=Owner(guest_key=owner_key), army_a=army_a, army_b=army_b, **options
    )
    seat(game, Owner(guest_key=opponent_key), SeatRole.SIDE_B)
    return game


def two_phone_game(**options) -> Game:
    """Side A for OWNER, side B for OPPONENT, SPECTATOR watching."""
    game = new_game(**options)
    seat(game, OPPONENT, SeatRole.SIDE_B)
    seat(game, SPECTATOR, SeatRole.SPECTATOR)
    return game


def play(game: Game, actions: int, seed: int = 1) -> list[int]:
    """``actions`` bot actions through ``perform_action``; the versions after each."""
    from battles.services.games import perform_action

    rng = random.Random(seed)
    versions = []
    for _ in range(actions):
        game.refresh_from_db()
        side, command = next_command(game.state, rng)
        result = perform_action(game, side, command)
        versions.append(result.game.version)
    return versions
