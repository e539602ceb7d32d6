"""Steps of a game through the app's services and views, for the tests that
need a game at a given point: a tap on a phone, and the way to the activation
phase."""

from __future__ import annotations

from battles.services import games as services
from rules.game import who_decides


def act(client, game, **data):
    """A tap on the game page (htmx), at the version the game is at unless
    ``data`` names one."""
    game.refresh_from_db()
    data.setdefault("version", game.version)
    return client.post(f"/games/{game.public_id}/act", data, HTTP_HX_REQUEST="true")


def to_activation(game):
    """Set the sequences still missing (cards in order), then the Tactics roll;
    side A speaks first."""
    game = to_first_choice(game)
    winner = game.state["tactics"]["winner"]
    services.perform_action(game, winner, {"type": "choose_first", "first": "a"})
    game.refresh_from_db()
    return game


def to_first_choice(game):
    """Set the sequences still missing (cards in order), then the Tactics roll,
    up to the winner's choice of who speaks first (IV-A-2)."""
    for side in ("a", "b"):
        game.refresh_from_db()
        if game.state["sequences"][side] is None:
            cards = game.state["sides"][side]["cards"]
            services.perform_action(
                game, side, {"type": "set_sequence", "order": cards}
            )
    game.refresh_from_db()
    for side in ("a", "b"):
        fighter = next(
            f
            for f, data in game.state["fighters"].items()
            if data["side"] == side
            and game.state["cards"][data["card"]]["profile"]["DIS"]
        )
        services.perform_action(
            game, side, {"type": "choose_tactics_fighter", "fighter": fighter}
        )
        game.refresh_from_db()
    while game.state["step"] == "tactics":
        pending = game.state["pending"]
        command = {"type": "keep"} if pending.get("roll") else {"type": "roll"}
        services.perform_action(game, who_decides(pending) or "a", command)
        game.refresh_from_db()
    return game
