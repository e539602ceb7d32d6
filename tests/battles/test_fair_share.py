"""A fair share of the server for every client (issue 30).

One client at the club held 4,100 half-open connections, re-opened as they
closed: 78 of 84 requests from the others got 503 (the cap of 4,000 was for
everyone). Request bodies sent slowly were never timed out, and where the
open-file limit could not be raised (hard limit 1,024) the server wrote
24.7 MB of accept tracebacks in 10 s. Served here as ``make run`` serves.
"""

from __future__ import annotations

import errno
import resource
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import httpx
import pytest

from tests.support.served import served
from tests.support.servers import ROOT, free_port, manage, server_env

FLOOD = 4100


def _connect(port: int, source: str) -> socket.socket | None:
    """A connection opened and never used (not waited for: a flood)."""
    sock = socket.socket()
    try:
        sock.bind((source, 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
    except OSError:
        sock.close()
        return None
    return sock


def _closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False  # still open
    except OSError as error:
        return error.errno != errno.ENOTCONN  # reset (not: still connecting)


class Flood:
    """``count`` half-open connections from ``source``, each re-opened as
    soon as the server closes it, until ``stop``."""

    def __init__(self, port: int, source: str, count: int) -> None:
        self.port, self.source = port, source
        self.socks = [_connect(port, source) for _ in range(count)]
        self.reopened = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._keep_open, daemon=True)
        self.thread.start()

    def _keep_open(self) -> None:
        while not self.stopped.is_set():
            for index, sock in enumerate(self.socks):
                if self.stopped.is_set():
                    break
                if sock is None or _closed_by_server(sock):
                    if sock is not None:
                        sock.close()
                    self.socks[index] = _connect(self.port, self.source)
                    self.reopened += 1

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=30)
        for sock in self.socks:
            if sock is not None:
                sock.close()


def _other_client_answers(base: str, requests: int) -> list[int]:
    """Status codes a client at another address (127.0.0.2) gets."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    codes = []
    with httpx.Client(transport=transport, timeout=10) as other:
        for _ in range(requests):
            try:
                codes.append(other.get(base + "/healthz").status_code)
            except httpx.HTTPError:
                codes.append(0)
    return codes


@pytest.fixture
def database_env(tmp_path):
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'fair.sqlite3'}",
        HEADER_TIMEOUT_SECONDS="2",
        BODY_TIMEOUT_SECONDS="1",
    )
    manage("migrate", "--noinput", env=env)
    return env


def test_one_address_flooding_half_open_connections_leaves_the_others_served(
    database_env, tmp_path
):
    """4,100 half-open connections from 127.0.0.1, re-opened as the server
    closes them: a client at 127.0.0.2 is served, never told 503 (it was
    5 times in 6 with no cap per address: CONNECTIONS_PER_ADDRESS=0)."""
    log = tmp_path / "server.log"
    with served(database_env, log=log) as base:
        port = int(base.rsplit(":", 1)[1])
        started = time.monotonic()
        flood = Flood(port, "127.0.0.1", FLOOD)
        try:
            time.sleep(1)  # the flood is in
            codes = _other_client_answers(base, 40)
        finally:
            flood.stop()
        took = time.monotonic() - started
    print(
        f"FIGURE other client: {codes.count(200)}/{len(codes)} answered 200, "
        f"{codes.count(503)} 503; flood re-opened {flood.reopened}; "
        f"log {log.stat().st_size} bytes; {took:.1f} s"
    )
    assert codes == [200] * len(codes)
    assert "connections from one address" in log.read_text()
    assert log.stat().st_size < 20_000


def test_a_request_body_sent_slowly_is_closed(database_env):
    with served(database_env) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(
                b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 1000\r\n\r\nside=a&"
            )
            started, closed = time.monotonic(), False
            while time.monotonic() - started < 10:
                try:
                    sock.settimeout(0.5)
                    if sock.recv(4096) == b"":
                        closed = True
                        break
                except TimeoutError:
                    continue
                except OSError:
                    closed = True
                    break
            waited = time.monotonic() - started
        assert closed, "a body that stopped coming held its connection"
        assert waited < 5  # BODY_TIMEOUT_SECONDS=1
        assert httpx.get(base + "/healthz", timeout=5).status_code == 200


def test_a_body_larger_than_any_upload_is_refused_before_it_is_sent(database_env):
    with served(database_env) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(
                b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Length: 62914560\r\n\r\n"
            )
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413")


@contextmanager
def _served_with_file_limit(env: dict, limit: int, log):
    """``python -m confrontation_site.serve`` whose hard open-file limit is
    ``limit`` (it cannot raise it past that)."""
    port = free_port()

    def lower_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    errors = open(log, "w+")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "confrontation_site.serve"]
        + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        preexec_fn=lower_limit,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the server stopped"
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        errors.close()


def test_with_the_open_file_hard_limit_at_1024_the_log_stays_small(
    database_env, tmp_path
):
    """1,100 half-open connections from one address: 256 served, the
    others closed at once (no file to hold them), the other clients served.
    Then 5 addresses x 256 (past the 1,024 files): accepting fails for a
    while, logged in a few lines (it was 24.7 MB of tracebacks in 10 s)."""
    log = tmp_path / "server.log"
    with _served_with_file_limit(database_env, 1024, log) as base:
        port = int(base.rsplit(":", 1)[1])
        flood = Flood(port, "127.0.0.1", 1100)
        try:
            codes = _other_client_answers(base, 20)
        finally:
            flood.stop()
        assert codes == [200] * len(codes)
        floods = [Flood(port, f"127.0.0.{n}", 256) for n in range(3, 8)]
        try:
            time.sleep(2)  # accepting fails meanwhile (no file left)
        finally:
            for each in floods:
                each.stop()
        deadline = time.monotonic() + 20
        while True:  # the half-open ones time out, and the server is back
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not come back"
            time.sleep(0.2)
    text = log.read_text()
    print(
        f"FIGURE log {len(text)} bytes, {text.count('Traceback')} tracebacks, "
        f"{text.count('socket.accept()')} accept lines"
    )
    assert len(text) < 20_000
    assert "Traceback" not in text
