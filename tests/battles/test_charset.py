"""A form posted in another charset than UTF-8 (``Content-Type: ...;
charset=latin-1``) answers 400 with a message on every endpoint, never 500
(issue 23): Django refuses such a body, and its own 400 handler read it again
through the CSRF check and failed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.support.live import guests_game

pytestmark = pytest.mark.django_db

LATIN_1 = "application/x-www-form-urlencoded; charset=latin-1"
MESSAGE = "the app reads forms in UTF-8 only"


def _paths(patterns, prefix=""):
    """Every URL of the site without a parameter (a form's address or not)."""
    for entry in patterns:
        route = str(entry.pattern)
        if "<" in route or route.startswith("^"):
            continue
        if isinstance(entry, URLResolver):
            yield from _paths(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            yield "/" + prefix + route


def latin_1_post(client: Client, path: str):
    client.get("/")  # a CSRF cookie, as a browser would hold
    token = client.cookies["csrftoken"].value
    body = f"title=%E9t%E9&name=%E9&csrfmiddlewaretoken={token}"
    return client.post(path, body, content_type=LATIN_1, HTTP_HX_REQUEST="true")


@pytest.fixture
def phone():
    return Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")


def test_every_plain_endpoint_answers_400_with_a_message(phone):
    paths = sorted(set(_paths(get_resolver().url_patterns)))
    assert "/games/new/" in paths and len(paths) > 10
    for path in paths:
        response = latin_1_post(phone, path)
        assert response.status_code != 500, path
        if response.status_code == 400:
            assert MESSAGE in response.content.decode(), path
    assert latin_1_post(phone, "/games/new/").status_code == 400


def test_a_game_tap_in_latin_1_changes_nothing_and_says_why(phone):
    from tests.support.cast import phone_of

    game = guests_game("owner-key", "opponent-key")
    owner = phone_of("owner-key", phone)
    version = game.version
    for action in ("act", "undo", "dice-mode", "undo/answer", "sequence"):
        response = latin_1_post(owner, f"/games/{game.public_id}/{action}")
        assert response.status_code == 400, action
        assert MESSAGE in response.content.decode()
    game.refresh_from_db()
    assert game.version == version
