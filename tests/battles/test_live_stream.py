"""The game's event stream: versions only, resumable, in order, once.

Driven in-process through Django's AsyncClient (the ASGI path, async
middleware, the view's async generator) on the in-process bus; the
cross-process buses are tested with real server processes in
``test_live_processes.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient
from django.urls import reverse

from battles.live import bus as live_bus
from tests.support.aio import hang_up, run_async
from tests.support.cast import OPPONENT, OUTSIDER, OWNER, SPECTATOR, phone_of
from tests.support.live import parse_sse, play, two_phone_game
from tests.support.sse import versions

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("english"),
]


def _play_and_hang_up(game, actions, seed):
    try:
        return play(game, actions, seed=seed)
    finally:
        connection.close()


play_async = sync_to_async(_play_and_hang_up, thread_sensitive=False)


class Stream:
    """An open stream, read message by message.

    A task pulls the chunks, so a reader's timeout never cancels the view's
    generator; closing cancels that task, as a client hanging up does.
    """

    def __init__(self, response):
        self.response = response
        self.chunks: asyncio.Queue = asyncio.Queue()
        self.buffer = ""
        self.messages = []
        self.comments = []
        self.ended = False
        self.pump = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        async for chunk in self.response.streaming_content:
            await self.chunks.put(chunk)
        await self.chunks.put(None)

    async def _read(self, timeout: float) -> bool:
        try:
            chunk = await asyncio.wait_for(self.chunks.get(), timeout)
        except TimeoutError:
            return False
        if chunk is None:
            self.ended = True
            return False
        self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        messages, comments, self.buffer = parse_sse(self.buffer)
        self.messages += messages
        self.comments += comments
        return True

    async def first_chunk(self) -> str:
        chunk = await asyncio.wait_for(self.chunks.get(), 3)
        return chunk.decode() if isinstance(chunk, bytes) else chunk

    async def messages_until(self, count: int, timeout: float = 3.0) -> list:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.messages) < count and loop.time() < deadline:
            if not await self._read(deadline - loop.time()) and self.ended:
                break
        return self.messages

    async def quiet_for(self, seconds: float) -> list:
        """Everything that comes within ``seconds``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline and not self.ended:
            await self._read(max(deadline - loop.time(), 0.01))
        return self.messages

    async def until_it_ends(self, timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.ended and loop.time() < deadline:
            await self._read(deadline - loop.time())
        return self.ended

    async def close(self) -> None:
        await hang_up(self.pump)


async def open_stream(client, game, **headers) -> Stream:
    url = reverse("game_stream", args=[game.public_id])
    query = {}
    if "since" in headers:
        query["since"] = headers.pop("since")
    response = await client.get(url, query, headers=headers)
    assert response.status_code == 200, response
    return Stream(response)


@pytest.fixture
def game():
    game = two_phone_game()
    connection.close()
    return game


@pytest.fixture
def owner_phone():
    """The game owner's phone, as an ``AsyncClient`` (the ASGI path)."""
    return phone_of(OWNER, AsyncClient())


def test_a_phone_that_slept_gets_every_action_it_missed_in_order_once(game):
    phone = phone_of(OPPONENT, AsyncClient())

    async def scenario():
        stream = await open_stream(phone, game, since=game.version)
        assert await stream.quiet_for(0.3) == []  # up to date: nothing to say
        last_seen = game.version
        await stream.close()  # the phone sleeps
        missed = await play_async(game, 3, 7)
        stream = await open_stream(phone, game, **{"Last-Event-ID": str(last_seen)})
        received = await stream.messages_until(3)
        received = await stream.quiet_for(0.5)  # and nothing more
        await stream.close()
        return missed, versions(received)

    missed, received = run_async(scenario())
    assert len(missed) == 3
    assert received == missed


def test_an_open_stream_hears_of_each_action_at_once(game):
    spectator_phone = phone_of(SPECTATOR, AsyncClient())

    async def scenario():
        stream = await open_stream(spectator_phone, game, since=game.version)
        await stream.quiet_for(0.2)
        played = []
        for seed in (1, 2):
            played += await play_async(game, 1, seed)
            await stream.messages_until(len(played), timeout=2)
        await stream.close()
        return played, versions(stream.messages)

    played, received = run_async(scenario())
    assert received == played


def test_without_a_starting_point_the_current_version_comes_at_once(game, owner_phone):
    async def scenario():
        stream = await open_stream(owner_phone, game)
        received = await stream.messages_until(1)
        await stream.close()
        return versions(received)

    assert run_async(scenario()) == [game.version]


def test_last_event_id_wins_over_since(game, owner_phone):
    async def scenario():
        before = game.version
        played = await play_async(game, 2, 3)
        stream = await open_stream(
            owner_phone, game, since=before, **{"Last-Event-ID": str(played[0])}
        )
        received = await stream.quiet_for(0.5)
        await stream.close()
        return played, versions(received)

    played, received = run_async(scenario())
    assert received == played[1:]


def test_the_stream_says_no_cache_no_buffering_and_how_soon_to_retry(game, owner_phone):
    async def scenario():
        stream = await open_stream(owner_phone, game, since=game.version)
        first = await stream.first_chunk()
        await stream.close()
        return stream.response, first

    response, first = run_async(scenario())
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Accel-Buffering"] == "no"
    assert first.startswith("retry:")


def test_a_quiet_stream_sends_heartbeats(game, settings, owner_phone):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2

    async def scenario():
        stream = await open_stream(owner_phone, game, since=game.version)
        await stream.quiet_for(0.7)
        await stream.close()
        return stream.comments

    assert run_async(scenario()).count("heartbeat") >= 2


def test_a_lost_bus_message_costs_one_heartbeat_not_an_action(
    game, settings, owner_phone
):
    settings.LIVE_HEARTBEAT_SECONDS = 0.3

    async def scenario():
        stream = await open_stream(owner_phone, game, since=game.version)
        await stream.quiet_for(0.1)
        bus = live_bus.get_bus()
        original = bus.publish
        bus.publish = lambda game_id, version: None  # the message is lost
        try:
            played = await play_async(game, 1, 5)
        finally:
            bus.publish = original
        received = await stream.messages_until(1, timeout=1.5)
        await stream.close()
        return played, versions(received)

    played, received = run_async(scenario())
    assert received == played


def test_a_stream_ends_after_its_lifetime_so_the_browser_reconnects(game, settings):
    settings.LIVE_STREAM_MAX_SECONDS = 0.3
    settings.LIVE_HEARTBEAT_SECONDS = 0.1

    owner_phone = phone_of(OWNER, AsyncClient())

    async def scenario():
        stream = await open_stream(owner_phone, game, since=game.version)
        return await stream.until_it_ends(3)

    assert run_async(scenario())


def test_closing_a_stream_leaves_no_subscriber_behind(game, owner_phone):
    async def scenario():
        bus = live_bus.get_bus()
        before = bus.subscriber_count()
        stream = await open_stream(owner_phone, game, since=game.version)
        await stream.quiet_for(0.1)
        during = bus.subscriber_count()
        await stream.close()
        return before, during, bus.subscriber_count()

    before, during, after = run_async(scenario())
    assert during == before + 1
    assert after == before


def test_an_outsider_cannot_open_the_stream(game):
    outsider_phone = phone_of(OUTSIDER, AsyncClient())
    anonymous_phone = AsyncClient()

    async def scenario():
        url = reverse("game_stream", args=[game.public_id])
        outsider = await outsider_phone.get(url)
        anonymous = await anonymous_phone.get(url)
        return outsider.status_code, anonymous.status_code

    assert run_async(scenario()) == (404, 404)


def test_the_version_endpoint_answers_seated_people_only(game, client):
    url = reverse("game_version", args=[game.public_id])
    response = phone_of(SPECTATOR, client).get(url)
    assert response.status_code == 200
    assert json.loads(response.content) == {"version": game.version}
    assert "no-store" in response["Cache-Control"]
    assert phone_of(OUTSIDER, client).get(url).status_code == 404


def test_a_failing_bus_never_fails_a_committed_action(game, monkeypatch, caplog):
    def broken(game_id, version):
        raise ConnectionError("the bus is down")

    monkeypatch.setattr(live_bus.get_bus(), "publish", broken)
    failures = live_bus._Failures()
    monkeypatch.setattr(live_bus, "_failures", failures)
    with caplog.at_level(logging.WARNING, logger="battles.live.bus"):
        played = play(game, 3)
    game.refresh_from_db()
    assert game.version == played[-1]
    # One line, no traceback, however many taps (issue 30: 3 KB a tap).
    assert caplog.text.count("could not announce") == 1
    assert "Traceback" not in caplog.text
    assert all(record.exc_info is None for record in caplog.records)
    with caplog.at_level(logging.WARNING, logger="battles.live.bus"):
        failures.worked(live_bus.get_bus())  # the bus is back
    assert "3 announcements were not published" in caplog.text


def test_catching_up_says_versions_only_never_state(game):
    opponent_phone = phone_of(OPPONENT, AsyncClient())

    async def scenario():
        stream = await open_stream(opponent_phone, game, since=0)
        await stream.quiet_for(0.3)
        await stream.close()
        return stream.messages

    for message in run_async(scenario()):
        assert message.data.isdigit()
