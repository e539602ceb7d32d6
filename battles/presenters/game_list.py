"""The "Your games" list: each game with its opponent, turn and state.

A title and a date did not say which game was which (issue 23): each line
names the other side's player, the turn and phase, and whose move it is (or
how it ended), for the side(s) this person holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from battles.presenters.words import phase_word
from battles.services.games import seat_roles
from rules.game import waiting_for


@dataclass(frozen=True)
class GameLine:
    game: object
    opponent: str
    turn: str
    state: str
    mine: bool  # this person's move now


def _names(game) -> dict[str, str]:
    names = {side: data["name"] for side, data in game.state["sides"].items()}
    for seat in game.seat_list:
        if seat.role in names and seat.player_name:
            names[seat.role] = seat.player_name
    return names


def _agreed_outcome(game):
    """The result both phones agreed (``GameOutcome`` settled), or None."""
    from django.core.exceptions import ObjectDoesNotExist

    try:
        outcome = game.outcome
    except ObjectDoesNotExist:
        return None
    return outcome if outcome.settled else None


def _finished_status(game, names: dict[str, str]) -> str:
    """A finished game's line: the result both phones agreed, never the
    engine's guess (issue 31: "finished: draw" for a game agreed "Bob won")."""
    outcome = _agreed_outcome(game)
    if outcome is None:
        return _("over: no result yet")
    if outcome.outcome in names:
        return _("over: %(side)s won") % {"side": names[outcome.outcome]}
    return _("over: a draw")


def game_lines(games: Iterable, owner) -> list[GameLine]:
    lines = []
    for game in games:
        state = game.state
        sides = {r for r in seat_roles(game, owner) if r in ("a", "b")}
        names = _names(game)
        if sides == {"a", "b"}:
            opponent = _("%(a)s against %(b)s, on one phone") % names
        elif sides:
            other = "b" if "a" in sides else "a"
            opponent = _("against %(name)s") % {"name": names[other]}
        else:
            opponent = _("%(a)s against %(b)s (watching)") % names
        turn = _("turn %(turn)s of %(turns)s") % {
            "turn": state["turn"],
            "turns": state["turns"],
        }
        mine = False
        if game.finished:
            status = _finished_status(game, names)
        else:
            waiting = waiting_for(state)
            mine = bool(waiting & sides)
            if mine:
                status = _("your move")
            elif len(waiting) == 1:
                (side,) = waiting
                status = _("waiting for %(name)s") % {"name": names[side]}
            else:
                status = _("waiting for both sides")
            turn += f" · {phase_word(state['phase'])}"
        lines.append(GameLine(game, opponent, turn, status, mine))
    return lines


__all__ = ["GameLine", "game_lines"]
