"""The client's true address behind uvicorn (issue #13).

The rate limits count the address the server reports. ``make run`` and
``make serve-prod`` start uvicorn through ``confrontation_site.serve``: proxy
headers are off unless ``BEHIND_TLS_PROXY``, then trusted only from
``PROXY_ADDRESS``. These tests start the server the way ``make`` does and
forge ``X-Forwarded-For`` from loopback, where uvicorn trusts it by default.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from confrontation_site import serve
from tests.support.servers import ROOT, free_port, manage, server_env

SIGN_IN_LIMIT = 10


def test_proxy_headers_are_off_unless_behind_the_sites_proxy():
    assert serve.proxy_options({}) == ["--no-proxy-headers"]
    assert serve.proxy_options({"BEHIND_TLS_PROXY": "false"}) == [
        "--no-proxy-headers"
    ]
    assert serve.proxy_options({"BEHIND_TLS_PROXY": "true"}) == [
        "--proxy-headers",
        "--forwarded-allow-ips",
        "127.0.0.1",
    ]
    assert serve.proxy_options(
        {"BEHIND_TLS_PROXY": "yes", "PROXY_ADDRESS": "10.0.0.2, 10.0.0.3"}
    ) == ["--proxy-headers", "--forwarded-allow-ips", "10.0.0.2,10.0.0.3"]


def test_make_run_and_serve_prod_start_uvicorn_through_the_policy():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("run", "serve-prod"):
        recipe = re.search(rf"^{target}:.*?(?=^\S|\Z)", makefile, re.M | re.S)
        assert recipe, target
        assert "-m confrontation_site.serve" in recipe.group(0)
        assert "-m uvicorn" not in recipe.group(0)
        assert "--proxy-headers" not in recipe.group(0)


@contextmanager
def served(tmp_path: Path, **settings: str):
    """The app served as ``make run`` serves it, on a fresh SQLite file."""
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'address.sqlite3'}", **settings
    )
    manage("migrate", "--noinput", env=env)
    manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User;"
        "User.objects.create_user('anne', password='a long enough secret')",
        env=env,
    )
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "confrontation_site.serve"]
        + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
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


def _forged_sign_ins(base: str, attempts: int) -> list[int]:
    """Wrong sign-ins, each claiming a fresh client address."""
    statuses = []
    with httpx.Client(base_url=base, timeout=10) as phone:
        page = phone.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        for number in range(attempts):
            response = phone.post(
                "/accounts/login/",
                data={
                    "csrfmiddlewaretoken": token.group(1),
                    "username": "anne",
                    "password": "wrong",
                },
                headers={
                    "X-Forwarded-For": f"198.51.100.{number + 1}",
                    "Referer": base + "/accounts/login/",
                },
            )
            statuses.append(response.status_code)
    return statuses


@pytest.mark.parametrize(
    "settings",
    [
        {},  # make run: no proxy
        {"BEHIND_TLS_PROXY": "true", "PROXY_ADDRESS": "192.0.2.1"},  # proxy elsewhere
    ],
    ids=["no-proxy", "proxy-elsewhere"],
)
def test_a_forged_forwarded_for_does_not_escape_the_sign_in_limit(
    tmp_path, settings
):
    with served(tmp_path, **settings) as base:
        statuses = _forged_sign_ins(base, 15)
    assert statuses[:SIGN_IN_LIMIT] == [200] * SIGN_IN_LIMIT
    assert statuses[SIGN_IN_LIMIT:] == [429] * 5
