"""The Server-Sent Events a game's stream sends (DESIGN: "Live updates").

Two kinds of message, each with ``id: N``, N the game's version after an
action (the seq of its last event); ``EventSource`` sends the last id back as
``Last-Event-ID`` when it reconnects:

- ``event: board``: what changed, pushed. Its data is the version the phone
  must show for it to apply, then the HTML a phone showing that version
  would fetch (``battles.live.push``), as its viewpoint may see it. The phone
  swaps it in with no request of its own.
- ``event: version``, data N: the phone fetches its board. Sent when no
  push fits: catching up on connecting (one message per action missed, in
  order, once), a phone that is behind, a viewpoint with no render (a phone
  holding both sides), an undo, the game over.

One *room* per game and event loop (one per server process) holds the
game's streams: it hears the bus once, looks at the game once per action
(and per heartbeat, which catches a lost bus message) and renders once per
viewpoint watching, on one database connection kept while anyone watches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Max

from battles.identity import Viewer
from battles.kept_connections import forget_replaced_files
from battles.live.bus import (
    OUTCOME,
    RESYNC,
    acted_side,
    drop_handed,
    get_bus,
    take_handed,
)
from battles.live.push import Render, board_message, personal
from battles.models.games import Game, GameEvent
from battles.thread_names import name_os_thread

logger = logging.getLogger(__name__)

RETRY_MILLISECONDS = 2000
ROOM_READY_SECONDS = 10.0
END = None  # put in a stream's queue: the room is gone, the stream ends
# An ``event: outcome`` (no id: it is not a version) tells the page that the
# game's result proposal changed: it fetches that part at once.
OUTCOME_MESSAGE = "event: outcome\ndata: outcome\n\n"


def version_message(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


async def next_announcement(queue: asyncio.Queue, timeout: float) -> int | None:
    """The highest version announced within ``timeout`` (a burst of actions
    makes one look), or None when a heartbeat is due instead: the stream then
    looks all the same."""
    try:
        announced = await asyncio.wait_for(queue.get(), timeout)
    except TimeoutError:
        return None
    while not queue.empty():
        if announced == OUTCOME:  # said on its own, the versions after it
            return announced
        following = queue.get_nowait()
        if following == OUTCOME:
            queue.put_nowait(following)  # next time (at the queue's end: rare)
            return announced
        announced = max(announced, following)
    return announced


def hang_up() -> None:
    """Close this thread's database connection, unless a transaction is open.

    A stream lives for minutes: it must not hold a database connection
    meanwhile (PostgreSQL's 100 connections would not last 100 phones).
    """
    if not connection.in_atomic_block:
        connection.close()


# --- the looks: one thread, one connection kept while rooms are open -----------------

_looks = ThreadPoolExecutor(
    1, thread_name_prefix="live-look", initializer=name_os_thread
)
_rooms: dict[tuple[asyncio.AbstractEventLoop, int], Room] = {}


def _looked(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in the look thread. Its connection stays open while
    rooms are (``battles.kept_connections``: a new one costs 1.2 to 5 ms, a
    look about as much); a broken one is closed and, on PostgreSQL, the look
    tried once more."""
    forget_replaced_files()
    for attempt in (1, 2):
        try:
            return function(*args)
        except DatabaseError:
            connection.close()
            if attempt == 2 or connection.vendor != "postgresql":
                raise
        finally:
            if not _rooms:
                hang_up()
    raise AssertionError("unreachable")


async def look(function: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(
        _looks, _looked, function, *args
    )


def _current_version(game_id: int) -> int | None:
    found = Game.objects.filter(pk=game_id).values_list("version", flat=True)
    return next(iter(found), None)


def _catch_up(game_id: int, seen: int | None) -> list[int]:
    """The versions after each action past ``seen``, in order. ``seen`` None
    (a phone that says nothing of what it has) or ahead of the game (a
    restored backup): the current version."""
    current = _current_version(game_id)
    if current is None:
        return []
    if seen is None or seen > current:
        return [current]
    if seen == current:
        return []
    ends = (
        GameEvent.objects.filter(game_id=game_id, seq__gt=seen)
        .values("action")
        .annotate(end=Max("seq"))
        .order_by("action")
        .values_list("end", flat=True)
    )
    return list(ends)


async def action_ends_after(game_id: int, seen: int | None) -> list[int]:
    return await look(_catch_up, game_id, seen)


def _changes(
    game_id: int,
    base: int,
    viewpoints: set[Viewer],
    render: Render | None,
    known: dict | None,
    announced: int | None = None,
) -> tuple[int | None, dict | None, dict[Viewer, str]]:
    """The game's version and state and, past ``base``, the answer per
    viewpoint (not for the side whose tap made that version, as this process
    or the bus heard it: its phone has the tap's answer). ``known``: the
    state at ``base``, kept from the last look (None at the first).
    ``announced``: the newest version the bus said; when an action of this
    process made it (or a later one), the game as that action saved it is
    not read again, nor its events when they are all past ``base`` (taken
    here, as the look runs: the newest by then)."""
    handed = take_handed(game_id, announced)
    if handed is not None:
        game = handed.game
    else:
        game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None, None, {}
    if game.version <= base or not viewpoints or render is None:
        return game.version, game.state, {}
    skip = acted_side(game_id, game.version)
    wanted = {v for v in viewpoints if skip is None or v.side != skip}
    past = handed.events if handed is not None and handed.since == base else None
    return game.version, game.state, render(game, base, wanted, known, past)


# --- rooms: a game's streams in one process -------------------------------------------


class Watcher:
    """One open stream: what it may see, its messages."""

    __slots__ = ("viewpoint", "queue")

    def __init__(self, viewpoint: Viewer | None) -> None:
        self.viewpoint = viewpoint
        self.queue: asyncio.Queue = asyncio.Queue()


class Room:
    """A game's streams in one process; ``render``: the presenter of what
    changed (handed by the view that opened the first stream)."""

    def __init__(self, game_id: int, render: Render | None = None) -> None:
        self.game_id = game_id
        self.render = render
        self.watchers: set[Watcher] = set()
        self.version = 0
        self.state: dict | None = None  # the game's state at ``version``, once looked
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.bus_queue: asyncio.Queue | None = None
        self.closed = False

    async def run(self) -> None:
        bus = get_bus()
        try:
            self.bus_queue = await bus.subscribe(self.game_id)
            found = await look(_current_version, self.game_id)
            if found is None:
                return
            self.version = found
            self.ready.set()
            heartbeat = settings.LIVE_HEARTBEAT_SECONDS
            while self.watchers:
                announced = await next_announcement(self.bus_queue, heartbeat)
                if announced == OUTCOME:
                    for watcher in self.watchers:
                        watcher.queue.put_nowait(OUTCOME)
                    continue
                if announced not in (None, RESYNC) and announced <= self.version:
                    continue
                await self.look(announced)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the database went away: the phones resume
            logger.warning("live: game %s stream ended: %s", self.game_id, error)
        finally:
            self.close()

    async def look(self, announced: int | None = None) -> None:
        """Look at the game past the version this room shows; ``announced``:
        the newest version the bus said (None: a heartbeat's look)."""
        base = self.version
        viewpoints = {w.viewpoint for w in self.watchers if w.viewpoint is not None}
        version, state, pages = await look(
            _changes, self.game_id, base, viewpoints, self.render, self.state, announced
        )
        if version is None:
            raise LookupError("the game is gone")
        self.state = state
        if version == base:
            return
        self.version = version
        for watcher in list(self.watchers):
            watcher.queue.put_nowait((base, version, pages.get(watcher.viewpoint)))

    def close(self) -> None:
        """Hang up the bus and end every stream still here."""
        self.closed = True
        key = next((k for k, room in _rooms.items() if room is self), None)
        if key is not None:
            del _rooms[key]
        if self.bus_queue is not None:
            get_bus().unsubscribe(self.game_id, self.bus_queue)
            self.bus_queue = None
        drop_handed(self.game_id)
        for watcher in self.watchers:
            watcher.queue.put_nowait(END)
        self.watchers.clear()
        self.ready.set()
        if not _rooms:
            _looks.submit(hang_up)  # nobody watches: give the connection back


async def join(game_id: int, watcher: Watcher, render: Render | None = None) -> Room:
    loop = asyncio.get_running_loop()
    room = _rooms.get((loop, game_id))
    if room is None:
        room = _rooms[(loop, game_id)] = Room(game_id, render)
        room.task = loop.create_task(room.run())
    room.watchers.add(watcher)
    # Until the room hears the bus, an action could slip by unheard.
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(room.ready.wait(), ROOM_READY_SECONDS)
    if room.closed:  # it could not start (the game or the database gone)
        watcher.queue.put_nowait(END)
    return room


def leave(room: Room, watcher: Watcher) -> None:
    room.watchers.discard(watcher)
    if not room.watchers:
        if room.task is not None and not room.task.done():
            room.task.cancel()
        room.close()


def end_all() -> None:
    """The server is stopping: every stream of this process ends now, whole
    (the browsers reconnect where they were, once a server answers)."""
    for room in list(_rooms.values()):
        if room.task is not None and not room.task.done():
            room.task.cancel()
        room.close()


def open_rooms() -> list[Room]:
    return list(_rooms.values())


# --- one stream ---------------------------------------------------------------------


async def version_events(
    game_id: int,
    seen: int | None,
    *,
    viewpoint: Viewer | None = None,
    render: Render | None = None,
    heartbeat_seconds: float | None = None,
    max_seconds: float | None = None,
) -> AsyncIterator[str]:
    """The text of the stream: a retry hint, then versions, boards and
    heartbeats. Ends after ``max_seconds`` (the browser then reconnects with
    the last id), or when the database goes away (it reconnects later)."""
    heartbeat = heartbeat_seconds or settings.LIVE_HEARTBEAT_SECONDS
    lifetime = max_seconds or settings.LIVE_STREAM_MAX_SECONDS
    loop = asyncio.get_running_loop()
    deadline = loop.time() + lifetime
    watcher = Watcher(viewpoint)
    # Join the room before the first look at the log: nothing falls between.
    room = await join(game_id, watcher, render)
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        try:
            ends = await action_ends_after(game_id, seen)
        except DatabaseError as error:
            logger.warning("live: game %s stream ended: %s", game_id, error)
            return
        for version in ends:
            yield version_message(version)
            seen = version
        while (left := deadline - loop.time()) > 0:
            try:
                item = await asyncio.wait_for(watcher.queue.get(), min(heartbeat, left))
            except TimeoutError:
                yield ": heartbeat\n\n"
                continue
            if item is END:
                return
            if item == OUTCOME:
                yield OUTCOME_MESSAGE
                continue
            base, version, page = item
            if seen is not None and version <= seen:
                continue
            if page is not None and base == seen:
                yield board_message(base, version, personal(page))
            else:
                yield version_message(version)
            seen = version
    finally:
        leave(room, watcher)


def seen_version(last_event_id: str | None, since: str | None) -> int | None:
    """What the phone already has: ``Last-Event-ID`` first, then ``?since=``."""
    for raw in (last_event_id, since):
        if raw is not None and raw.strip().isdigit():
            return int(raw.strip())
    return None
