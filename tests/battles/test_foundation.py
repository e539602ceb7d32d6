"""The site's ground floor: pages, headers, health check, settings, budgets."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DATABASE_URL",
            "DEBUG",
            "SECRET_KEY",
            "DJANGO_SETTINGS_MODULE",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_home_page_is_a_full_page(client):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" in body
    assert 'name="viewport"' in body
    assert "htmx" in body


def test_every_htmx_request_carries_the_csrf_token(client):
    body = client.get("/").content.decode()
    token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", body)
    assert token and len(token.group(1)) >= 32


def test_the_page_has_a_strict_content_security_policy(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


def test_no_template_holds_inline_script_or_style():
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text):
            offenders.append(f"{template}: inline <script>")
        if re.search(r"<style\b", text) or re.search(r"\sstyle=", text):
            offenders.append(f"{template}: inline style")
        if re.search(r"\shx-on[:-]|\son[a-z]+=", text):
            offenders.append(f"{template}: inline event handler")
    assert offenders == []


def test_security_headers_are_sent(client):
    response = client.get("/")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "camera=()" in response.headers["Permissions-Policy"]


def test_healthz_reports_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_healthz_says_503_when_the_database_fails(client, monkeypatch):
    from django.db import DatabaseError

    def broken_cursor(*args, **kwargs):
        raise DatabaseError("down")

    monkeypatch.setattr("battles.services.health.connection.cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


def test_the_manifest_lets_a_phone_install_the_app(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes


def test_an_unknown_url_gets_the_styled_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "<html" in body and "app.css" in body


def test_the_server_error_page_shows_no_traceback(client, settings):
    from battles.views.errors import server_error

    response = server_error(client.get("/").wsgi_request)
    assert response.status_code == 500
    body = response.content.decode()
    assert "Traceback" not in body
    assert "Nothing you played is lost" in body


@pytest.mark.parametrize(
    ("accept_language", "expected"),
    [("fr-FR,fr;q=0.9", 'lang="fr"'), ("en-GB,en;q=0.9", 'lang="en"')],
)
def test_the_language_follows_the_browser(client, accept_language, expected):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE=accept_language).content.decode()
    assert expected in body


def test_the_language_can_be_switched(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'lang="en"' in body


def test_french_is_translated(client):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Aller au contenu" in body


def first_load_bytes(client, url: str) -> int:
    """HTML plus every same-site asset the page loads, gzipped (page weight)."""
    html = client.get(url).content
    total = len(gzip.compress(html, 9))
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)
    assert assets, "the page should load its CSS and scripts"
    for asset in set(assets):
        path = finders.find(asset.decode().removeprefix("/static/"))
        assert path, asset
        total += len(gzip.compress(Path(path).read_bytes(), 9))
    return total


@pytest.mark.parametrize("url", ["/", "/games/new/", "/armies/", "/hex/"])
def test_the_first_load_stays_under_60_kb_compressed(client, url):
    total = first_load_bytes(client, url)
    assert total < 60 * 1024, f"{url}: {total} bytes compressed"


def test_a_game_page_under_way_stays_under_60_kb_compressed(client):
    from battles.models import Army
    from battles.models.armies import Owner
    from battles.services.games import create_game
    from tests.support.cast import phone_of
    from tests.support.game_bot import next_command

    call_command("load_demo", verbosity=0)
    army_a, army_b = Army.objects.filter(is_demo=True).order_by("pk")[:2]
    phone_of("weigher", client)
    game = create_game(
        owner=Owner(guest_key="weigher"), army_a=army_a, army_b=army_b, mode="one_phone"
    )
    import random

    from battles.services.games import perform_action

    rng = random.Random(3)
    for _ in range(150):  # well into the game: a long log, wounds, contacts
        side, command = next_command(game.state, rng)
        game = perform_action(game, side, command).game
    total = first_load_bytes(client, f"/games/{game.public_id}/")
    assert total < 60 * 1024, f"{total} bytes compressed"


def test_no_migration_is_missing():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_check_deploy_is_clean_with_production_settings():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="x" * 20 + "production-secret-key-for-the-check-0123456789",
        ALLOWED_HOSTS="club.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="false", ALLOWED_HOSTS="club.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("url", ["nonsense://somewhere/db", "mysql://root@localhost/x"])
def test_a_wrong_database_url_stops_with_one_clear_line(url):
    result = run_manage("check", DATABASE_URL=url)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0
    assert "DATABASE_URL" in result.stderr


def test_an_unreachable_database_stops_with_one_clear_line():
    result = run_manage(
        "migrate", "--check", DATABASE_URL="postgres://nobody@127.0.0.1:1/nothing"
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "DATABASE_URL" in result.stderr


def test_a_malformed_boolean_setting_is_refused():
    result = run_manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


def test_a_post_without_its_csrf_token_gets_a_styled_page_and_changes_nothing():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    response = strict.post("/games/new/", {"turns": 6})
    assert response.status_code == 403
    body = response.content.decode()
    assert "app.css" in body and "Reload the page" in body
