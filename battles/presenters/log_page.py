"""The whole log's page: every line, newest first or by turn, one fighter's only.

The board shows the log's last lines; ``/games/<id>/log`` shows all of them
(issue 23). Lines come from ``log_lines`` (hidden information stays hidden);
this module orders, groups and filters them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.presenters.log import LogLine, log_lines

ORDERS = ("newest", "turn")


@dataclass(frozen=True)
class TurnGroup:
    turn: int
    lines: list[LogLine]


def labels_in(text: str, pattern: re.Pattern[str]) -> set[str]:
    """The fighter labels a line's text names, each match the longest label
    at its place ("Guerrier 10" is not "Guerrier 1", "Guerrier (B)" is not
    "Guerrier")."""
    return {match.group(0) for match in pattern.finditer(text)}


def label_pattern(labels: Iterable[str]) -> re.Pattern[str]:
    """One pattern for every label, longest first, whole words only."""
    ordered = sorted({label for label in labels if label}, key=len, reverse=True)
    if not ordered:
        return re.compile(r"(?!)")
    names = "|".join(re.escape(label) for label in ordered)
    return re.compile(rf"(?<!\w)(?:{names})(?!\w)")


def log_page(
    events: Sequence[Mapping[str, Any]],
    viewer_sides: Sequence[str],
    *,
    disputed: Iterable[int] = (),
    typed: Iterable[int] = (),
    now: Mapping[str, Any] | None = None,
    order: str = "newest",
    fighter: str = "",
    players: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The page's context: the lines (``order`` "newest": newest first;
    "turn": oldest first, grouped by turn), the fighters to filter by, and
    the filter in force (an unknown fighter or order falls back to all,
    newest first); ``now``: the game as it is, for what stays hidden."""
    fighters = events[0]["payload"]["state"]["fighters"] if events else {}
    order = order if order in ORDERS else "newest"
    fighter = fighter if fighter in fighters else ""
    lines = log_lines(
        events, viewer_sides, disputed=disputed, typed=typed, now=now, players=players
    )
    total = len(lines)
    if fighter:
        # The lines whose text names the fighter, as the player reads them
        # (issue 31: a combat_updated carries every combat of the phase, so
        # its payload names fighters its line does not speak of).
        pattern = label_pattern(data["label"] for data in fighters.values())
        label = fighters[fighter]["label"]
        lines = [line for line in lines if label in labels_in(line.text, pattern)]
    groups: list[TurnGroup] = []
    if order == "turn":
        for line in lines:
            if not groups or groups[-1].turn != line.turn:
                groups.append(TurnGroup(line.turn, []))
            groups[-1].lines.append(line)
    else:
        lines = list(reversed(lines))
    return {
        "lines": lines,
        "groups": groups,
        "order": order,
        "fighter": fighter,
        "total": total,
        "fighter_choices": [
            (fighter_id, data["label"]) for fighter_id, data in fighters.items()
        ],
    }


__all__ = ["ORDERS", "TurnGroup", "label_pattern", "labels_in", "log_page"]
