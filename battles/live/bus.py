"""The bus that carries "game G is at version N" to the event streams.

Three backends, chosen by ``settings.LIVE_BUS`` (DESIGN: "Live updates"):

- ``memory``: subscribers in this process only (the embedded default, one
  server process);
- ``postgres``: PostgreSQL ``LISTEN``/``NOTIFY`` on ``settings.LIVE_CHANNEL``,
  payload ``"game_id:version"``, or ``"game_id:version:side"`` when a side's
  tap made that version (no process then renders a push for that side: its
  phone has the tap's answer); every server process listens on one
  connection of its own and fans the news out to its streams;
- ``redis``: Redis pub/sub on the same channel name, at ``REDIS_URL``.

The bus says only "events up to N exist"; it never carries state. A message
can be lost (a listener reconnecting, a process dying between commit and
publish); the streams therefore also look at the log on every heartbeat, so
a lost message delays a phone by one heartbeat at most and loses nothing.

While a PostgreSQL or Redis bus is down, the process falls back to the
database: every game watched in it is looked at every
``FALLBACK_LOOK_SECONDS`` (one look per game, however many streams), a new
stream does not wait for the bus, an announcement that cannot be published
reaches this process's own streams at once, and the log says so in one line,
then counts (no traceback per tap).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import connections

from rules.game.state import SIDES

logger = logging.getLogger(__name__)

# Put in every queue of a process when its listener (re)connects: messages
# may have been missed meanwhile, so each stream looks at the log.
RESYNC = -1
# Announced on a game's key when its result proposal changes (not a version:
# the game's log does not move); its streams tell the phones at once.
OUTCOME = -2
RECONNECT_DELAY_SECONDS = 1.0  # doubled at each failure, up to the most
RECONNECT_MOST_SECONDS = 30.0
READY_TIMEOUT_SECONDS = 5.0
# While the bus is down: each game watched in a process is looked at this often.
FALLBACK_LOOK_SECONDS = 0.5
# After a failed publish, the bus is not tried again for this long (a tap
# would otherwise wait for a connection timeout each time).
PUBLISH_RETRY_SECONDS = 1.0
# While publishing fails: a line with the count at most this often.
FAILURE_LOG_SECONDS = 60.0


def encode(game_id: int, version: int, side: str | None = None) -> str:
    return f"{game_id}:{version}:{side}" if side in SIDES else f"{game_id}:{version}"


def decode(payload: str | bytes) -> tuple[int, int, str | None] | None:
    """``(game_id, version, side)`` from ``"game_id:version[:side]"`` (side
    None when not said); None if malformed."""
    if isinstance(payload, bytes):
        payload = payload.decode("ascii", "replace")
    game_id, _, rest = payload.partition(":")
    version, _, side = rest.partition(":")
    if side and side not in SIDES:
        return None
    try:
        return int(game_id), int(version), side or None
    except ValueError:
        return None


class MemoryBus:
    """Subscribers in this process: one asyncio queue per open stream.

    ``publish`` may be called from any thread (``transaction.on_commit`` runs
    in the thread of the sync view); each queue is fed in its own loop.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[
            int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]
        ] = defaultdict(set)

    # -- the streams' side ------------------------------------------------------
    async def subscribe(self, game_id: int) -> asyncio.Queue:
        """A queue that receives every version announced for ``game_id``."""
        queue: asyncio.Queue = asyncio.Queue()
        with self._lock:
            self._subscribers[game_id].add((asyncio.get_running_loop(), queue))
        return queue

    def unsubscribe(self, game_id: int, queue: asyncio.Queue) -> None:
        with self._lock:
            remaining = {
                item
                for item in self._subscribers.get(game_id, ())
                if item[1] is not queue
            }
            if remaining:
                self._subscribers[game_id] = remaining
            else:
                self._subscribers.pop(game_id, None)

    def watched(self, game_id: int) -> bool:
        """Whether a stream of this process follows ``game_id``."""
        with self._lock:
            return game_id in self._subscribers

    def subscriber_count(self) -> int:
        with self._lock:
            return sum(len(queues) for queues in self._subscribers.values())

    # -- the publishers' side ---------------------------------------------------
    def publish(self, game_id: int, version: int) -> None:
        self.deliver(game_id, version)

    def deliver(self, game_id: int, version: int) -> None:
        """Hand ``version`` to every stream of ``game_id`` in this process."""
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for loop, queue in targets:
            with contextlib.suppress(RuntimeError):  # that loop is closed
                loop.call_soon_threadsafe(queue.put_nowait, version)

    def deliver_to_all(self, version: int, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            targets = [
                queue
                for queues in self._subscribers.values()
                for queue_loop, queue in queues
                if queue_loop is loop
            ]
        for queue in targets:
            queue.put_nowait(version)


class _Listener:
    """One listening connection per event loop, shared by its streams."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()
        # Set once the first attempt to listen succeeded or failed: a new
        # stream waits for this, not for a bus that is down.
        self.settled = asyncio.Event()
        self.subscribers = 0
        self.task: asyncio.Task | None = None


class _Ready:
    """What ``listen`` sets once its connection listens: the listener is
    ready and, after an outage, every stream of the loop resyncs, once."""

    def __init__(self, listener: _Listener, on_ready) -> None:
        self.listener = listener
        self.on_ready = on_ready

    def set(self) -> None:
        self.listener.ready.set()
        self.listener.settled.set()
        self.on_ready()


class ListeningBus(MemoryBus):
    """A bus whose news come from another engine, through one connection per
    process (per event loop) that a background task keeps listening."""

    name = "listening"

    def __init__(self) -> None:
        super().__init__()
        self._listeners: dict[asyncio.AbstractEventLoop, _Listener] = {}

    async def subscribe(self, game_id: int) -> asyncio.Queue:
        queue = await super().subscribe(game_id)
        loop = asyncio.get_running_loop()
        listener = self._listeners.get(loop)
        if listener is None or listener.task is None or listener.task.done():
            listener = _Listener()
            self._listeners[loop] = listener
            listener.task = loop.create_task(self._run(listener, loop))
        listener.subscribers += 1
        # Wait until the connection listens, so nothing published after the
        # stream's first look at the log can slip by unheard; not while the
        # bus is down (the fallback looks at the database meanwhile).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(listener.settled.wait(), READY_TIMEOUT_SECONDS)
        return queue

    def unsubscribe(self, game_id: int, queue: asyncio.Queue) -> None:
        super().unsubscribe(game_id, queue)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        listener = self._listeners.get(loop)
        if listener is None:
            return
        listener.subscribers -= 1
        if listener.subscribers <= 0 and listener.task is not None:
            # Nobody watches in this process: hang up until the next stream.
            listener.task.cancel()
            self._listeners.pop(loop, None)

    async def _run(self, listener: _Listener, loop: asyncio.AbstractEventLoop):
        """Listen, and while the connection is down try again with a growing
        delay; the streams keep their heartbeats meanwhile, and look at the
        log once when it is back (messages may have been missed)."""
        delay = RECONNECT_DELAY_SECONDS
        outage = False
        fallback: asyncio.Task | None = None

        def back() -> None:
            nonlocal delay, outage, fallback
            delay = RECONNECT_DELAY_SECONDS
            if fallback is not None:
                fallback.cancel()
                fallback = None
            if outage:
                outage = False
                logger.warning("live bus %s: listening again", self.name)
                self.deliver_to_all(RESYNC, loop)

        try:
            while True:
                try:
                    async for payload in self.listen(_Ready(listener, back)):
                        decoded = decode(payload)
                        if decoded is not None:
                            game_id, version, side = decoded
                            if side is not None:
                                note_acted(game_id, version, side)
                            self.deliver(game_id, version)
                    raise ConnectionError("the listening connection ended")
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # keep listening, and say why
                    listener.ready.clear()
                    listener.settled.set()
                    if not outage:  # one line per outage, not per attempt
                        logger.warning(
                            "live bus %s: %s; the streams look at the database "
                            "every %ss meanwhile; reconnecting (every %ss at most)",
                            self.name,
                            error,
                            FALLBACK_LOOK_SECONDS,
                            RECONNECT_MOST_SECONDS,
                        )
                        fallback = loop.create_task(self._fall_back(loop))
                    outage = True
                    await self.pause(delay)
                    delay = min(delay * 2, RECONNECT_MOST_SECONDS)
        finally:
            if fallback is not None:
                fallback.cancel()

    async def _fall_back(self, loop: asyncio.AbstractEventLoop) -> None:
        """While the bus is down: every stream's room looks at the database."""
        while True:
            await asyncio.sleep(FALLBACK_LOOK_SECONDS)
            self.deliver_to_all(RESYNC, loop)

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def listen(self, ready: asyncio.Event):  # pragma: no cover - abstract
        raise NotImplementedError
        yield


class PostgresBus(ListeningBus):
    """PostgreSQL LISTEN/NOTIFY: the database the app already uses."""

    name = "postgres"

    def publish(self, game_id: int, version: int) -> None:
        # Called after commit (autocommit): NOTIFY is delivered at once.
        with connections["default"].cursor() as cursor:
            cursor.execute(
                "SELECT pg_notify(%s, %s)",
                [
                    settings.LIVE_CHANNEL,
                    encode(game_id, version, acted_side(game_id, version)),
                ],
            )

    def connection_kwargs(self) -> dict[str, Any]:
        database = connections["default"].settings_dict
        kwargs = {
            "dbname": database["NAME"],
            "user": database.get("USER") or None,
            "password": database.get("PASSWORD") or None,
            "host": database.get("HOST") or None,
            "port": database.get("PORT") or None,
        }
        return {key: value for key, value in kwargs.items() if value is not None}

    async def listen(self, ready: asyncio.Event):
        import psycopg
        from psycopg import sql

        connection = await psycopg.AsyncConnection.connect(
            autocommit=True, **self.connection_kwargs()
        )
        try:
            await connection.execute(
                sql.SQL("LISTEN {}").format(sql.Identifier(settings.LIVE_CHANNEL))
            )
            ready.set()
            async for notify in connection.notifies():
                yield notify.payload
        finally:
            await connection.close()


class RedisBus(ListeningBus):
    """Redis pub/sub at ``REDIS_URL``."""

    name = "redis"

    def __init__(self) -> None:
        super().__init__()
        self._client = None
        self._client_lock = threading.Lock()

    def publish(self, game_id: int, version: int) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        with self._client_lock:
            if self._client is None:
                # No retries: a tap's thread must not wait seconds on a bus
                # that is down (its streams fall back to the database).
                self._client = redis.Redis.from_url(
                    settings.REDIS_URL,
                    socket_timeout=1,
                    socket_connect_timeout=1,
                    retry=Retry(NoBackoff(), 0),
                )
        self._client.publish(
            settings.LIVE_CHANNEL,
            encode(game_id, version, acted_side(game_id, version)),
        )

    async def listen(self, ready: asyncio.Event):
        import redis.asyncio as redis_asyncio

        client = redis_asyncio.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1
        )
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(settings.LIVE_CHANNEL)
            ready.set()
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is not None and message["type"] == "message":
                    yield message["data"]
        finally:
            await pubsub.aclose()
            await client.aclose()


