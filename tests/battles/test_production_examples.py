"""The README's production examples run as written (issue 30).

The first one failed ("2 worker processes with LIVE_BUS=memory", exit 2).
Each ``sh`` block of the README that calls ``make serve-prod`` is run by
``sh`` with only what a reader fills in replaced (the secret key, the
database's address: a throw-away PostgreSQL database) and the port taken
from ``PORT``; it must start, answer ``/healthz`` through the proxy's
headers, and stop on SIGTERM.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import stat
import subprocess
import sys
import time

import httpx
import pytest

from confrontation_site import serve
from tests.battles.test_live_processes import _postgres_database
from tests.support.servers import ROOT, free_port, server_env

README = ROOT / "README.md"


def production_examples() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    return [block for block in blocks if "make serve-prod" in block]


def test_the_readme_has_production_examples():
    assert len(production_examples()) >= 2


@pytest.fixture
def database_url():
    database = _postgres_database()
    url = next(database)
    yield url
    next(database, None)


@pytest.mark.parametrize("number", range(len(production_examples())))
def test_a_readme_production_example_starts_answers_and_stops(
    number, database_url, tmp_path
):
    example = production_examples()[number]
    example = example.replace("SECRET_KEY=...", f"SECRET_KEY={secrets.token_hex(32)}")
    example = re.sub(r"DATABASE_URL=\S+", f"DATABASE_URL={database_url}", example)
    # `make` as the reader's, without reinstalling the shared test virtualenv
    # when a requirements file is newer than its stamp.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "make"
    wrapper.write_text('#!/bin/sh\nexec /usr/bin/make -o .venv/.run-installed "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    port = free_port()
    env = server_env(PORT=str(port), PATH=f"{bin_dir}:{os.environ['PATH']}")
    env.pop("DEBUG")
    log = tmp_path / "serve-prod.log"
    with open(log, "w") as output:
        process = subprocess.Popen(
            ["sh", "-e", "-c", example],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    # The site's proxy, on 127.0.0.1 (PROXY_ADDRESS's default), says HTTPS.
    proxy = {"Host": "club.example.org", "X-Forwarded-Proto": "https"}
    try:
        deadline = time.monotonic() + 180
        answer = None
        while answer is None or answer.status_code != 200:
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)
            try:
                answer = httpx.get(
                    f"http://127.0.0.1:{port}/healthz", headers=proxy, timeout=5
                )
            except httpx.HTTPError:
                answer = None
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    assert answer.status_code == 200


def test_every_way_to_ask_for_several_processes_is_checked():
    """UVICORN_WORKERS=2 passed the check and started two workers on the
    memory bus (36 of 80 taps never reached the phones on the other one)."""
    for environ, options in (
        ({"UVICORN_WORKERS": "2"}, []),
        ({"WEB_CONCURRENCY": "2"}, []),
        ({}, ["--workers", "2"]),
        ({"UVICORN_WORKERS": "1", "WEB_CONCURRENCY": "3"}, []),
    ):
        with pytest.raises(SystemExit, match="LIVE_BUS=memory"):
            serve.command(environ, options)
    # The number checked is the one uvicorn is told, whatever else says.
    args = serve.command({"UVICORN_WORKERS": "1"}, [])
    assert args[args.index("--workers") + 1] == "1"
    args = serve.command({"LIVE_BUS": "redis", "UVICORN_WORKERS": "3"}, [])
    assert args[args.index("--workers") + 1] == "3"


def test_uvicorn_workers_on_the_memory_bus_refuse_to_start():
    env = server_env(UVICORN_WORKERS="2")
    result = subprocess.run(
        [sys.executable, "-m", "confrontation_site.serve", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "2 worker processes" in result.stderr
    assert "LIVE_BUS=postgres" in result.stderr
