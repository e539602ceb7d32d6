"""Bounds on what one client's connections can hold (issues 25 and 30).

One LAN client holding 1,100 half-open connections (opened, never a request)
stopped everyone being served and wrote 113 MB of log in 20 s; one holding
4,100 re-opened as they closed took the 4,000 connections of a process from
everyone else; bodies sent slowly were never timed out. Installed in each
server process when the ASGI app is imported (``install``):

- at most ``CONNECTIONS_PER_ADDRESS`` connections at once from one address
  (not the reverse proxy's): past it a connection is taken from the kernel's
  queue and put aside unread in asyncio's accept loop (``refuse_at_accept``),
  then closed; closed at once when open files are scarce;
- a connection that has not sent a whole request head within
  ``HEADER_TIMEOUT_SECONDS`` (environment, default 10) of opening, or of
  the first byte of a later request's head, is closed; so is one whose body
  stalls ``BODY_TIMEOUT_SECONDS`` or is not whole ``BODY_MAX_SECONDS`` after
  its head;
- uvicorn's error lines, the refusals here and asyncio's "socket.accept()
  out of system resource" are let through once per 10 s each, with the
  count of the ones left out; asyncio's accept loop stops at the first
  failure for want of files instead of logging and retrying 2,048 times;
- when the server starts shutting down, ``on_shutdown`` callbacks run (the
  live streams end there).

``confrontation_site.serve`` raises the open-file limit and caps the
connections of a process (``--limit-concurrency``).
"""

from __future__ import annotations

import errno
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