BUSES: dict[str, type[MemoryBus]] = {
    "memory": MemoryBus,
    "postgres": PostgresBus,
    "redis": RedisBus,
}

_bus: MemoryBus | None = None
_bus_lock = threading.Lock()


def get_bus() -> MemoryBus:
    """This process's bus, of the kind ``settings.LIVE_BUS`` names."""
    global _bus
    with _bus_lock:
        if _bus is None or BUSES[settings.LIVE_BUS] is not type(_bus):
            _bus = BUSES[settings.LIVE_BUS]()
        return _bus


# The side whose tap made a game's newest version (in this process, or in
# another that said so on the bus): its phone has the tap's answer, so no
# push is rendered for that side.
_acted: dict[int, tuple[int, str]] = {}
ACTED_KEPT = 4096


def acted_side(game_id: int, version: int) -> str | None:
    found = _acted.get(game_id)
    return found[1] if found is not None and found[0] == version else None


def announce_outcome(game_id: int) -> None:
    """After commit: a result was proposed or confirmed for ``game_id``."""
    announce(game_id, OUTCOME)


def note_acted(game_id: int, version: int, side: str) -> None:
    """``side``'s tap makes ``version`` of the game (a wrong note, as after a
    rollback, only makes that side's other phones fetch their board)."""
    if len(_acted) >= ACTED_KEPT:
        _acted.clear()
    _acted[game_id] = (version, side)


