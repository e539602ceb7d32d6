"""Bounds on what one client's connections can hold (issue 25).

One LAN client holding 1,100 half-open connections (opened, never a request)
stopped everyone being served and wrote 113 MB of log in 20 s. uvicorn has a
keep-alive timeout between requests, but none for the first request's
headers, and logs a line for every connection refused past its limit. Here,
installed in each server process when the ASGI app is imported:

- a connection that has not sent a whole request head within
  ``HEADER_TIMEOUT_SECONDS`` (environment, default 10) of opening, or of
  the first byte of a later request's head, is closed;
- a log line of uvicorn's is let through once per 10 s, with the count of
  the ones left out.

``confrontation_site.serve`` raises the open-file limit and caps the
connections of a process (``--limit-concurrency``).
"""

from __future__ import annotations

import logging
import os
import time

DEFAULT_HEADER_TIMEOUT_SECONDS = 10.0


class OncePerInterval(logging.Filter):
    """Let a message through once per ``seconds``."""

    def __init__(self, seconds: float = 10.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.last: dict[str, float] = {}
        self.dropped: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = str(record.msg)
        now = time.monotonic()
        if now - self.last.get(key, -self.seconds) < self.seconds:
            self.dropped[key] = self.dropped.get(key, 0) + 1
            return False
        self.last[key] = now
        dropped = self.dropped.pop(key, 0)
        if dropped:
            record.msg = f"{record.msg} ({dropped} more like it not logged)"
        return True


def header_timeout_seconds() -> float:
    raw = os.environ.get("HEADER_TIMEOUT_SECONDS", "")
    try:
        return float(raw) if raw else DEFAULT_HEADER_TIMEOUT_SECONDS
    except ValueError:
        return DEFAULT_HEADER_TIMEOUT_SECONDS


def _awaiting_head(protocol) -> bool:
    """No whole request head in yet: h11's client side is idle (before the
    first request, and again after each response on a kept connection)."""
    import h11

    return protocol.conn.their_state is h11.IDLE


def _close_if_silent(protocol) -> None:
    protocol._header_timer = None
    if _awaiting_head(protocol) and not protocol.transport.is_closing():
        protocol.transport.close()


def bound_header_wait(seconds: float) -> None:
    """uvicorn's h11 connections close when a request head is not whole
    ``seconds`` after the connection opened or its first byte came (a
    later request on a kept connection too: uvicorn's keep-alive timer
    stops at the first byte, so a head sent a byte at a time would hold
    the connection for ever)."""
    try:
        from uvicorn.protocols.http.h11_impl import H11Protocol
    except ImportError:  # pragma: no cover - not served by uvicorn
        return
    if getattr(H11Protocol, "_header_wait_bounded", False):
        return
    made, received = H11Protocol.connection_made, H11Protocol.data_received

    def connection_made(self, transport) -> None:
        made(self, transport)
        self._header_timer = self.loop.call_later(seconds, _close_if_silent, self)

    def data_received(self, data: bytes) -> None:
        received(self, data)
        timer = getattr(self, "_header_timer", None)
        if not _awaiting_head(self):
            if timer is not None:
                timer.cancel()
                self._header_timer = None
        elif timer is None and not self.transport.is_closing():
            # The first byte of a later head: bounded from now, not reset by
            # the bytes that follow.
            self._header_timer = self.loop.call_later(seconds, _close_if_silent, self)

    H11Protocol.connection_made = connection_made
    H11Protocol.data_received = data_received
    H11Protocol._header_wait_bounded = True


def install() -> None:
    bound_header_wait(header_timeout_seconds())
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OncePerInterval) for f in logger.filters):
            logger.addFilter(OncePerInterval())
