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


def setup_shared_game() -> None:
    """A game side A holds (a guest's session); side B is left to claim."""
    from tests.support.live import new_game

    game = new_game(OWNER, title="Live table")
    print(json.dumps({"public_id": game.public_id, "session": _session(OWNER)}))
    connection.close()


def play_until_draw(public_id: str, seed: int = 1, limit: int = 60) -> None:
    """Bot actions until a side is to draw its first activation card."""
    import random

    from battles.models.games import Game
    from battles.services.games import perform_action
    from tests.support.game_bot import next_command

    rng = random.Random(seed)
    game = Game.objects.get(public_id=public_id)
    for _ in range(limit):
        state = game.state
        if state["phase"] == "activation" and state["active"] is None:
            break
        side, command = next_command(state, rng)
        game = perform_action(game, side, command).game
    else:
        raise AssertionError("no draw reached")
    speaker = game.state["draw"]["speaker"]
    print(json.dumps({"speaker": speaker, "version": game.version}))
    connection.close()


def setup_games(count: int) -> None:
    """``count`` two-phone games with a spectator each, for the benchmark."""
    from battles.models.armies import Owner
    from tests.support.live import new_game, seat

    games = []
    for index in range(count):
        a, b, spectator = (
            Owner(guest_key=f"bench-{index}-{role}") for role in ("a", "b", "s")
        )
        game = new_game(a, title=f"Bench {index}")
        seat(game, b, "b")
        seat(game, spectator, "spectator")
        games.append(
            {
                "id": game.pk,
                "public_id": game.public_id,
                "sessions": {
                    "a": _session(a),
                    "b": _session(b),
                    "spectator": _session(spectator),
                },
            }
        )
    print(json.dumps(games))
    connection.close()


def play_until_a_shot(public_id: str, seed: int = 1, limit: int = 200) -> None:
    """Bot actions until an activated fighter may shoot; it shoots at 5 cm and
    the test roll is left for a phone (issue #10's undo of a roll)."""
    import random

    from battles.models.games import Game
    from battles.services.games import perform_action
    from rules.game import legal_actions, waiting_for
    from tests.support.game_bot import next_command

    rng = random.Random(seed)
    game = Game.objects.get(public_id=public_id)
    for _ in range(limit):
        state = game.state
        if state["phase"] == "activation" and not state["pending"]:
            side = sorted(waiting_for(state))[0]
            shots = [e for e in legal_actions(state, side) if e["type"] == "shoot"]
            if shots:
                command = {
                    "type": "shoot",
                    "fighter": shots[0]["fighter"],
                    "target": shots[0]["choices"]["target"][0],
                    "distance_cm": 5,
                }
                game = perform_action(game, side, command).game
                print(json.dumps({"side": side, "version": game.version}))
                connection.close()
                return
            kind = "end_activation" if state["active"] else "draw"
            command = (
                {"type": kind}
                if kind == "end_activation"
                else {
                    "type": "draw",
                    "action": "draw",
                }
            )
        else:
            side, command = next_command(state, rng)
        game = perform_action(game, side, command).game
    raise AssertionError("no shot reached")


def last_faces(public_id: str) -> None:
    """The faces the game's last roll drew."""
    from battles.models.games import Game

    game = Game.objects.get(public_id=public_id)
    event = game.events.exclude(dice=[]).order_by("-seq").first()
    print(json.dumps({"faces": event.dice if event else None}))
    connection.close()
