"""A database that goes away: a styled 503, the tap kept, recovery by itself (#13).

The database "goes away" here the way a restarted server or a cut network
looks to Django: every new cursor fails with the driver's OperationalError.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client

from battles.models import GameEvent
from rules.game.state import cards_in_play
from tests.support.cast import phone_of
from tests.support.live import guests_game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


class Outage:
    """Switch the database off and on again for this thread's connection."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch

    def start(self):
        def refuse(*args, **kwargs):
            raise connection.Database.OperationalError(
                "server closed the connection unexpectedly"
            )

        self.monkeypatch.setattr(connection, "create_cursor", refuse)

    def end(self):
        self.monkeypatch.undo()


@pytest.fixture
def outage(monkeypatch):
    outage = Outage(monkeypatch)
    yield outage
    outage.end()


@pytest.fixture
def table():
    game = guests_game("outage-a", "outage-b")
    return game, phone_of("outage-a", Client(HTTP_ACCEPT_LANGUAGE="en"))


def test_a_page_without_its_database_is_a_styled_503_then_recovers(table, outage):
    game, phone = table
    outage.start()
    response = phone.get(f"/games/{game.public_id}/")
    body = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "<html" in body and "app.css" in body
    assert "cannot reach its database" in body
    assert "This tap was not recorded" in body
    outage.end()
    assert phone.get(f"/games/{game.public_id}/").status_code == 200


def test_an_htmx_tap_gets_the_message_alone_and_its_retry_counts_once(table, outage):
    game, phone = table
    tap = {
        "type": "set_sequence",
        "side": "a",
        "order": cards_in_play(game.state, "a"),
        "version": str(game.version),
        "tap": "kept-tap-key",
    }
    events = GameEvent.objects.filter(game=game).count()
    outage.start()
    response = phone.post(f"/games/{game.public_id}/act", tap, **HTMX)
    outage.end()
    body = response.content.decode()
    assert response.status_code == 503  # htmx swaps nothing: the form stays
    assert "<html" not in body
    assert 'data-status="503"' in body
    assert "cannot reach its database" in body
    assert GameEvent.objects.filter(game=game).count() == events

    # The database is back; the page's form still holds the same tap key.
    retried = phone.post(f"/games/{game.public_id}/act", tap, **HTMX)
    assert retried.status_code == 200
    applied = GameEvent.objects.filter(game=game).count()
    assert applied > events
    again = phone.post(f"/games/{game.public_id}/act", tap, **HTMX)
    assert again.status_code == 200
    assert GameEvent.objects.filter(game=game).count() == applied
    assert GameEvent.objects.filter(idempotency_key="kept-tap-key").exists()


def test_healthz_answers_503_while_the_database_is_away(client, outage):
    assert client.get("/healthz").status_code == 200
    outage.start()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"
    outage.end()
    assert client.get("/healthz").status_code == 200


def test_a_session_that_cannot_be_saved_is_a_503_too(table, monkeypatch, settings):
    """Outside a view (the session middleware saving) the 500 handler says 503."""
    from django.contrib.sessions.backends.db import SessionStore

    game, phone = table

    def refuse(*args, **kwargs):
        raise OperationalError("the database went away")  # as Django wraps it

    monkeypatch.setattr(SessionStore, "save", refuse)
    settings.DEBUG = False
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    phone.raise_request_exception = False
    # Moving a card in the draft sequence writes the session after the view.
    card = cards_in_play(game.state, "a")[0]
    response = phone.post(
        f"/games/{game.public_id}/sequence", {"card": card, "direction": "down"}
    )
    assert response.status_code == 503
    assert "cannot reach its database" in response.content.decode()


def test_a_real_server_answers_503_while_its_database_is_gone_then_recovers(
    tmp_path,
):
    """uvicorn as ``make run`` starts it; the SQLite file moved away and back.

    With the file gone, the next connection finds an empty database: every
    page and ``/healthz`` answer 503. Once the file is back, the very next
    requests succeed, with no restart.
    """
    import shutil

    import httpx

    from tests.support.served import served
    from tests.support.servers import manage, server_env

    folder = tmp_path / "db"
    folder.mkdir()
    database = folder / "club.sqlite3"
    env = server_env(DATABASE_URL=f"sqlite:///{database}")
    manage("migrate", "--noinput", env=env)
    aside = tmp_path / "aside"
    with (
        served(env) as base,
        httpx.Client(
            base_url=base, timeout=30, headers={"Accept-Language": "en"}
        ) as phone,
    ):
        assert phone.get("/games/new/").status_code == 200
        shutil.move(folder, aside)  # the database, its WAL and all: gone
        folder.mkdir()
        page = phone.get("/games/new/")
        assert page.status_code == 503
        assert "cannot reach its database" in page.text
        assert phone.get("/healthz").status_code == 503
        shutil.rmtree(folder)
        shutil.move(aside, folder)  # back
        assert phone.get("/healthz").status_code == 200
        assert phone.get("/games/new/").status_code == 200
