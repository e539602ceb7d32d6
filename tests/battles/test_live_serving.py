"""Serving that cannot be starved or fooled (issue 25): /healthz probes a
write, a stream ends cleanly when the database goes away, and a phone told
of a version ahead of the game (a restored backup) gets the current one."""

from __future__ import annotations

import asyncio
import logging

import pytest
from django.db import OperationalError, connection
from django.test import AsyncClient

from battles.live import bus as live_bus
from battles.live import stream as live_stream
from tests.battles.test_live_stream import open_stream
from tests.support.aio import run_async
from tests.support.cast import OPPONENT, phone_of
from tests.support.live import two_phone_game
from tests.support.sse import versions


@pytest.mark.django_db
def test_healthz_says_not_ok_when_the_database_takes_no_write(client):
    assert client.get("/healthz").json()["status"] == "ok"

    def full_disk(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("UPDATE"):
            raise OperationalError("database or disk is full")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(full_disk):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "not writable"}


@pytest.fixture
def game(transactional_db):
    game = two_phone_game()
    connection.close()
    return game


def test_a_version_ahead_of_the_game_gets_the_current_one(game):
    phone = phone_of(OPPONENT, AsyncClient())

    async def scenario():
        stream = await open_stream(phone, game, **{"Last-Event-ID": "99"})
        received = await stream.messages_until(1)
        await stream.close()
        return versions(received)

    assert run_async(scenario()) == [game.version]


def test_a_stream_ends_cleanly_when_the_database_goes_away(game, monkeypatch):
    def gone(*args):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(live_stream, "_catch_up", gone)
    phone = phone_of(OPPONENT, AsyncClient())

    async def scenario():
        stream = await open_stream(phone, game, since=0)
        ended = await stream.until_it_ends(3)
        await stream.close()
        return ended, stream.messages

    ended, messages = run_async(scenario())
    assert ended and messages == []
    assert not live_stream.open_rooms()


class FlakyBus(live_bus.ListeningBus):
    """A listening bus whose connection fails ``failures`` times, then listens."""

    name = "flaky"

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.attempts = 0
        self.pauses: list[float] = []

    async def pause(self, seconds: float) -> None:
        self.pauses.append(seconds)
        await asyncio.sleep(0.05)

    def deliver_to_all(self, version, loop) -> None:
        self.resyncs = getattr(self, "resyncs", 0) + 1
        super().deliver_to_all(version, loop)

    async def listen(self, ready):
        self.attempts += 1
        if self.attempts <= self.failures:
            raise ConnectionError("the bus is down")
        ready.set()
        await asyncio.sleep(3600)
        yield b""  # pragma: no cover


def test_a_bus_outage_costs_one_resync_with_backoff_and_heartbeats_go_on(
    game, settings, monkeypatch, caplog
):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    monkeypatch.setattr(live_bus, "READY_TIMEOUT_SECONDS", 0.1)
    bus = FlakyBus(failures=6)
    monkeypatch.setattr(live_stream, "get_bus", lambda: bus)
    looks = []
    changes = live_stream._changes

    def counted(*args):
        looks.append(args)
        return changes(*args)

    monkeypatch.setattr(live_stream, "_changes", counted)
    phone = phone_of(OPPONENT, AsyncClient())

    async def scenario():
        stream = await open_stream(phone, game, since=game.version)
        await stream.quiet_for(1.2)
        await stream.close()
        return stream.comments

    with caplog.at_level(logging.WARNING, logger="battles.live.bus"):
        comments = run_async(scenario())
    assert bus.attempts == 7
    assert bus.pauses == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0]  # backs off
    assert bus.resyncs == 1  # once the bus is back, not at every attempt
    assert caplog.text.count("reconnecting") == 1  # one line per outage
    assert comments.count("heartbeat") >= 4  # kept meanwhile
    # Looks: one per heartbeat of the room and one resync, not one a second
    # per stream while the bus is down.
    assert len(looks) <= 1.2 / 0.2 + 2


def test_a_stream_of_a_game_gone_meanwhile_ends(game, monkeypatch):
    monkeypatch.setattr(live_stream, "_current_version", lambda game_id: None)
    phone = phone_of(OPPONENT, AsyncClient())

    async def scenario():
        stream = await open_stream(phone, game, since=0)
        ended = await stream.until_it_ends(3)
        await stream.close()
        return ended

    assert run_async(scenario())
    assert not live_stream.open_rooms()
