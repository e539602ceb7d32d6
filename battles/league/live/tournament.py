"""Live updates of a tournament day: its tables, results and rounds.

A day rides its season's channel (``battles.league.live.league.season_channel``):
a result of one of its tables is announced there already. Its version is the
day's ``revision`` (grown by every action of the day: a round paired, a drop,
a clock started...) plus the season's version (the newest history entry of
its results); both only grow, so the sum does too. As the home box's stream,
a stream says only "version N exists"; the page then fetches its tables.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings

from battles.league.live.league import season_channel, season_version
from battles.league.models.tournament import Tournament
from battles.live.bus import announce, get_bus
from battles.live.stream import (
    RETRY_MILLISECONDS,
    hang_up,
    next_announcement,
    version_message,
)


def tournament_version(tournament_id: int) -> int:
    found = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list("revision", "season_id")
        .first()
    )
    if found is None:
        return 0
    revision, season_id = found
    return revision + season_version(season_id)


def announce_tournament(tournament_id: int, season_id: int) -> None:
    """After commit: the day changed; its pages (and the season's) are behind."""
    announce(season_channel(season_id), tournament_version(tournament_id))


def _current(tournament_id: int) -> int:
    try:
        return tournament_version(tournament_id)
    finally:
        hang_up()


current_version = sync_to_async(_current, thread_sensitive=False)


async def tournament_events(
    tournament_id: int,
    season_id: int,
    seen: int | None,
    *,
    heartbeat_seconds: float | None = None,
    max_seconds: float | None = None,
) -> AsyncIterator[str]:
    """The stream's text: a retry hint, the version when it grows, heartbeats.

    Any announcement on the season's channel makes it read the day's version
    again (a result's announcement carries the season's version, not the day's).
    """
    heartbeat = heartbeat_seconds or settings.LIVE_HEARTBEAT_SECONDS
    lifetime = max_seconds or settings.LIVE_STREAM_MAX_SECONDS
    channel = season_channel(season_id)
    bus = get_bus()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + lifetime
    queue = await bus.subscribe(channel)
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        version = await current_version(tournament_id)
        if seen is None or version > seen:
            yield version_message(version)
            seen = version
        while (left := deadline - loop.time()) > 0:
            announced = await next_announcement(queue, min(heartbeat, left))
            version = await current_version(tournament_id)
            if version > seen:
                yield version_message(version)
                seen = version
            elif announced is None:
                yield ": heartbeat\n\n"
    finally:
        bus.unsubscribe(channel, queue)
