"""A game at a melee, through the app's services: one against two (VII-C)."""

from __future__ import annotations

from battles.services import games as services
from rules.game import waiting_for
from tests.support.game_steps import to_activation


def _perform(game, side, command):
    game.refresh_from_db()
    services.perform_action(game, side, command)
    game.refresh_from_db()


def one_against_two(game, *, one: str = "a1.1", many=("b1.1", "b1.2")):
    """``one`` in contact with each of ``many``; every card played until the
    combat phase; the suggested split; the Tactics winner picks the combat.
    The game is then at that combat's Initiative (VII-C-2)."""
    game = to_activation(game)
    for other in many:
        _perform(
            game,
            "a",
            {"type": "set_contact", "one": one, "two": other, "contact": True},
        )
    while game.state["phase"] == "activation":
        side = sorted(waiting_for(game.state))[0]
        if game.state["active"]:
            _perform(game, side, {"type": "end_activation"})
        else:
            _perform(game, side, {"type": "draw", "action": "draw"})
    winner = game.state["tactics"]["winner"]
    _perform(game, winner, {"type": "form_combats", "combats": "suggested"})
    combat = game.state["combat"]
    if combat["current"] is not None:
        return game  # the only combat: fought without a tap (VII-B)
    picker = combat["picker"]
    index = next(
        i
        for i, c in enumerate(combat["combats"])
        if c["one"] == one or one in c["many"]
    )
    _perform(game, picker, {"type": "choose_combat", "combat": index})
    return game
