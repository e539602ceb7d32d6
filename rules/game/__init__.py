"""A whole game of Confrontation as events: decide, evolve, replay.

``new_game_event(setup)`` starts the log; ``decide(state, side, command,
dice)`` turns a player's tap into events (or ``IllegalAction``); ``evolve``
folds one event into the state and ``replay`` rebuilds the state from the
log, undos applied. ``summarize`` reads the log for the end-of-game summary.

Every module of the package is imported here, once: each phase module
declares its commands (``rules.game.commands.CommandKind``), registered in
``COMMAND_TABLE`` at its ``TURN_PLACE`` as it is imported; a new phase module
is one new file, and no list names it.
"""

import importlib
import pkgutil

from rules.game.engine import (
    COMMAND_TABLE,
    choice_odds,
    decide,
    decide_and_fold,
    movement_cm,
    new_game_event,
    tactics_candidates,
    who_decides,
)
from rules.game.evolve import (
    effective_events,
    evolve,
    replay,
    undo_target,
    undone_actions,
)
from rules.game.legal import legal_actions, waiting_for
from rules.game.summary import summarize

for _module in pkgutil.walk_packages(__path__, f"{__name__}."):
    importlib.import_module(_module.name)
COMMANDS = frozenset(COMMAND_TABLE)  # every kind's name, the table filled

__all__ = [
    "COMMAND_TABLE",
    "COMMANDS",
    "choice_odds",
    "decide",
    "decide_and_fold",
    "effective_events",
    "evolve",
    "legal_actions",
    "movement_cm",
    "new_game_event",
    "replay",
    "summarize",
    "tactics_candidates",
    "undo_target",
    "undone_actions",
    "waiting_for",
    "who_decides",
]
