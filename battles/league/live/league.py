"""Live updates of the league: a season's standings, a player's waiting results.

The bus (``battles.live.bus``) carries "key K is at version N" with integer
keys; games use their (positive) id. League channels use negative keys so
they never meet a game's: ``-2 * season_id`` for a season, ``-(2 * user_id
+ 1)`` for a player. A channel's version is the id of the newest history
entry (``ResultEntry``) of its results, so it only grows, and a stream (as a
game's) says only "version N exists"; the page then fetches what it shows.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db.models import Max, Q

from battles.league.models.league import ResultEntry
from battles.live.bus import RESYNC, announce, get_bus
from battles.live.stream import (
    RETRY_MILLISECONDS,
    hang_up,
    next_announcement,
    version_message,
)


def season_channel(season_id: int) -> int:
    return -2 * season_id


def player_channel(user_id: int) -> int:
    return -(2 * user_id + 1)


def season_version(season_id: int) -> int:
    """The newest history entry of the season's results (0 before any)."""
    found = ResultEntry.objects.filter(result__season_id=season_id).aggregate(
        v=Max("id")
    )["v"]
    return found or 0


def player_version(user_id: int) -> int:
    """The newest history entry of a result this player played in, or of a
    club they are an admin of (their home page lists its disputes)."""
    found = ResultEntry.objects.filter(
        Q(result__player_a_id=user_id)
        | Q(result__player_b_id=user_id)
        | Q(
            result__season__club__members__user_id=user_id,
            result__season__club__members__role="admin",
        )
    ).aggregate(v=Max("id"))["v"]
    return found or 0


def announce_result(season_id: int, user_ids: list[int]) -> None:
    """After commit: the season's standings and both players' pages are behind."""
    announce(season_channel(season_id), season_version(season_id))
    for user_id in user_ids:
        announce(player_channel(user_id), player_version(user_id))


def _current(kind: str, key_id: int) -> int:
    try:
        return season_version(key_id) if kind == "season" else player_version(key_id)
    finally:
        hang_up()


current_version = sync_to_async(_current, thread_sensitive=False)  # as a game's


async def league_events(
    kind: str,
    key_id: int,
    seen: int | None,
    *,
    heartbeat_seconds: float | None = None,
    max_seconds: float | None = None,
) -> AsyncIterator[str]:
    """The stream's text: a retry hint, the version when it grows, heartbeats."""
    heartbeat = heartbeat_seconds or settings.LIVE_HEARTBEAT_SECONDS
    lifetime = max_seconds or settings.LIVE_STREAM_MAX_SECONDS
    channel = season_channel(key_id) if kind == "season" else player_channel(key_id)
    bus = get_bus()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + lifetime
    queue = await bus.subscribe(channel)
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        version = await current_version(kind, key_id)
        if seen is None or version > seen:
            yield version_message(version)
            seen = version
        while (left := deadline - loop.time()) > 0:
            announced = await next_announcement(queue, min(heartbeat, left))
            if announced not in (None, RESYNC) and announced <= seen:
                continue
            version = await current_version(kind, key_id)
            if version > seen:
                yield version_message(version)
                seen = version
            elif announced is None:
                yield ": heartbeat\n\n"
    finally:
        bus.unsubscribe(channel, queue)
