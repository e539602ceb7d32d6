"""Logs an operator can read (issue 30).

The access log was cut to one line per 10 s (4 lines for 779 requests)
without saying so, and every 403 logged a whole traceback.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time

import httpx
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.core.handlers.exception import response_for_exception
from django.test import RequestFactory

from tests.support.servers import ROOT, free_port, manage, server_env


def _logged(caplog, exception: Exception) -> list[logging.LogRecord]:
    request = RequestFactory().get("/games/x/act")
    with caplog.at_level(logging.WARNING):
        caplog.clear()
        response = response_for_exception(request, exception)
    return response, [r for r in caplog.records if r.name.startswith("django.")]


def test_a_refusal_is_one_line_and_a_server_error_keeps_its_traceback(caplog):
    response, records = _logged(caplog, PermissionDenied("Members only."))
    assert response.status_code == 403
    assert len(records) == 1 and records[0].exc_info is None
    assert "Traceback" not in caplog.text
    assert "Forbidden (Permission denied): /games/x/act" in caplog.text

    response, records = _logged(caplog, SuspiciousOperation("odd"))
    assert response.status_code == 400
    assert "Traceback" not in caplog.text

    try:
        raise RuntimeError("a real bug")
    except RuntimeError as error:
        response, records = _logged(caplog, error)
    assert response.status_code == 500
    assert any(r.exc_info for r in records)  # kept for what must be fixed


def test_the_access_log_has_a_line_for_every_request(tmp_path):
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'logs.sqlite3'}")
    manage("migrate", "--noinput", env=env)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(tmp_path / "server.log", "w+") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "confrontation_site.serve"]
            + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "info"],
            cwd=ROOT,
            env=env,
            stdout=log,  # uvicorn's access log goes to its standard output
            stderr=subprocess.STDOUT,
        )
        try:
            with httpx.Client(base_url=base) as client:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        if client.get("/healthz").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    assert time.monotonic() < deadline and process.poll() is None
                    time.sleep(0.1)
                for number in range(200):
                    client.get(f"/healthz?n={number}")
        finally:
            process.terminate()
            process.wait(timeout=15)
        log.seek(0)
        text = log.read()
    print(f"FIGURE access lines {text.count('GET /healthz?n=')} for 200 requests")
    assert all(f"GET /healthz?n={number} " in text for number in range(200))


def test_what_an_outage_repeats_at_every_request_is_logged_once_with_a_count(caplog):
    logger = logging.getLogger("battles.ratelimit")
    with caplog.at_level(logging.WARNING, logger="battles.ratelimit"):
        for _ in range(500):  # (a message of its own: the filter counts by message)
            logger.warning("test outage %s: the database counts", "down")
    assert caplog.text.count("test outage") == 1
