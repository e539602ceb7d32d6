"""Checking a game's story from its log alone: every result, not only every face.

``rules.verify`` proves that the app's faces came from the seed; this module
proves that the log's results came from those faces by the rules. Each player
action's first event records the command the phone sent (``command``: one
command, or ``{"batch": [...]}`` for a side's whole placement) and the faces
it drew (``dice``, with ``dice_source``). ``check_story`` replays the log: for
each action it asks ``rules.game.decide`` again, on the state the log gives
just before it, with the acting side, the recorded command and the logged
faces as ``ScriptedDice``, and compares every event the rules give (kind,
side, payload: the test's success, the rout, the wound...) with the events
logged. The first difference is returned, naming the event (its seq and
kind) and the field: a failed Courage test edited into a success, or a rout
deleted, is caught there.

What else must hold, or the story is refused:

- events numbered 1, 2, 3... in order, each action's events together, its
  ``action`` the seq of its first event (nothing dropped, duplicated or moved);
- the log starts with ``game_started``;
- an ``undone`` event takes back the latest action still standing, and only
  the undoing side's own (``rules.game.undo_target``);
- faces only with their source, and faces typed from real dice only while the
  game rolled real dice (a roll of the app's dice cannot be relabelled
  "typed" to escape the seed's check): the mode in force at each action is
  read back from the log's ``dice_mode`` (the last one) and its
  ``dice_mode_changed`` events;
- every logged face used, none missing;
- once an action carries its command, every later one does: only the log's
  first actions may lack theirs (a game begun before commands were recorded);
  those are folded as logged and counted ``unchecked``, never proven.

Pure: the log as the downloaded JSON holds it (``rules.verify`` describes its
fields). The log carries no signature: what this proves is that the log is
one story the rules tell from its commands and faces; that the faces are the
seed's is ``rules.verify``'s part. What it cannot prove: a forger who cuts a
whole action out (or an ``undone`` event) and renumbers every later event
tells another story the rules allow, unless a later roll's number or result
betrays it; nothing in a file without a signature can. Nor the armies of
the first event: they are the log's input, as typed faces are (a change there
that no later event betrays is a game of other armies told consistently).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice import DiceExhausted, ScriptedDice
from rules.errors import IllegalAction
from rules.game import decide_and_fold, evolve, replay, undo_target
from rules.game.evolve import META_KINDS

APP_DICE = "app"
REAL_DICE = "entered"
SEEDED = "seeded"
TYPED = "entered"


@dataclass(frozen=True)
class Difference:
    """The first place the log and the rules part ways.

    ``problem`` is one of ``PROBLEMS`` (what kind of difference), ``field``
    the part of the event that differs (``payload.success``...), ``logged``
    and ``expected`` what the log says and what the rules give there.
    """

    seq: int | None
    kind: str
    problem: str
    field: str = ""
    logged: Any = None
    expected: Any = None

    def __str__(self) -> str:
        where = f"event {self.seq} ({self.kind})"
        text = PROBLEMS.get(self.problem, self.problem)
        if self.field:
            text += (
                f": {self.field} is {_shown(self.logged)} in the log, "
                f"the rules give {_shown(self.expected)}"
            )
        return f"{where}: {text}"


# Each problem in one English sentence (the app translates its own words).
PROBLEMS = {
    "numbering": "the events are not numbered 1, 2, 3... in order",
    "action": "its action number is not the seq of its action's first event",
    "start": "the log does not start with the game's first event",
    "no_command": "no command recorded: its results cannot be re-derived",
    "illegal": "the rules refuse the recorded command here",
    "differs": "the rules give another result",
    "missing": "the rules give an event the log does not have",
    "extra": "the log has an event the rules do not give",
    "faces_left": "faces logged that the rules did not use",
    "faces_short": "the rules need more faces than the log holds",
    "dice_source": "faces without their source (the app's or typed)",
    "typed_in_app_mode": "faces typed while the game rolled the app's dice",
    "undo": "it undoes an action that was not the latest one its side may undo",
    "malformed": "the event is not one the log can hold",
    "unfinished": "the log stops before the game's end",
}


@dataclass(frozen=True)
class StoryCheck:
    """The story's verdict: ``actions`` re-derived, the first ``difference``;
    ``unchecked``: the actions logged before commands were recorded (the
    log's first ones, folded as logged: their results are not proven)."""

    actions: int
    events: int
    difference: Difference | None
    unchecked: int = 0

    @property
    def ok(self) -> bool:
        """No difference found (the unchecked actions apart)."""
        return self.difference is None

    @property
    def proven(self) -> bool:
        """Every action's results re-derived and matching."""
        return self.ok and self.unchecked == 0


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def _plain(value: Any) -> Any:
    """As JSON holds it (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value, sort_keys=True))


def _first_change(logged: Any, expected: Any, path: str) -> tuple[str, Any, Any]:
    """The first place two JSON values differ: its path and both values."""
    if isinstance(logged, dict) and isinstance(expected, dict):
        for key in sorted(set(logged) | set(expected)):
            if logged.get(key, _ABSENT) != expected.get(key, _ABSENT):
                return _first_change(
                    logged.get(key, _ABSENT),
                    expected.get(key, _ABSENT),
                    f"{path}.{key}",
                )
    if (
        isinstance(logged, list)
        and isinstance(expected, list)
        and len(logged) == len(expected)
    ):
        for index, (one, other) in enumerate(zip(logged, expected, strict=True)):
            if one != other:
                return _first_change(one, other, f"{path}[{index}]")
    return (
        path,
        None if logged is _ABSENT else logged,
        None if expected is _ABSENT else expected,
    )


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def dice_modes(
    events: Sequence[Mapping[str, Any]], final_mode: str | None
) -> dict[int, str]:
    """The dice mode in force at each event (by seq), read back from the last
    mode (``final_mode``) and the ``dice_mode_changed`` events before it."""
    changes = [
        (e["seq"], (e.get("payload") or {}).get("mode"))
        for e in events
        if e.get("kind") == "dice_mode_changed"
    ]
    if changes:
        first = changes[0][1]
        mode = REAL_DICE if first == APP_DICE else APP_DICE
    else:
        mode = final_mode or APP_DICE
    modes = {}
    pending = dict(changes)
    for event in events:
        modes[event.get("seq")] = mode
        if event.get("seq") in pending:
            mode = pending[event["seq"]]
    return modes


def _groups(
    events: Sequence[Mapping[str, Any]],
) -> tuple[list[list[Mapping[str, Any]]], Difference | None]:
    """The log cut into actions, checking its numbering."""
    groups: list[list[Mapping[str, Any]]] = []
    for index, event in enumerate(events, start=1):
        seq, action = event.get("seq"), event.get("action")
        kind = str(event.get("kind"))
        if seq != index or isinstance(seq, bool):
            return groups, Difference(seq, kind, "numbering")
        if groups and action == groups[-1][0]["seq"]:
            groups[-1].append(event)
        elif action == seq:
            groups.append([event])
        else:
            return groups, Difference(seq, kind, "action")
    return groups, None


def _compare(
    logged: Sequence[Mapping[str, Any]], decided: Sequence[Mapping[str, Any]]
) -> Difference | None:
    for one, other in zip(logged, decided, strict=False):
        seq, kind = one["seq"], str(one.get("kind"))
        mine = _plain(
            {
                "kind": one.get("kind"),
                "side": one.get("side") or None,
                "payload": one.get("payload") or {},
            }
        )
        theirs = _plain(
            {
                "kind": other["kind"],
                "side": other.get("side") or None,
                "payload": other.get("payload") or {},
            }
        )
        if mine != theirs:
            field, was, should = _first_change(mine, theirs, "event")
            field = field.removeprefix("event.")
            return Difference(seq, kind, "differs", field, was, should)
    if len(decided) > len(logged):
        last = logged[-1]
        extra = decided[len(logged)]
        return Difference(
            last["seq"], str(last.get("kind")), "missing", "next event", None,
            extra["kind"],
        )  # fmt: skip
    if len(logged) > len(decided):
        extra = logged[len(decided)]
        return Difference(extra["seq"], str(extra.get("kind")), "extra")
    return None


def _commands(command: Any) -> list[Mapping[str, Any]] | None:
    if isinstance(command, Mapping) and "batch" in command:
        batch = command["batch"]
        if (
            isinstance(batch, list)
            and batch
            and all(isinstance(one, Mapping) for one in batch)
        ):
            return list(batch)
        return None
    if isinstance(command, Mapping):
        return [command]
    return None


def _check_action(
    state: dict[str, Any], group: list[Mapping[str, Any]], mode: str
) -> tuple[dict[str, Any] | None, Difference | None]:
    """Re-decide one action; the state after it, or the first difference."""
    first = group[0]
    seq, kind = first["seq"], str(first.get("kind"))
    faces = first.get("dice") or []
    source = first.get("dice_source") or ""
    if not isinstance(faces, list) or bool(faces) != (source in (SEEDED, TYPED)):
        return None, Difference(seq, kind, "dice_source")
    if source == TYPED and mode == APP_DICE:
        return None, Difference(seq, kind, "typed_in_app_mode")
    for later in group[1:]:
        if later.get("dice") or later.get("dice_source") or later.get("command"):
            return None, Difference(later["seq"], str(later.get("kind")), "malformed")
    commands = _commands(first.get("command"))
    if commands is None:
        return None, Difference(seq, kind, "no_command")
    side = first.get("side")
    dice = ScriptedDice(faces)
    decided: list[dict[str, Any]] = []
    try:
        for command in commands:
            events, state = decide_and_fold(state, side, command, dice)
            decided.extend(events)
    except IllegalAction as error:
        return None, Difference(seq, kind, "illegal", "command", None, str(error))
    except DiceExhausted:
        return None, Difference(seq, kind, "faces_short")
    difference = _compare(group, decided)
    if difference:
        return None, difference
    if dice.remaining:
        return None, Difference(
            seq, kind, "faces_left", "dice", faces, faces[: dice.used]
        )
    return state, None


def check_story(
    events: Sequence[Mapping[str, Any]],
    final_dice_mode: str | None = None,
    *,
    finished: bool = False,
) -> StoryCheck:
    """Replay the log through the rules, action by action (module docstring).

    ``final_dice_mode``: the game's dice mode at the end (the downloaded
    log's ``dice_mode``), from which the mode of each action is read back.
    ``finished``: the log must tell a whole game, up to its end (a log is
    downloaded once the game is over: a log cut short is refused). A log
    that is not even a list of events gets a ``malformed`` difference.
    """
    events = list(events)
    try:
        return _check_story(events, final_dice_mode, finished)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        where = next(
            (
                e
                for e in events
                if not isinstance(e, Mapping)
                or not isinstance(e.get("payload", {}), Mapping)
            ),
            None,
        )
        seq = where.get("seq") if isinstance(where, Mapping) else None
        kind = str(where.get("kind")) if isinstance(where, Mapping) else "?"
        return StoryCheck(0, len(events), Difference(seq, kind, "malformed"))


def _check_story(
    events: list[Mapping[str, Any]], final_dice_mode: str | None, finished: bool
) -> StoryCheck:
    groups, difference = _groups(events)
    if difference:
        return StoryCheck(0, len(events), difference)
    if not groups or groups[0][0].get("kind") != "game_started" or len(groups[0]) != 1:
        first = events[0] if events else {}
        return StoryCheck(
            0,
            len(events),
            Difference(first.get("seq"), str(first.get("kind")), "start"),
        )
    modes = dice_modes(events, final_dice_mode)
    seen: list[Mapping[str, Any]] = []
    state: dict[str, Any] | None = None
    actions = unchecked = 0
    recorded = False  # an action with its command was seen
    for group in groups:
        first = group[0]
        seq, kind = first["seq"], str(first.get("kind"))
        try:
            if kind == "game_started":
                if seen or first.get("side") is not None:
                    return StoryCheck(
                        actions, len(events), Difference(seq, kind, "start")
                    )
                state = replay([_plain(dict(first))])
            elif kind in META_KINDS:
                if len(group) != 1:
                    return StoryCheck(
                        actions, len(events), Difference(seq, kind, "malformed")
                    )
                if kind == "undone":
                    target = (first.get("payload") or {}).get("action")
                    try:
                        allowed = undo_target(seen, first.get("side"))
                    except IllegalAction:
                        allowed = None
                    if target != allowed:
                        return StoryCheck(
                            actions,
                            len(events),
                            Difference(
                                seq, kind, "undo", "payload.action", target, allowed
                            ),
                        )
                    state = replay([*seen, first])
            elif "command" not in first and not recorded:
                # Logged before commands were recorded (a game begun before
                # this check existed): folded as logged, counted unchecked.
                for event in group:
                    state = evolve(state, _plain(dict(event)))
                unchecked += 1
            else:
                recorded = True
                state, difference = _check_action(state, group, modes[seq])
                actions += 1
                if difference:
                    return StoryCheck(actions, len(events), difference, unchecked)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return StoryCheck(
                actions, len(events), Difference(seq, kind, "malformed"), unchecked
            )
        seen.extend(group)
    if finished and (state is None or state.get("phase") != "finished"):
        last = events[-1]
        return StoryCheck(
            actions,
            len(events),
            Difference(last["seq"], str(last.get("kind")), "unfinished"),
            unchecked,
        )
    return StoryCheck(actions, len(events), None, unchecked)


__all__ = ["PROBLEMS", "Difference", "StoryCheck", "check_story", "dice_modes"]
