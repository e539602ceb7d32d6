"""Run inside ``manage.py shell`` by the browser test of the tests rolled at
the table: a two-phone game (Griffons against the Wolfen, whose Repentis have
PEUR 6) played by the bot up to side A's first activation."""

from __future__ import annotations

import json
import random

from django.db import connection

from tests.support.live_setup import _session


def setup_charge_against_fear() -> None:
    from battles.services.games import perform_action
    from tests.support.game_bot import next_command
    from tests.support.live import OPPONENT, OWNER, demo_armies, two_phone_game

    # IX: COU 2 against PEUR 6 is a test the dice can miss (COU 5 could not:
    # a certain success is recorded without a roll).
    griffons, _wolfen = demo_armies()
    for army_card in griffons.cards.all():
        army_card.card.cou = 2
        army_card.card.save(update_fields=["cou"])
    game = two_phone_game(title="Fear")
    rng = random.Random(1)
    for _ in range(40):
        state = game.state
        if state["phase"] == "strategic" and state["step"] == "first_choice":
            winner = state["tactics"]["winner"]
            game = perform_action(
                game, winner, {"type": "choose_first", "first": "a"}
            ).game
            break
        side, command = next_command(state, rng)
        game = perform_action(game, side, command).game
    game = perform_action(game, "a", {"type": "draw", "action": "draw"}).game
    active = game.state["active"]["fighters"][0]
    fearsome = next(
        f
        for f, data in game.state["fighters"].items()
        if data["side"] == "b"
        and game.state["cards"][data["card"]]["profile"]["PEUR"] is not None
    )
    print(
        json.dumps(
            {
                "public_id": game.public_id,
                "version": game.version,
                "charger": active,
                "charger_label": game.state["fighters"][active]["label"],
                "fearsome": fearsome,
                "fearsome_label": game.state["fighters"][fearsome]["label"],
                "sessions": {"a": _session(OWNER), "b": _session(OPPONENT)},
            }
        )
    )
    connection.close()