# What the process whose tap made a game's newest version holds of it once
# committed: the game as saved and the events appended (DESIGN "Live
# updates"). This process's room renders its pushes from them rather than
# reading them again (a look's reads were 40 % of it, profiled).
class Handed:
    """A game as an action left it: ``game`` (its row as saved, version
    ``version``) and ``events`` (the board's shape of the events past
    ``since``: that action's)."""

    __slots__ = ("game", "since", "events")

    def __init__(self, game: Any, since: int, events: list[dict[str, Any]]) -> None:
        self.game = game
        self.since = since
        self.events = events

    @property
    def version(self) -> int:
        return self.game.version


_handed: dict[int, Handed] = {}
# A hand-over holds a game's state: fewer are kept than acted sides (a club
# night's tables; one left when its room closed before looking is dropped).
HANDED_KEPT = 256


def hand_over(game: Any, since: int, events: list[dict[str, Any]]) -> None:
    """After commit: ``game`` stands at its version, ``events`` past ``since``
    made it; kept for this process's streams of it, if any (else nothing)."""
    if not get_bus().watched(game.pk):
        return
    if len(_handed) >= HANDED_KEPT:
        _handed.clear()
    _handed[game.pk] = Handed(game, since, events)


def take_handed(game_id: int, version: int | None) -> Handed | None:
    """What an action of this process handed over for ``game_id``, if it made
    ``version`` or a later one (the newest announced: an older hand-over
    would show the game behind what the bus said); taken once."""
    handed = _handed.pop(game_id, None)
    if handed is None or version is None or version < 0 or handed.version < version:
        return None
    return handed


