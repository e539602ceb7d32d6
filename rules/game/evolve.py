"""Folding a game's events into its state, and undo (DESIGN: "Event log").

``evolve(state, event)`` applies one event and returns a new state; it rolls
no dice and makes no decision: every event carries the faces and results that
``rules.game.engine.decide`` computed. ``replay(events)`` rebuilds the state
from the whole log, leaving out the actions that were undone: an undo appends
an ``undone`` event, it never deletes.

An event is a dict ``{"seq", "action", "kind", "side", "payload"}``; events of
one player action share ``action`` (the seq of its first event), so an undo
reverts a whole action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules.errors import IllegalAction, _
from rules.game.follows import then
from rules.game.roll_numbers import drawn, ledger
from rules.game.state import State, copy_state

Event = Mapping[str, Any]

# Events about the log itself, not the game: an undo, and the asking for one
# (a two-phone undo of a roll needs the other side's agreement). replay()
# skips them; they change no state. So are the switches of a game's dice mode
# (the app's seeded dice or faces typed from real dice), asked of the other
# phone like an undo: they change how faces come, not the game.
META_KINDS = frozenset(
    {
        "undone",
        "undo_requested",
        "undo_refused",
        "dice_mode_requested",
        "dice_mode_changed",
        "dice_mode_refused",
        "time_call_requested",
        "time_call_refused",
    }
)


# Every evolver gets a shallow copy of the state and replaces (never changes
# in place) the parts its event touches: the rest is shared with the state
# before, which stays unchanged. ``_own`` copies one top-level part.


def _own(state: State, key: str) -> Any:
    """A copy of ``state[key]`` (one level deep), stored in ``state``."""
    value = state[key]
    value = dict(value) if isinstance(value, dict) else list(value)
    state[key] = value
    return value


def _fighter_changes(state: State, fighter_id: str, changes: Mapping[str, Any]) -> None:
    fighters = _own(state, "fighters")
    fighters[fighter_id] = {**fighters[fighter_id], **changes}


def _set_fighter(state: State, payload: Mapping[str, Any]) -> None:
    if "upkeep" in payload:  # a rally added to the upkeep under way (IV-D-1)
        state["upkeep"] = copy_state(payload["upkeep"])
    changes = payload.get("changes", {})
    kept = {key: changes[key] for key in FIGHTER_KEYS if key in changes}
    if "gems" in kept:
        kept["gems"] = dict(kept["gems"])
        kept.setdefault("mana", sum(kept["gems"].values()))  # X: the gems' total
    _fighter_changes(state, payload["fighter"], kept)


FIGHTER_KEYS = (
    "steps",
    "stunned",
    "routed",
    "eliminated",
    "charged",
    "mana",
    "faith",
    "fierce",
    "gems",
    "gems_max",
    "elements",  # X: the elements a magician masters, given at the table
)


def _wound(state: State, payload: Mapping[str, Any]) -> None:
    changes = {
        "steps": payload["steps_after"],
        "stunned": payload["stunned_after"],
        "eliminated": payload["eliminated"],
    }
    if payload.get("fierce"):
        changes["fierce"] = True  # Acharné: killed outright, kept to the upkeep
    _fighter_changes(state, payload["target"], changes)
    state["pending"] = None


def _assign(*keys: str) -> Callable[[State, Mapping[str, Any]], None]:
    """An event whose payload simply replaces parts of the state."""

    def apply(state: State, payload: Mapping[str, Any]) -> None:
        for key in keys:
            if key in payload:
                state[key] = copy_state(payload[key])

    return apply


def _sequence_set(state: State, payload: Mapping[str, Any]) -> None:
    _own(state, "sequences")[payload["side"]] = list(payload["order"])


def _own_tactics(state: State) -> dict[str, Any]:
    tactics = _own(state, "tactics")
    tactics["fighters"] = dict(tactics["fighters"])
    return tactics


def _tactics_fighter(state: State, payload: Mapping[str, Any]) -> None:
    _own_tactics(state)["fighters"][payload["side"]] = payload["fighter"]


def _tactics_won(state: State, payload: Mapping[str, Any]) -> None:
    _own_tactics(state)["winner"] = payload["winner"]
    state["pending"] = None


def _first_chosen(state: State, payload: Mapping[str, Any]) -> None:
    _own_tactics(state)["first"] = payload["first"]
    state["draw"] = copy_state(payload["draw"])


def _action_declared(state: State, payload: Mapping[str, Any]) -> None:
    acted = _own(state, "acted")
    acted[payload["fighter"]] = [*acted.get(payload["fighter"], []), payload["action"]]
    if payload.get("charged"):
        _fighter_changes(state, payload["fighter"], {"charged": True})
    if "contacts" in payload:
        state["contacts"] = copy_state(payload["contacts"])
    new = [e for e in payload.get("engaged", []) if e not in state["engaged"]]
    if new:
        engaged = _own(state, "engaged")
        for one in new:
            if one not in engaged:
                engaged.append(one)


def _test_resolved(state: State, payload: Mapping[str, Any]) -> None:
    state["pending"] = copy_state(payload.get("next"))
    context = payload.get("context") or {}
    if context.get("fear") and payload.get("success"):
        _fear_resisted(state, {"fighter": context["fighter"], **payload})


def _fear_resisted(state: State, payload: Mapping[str, Any]) -> None:
    """IX: a Courage test passed (rolled, or certain): the fear resisted, read
    by the house ruling ``fear_immunity``."""
    fear = payload.get("fear", payload.get("difficulty"))
    resisted = dict(state.get("fear_resisted") or {})
    resisted[payload["fighter"]] = then("resisted_after")(
        state, payload["fighter"], fear
    )
    state["fear_resisted"] = resisted


def _disengaged(state: State, payload: Mapping[str, Any]) -> None:
    acted = _own(state, "acted")
    acted[payload["fighter"]] = ["disengage", *acted.get(payload["fighter"], [])]
    if payload["success"]:
        state["contacts"] = copy_state(payload["contacts"])
    elif payload["fighter"] not in state["defence_only"]:
        _own(state, "defence_only").append(payload["fighter"])


def _dice_drawn(state: State, payload: Mapping[str, Any]) -> None:
    # The roll's number is spent (rules.game.roll_numbers).
    drawn(state, payload["roll"])


def _upkeep_ticked(state: State, payload: Mapping[str, Any]) -> None:
    upkeep = _own(state, "upkeep")
    upkeep["ticked"] = [*upkeep["ticked"], payload["key"]]
    for change in payload.get("changes", []):
        _set_fighter(state, change)
    effect = payload.get("effect")
    if effect:
        effects = state.get("effects", [])
        if effect.get("ends"):
            state["effects"] = [e for e in effects if e["id"] != effect["id"]]
        elif "turns_left" in effect:
            state["effects"] = [
                {**e, "turns_left": effect["turns_left"]}
                if e["id"] == effect["id"]
                else e
                for e in effects
            ]


def _effect_recorded(state: State, payload: Mapping[str, Any]) -> None:
    state["effects"] = [*state.get("effects", []), copy_state(payload["effect"])]


def _effect_ended(state: State, payload: Mapping[str, Any]) -> None:
    effects = state.get("effects", [])
    state["effects"] = [e for e in effects if e["id"] != payload["id"]]


def _test_certain(state: State, payload: Mapping[str, Any]) -> None:
    """II-A-1: a pass-or-fail test the dice cannot miss, passed without a
    roll. Nothing waits after it (a spell's counter window, answered, is
    over; a test at the table was set up with nothing waiting)."""
    state["pending"] = None


def _nothing(state: State, payload: Mapping[str, Any]) -> None:
    """An event that only logs: a scatter's roll (II-C-5), a Courage test
    spared (IX)."""


def _turn_started(state: State, payload: Mapping[str, Any]) -> None:
    state.update(
        turn=payload["turn"],
        phase="strategic",
        step="sequences",
        sequences={"a": None, "b": None},
        tactics={"fighters": {"a": None, "b": None}, "winner": None, "first": None},
        draw=None,
        active=None,
        acted={},
        engaged=[],
        defence_only=[],
        combat=None,
        upkeep=None,
        pending=None,
        casts={},  # X: a spell's frequency counts per round
    )
    fighters = _own(state, "fighters")
    for fighter_id, data in fighters.items():
        # II-B-5: the stun lasts until the end of turn.
        fighters[fighter_id] = {**data, "stunned": False, "charged": False}


def _spell_cast(state: State, payload: Mapping[str, Any]) -> None:
    """X: the caster's gems paid, the spell counted against its frequency,
    the mystic action declared (IV-B-2) if it was not yet."""
    fighter_id, spell = payload["fighter"], payload["spell"]
    _set_fighter(
        state, {"fighter": fighter_id, "changes": {"gems": payload["gems_after"]}}
    )
    state.setdefault("casts", {})  # a game begun before spells were counted
    casts = _own(state, "casts")
    mine = dict(casts.get(fighter_id, {}))
    mine[spell] = mine.get(spell, 0) + 1
    casts[fighter_id] = mine
    if payload.get("declared"):
        acted = _own(state, "acted")
        acted[fighter_id] = [*acted.get(fighter_id, []), "mystic"]


def _spell_countered(state: State, payload: Mapping[str, Any]) -> None:
    """X: the counter-magician's gems paid; the spell has no effect."""
    _set_fighter(
        state,
        {"fighter": payload["fighter"], "changes": {"gems": payload["gems_after"]}},
    )
    if not payload.get("frequency_used", True):
        state.setdefault("casts", {})
        casts = _own(state, "casts")
        mine = dict(casts.get(payload["caster"], {}))
        mine[payload["spell"]] = max(0, mine.get(payload["spell"], 0) - 1)
        casts[payload["caster"]] = mine
    state["pending"] = None


