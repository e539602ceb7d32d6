"""Two phones tapping at once lose nothing and duplicate nothing (DESIGN:
"Concurrency").

Real threads, each with its own database connection, call the action service
at the same moment against the configured database (a file on SQLite, where
``IMMEDIATE`` transactions serialise writers; a row lock on PostgreSQL).
Run on both: ``DATABASE_URL=postgres://... pytest tests/battles/test_races.py``.
"""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from django.db import connection

from battles.models.games import Game, GameEvent
from battles.services.games import (
    KeyReused,
    StaleAction,
    perform_action,
    replayed_state,
)
from rules.errors import IllegalAction
from rules.game.state import cards_in_play
from tests.support.game_bot import next_command
from tests.support.live import two_phone_game

pytestmark = pytest.mark.django_db(transaction=True)

# 2 x 25 phones' threads (PostgreSQL allows 100 connections in all), four
# taps each, every tap sent twice (a double tap).
THREADS_PER_SIDE = 25
TAPS_PER_THREAD = 4


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.outcomes: Counter[str] = Counter()
        self.applied: dict[str, list[int]] = {}  # key -> seqs of its events
        self.unexpected: list[str] = []

    def count(self, outcome: str) -> None:
        with self.lock:
            self.outcomes[outcome] += 1


def _phone(game_id: int, side: str, index: int, barrier, tally: Tally) -> None:
    rng = random.Random(f"{side}{index}")
    try:
        barrier.wait(timeout=30)
        for tap in range(TAPS_PER_THREAD):
            game = Game.objects.get(pk=game_id)
            acting, command = next_command(game.state, rng)
            # Half the taps name the version they were made on; the other
            # half do not (the rules then judge the command on the new state).
            expected = game.version if (index + tap) % 2 == 0 else None
            key = f"{side}-{index}-{tap}"
            try:
                result = perform_action(
                    game,
                    side,
                    command,
                    expected_version=expected,
                    idempotency_key=key,
                )
            except StaleAction:
                tally.count("stale")
                continue
            except IllegalAction:
                tally.count("illegal")  # not this side's turn, or moved on
                continue
            seqs = [event.seq for event in result.events]
            again = perform_action(
                game, side, command, expected_version=expected, idempotency_key=key
            )
            if not again.repeated or [e.seq for e in again.events] != seqs:
                tally.unexpected.append(f"double tap {key} applied twice")
            with tally.lock:
                tally.applied[key] = seqs
            tally.count("applied")
    except Exception as error:  # anything else is a bug: report it
        tally.unexpected.append(f"{side}{index}: {type(error).__name__}: {error}")
    finally:
        connection.close()


def test_two_phones_tapping_at_once_lose_and_duplicate_no_event():
    game = two_phone_game()
    connection.close()
    tally = Tally()
    barrier = threading.Barrier(2 * THREADS_PER_SIDE)
    threads = [
        threading.Thread(target=_phone, args=(game.pk, side, index, barrier, tally))
        for side in "ab"
        for index in range(THREADS_PER_SIDE)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads)
    assert tally.unexpected == []
    assert tally.outcomes["applied"] > 0, tally.outcomes

    game.refresh_from_db()
    log = list(GameEvent.objects.filter(game=game).order_by("seq"))
    seqs = [event.seq for event in log]
    assert seqs == list(range(1, len(log) + 1))  # no gap, no duplicate
    assert game.version == len(log)
    keys = [event.idempotency_key for event in log if event.idempotency_key]
    assert len(keys) == len(set(keys))  # each tap at most once
    assert sorted(keys) == sorted(tally.applied)  # every answered tap is there
    for key, applied_seqs in tally.applied.items():
        events = [event for event in log if event.seq in applied_seqs]
        assert events[0].idempotency_key == key
        assert {event.action for event in events} == {applied_seqs[0]}
    actions = {event.action for event in log if event.kind != "game_started"}
    assert len(actions) == tally.outcomes["applied"]
    assert replayed_state(game) == game.state


def test_a_double_tap_applies_once_and_gives_the_same_answer():
    game = two_phone_game()
    order = cards_in_play(game.state, "a")
    command = {"type": "set_sequence", "order": order}
    first = perform_action(game, "a", command, idempotency_key="tap-1")
    second = perform_action(game, "a", command, idempotency_key="tap-1")
    assert second.repeated
    assert [e.seq for e in second.events] == [e.seq for e in first.events]
    assert GameEvent.objects.filter(game=game, idempotency_key="tap-1").count() == 1
    game.refresh_from_db()
    assert game.version == first.events[-1].seq


def test_the_same_key_with_another_command_is_refused():
    game = two_phone_game()
    order = cards_in_play(game.state, "a")
    first = perform_action(
        game, "a", {"type": "set_sequence", "order": order}, idempotency_key="k"
    )
    with pytest.raises(KeyReused) as refused:
        perform_action(
            game,
            "a",
            {"type": "set_sequence", "order": list(reversed(order))},
            idempotency_key="k",
        )
    assert refused.value.message  # a message for the player, shown on the board
    game.refresh_from_db()
    assert game.version == first.game.version  # the first tap only


def test_a_double_tap_from_two_threads_at_once_applies_once():
    game = two_phone_game()
    connection.close()
    order = cards_in_play(game.state, "a")
    command = {"type": "set_sequence", "order": order}
    barrier = threading.Barrier(8)
    answers, errors = [], []

    def tap() -> None:
        try:
            barrier.wait(timeout=30)
            result = perform_action(game, "a", command, idempotency_key="same-tap")
            answers.append([event.seq for event in result.events])
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    # The losers of the race either see the first tap's answer or (when they
    # read the game before it committed) are told the game moved on.
    assert all(isinstance(error, StaleAction) for error in errors), errors
    assert len({tuple(answer) for answer in answers}) == 1
    assert GameEvent.objects.filter(game=game, idempotency_key="same-tap").count() == 1
