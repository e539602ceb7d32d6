"""Two server processes share one game through the cross-process bus.

Two uvicorn processes serve one database; a phone holds the stream of
process 2 while the other phone acts through process 1, and a third process
(``manage.py shell``) plays while the stream is cut. Run once on PostgreSQL
LISTEN/NOTIFY (a database this test creates and drops) and once on Redis
pub/sub (both servers on one SQLite file). Skipped, saying why, only when
that engine cannot be reached; CI has both.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.aio import hang_up, run_async
from tests.support.live import parse_sse
from tests.support.servers import reachable, server_env, shell_json, uvicorn
from tests.support.sse import versions

ADMIN_POSTGRES_URL = os.environ.get(
    "LIVE_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("LIVE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
DELIVERY_SECONDS = 2.0


def _postgres_database():
    """A fresh PostgreSQL database for the servers; yields its URL."""
    import psycopg

    parts = urlsplit(ADMIN_POSTGRES_URL)
    if not reachable(parts.hostname or "127.0.0.1", parts.port or 5432):
        pytest.skip(f"PostgreSQL is not reachable at {parts.hostname}:{parts.port}")
    name = f"confrontation_live_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(ADMIN_POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(ADMIN_POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["postgres", "redis"])
def bus_settings(request, tmp_path):
    """The servers' settings for one bus (and the database behind them)."""
    channel = f"confrontation_test_{uuid.uuid4().hex[:8]}"
    if request.param == "postgres":
        database = _postgres_database()
        url = next(database)
        request.addfinalizer(lambda: next(database, None))
        yield {"DATABASE_URL": url, "LIVE_BUS": "postgres", "LIVE_CHANNEL": channel}
        return
    parts = urlsplit(REDIS_URL)
    if not reachable(parts.hostname or "127.0.0.1", parts.port or 6379):
        pytest.skip(f"Redis is not reachable at {parts.hostname}:{parts.port}")
    yield {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}",
        "LIVE_BUS": "redis",
        "REDIS_URL": REDIS_URL,
        "LIVE_CHANNEL": channel,
    }


class OpenStream:
    """A stream read by a task; ``close`` hangs up like a phone going to sleep."""

    def __init__(self, client: httpx.AsyncClient, url: str, headers: dict):
        self.messages: list = []
        self.connected = asyncio.Event()
        self.task = asyncio.create_task(self._read(client, url, headers))

    async def _read(self, client, url, headers) -> None:
        buffer = ""
        async with client.stream("GET", url, headers=headers) as response:
            assert response.status_code == 200
            async for text in response.aiter_text():
                self.connected.set()
                messages, _comments, buffer = parse_sse(buffer + text)
                self.messages += messages

    async def wait_for(self, count: int, timeout: float) -> list:
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.01)
        return self.messages

    async def close(self) -> None:
        await hang_up(self.task)


async def _act_through(base: str, session: str, game: dict, side: str) -> int:
    """A real tap: the game page, then the form's POST with its CSRF token."""
    async with httpx.AsyncClient(base_url=base, cookies={"sessionid": session}) as a:
        page = await a.get(f"/games/{game['public_id']}/")
        assert page.status_code == 200
        token = re.search(r'"X-CSRFToken": "([^"]+)"', page.text).group(1)
        fields = {
            "type": "set_sequence",
            "side": side,
            "version": str(game["version"]),
            "tap": uuid.uuid4().hex,
            "order": game["order"][side],
        }
        answer = await a.post(
            f"/games/{game['public_id']}/act",
            data=fields,
            headers={"X-CSRFToken": token, "HX-Request": "true"},
        )
        assert answer.status_code == 200, answer.text[:500]
        return int(answer.headers["X-Game-Version"])


def test_an_action_on_one_process_reaches_a_stream_on_another(bus_settings):
    env = server_env(**bus_settings)
    from tests.support.servers import manage

    manage("migrate", "--noinput", env=env)
    game = shell_json(
        "from tests.support.live_setup import setup_game; setup_game()", env
    )
    stream_path = f"/games/{game['public_id']}/stream"

    with uvicorn(env) as first, uvicorn(env) as second:

        async def scenario():
            cookies = {"sessionid": game["sessions"]["b"]}
            timeout = httpx.Timeout(10, read=None)
            async with httpx.AsyncClient(
                base_url=second, cookies=cookies, timeout=timeout
            ) as phone_b:
                stream = OpenStream(
                    phone_b, f"{stream_path}?since={game['version']}", {}
                )
                await asyncio.wait_for(stream.connected.wait(), 10)
                acted_at = time.monotonic()
                version = await _act_through(first, game["sessions"]["a"], game, "a")
                answered_at = time.monotonic()
                heard = await stream.wait_for(1, DELIVERY_SECONDS)
                heard_at = time.monotonic()
                await stream.close()  # the phone sleeps...
                assert versions(heard) == [version]

                missed = await asyncio.to_thread(
                    shell_json,
                    "from tests.support.live_setup import play_actions; "
                    f"play_actions({game['public_id']!r}, 3)",
                    env,
                )
                # ...and wakes up on the other process, with its last id.
                headers = {"Last-Event-ID": str(version)}
                stream = OpenStream(phone_b, f"{stream_path}?since=0", headers)
                await stream.wait_for(3, 5)
                await asyncio.sleep(0.5)  # nothing more may come
                await stream.close()
                return (
                    missed,
                    versions(stream.messages),
                    answered_at - acted_at,
                    heard_at - answered_at,
                )

        missed, resumed, _answer, delay = run_async(scenario())
    assert len(missed) == 3
    assert resumed == missed
    assert delay < DELIVERY_SECONDS
