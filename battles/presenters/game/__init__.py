"""What one phone shows of a game, split by phase as ``rules/game/`` is.

``build_panel`` and ``status_line`` make a board's panel and status line: the
panel for this phase (in
``strategic``, ``activation``, ``combat``, ``upkeep``, ``rolls``; each
module also words its own events in the log), the draws, the fighters and
the last lines of the log (assembled by ``battles.presenters.board``).

Adding a panel (a new kind of pending roll or choice): write one module here
with ``panel(state, side) -> Panel`` and register it in ``PENDING_PANELS``
under the pending ``purpose`` it answers; its template is
``templates/battles/games/panels/<kind>.html``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from battles.presenters.game import (
    activation,
    combat,
    magic,
    rolls,
    strategic,
    table_rolls,
    upkeep,
)
from battles.presenters.game.common import (
    FighterView,
    Panel,
    percent,
    waiting_on,
)
from battles.presenters.game.floor import Offers, floor_side, waiting_for
from battles.presenters.words import PHASE_SECTIONS, phase_word, side_word

# A pending roll or choice's panel, by its purpose (before the phase's own).
PENDING_PANELS: dict[str, Callable[[Mapping[str, Any], str, Offers], Panel]] = {
    "parry": combat.panel,
    "ambidextrous": combat.panel,
    "form_combats": combat.panel,
    "counter": magic.counter_panel,  # X: the adversary may counter a spell
}


def build_panel(
    state: Mapping[str, Any],
    side: str | None,
    *,
    draft: Sequence[str] | None = None,
    offers: Offers | None = None,
) -> Panel:
    """What ``side`` (None for a spectator) sees in the action panel now
    (``offers``: what ``legal_actions`` lists for ``side``, if known)."""
    phase = state["phase"]
    pending = state.get("pending")
    if phase == "finished":
        return Panel("finished", title=_("Game over"))
    if side is None:
        floor = floor_side(state)
        if floor:
            return Panel(
                "watch",
                side=floor,
                title=_("You are watching this game: %(side)s has the floor.")
                % {"side": side_word(floor, mid=True)},
            )
        return Panel("watch", title=_("You are watching this game."))
    offers = offers or Offers(state, side)
    if pending:
        if pending.get("purpose") == "characteristic" or pending["kind"] == "check":
            # a test at the table, or a test of several dice (a parry, VII-C-4)
            panel = table_rolls.pending_panel(state, pending)
        elif pending["kind"] in rolls.KINDS:
            panel = rolls.panel(state, pending)
        elif pending.get("purpose") in PENDING_PANELS:
            panel = PENDING_PANELS[pending["purpose"]](state, side, offers)
        else:
            panel = combat.panel(state, side, offers)
        if panel.data.get("pursuits"):
            return panel  # a freed fighter's pursuit: either side records it
        if panel.side not in (None, side) or side not in waiting_for(state):
            return waiting_on(panel)
        return panel
    if phase == "strategic":
        return strategic.panel(state, side, offers, draft)
    if phase == "activation":
        return activation.panel(state, side, offers)
    if phase == "combat":
        panel = combat.panel(state, side, offers)
        if side not in waiting_for(state) and panel.kind != "combat":
            return waiting_on(panel)
        return panel  # a combat under way: the waiting phone sees it too
    return upkeep.panel(state, side, offers)


def status_line(
    state: Mapping[str, Any], viewer_sides: Sequence[str], side: str | None
) -> dict[str, Any]:
    """Turn, phase and who has the floor, in words for this phone."""
    phase = state["phase"]
    floor = waiting_for(state)
    if phase == "finished":
        who = ""
    elif len(floor) == 1:
        (only,) = floor
        if only == side and len(viewer_sides) == 1:
            who = _("Your turn")
        else:
            who = _("%(side)s has the floor") % {"side": side_word(only)}
    elif side in floor and len(viewer_sides) == 1:
        who = _("Your turn (both sides act)")
    else:
        who = _("Both sides act")
    return {
        "turn": state["turn"],
        "turns": state["turns"],
        "phase": phase_word(phase),
        "section": PHASE_SECTIONS.get(phase, ""),
        "floor": sorted(floor),
        "who": who,
        "mine": bool(side and side in floor),
    }


__all__ = [
    "FighterView",
    "Panel",
    "build_panel",
    "floor_side",
    "percent",
    "status_line",
    "waiting_for",
]
