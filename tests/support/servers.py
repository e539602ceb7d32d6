"""Real server processes for the live tests: uvicorn on loopback, and
``manage.py`` commands against the database those servers use.

pytest-django's ``live_server`` is a threaded WSGI server: it cannot hold
Server-Sent Events streams, and it is one process. These tests need uvicorn.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
# What the test process runs with must not leak into the servers.
PRIVATE = {
    "DATABASE_URL",
    "DEBUG",
    "SECRET_KEY",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "LIVE_BUS",
    "REDIS_URL",
    "LIVE_CHANNEL",
}


def server_env(**settings: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in PRIVATE}
    env.update(DEBUG="true", PYTHONUNBUFFERED="1", **settings)
    return env


def _ephemeral_low() -> int:
    """The lowest port the kernel takes a connection's own end from."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
            return int(ports.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def free_port() -> int:
    """A loopback port nothing holds, below the ephemeral range: a port
    ``bind(0)`` hands out can be taken by a connection's own end before the
    server binds it (seen: redis-server's "Address already in use")."""
    low = _ephemeral_low()
    rng = random.Random()
    for _attempt in range(100):
        port = rng.randrange(10000, low) if low > 11000 else 0
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise AssertionError("no free loopback port")


def reachable(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def manage(*args: str, env: dict[str, str], timeout: float = 120) -> str:
    """Run ``manage.py`` with ``env``; its stdout (fails loudly on error)."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise AssertionError(f"manage.py {' '.join(args)}:\n{result.stderr}")
    return result.stdout


def shell_json(code: str, env: dict[str, str]) -> object:
    """Run Python in ``manage.py shell`` and read the JSON it prints last."""
    out = manage("shell", "-c", code, env=env)
    return json.loads(out.strip().splitlines()[-1])


SERVER_PIDS: dict[str, int] = {}  # base URL -> the server's process id


@contextmanager
def serving(
    module: list[str],
    env: dict[str, str],
    *,
    ready_timeout: float,
    quiet: bool,
    log: Path | None = None,
) -> Iterator[str]:
    """``python -m <module...>`` on a free loopback port until it answers
    ``/healthz``; yields its base URL, then stops it. Its error output goes
    to a file (``log``, or a temporary one), never to a pipe no one reads,
    which a server that logs much would fill and block on; unless ``quiet``,
    it is shown if the server stops before answering."""
    port = free_port()
    errors = open(log, "w+") if log else tempfile.TemporaryFile("w+")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", module[0], "--host", "127.0.0.1", "--port", str(port)]
        + ["--log-level", "warning", *module[1:]],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    SERVER_PIDS[base] = process.pid
    try:
        deadline = time.monotonic() + ready_timeout
        while True:
            if process.poll() is not None:
                errors.seek(0)
                said = "" if quiet else errors.read()
                raise AssertionError(f"{module[0]} stopped: {said}")
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{module[0]} did not answer in time")
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


def uvicorn(
    env: dict[str, str],
    *,
    workers: int = 1,
    ready_timeout: float = 30,
    log: Path | None = None,
) -> AbstractContextManager[str]:
    """A uvicorn process (``workers`` processes) on a free loopback port;
    yields its base URL (its error output in ``log``, if given)."""
    return serving(
        ["uvicorn", "confrontation_site.asgi:application"]
        + ["--timeout-graceful-shutdown", "1", "--workers", str(workers)],
        env,
        ready_timeout=ready_timeout,
        quiet=False,
        log=log,
    )
