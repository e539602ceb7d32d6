"""The client's true address behind uvicorn (issue #13).

The rate limits count the address the server reports. ``make run`` and
``make serve-prod`` start uvicorn through ``confrontation_site.serve``: proxy
headers are off unless ``BEHIND_TLS_PROXY``, then trusted only from
``PROXY_ADDRESS``. These tests start the server the way ``make`` does and
forge ``X-Forwarded-For`` from loopback, where uvicorn trusts it by default.
"""

from __future__ import annotations

import re
import shutil
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from confrontation_site import serve
from tests.support.served import served as serve_like_make
from tests.support.servers import ROOT, manage, server_env

JOIN_LIMIT = 30


def test_proxy_headers_are_off_unless_behind_the_sites_proxy():
    assert serve.proxy_options({}) == ["--no-proxy-headers"]
    assert serve.proxy_options({"BEHIND_TLS_PROXY": "false"}) == ["--no-proxy-headers"]
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


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """One migrated SQLite file; each server gets a copy."""
    path = tmp_path_factory.mktemp("address") / "template.sqlite3"
    manage("migrate", "--noinput", env=server_env(DATABASE_URL=f"sqlite:///{path}"))
    return path


@contextmanager
def served(migrated: Path, tmp_path: Path, **settings: str):
    """The app served as ``make run`` serves it, on a copy of ``migrated``."""
    database = tmp_path / "address.sqlite3"
    shutil.copyfile(migrated, database)
    env = server_env(DATABASE_URL=f"sqlite:///{database}")
    env.update(settings)  # DEBUG too
    with serve_like_make(env) as base:
        yield base


def _forged(number: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"198.51.100.{number + 1}"}


def _join_attempts(base: str, attempts: int) -> list[int]:
    """Join-link lookups, each "from" a new address (``X-Forwarded-For``).

    The join limit (30 per address) counts like the sign-in limit, without
    hashing a password per attempt: the same address rule, at a CI's pace.
    """
    with httpx.Client(base_url=base, timeout=30) as phone:
        return [
            phone.get("/join/no-such-token", headers=_forged(n)).status_code
            for n in range(attempts)
        ]


def test_make_run_ignores_a_forged_forwarded_for(migrated, tmp_path):
    """make run, no proxy: before the fix every forged address got through."""
    with served(migrated, tmp_path) as base:
        statuses = _join_attempts(base, JOIN_LIMIT + 3)
    assert statuses == [404] * JOIN_LIMIT + [429] * 3


def test_behind_a_proxy_only_the_proxys_address_may_name_the_client(migrated, tmp_path):
    """BEHIND_TLS_PROXY with the proxy elsewhere: loopback's header is ignored."""
    settings = {"BEHIND_TLS_PROXY": "true", "PROXY_ADDRESS": "192.0.2.1"}
    with served(migrated, tmp_path, **settings) as base:
        statuses = _join_attempts(base, JOIN_LIMIT + 3)
    assert statuses == [404] * JOIN_LIMIT + [429] * 3


def test_x_forwarded_proto_counts_only_from_the_proxys_address(migrated, tmp_path):
    """Behind the proxy, a request is taken as HTTPS (HSTS, secure cookies,
    no redirect) only when the proxy's own address says so: a client at
    another address writing ``X-Forwarded-Proto: https`` is not believed
    (it was: Django's SECURE_PROXY_SSL_HEADER took it from anyone)."""
    settings = {
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "BEHIND_TLS_PROXY": "true",
        "PROXY_ADDRESS": "127.0.0.2",
        "SECURE_SSL_REDIRECT": "false",  # so the plain-HTTP readiness check passes
    }
    https = {"X-Forwarded-Proto": "https"}
    with served(migrated, tmp_path, **settings) as base:
        with httpx.Client(timeout=10) as anyone:
            forged = anyone.get(base + "/healthz", headers=https)
        proxy = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=proxy, timeout=10) as from_proxy:
            said = from_proxy.get(base + "/healthz", headers=https)
    assert forged.status_code == said.status_code == 200
    assert "Strict-Transport-Security" not in forged.headers
    assert "Strict-Transport-Security" in said.headers
