"""The Server-Sent Events a game's stream sends (DESIGN: "Live updates").

The stream says only "events up to N exist": one message per action the
phone has not seen yet, in order, each ``id: N`` / ``event: version`` /
``data: N`` where N is the game's version after that action (the seq of its
last event). ``EventSource`` sends the last id back as ``Last-Event-ID`` when
it reconnects, so a phone that slept gets every action it missed, in order,
once. No state ever goes through the stream: each page then fetches the
partials it may see.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.db.models import Max

from battles.live.bus import RESYNC, get_bus
from battles.models.games import Game, GameEvent

RETRY_MILLISECONDS = 2000


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
        announced = max(announced, queue.get_nowait())
    return announced


def hang_up() -> None:
    """Close this thread's database connection, unless a transaction is open.

    A stream lives for minutes: it must not hold a database connection
    meanwhile (PostgreSQL's 100 connections would not last 100 phones).
    """
    if not connection.in_atomic_block:
        connection.close()


def _action_ends_after(game_id: int, seen: int | None) -> list[int]:
    try:
        if seen is None:
            current = Game.objects.filter(pk=game_id).values_list("version", flat=True)
            return list(current)
        ends = (
            GameEvent.objects.filter(game_id=game_id, seq__gt=seen)
            .values("action")
            .annotate(end=Max("seq"))
            .order_by("action")
            .values_list("end", flat=True)
        )
        return list(ends)
    finally:
        hang_up()


# Off the thread the views share (thread_sensitive=False): a look per stream
# at every action and heartbeat would otherwise queue the taps behind it. The
# look opens and closes its own connection in whatever thread runs it.
action_ends_after = sync_to_async(_action_ends_after, thread_sensitive=False)
action_ends_after.__doc__ = """The versions after each action past ``seen``, in order.

``seen`` None (a phone that says nothing of what it has): the current version.
"""


async def version_events(
    game_id: int,
    seen: int | None,
    *,
    heartbeat_seconds: float | None = None,
    max_seconds: float | None = None,
) -> AsyncIterator[str]:
    """The text of the stream: a retry hint, then versions and heartbeats.

    Ends after ``max_seconds``; the browser then reconnects with the last id.
    """
    heartbeat = heartbeat_seconds or settings.LIVE_HEARTBEAT_SECONDS
    lifetime = max_seconds or settings.LIVE_STREAM_MAX_SECONDS
    bus = get_bus()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + lifetime
    # Subscribe before the first look at the log: nothing can fall between.
    queue = await bus.subscribe(game_id)
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        for version in await action_ends_after(game_id, seen):
            yield version_message(version)
            seen = version
        while (left := deadline - loop.time()) > 0:
            announced = await next_announcement(queue, min(heartbeat, left))
            if announced not in (None, RESYNC) and seen is not None:
                if announced <= seen:
                    continue
            ends = await action_ends_after(game_id, seen)
            for version in ends:
                yield version_message(version)
                seen = version
            if announced is None and not ends:
                yield ": heartbeat\n\n"
    finally:
        bus.unsubscribe(game_id, queue)


def seen_version(last_event_id: str | None, since: str | None) -> int | None:
    """What the phone already has: ``Last-Event-ID`` first, then ``?since=``."""
    for raw in (last_event_id, since):
        if raw is not None and raw.strip().isdigit():
            return int(raw.strip())
    return None