def drop_handed(game_id: int) -> None:
    """No stream of this process follows ``game_id`` any more."""
    _handed.pop(game_id, None)


_held = threading.local()

# A request's WSGI environ key the server may set (``confrontation_site.
# sync_views``): a list of calls it makes once the answer has been sent.
AFTER_ANSWER = "battles.after_answer"


@contextlib.contextmanager
def held_until_answered(after_answer: list | None = None):
    """Around a request's view: its announcements wait until its answer is
    rendered (or, given ``after_answer``, the server's list of calls made
    once the answer has left), then all go out, whatever happened (an error
    included).

    The tapping phone's answer first: announced at once, the other phones'
    renders (``battles.live.push``) would share the process's CPU with it,
    and, announced once rendered, with its sending (the interpreter's lock
    handed between threads every few milliseconds). A phone that waits a
    few milliseconds more gets it all the same.
    """
    if getattr(_held, "queue", None) is not None:
        yield  # already held further out
        return
    _held.queue = []
    try:
        yield
    finally:
        queue, _held.queue = _held.queue, None
        if queue and after_answer is not None:
            after_answer.append(lambda: _publish_all(queue))
        else:
            _publish_all(queue)


def _publish_all(queue: list[tuple[int, int]]) -> None:
    for game_id, version in queue:
        _publish(game_id, version)


def announce(game_id: int, version: int) -> None:
    """Tell every stream of ``game_id`` that events up to ``version`` exist
    (after this request's answer, inside ``held_until_answered``).

    Called in ``transaction.on_commit``: the action is already saved, so a
    bus that fails must not turn it into an error for the player. It is
    logged; the streams find the news in the log at their next heartbeat.
    """
    queue = getattr(_held, "queue", None)
    if queue is not None:
        queue.append((game_id, version))
        return
    _publish(game_id, version)


class _Failures:
    """Announcements a bus could not publish: one line when it starts
    failing, a count at most every ``FAILURE_LOG_SECONDS``, one when it
    works again; the bus is left alone ``PUBLISH_RETRY_SECONDS`` after a
    failure."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.said = 0  # the count at the last line
        self.said_at = 0.0
        self.retry_at = 0.0

    def skip(self) -> bool:
        with self.lock:
            if self.count and time.monotonic() < self.retry_at:
                self.count += 1
                return True
            return False

    def failed(self, bus: MemoryBus, error: Exception) -> None:
        now = time.monotonic()
        with self.lock:
            self.count += 1
            self.retry_at = now + PUBLISH_RETRY_SECONDS
            first = self.count == 1
            due = not first and now - self.said_at >= FAILURE_LOG_SECONDS
            if first or due:
                self.said, self.said_at = self.count, now
            count = self.count
        name = getattr(bus, "name", "memory")
        if first:
            logger.warning(
                "live bus %s: could not announce a tap (%s); this process's "
                "streams hear it at once, the others look at the database",
                name,
                error,
            )
        elif due:
            logger.warning(
                "live bus %s: still down, %s announcements not published so far",
                name,
                count,
            )

    def worked(self, bus: MemoryBus) -> None:
        with self.lock:
            count, self.count, self.said = self.count, 0, 0
        if count:
            logger.warning(
                "live bus %s: announcing again (%s announcements were not "
                "published meanwhile)",
                getattr(bus, "name", "memory"),
                count,
            )


_failures = _Failures()


def _publish(game_id: int, version: int) -> None:
    bus = get_bus()
    if _failures.skip():
        bus.deliver(game_id, version)  # this process's streams at once
        return
    try:
        bus.publish(game_id, version)
    except Exception as error:  # the action is committed: never fail it
        bus.deliver(game_id, version)
        _failures.failed(bus, error)
    else:
        _failures.worked(bus)
