"""Run inside ``manage.py shell`` by the server-process tests: set a game up
in the servers' database, or play in it, and print JSON for the test."""

from __future__ import annotations

import json

from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from tests.support.live import OPPONENT, OWNER, SPECTATOR, play, two_phone_game


def _session(owner) -> str:
    session = SessionStore()
    session["guest_key"] = owner.guest_key
    session.create()
    return session.session_key


def setup_game() -> None:
    from rules.game.state import cards_in_play

    game = two_phone_game()
    print(
        json.dumps(
            {
                "public_id": game.public_id,
                "version": game.version,
                "sessions": {
                    "a": _session(OWNER),
                    "b": _session(OPPONENT),
                    "spectator": _session(SPECTATOR),
                },
                "order": {side: cards_in_play(game.state, side) for side in "ab"},
            }
        )
    )
    connection.close()


def play_actions(public_id: str, actions: int, seed: int = 1) -> None:
    from battles.models.games import Game

    game = Game.objects.get(public_id=public_id)
    print(json.dumps(play(game, actions, seed=seed)))
    connection.close()
