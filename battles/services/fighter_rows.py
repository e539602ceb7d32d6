"""Keep a game's fighter, wound and sequence rows in step with its log.

``sync_rows(game, state_before, state_after, events)`` is called in the
transaction that appends ``events`` (or the undo), with the snapshot before
and the snapshot the engine built after: it never folds the log again. It
writes only what changed: one UPDATE for the fighters the events touched, one
INSERT for the wounds they dealt (one DELETE for an undone action's wounds),
and a few statements for a sequence set or locked; the number of queries does
not grow with the army.

``rebuild(game)`` writes a game's rows again from its log (the management
command ``rebuild_fighter_rows``), through the same ``sync_rows``, and
``out_of_step(game)`` says how the stored rows differ from what the log gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Case, Count, F, Value, When

from battles.models.armies import ArmyCard
from battles.models.fighters import (
    ActivationSequence,
    ActivationSequenceCard,
    Fighter,
    FighterWound,
)
from battles.models.games import Game, GameEvent
from rules.game import effective_events, evolve
from rules.game.state import SIDES

State = Mapping[str, Any]

# The fighter columns that mirror the snapshot, and where each comes from.
STATE_FIELDS = {
    "wound_steps": "steps",
    "stunned": "stunned",
    "routed": "routed",
    "eliminated": "eliminated",
    "mana": "mana",
    "faith": "faith",
}
ROW_FIELDS = (*STATE_FIELDS, "eliminated_turn", "eliminated_phase")


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) else value


def fighter_values(data: Mapping[str, Any]) -> dict[str, Any]:
    """A fighter's columns as the snapshot has them."""
    return {column: _whole(data.get(key)) for column, key in STATE_FIELDS.items()}


# --- creating the fighters ---------------------------------------------------------


def _origins(game: Game, state: State) -> dict[str, tuple[ArmyCard | None, int | None]]:
    """Each card's army card and its points, matched by place and name."""
    armies = {"a": game.army_a_id, "b": game.army_b_id}
    cards = ArmyCard.objects.filter(
        army_id__in=[pk for pk in armies.values() if pk is not None]
    ).select_related("card")
    by_army: dict[int, list[ArmyCard]] = {}
    for army_card in cards.order_by("army_id", "position", "id"):
        by_army.setdefault(army_card.army_id, []).append(army_card)
    origins: dict[str, tuple[ArmyCard | None, int | None]] = {}
    for side in SIDES:
        listed = by_army.get(armies[side], [])
        for index, card_key in enumerate(state["sides"][side]["cards"]):
            army_card = listed[index] if index < len(listed) else None
            if (
                army_card is None
                or army_card.card.name != state["cards"][card_key]["name"]
            ):
                origins[card_key] = (None, None)  # the army changed since
            else:
                origins[card_key] = (army_card, army_card.points)
    return origins


def _create_fighters(game: Game, state: State, kept: Mapping[str, dict] | None) -> None:
    origins = {} if kept else _origins(game, state)
    rows = []
    for key, data in state["fighters"].items():
        card = state["cards"][data["card"]]
        if kept and key in kept:
            origin = kept[key]
        else:
            army_card, points = origins.get(data["card"], (None, None))
            origin = {
                "army_card_id": army_card.pk if army_card else None,
                "reference_card_id": army_card.card_id if army_card else None,
                "card_points": points,
            }
        rows.append(
            Fighter(
                game=game,
                key=key,
                side=data["side"],
                card_key=data["card"],
                card_name=card["name"],
                card_fighters=len(card["fighters"]),
                label=data["label"],
                eliminated_turn=None,
                eliminated_phase="",
                **origin,
                **fighter_values(data),
            )
        )
    Fighter.objects.bulk_create(rows)


# --- one action --------------------------------------------------------------------


def _wounds(state_before: State, events: Sequence[GameEvent]) -> list[dict[str, Any]]:
    """The wounds these events dealt, in order, with the steps each added."""
    steps = {}
    wounds = []
    for event in events:
        if event.kind != "wound_rolled":
            continue
        payload = event.payload
        target = payload["target"]
        before = steps.get(target, state_before["fighters"][target]["steps"])
        steps[target] = payload["steps_after"]
        wounds.append(
            {
                "event": event,
                "target": target,
                "source": payload.get("source"),
                "location": payload.get("location") or "",
                "outcome": payload["outcome"],
                "steps_added": max(0, payload["steps_after"] - before),
                "steps_after": payload["steps_after"],
                "eliminated": bool(payload["eliminated"]),
            }
        )
    return wounds


def _update_fighters(game: Game, changes: Mapping[str, Mapping[str, Any]]) -> None:
    """One UPDATE for every touched fighter, each column a CASE on the key."""
    if not changes:
        return
    columns = {}
    for name in ROW_FIELDS:
        field = Fighter._meta.get_field(name)
        whens = []
        for key, values in changes.items():
            value = values[name]
            then = value if isinstance(value, F) else Value(value, output_field=field)
            whens.append(When(key=key, then=then))
        columns[name] = Case(*whens, default=F(name), output_field=field)
    Fighter.objects.filter(game=game, key__in=list(changes)).update(**columns)