def _miracle_called(state: State, payload: Mapping[str, Any]) -> None:
    """XI: the fervour spent from the temporary faith; the mystic action."""
    fighter_id = payload["fighter"]
    _fighter_changes(state, fighter_id, {"faith": payload["faith_after"]})
    if payload.get("declared"):
        acted = _own(state, "acted")
        acted[fighter_id] = [*acted.get(fighter_id, []), "mystic"]


def _game_finished(state: State, payload: Mapping[str, Any]) -> None:
    # Remember the phase the game ended in (the log reads it back).
    state["finished"] = {**copy_state(dict(payload)), "in_phase": state["phase"]}
    state["phase"] = "finished"
    state["step"] = "finished"
    state["pending"] = None


def _rallying_cry(state: State, payload: Mapping[str, Any]) -> None:
    then("evolve_rallying_cry")(state, payload)  # IX, rules.game.rallying_cry


EVOLVERS: dict[str, Callable[[State, Mapping[str, Any]], None]] = {
    "rallying_cry": _rallying_cry,  # IX, rules.game.rallying_cry
    "sequence_set": _sequence_set,
    "tactics_fighter_set": _tactics_fighter,
    "step_changed": _assign("phase", "step", "pending"),
    "pending_set": _assign("pending"),
    "roll_updated": _assign("pending"),
    "tactics_won": _tactics_won,
    "first_chosen": _first_chosen,
    "cards_played": _assign("draw", "active"),
    "activation_ended": _assign("active"),
    "action_declared": _action_declared,
    # "engaged": put back when a failed charge is undone (IX, failed_charge).
    "contacts_changed": _assign("contacts", "engaged"),
    "test_resolved": _test_resolved,
    "disengaged": _disengaged,
    "split_rolled": _assign("pending"),
    "wound_rolled": _wound,
    "fighter_changed": _set_fighter,
    "combat_updated": _assign("combat", "pending"),
    "upkeep_started": _assign("upkeep"),
    "upkeep_ticked": _upkeep_ticked,
    "turn_started": _turn_started,
    "game_finished": _game_finished,
    "opposed_resolved": _assign("pending"),
    "scatter_rolled": _nothing,
    "test_certain": _test_certain,
    "courage_certain": _fear_resisted,  # IX: a test the dice cannot miss
    "courage_spared": _nothing,  # IX: a test a passed one spares (fear_immunity)
    "effect_recorded": _effect_recorded,
    "effect_ended": _effect_ended,
    "dice_drawn": _dice_drawn,
    "spell_cast": _spell_cast,
    "spell_countered": _spell_countered,
    "miracle_called": _miracle_called,
}


