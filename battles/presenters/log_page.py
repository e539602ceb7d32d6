"""The whole log's page: every line, newest first or by turn, one fighter's only.

The board shows the log's last lines; ``/games/<id>/log`` shows all of them
(issue 23). Lines come from ``log_lines`` (hidden information stays hidden);
this module orders, groups and filters them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.presenters.log import LogLine, log_lines

ORDERS = ("newest", "turn")


@dataclass(frozen=True)
class TurnGroup:
    turn: int
    lines: list[LogLine]


# The payload fields that name the fighters an event is about (who acts, on
# whom), wherever they sit in it; lists of contacts or of the fighters in a
# combat name bystanders, and are not read.
SUBJECT_KEYS = frozenset(
    {
        "fighter",
        "target",
        "targets",
        "source",
        "attacker",
        "defender",
        "caster",
        "nearest_friend",
        "one",
        "two",
    }
)


def _ids(value: Any, fighters: Mapping[str, Any], found: set[str]) -> None:
    if isinstance(value, str) and value in fighters:
        found.add(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _ids(item, fighters, found)


def _named(value: Any, fighters: Mapping[str, Any], found: set[str]) -> None:
    """The fighter ids a payload names in its subject fields."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in SUBJECT_KEYS:
                _ids(item, fighters, found)
            _named(item, fighters, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _named(item, fighters, found)


def fighters_named(
    events: Sequence[Mapping[str, Any]], fighters: Mapping[str, Any]
) -> dict[int, set[str]]:
    """For each event (by seq), the fighters its payload names; the game's
    first event (the whole army list) names none."""
    named = {}
    for event in events:
        found: set[str] = set()
        if event["kind"] != "game_started":
            _named(event.get("payload") or {}, fighters, found)
        named[event["seq"]] = found
    return named


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
        named = fighters_named(events, fighters)
        lines = [line for line in lines if fighter in named.get(line.seq, ())]
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


__all__ = ["ORDERS", "TurnGroup", "fighters_named", "log_page"]
