"""Serving the live game the way ``make run`` does (issue 23, issue 25).

Ctrl-C stops the server within seconds though phones hold their streams
open (it waited up to 300 s), and several processes refuse the one-process
bus rather than telling phones of a tap only at the next heartbeat.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from confrontation_site import serve
from tests.support.servers import ROOT, free_port, manage, server_env, shell_json


def test_several_processes_refuse_the_one_process_bus():
    for environ, options in (
        ({}, ["--workers", "2"]),
        ({}, ["--workers=3"]),
        ({"WEB_CONCURRENCY": "2"}, []),
        ({"LIVE_BUS": "memory", "WEB_CONCURRENCY": "4"}, []),
    ):
        with pytest.raises(SystemExit, match="LIVE_BUS=postgres"):
            serve.command(environ, options)
    for environ, options in (
        ({}, []),
        ({}, ["--workers", "1"]),
        ({"LIVE_BUS": "postgres"}, ["--workers", "2"]),
        ({"LIVE_BUS": "redis", "WEB_CONCURRENCY": "4"}, []),
    ):
        assert serve.APPLICATION in serve.command(environ, options)


def test_ctrl_c_closes_the_streams_at_once():
    args = serve.command({}, ["--port", "1"])
    assert args[args.index("--timeout-graceful-shutdown") + 1] == str(
        serve.GRACEFUL_SECONDS
    )
    given = serve.command({}, ["--timeout-graceful-shutdown", "10"])
    assert given.count("--timeout-graceful-shutdown") == 1


def test_make_run_stops_within_5_s_of_sigint_with_two_phones_connected(tmp_path):
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}")
    manage("migrate", "--noinput", env=env)
    manage("load_demo", env=env)
    game = shell_json(
        "from tests.support.live_setup import setup_game; setup_game()", env
    )
    port = free_port()
    log = open(tmp_path / "server.log", "w+")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "confrontation_site.serve"]
        + ["--host", "127.0.0.1", "--port", str(port), "--lifespan", "off"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    ended: dict[str, float] = {}
    opened = threading.Barrier(3)

    def phone(side: str) -> None:
        cookies = {"sessionid": game["sessions"][side]}
        url = f"{base}/games/{game['public_id']}/stream"
        try:
            with httpx.stream("GET", url, cookies=cookies, timeout=30) as response:
                assert response.status_code == 200
                chunks = response.iter_raw()
                next(chunks)  # the retry hint: the stream is open
                opened.wait(timeout=30)
                for _chunk in chunks:
                    pass
        except httpx.HTTPError:
            pass
        finally:
            ended[side] = time.monotonic()

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        phones = [threading.Thread(target=phone, args=(s,)) for s in "ab"]
        for thread in phones:
            thread.start()
        opened.wait(timeout=30)
        time.sleep(0.3)
        interrupted = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        stopped = time.monotonic() - interrupted
        for thread in phones:
            thread.join(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=5)
        log.close()
    assert stopped < 5, f"stopped {stopped:.1f} s after SIGINT"
    assert set(ended) == {"a", "b"}
    assert all(moment - interrupted < 5 for moment in ended.values())


def test_connections_are_bounded_and_the_refusals_logged_once_in_a_while():
    import logging
    import resource

    from confrontation_site.connections import OncePerInterval

    args = serve.command({}, [])
    assert args[args.index("--limit-concurrency") + 1] == str(serve.CONCURRENCY_LIMIT)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert serve.raise_file_limit() >= soft
    once = OncePerInterval(seconds=60)
    records = [
        logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, "Full.", (), None)
        for _ in range(1000)
    ]
    assert sum(once.filter(record) for record in records) == 1


def test_half_open_connections_are_closed_and_starve_no_one(tmp_path):
    """The issue's case: one client opens 1,100 connections (past the usual
    1,024 open files) and never sends a request. The server, as ``make run``
    starts it, still answers, closes them once the wait for a request head is
    over, and its log stays a few lines long."""
    import resource
    import socket

    from tests.support.served import served

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1400:
        pytest.skip(f"this machine allows {hard} open files to a process")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1400), hard))
    log = tmp_path / "server.log"
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'open.sqlite3'}",
        HEADER_TIMEOUT_SECONDS="1",
    )
    manage("migrate", "--noinput", env=env)
    idle = []
    try:
        with served(env, log=log) as base:
            port = int(base.rsplit(":", 1)[1])
            idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(1100)]
            # Another client (another address: 256 at most from one).
            other = httpx.Client(
                transport=httpx.HTTPTransport(local_address="127.0.0.2")
            )
            assert other.get(base + "/healthz", timeout=5).status_code == 200
            time.sleep(2.5)
            closed = 0
            for sock in idle:
                sock.settimeout(0.5)
                try:
                    closed += sock.recv(1) == b""
                except TimeoutError:
                    pass  # still open
                except OSError:
                    closed += 1  # reset by the server
            assert closed == len(idle)
            assert other.get(base + "/healthz", timeout=5).status_code == 200
            other.close()
        assert log.stat().st_size < 20_000
    finally:
        for sock in idle:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_later_request_head_sent_a_byte_at_a_time_is_cut_off(tmp_path):
    """After a first request on a kept connection, a second head trickled a
    byte every 0.2 s is bounded like the first (uvicorn's keep-alive timer
    stops at its first byte): the connection is closed, the others served."""
    import socket

    from tests.support.served import served

    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'trickle.sqlite3'}",
        HEADER_TIMEOUT_SECONDS="1",
    )
    manage("migrate", "--noinput", env=env)
    with served(env) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            first = b""
            while b"\r\n\r\n" not in first:
                first += sock.recv(4096)
            assert first.startswith(b"HTTP/1.1 200")
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
            started, cut = time.monotonic(), False
            while time.monotonic() - started < 4:
                try:
                    sock.sendall(b"X")
                    sock.settimeout(0.2)
                    if sock.recv(4096) == b"":
                        cut = True
                        break
                except TimeoutError:
                    continue  # still open: one more byte
                except OSError:
                    cut = True  # reset by the server
                    break
            assert cut, "a trickled request head held its connection past the bound"
            assert time.monotonic() - started < 3
        assert httpx.get(base + "/healthz", timeout=5).status_code == 200