def evolve(state: State | None, event: Event) -> State:
    """The state after ``event`` (a new dict; ``state`` is left unchanged).

    Only what the event changes is copied; the new state shares the rest
    with ``state``, so neither may be changed in place afterwards (nothing
    in ``rules.game`` does: every change goes through an event).
    """
    kind = event["kind"]
    payload = event.get("payload") or {}
    if kind == "game_started":
        return copy_state(payload["state"])
    if state is None:
        raise ValueError("A game's log starts with game_started.")
    apply = EVOLVERS.get(kind)
    if apply is None:
        if kind in META_KINDS:
            raise ValueError("An undo is folded by replay(), not evolve().")
        raise ValueError(f"Unknown event kind {kind!r}.")
    new = dict(state)  # shallow: each evolver copies what it changes
    apply(new, payload)
    return new


def undone_actions(events: Iterable[Event]) -> set[int]:
    """The actions reverted by ``undone`` events (each undoes the latest one left)."""
    effective: list[int] = []
    undone: set[int] = set()
    for event in events:
        if event["kind"] == "undone":
            target = event["payload"]["action"]
            if target in effective:
                effective.remove(target)
                undone.add(target)
        elif event["kind"] in META_KINDS:
            continue
        elif event["kind"] != "game_started" and event["action"] not in effective:
            effective.append(event["action"])
    return undone


def effective_events(events: Sequence[Event]) -> list[Event]:
    """The events that count: without undo events and the actions they undid."""
    undone = undone_actions(events)
    return [
        e for e in events if e["kind"] not in META_KINDS and e["action"] not in undone
    ]


def replay(events: Sequence[Event]) -> State:
    """The state the whole log gives, undos applied. Must equal the snapshot."""
    state: State | None = None
    for event in effective_events(events):
        state = evolve(state, event)
    if state is None:
        raise ValueError("An empty log has no state.")
    # The roll numbers are the whole log's, undone actions included: an undo
    # never gives back a number whose faces were shown (rules.game.roll_numbers).
    state["rolls"], state["taken_back"] = ledger(events)
    return state


def undo_target(events: Sequence[Event], side: str | None) -> int:
    """The action an undo by ``side`` would revert: the latest one left.

    Raises ``IllegalAction`` when there is nothing to undo or when the latest
    action was the other side's (a phone never undoes the adversary's move).
    """
    undone = undone_actions(events)
    for event in reversed(events):
        if event["kind"] == "game_started":
            break
        if event["kind"] in META_KINDS:
            continue
        if event["action"] in undone:
            continue
        if side is not None and event["side"] not in (side, None):
            raise IllegalAction(
                _("The last action was your opponent's: only they can undo it.")
            )
        return event["action"]
    raise IllegalAction(_("There is nothing to undo."))