def _sync_fighters(game: Game, state_before: State, state_after: State) -> None:
    changes = {}
    for key, data in state_after["fighters"].items():
        old = state_before["fighters"].get(key)
        values: dict[str, Any] = fighter_values(data)
        if old is not None and fighter_values(old) == values:
            continue
        if not values["eliminated"]:
            values["eliminated_turn"], values["eliminated_phase"] = None, ""
        elif old is None or not old["eliminated"]:
            # Eliminated by this action: in its turn and phase.
            values["eliminated_turn"] = state_before["turn"]
            values["eliminated_phase"] = state_before["phase"]
        else:  # still eliminated: when it happened stays
            values["eliminated_turn"] = F("eliminated_turn")
            values["eliminated_phase"] = F("eliminated_phase")
        changes[key] = values
    _update_fighters(game, changes)


def _sync_wounds(
    game: Game,
    state_before: State,
    wounds: Sequence[Mapping[str, Any]],
    undone: Sequence[int],
) -> None:
    if undone:
        FighterWound.objects.filter(game=game, action__in=list(undone)).delete()
    if not wounds:
        return
    keys = {w["target"] for w in wounds} | {w["source"] for w in wounds if w["source"]}
    ids = dict(Fighter.objects.filter(game=game, key__in=keys).values_list("key", "pk"))
    FighterWound.objects.bulk_create(
        FighterWound(
            game=game,
            fighter_id=ids[w["target"]],
            attacker_id=ids.get(w["source"]),
            event=w["event"],
            seq=w["event"].seq,
            action=w["event"].action,
            turn=state_before["turn"],
            phase=state_before["phase"],
            location=w["location"],
            outcome=w["outcome"],
            steps_added=w["steps_added"],
            steps_after=w["steps_after"],
            eliminated=w["eliminated"],
        )
        for w in wounds
    )


def _locked(state: State, side: str) -> bool:
    return (
        state["sequences"][side] is not None and state["tactics"]["winner"] is not None
    )


def _sync_sequences(
    game: Game, state_before: State, state_after: State, events: Sequence[GameEvent]
) -> None:
    """The sequences of the snapshot's turn; earlier turns' rows stay as they were."""
    turn = state_after["turn"]
    if state_before["turn"] != turn:
        return  # a new turn (no sequence yet), or its undo (the rows are there)
    lock = next((e for e in events if e.kind == "tactics_won"), None)
    for side in SIDES:
        order = state_after["sequences"][side]
        was = state_before["sequences"][side]
        locked, was_locked = _locked(state_after, side), _locked(state_before, side)
        if order == was and locked == was_locked:
            continue
        rows = ActivationSequence.objects.filter(game=game, side=side, turn=turn)
        if order != was:
            rows.delete()
            if order is None:
                continue
            sequence = ActivationSequence.objects.create(
                game=game, side=side, turn=turn
            )
            ActivationSequenceCard.objects.bulk_create(
                ActivationSequenceCard(
                    sequence=sequence,
                    position=place,
                    card_key=card,
                    card_name=state_after["cards"][card]["name"],
                )
                for place, card in enumerate(order, start=1)
            )
        if locked != was_locked:
            rows.update(
                locked_by=lock if locked else None,
                locked_at=lock.created if locked and lock else None,
            )


def sync_rows(
    game: Game,
    state_before: State | None,
    state_after: State,
    events: Sequence[GameEvent],
) -> None:
    """Bring the game's rows from ``state_before`` to ``state_after``.

    ``events`` are the rows just appended (``None`` before: the game starts).
    Call it inside the transaction that writes them.
    """
    if state_before is None:
        _create_fighters(game, state_after, None)
        return
    wounds = _wounds(state_before, events)
    undone = [e.payload["action"] for e in events if e.kind == "undone"]
    _sync_fighters(game, state_before, state_after)
    _sync_wounds(game, state_before, wounds, undone)
    _sync_sequences(game, state_before, state_after, events)


# --- the whole log -----------------------------------------------------------------


def rows_of(game: Game) -> dict[str, Any]:
    """The game's rows, in a form that compares (for ``out_of_step``)."""
    fighters = {
        row["key"]: row
        for row in Fighter.objects.filter(game=game).values(
            "key",
            "side",
            "card_key",
            "card_name",
            "card_fighters",
            "label",
            *ROW_FIELDS,
        )
    }
    wounds = list(
        FighterWound.objects.filter(game=game)
        .order_by("seq")
        .values_list(
            "seq",
            "action",
            "fighter__key",
            "attacker__key",
            "turn",
            "phase",
            "location",
            "outcome",
            "steps_added",
            "steps_after",
            "eliminated",
        )
    )
    sequences: dict[tuple[str, int], dict[str, Any]] = {}
    for row in ActivationSequence.objects.filter(game=game).values(
        "pk", "side", "turn", "locked_by__seq"
    ):
        sequences[(row["side"], row["turn"])] = {
            "locked_by": row["locked_by__seq"],
            "cards": [],
        }
    for card in (
        ActivationSequenceCard.objects.filter(sequence__game=game)
        .order_by("sequence__turn", "sequence__side", "position")
        .values("sequence__side", "sequence__turn", "card_key", "card_name")
    ):
        key = (card["sequence__side"], card["sequence__turn"])
        sequences[key]["cards"].append((card["card_key"], card["card_name"]))
    return {"fighters": fighters, "wounds": wounds, "sequences": sequences}