class AcceptErrors(OncePerInterval):
    """asyncio's "socket.accept() out of system resource" (the open-file
    limit reached): a traceback for every attempt, 61,045 of them in 10 s
    once. Here one line, once per interval, with the count left out."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if not message.startswith("socket.accept()"):
            return True
        error = record.exc_info[1] if record.exc_info else None
        record.msg = message.split("\n", 1)[0] + (f": {error}" if error else "")
        record.args = None
        record.exc_info = None
        record.exc_text = None
        return super().filter(record)


# Connections open per client address, in this process (one event loop),
# and those accepted whose protocol is not made yet (asyncio makes it in a
# task of its own: a burst of accepts would otherwise all pass the cap).
_open_per_address: dict[str, int] = {}
_accepted_per_address: dict[str, int] = {}
refusals = logging.getLogger("confrontation.connections")


def _peer_host(transport) -> str | None:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple | list) and peer:
        return str(peer[0])
    return None


def _watch_body(protocol, idle: float, most: float) -> None:
    """A request body not finished ``most`` seconds after its head, or with
    no byte for ``idle`` seconds, closes its connection."""
    import h11

    protocol._body_timer = None
    if protocol.transport.is_closing():
        return
    if protocol.conn.their_state is not h11.SEND_BODY:
        return  # the body is in (or the head was not)
    if protocol.flow is not None and protocol.flow.read_paused:
        # The app has not read what came: not the client's slowness.
        protocol._body_last = protocol.loop.time()
    now = protocol.loop.time()
    left = min(protocol._body_last + idle - now, protocol._body_started + most - now)
    if left <= 0:
        refusals.warning("A request body came too slowly; its connection is closed.")
        protocol.transport.close()
        return
    protocol._body_timer = protocol.loop.call_later(
        left, _watch_body, protocol, idle, most
    )


class _RefusingListener:
    """The listening socket as asyncio's accept loop sees it: a connection
    from an address past its cap is taken from the kernel's queue at once,
    before asyncio builds a transport and uvicorn a protocol for it, and
    put aside (``_Aside``): held unread, then closed, or closed at once when
    open files are scarce. A client re-opening its connections as fast as
    they close then neither fills the kernel's accept queue (where the
    others' connections wait behind it) nor the process's files."""

    __slots__ = ("sock", "per_address", "exempt", "aside", "out_of_files")
    MOST_REFUSED_AT_ONCE = 4096

    def __init__(self, sock, per_address, exempt, aside) -> None:
        self.sock, self.per_address, self.exempt = sock, per_address, exempt
        self.aside = aside
        self.out_of_files = False

    def accept(self):
        if self.out_of_files:
            # asyncio's loop goes on accepting after running out of files,
            # scheduling one retry per attempt (2,048 a turn, each logged):
            # once is enough, it retries in a second.
            raise BlockingIOError
        for _ in range(self.MOST_REFUSED_AT_ONCE):
            try:
                conn, address = self.sock.accept()
            except OSError as error:
                if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS):
                    self.out_of_files = True
                raise
            host = str(address[0]) if isinstance(address, tuple) else None
            if host is None or host in self.exempt:
                return conn, address
            accepted = _accepted_per_address.get(host, 0)
            if _open_per_address.get(host, 0) + accepted < self.per_address:
                _accepted_per_address[host] = accepted + 1
                return conn, address
            self.aside.put(conn)
            _refused(self.per_address)
        raise BlockingIOError  # the rest at the loop's next turn

    def __getattr__(self, name):
        return getattr(self.sock, name)


class _Aside:
    """Refused connections, held unread for ``seconds`` (as long as a
    silent one would be held), at most ``most`` at once; past that, or
    with ``most`` 0, closed at once. Closed in order, once a second."""

    def __init__(self, seconds: float, most: int) -> None:
        import collections

        self.seconds, self.most = seconds, most
        self.held: collections.deque = collections.deque()
        self.sweeping = False

    def put(self, conn) -> None:
        import asyncio

        if len(self.held) >= self.most:
            conn.close()
            return
        loop = asyncio.get_running_loop()
        self.held.append((loop.time() + self.seconds, conn))
        if not self.sweeping:
            self.sweeping = True
            loop.call_later(1.0, self.sweep, loop)

    def sweep(self, loop) -> None:
        now = loop.time()
        while self.held and self.held[0][0] <= now:
            self.held.popleft()[1].close()
        if self.held:
            loop.call_later(1.0, self.sweep, loop)
        else:
            self.sweeping = False


def aside_budget() -> int:
    """How many refused connections may be held: none when open files are
    scarce (a hard limit of 1,024), else a part of what is left."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 16384
    return max(0, min(16384, soft // 2 - 128))


def _refused(per_address: int) -> None:
    refusals.warning(
        "More than %s connections from one address: a new one is closed at "
        "once (CONNECTIONS_PER_ADDRESS).",
        per_address,
    )


def refuse_at_accept(
    per_address: int, exempt: frozenset[str], hold_seconds: float
) -> None:
    """Apply the per-address cap in asyncio's accept loop (see
    ``_RefusingListener``); ``bound_connections`` applies it again exactly,
    once a connection is counted."""
    from asyncio import selector_events

    loop_class = selector_events.BaseSelectorEventLoop
    if not per_address or getattr(loop_class, "_refusing_at_accept", False):
        return
    accept = loop_class._accept_connection
    aside = _Aside(hold_seconds, aside_budget())

    def _accept_connection(self, protocol_factory, sock, *args, **kwargs):
        if isinstance(sock, _RefusingListener):
            sock = sock.sock
        listener = _RefusingListener(sock, per_address, exempt, aside)
        return accept(self, protocol_factory, listener, *args, **kwargs)

    loop_class._accept_connection = _accept_connection
    loop_class._refusing_at_accept = True


def bound_connections(
    header_seconds: float,
    body_idle_seconds: float,
    body_most_seconds: float,
    per_address: int,
    exempt: frozenset[str] = frozenset(),
) -> None:
    """uvicorn's h11 connections:

    - close when a request head is not whole ``header_seconds`` after the
      connection opened or its first byte came (a later request on a kept
      connection too: uvicorn's keep-alive timer stops at the first byte, so
      a head sent a byte at a time would hold the connection for ever);
    - close when a request body goes ``body_idle_seconds`` without a byte,
      or is not whole ``body_most_seconds`` after its head;
    - at most ``per_address`` at once from one client address (0: no cap;
      the addresses in ``exempt``, a reverse proxy's, have none): past it a
      new connection is closed at once, so one client cannot take the
      process's whole ``--limit-concurrency`` from the others.
    """
    try:
        from uvicorn.protocols.http.h11_impl import H11Protocol
    except ImportError:  # pragma: no cover - not served by uvicorn
        return
    if getattr(H11Protocol, "_connections_bounded", False):
        return
    made = H11Protocol.connection_made
    received = H11Protocol.data_received
    lost = H11Protocol.connection_lost

    def connection_made(self, transport) -> None:
        made(self, transport)
        self._counted_host = None
        self._body_timer = None
        host = _peer_host(transport)
        accepted = _accepted_per_address.pop(host, 0) - 1
        if accepted > 0:
            _accepted_per_address[host] = accepted
        if per_address and host is not None and host not in exempt:
            if _open_per_address.get(host, 0) >= per_address:
                _refused(per_address)
                self._header_timer = None
                transport.close()
                return
            _open_per_address[host] = _open_per_address.get(host, 0) + 1
            self._counted_host = host
        self._header_timer = self.loop.call_later(
            header_seconds, _close_if_silent, self
        )

    def data_received(self, data: bytes) -> None:
        import h11

        received(self, data)
        timer = getattr(self, "_header_timer", None)
        if not _awaiting_head(self):
            if timer is not None:
                timer.cancel()
                self._header_timer = None
            if self.conn.their_state is h11.SEND_BODY:
                self._body_last = self.loop.time()
                if getattr(self, "_body_timer", None) is None:
                    self._body_started = self._body_last
                    self._body_timer = self.loop.call_later(
                        min(body_idle_seconds, body_most_seconds),
                        _watch_body,
                        self,
                        body_idle_seconds,
                        body_most_seconds,
                    )
        elif timer is None and not self.transport.is_closing():
            # The first byte of a later head: bounded from now, not reset by
            # the bytes that follow.
            self._header_timer = self.loop.call_later(
                header_seconds, _close_if_silent, self
            )

    def connection_lost(self, exc) -> None:
        host = getattr(self, "_counted_host", None)
        if host is not None:
            self._counted_host = None
            left = _open_per_address.get(host, 1) - 1
            if left > 0:
                _open_per_address[host] = left
            else:
                _open_per_address.pop(host, None)
        for name in ("_header_timer", "_body_timer"):
            timer = getattr(self, name, None)
            if timer is not None:
                timer.cancel()
                setattr(self, name, None)
        lost(self, exc)

    H11Protocol.connection_made = connection_made
    H11Protocol.data_received = data_received
    H11Protocol.connection_lost = connection_lost
    H11Protocol._connections_bounded = True


# Called once, on the event loop, when the server starts shutting down
# (Ctrl-C, SIGTERM), before it waits for the responses under way: the live
# streams end there (``confrontation_site.asgi``) instead of being cancelled
# after the graceful timeout, a traceback each.
on_shutdown: list = []


def end_streams_at_shutdown() -> None:
    try:
        from uvicorn.protocols.http.h11_impl import H11Protocol
    except ImportError:  # pragma: no cover - not served by uvicorn
        return
    if getattr(H11Protocol, "_shutdown_hooked", False):
        return
    shutdown = H11Protocol.shutdown
    state = {"done": False}

    def hooked(self) -> None:
        if not state["done"]:
            state["done"] = True
            for callback in on_shutdown:
                try:
                    callback()
                except Exception:  # never in the way of stopping
                    logging.getLogger(__name__).exception("at shutdown")
        shutdown(self)

    H11Protocol.shutdown = hooked
    H11Protocol._shutdown_hooked = True


def install() -> None:
    from django.conf import settings

    exempt = frozenset(settings.PROXY_ADDRESSES if settings.BEHIND_TLS_PROXY else ())
    end_streams_at_shutdown()
    refuse_at_accept(settings.CONNECTIONS_PER_ADDRESS, exempt, header_timeout_seconds())
    bound_connections(
        header_timeout_seconds(),
        settings.BODY_TIMEOUT_SECONDS,
        settings.BODY_MAX_SECONDS,
        settings.CONNECTIONS_PER_ADDRESS,
        exempt,
    )
    # uvicorn's access log stays whole (a line per request: its format is one
    # message, so a filter by message would keep one request in 10 s).
    for name, kind in (
        ("uvicorn.error", OncePerInterval),
        ("confrontation.connections", OncePerInterval),
        ("asyncio", AcceptErrors),
    ):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OncePerInterval) for f in logger.filters):
            logger.addFilter(kind())
