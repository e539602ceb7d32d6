"""The bus that carries "game G is at version N" to the event streams.

The in-process bus serves the embedded default (one server process). A club
server with several processes sets ``LIVE_BUS`` to ``postgres`` or ``redis``.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict

from django.conf import settings


class MemoryBus:
    """Subscribers in this process only: asyncio queues per game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[
            int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]
        ]
        self._subscribers = defaultdict(set)

    def publish(self, game_id: int, version: int) -> None:
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for loop, queue in targets:
            loop.call_soon_threadsafe(queue.put_nowait, version)

    def subscribe(self, game_id: int) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        with self._lock:
            self._subscribers[game_id].add((asyncio.get_running_loop(), queue))
        return queue

    def unsubscribe(self, game_id: int, queue: asyncio.Queue) -> None:
        with self._lock:
            self._subscribers[game_id] = {
                item for item in self._subscribers[game_id] if item[1] is not queue
            }


_bus: MemoryBus | None = None


def get_bus() -> MemoryBus:
    global _bus
    if _bus is None:
        if settings.LIVE_BUS != "memory":
            raise NotImplementedError(settings.LIVE_BUS)
        _bus = MemoryBus()
    return _bus


def announce(game_id: int, version: int) -> None:
    """Tell every stream of ``game_id`` that events up to ``version`` exist."""
    get_bus().publish(game_id, version)