def _actions(events: Iterable[GameEvent]) -> list[list[GameEvent]]:
    grouped: dict[int, list[GameEvent]] = {}
    for event in events:
        grouped.setdefault(event.action, []).append(event)
    return list(grouped.values())


def rebuild(game: Game) -> None:
    """Write the game's rows again from its log, through ``sync_rows``.

    Where each card came from (army card, points) is not in the log: it is
    kept from the rows being replaced, or matched on the army otherwise.
    """
    kept = {
        row.pop("key"): row
        for row in Fighter.objects.filter(game=game).values(
            "key", "army_card_id", "reference_card_id", "card_points"
        )
    }
    Fighter.objects.filter(game=game).delete()  # wounds go with them
    ActivationSequence.objects.filter(game=game).delete()
    log = list(game.events.order_by("seq"))
    by_seq = {event.seq: event for event in log}
    effective = effective_events([event.as_rules_event() for event in log])
    state = None
    for group in _actions(by_seq[e["seq"]] for e in effective):
        after = state
        for event in group:
            after = evolve(after, event.as_rules_event())
        if state is None:
            _create_fighters(game, after, kept)
        else:
            sync_rows(game, state, after, group)
        state = after


def out_of_step(game: Game) -> list[str]:
    """How the stored rows differ from what the log gives (empty: in step).

    The rows the log gives are written in a savepoint that is rolled back,
    so nothing is mended here.
    """
    stored = rows_of(game)

    class _Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            rebuild(game)
            expected = rows_of(game)
            raise _Rollback
    except _Rollback:
        pass
    problems = []
    for key in sorted(set(stored["fighters"]) | set(expected["fighters"])):
        have, want = stored["fighters"].get(key), expected["fighters"].get(key)
        if have != want:
            problems.append(f"fighter {key}: stored {have}, log gives {want}")
    if stored["wounds"] != expected["wounds"]:
        problems.append(
            f"wounds: stored {len(stored['wounds'])}, "
            f"log gives {len(expected['wounds'])} (or they differ)"
        )
    for key in sorted(set(stored["sequences"]) | set(expected["sequences"])):
        have, want = stored["sequences"].get(key), expected["sequences"].get(key)
        if have != want:
            problems.append(
                f"sequence {key[0]} turn {key[1]}: stored {have}, log gives {want}"
            )
    return problems


# --- questions asked of the rows ---------------------------------------------------


def army_points_destroyed(game: Game) -> dict[str, int]:
    """Army points each side destroyed: ``{"a": points of B's eliminated
    fighters, "b": points of A's}``; a card's points are shared evenly among
    its fighters, the sum rounded down (a card without a printed cost counts 0)."""
    destroyed = {"a": Fraction(0), "b": Fraction(0)}
    rows = (
        Fighter.objects.filter(game=game, eliminated=True, card_points__isnull=False)
        .values("side", "card_key", "card_points", "card_fighters")
        .annotate(fallen=Count("pk"))
    )
    for row in rows:
        by = "b" if row["side"] == "a" else "a"
        destroyed[by] += Fraction(
            row["card_points"] * row["fallen"], row["card_fighters"]
        )
    return {side: int(points) for side, points in destroyed.items()}  # rounded down


def survivors(game: Game) -> dict[str, list[str]]:
    """Each side's fighters still standing, by label."""
    standing: dict[str, list[str]] = {side: [] for side in SIDES}
    for side, label in (
        Fighter.objects.filter(game=game, eliminated=False)
        .order_by("id")
        .values_list("side", "label")
    ):
        standing[side].append(label)
    return standing


def readable_sequences(game: Game, roles: Iterable[str]) -> list[ActivationSequence]:
    """The sequences someone holding ``roles`` may read, turn by turn: their
    own side's, and every side's once the game is over (IV-A-1: hidden)."""
    return list(
        ActivationSequence.objects.filter(game=game)
        .readable_by(frozenset(roles))
        .prefetch_related("cards")
        .order_by("turn", "side")
    )


def add_rows_to_summary(game: Game, summary: dict[str, Any]) -> dict[str, Any]:
    """The end-of-game summary with what the rows answer: survivors and army
    points destroyed per side, and both sides' sequences (the game is over)."""
    standing = survivors(game)
    points = army_points_destroyed(game)
    for side, data in summary["sides"].items():
        data["survivors"] = standing[side]
        data["army_points_destroyed"] = points[side]
    summary["sequences"] = readable_sequences(game, ())
    return summary
