"""The tapping phone's answer first (issue 25): a request's live
announcements go out once its answer is rendered, and, served by the app's
server, once it has been sent, so the other phones' renders share neither
the CPU nor the interpreter's lock with it; they go out even when the view
fails or the phone has gone."""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import pytest
from django.core.wsgi import get_wsgi_application
from django.middleware.csrf import _get_new_csrf_string

from battles.live import bus
from battles.services import games as services
from battles.views import games as game_views
from confrontation_site.sync_views import SyncViews
from tests.support.game_steps import act, to_activation

pytestmark = pytest.mark.django_db(transaction=True)


def test_announcements_inside_wait_for_the_end_then_all_go(monkeypatch):
    published = []
    monkeypatch.setattr(
        bus, "_publish", lambda game_id, version: published.append((game_id, version))
    )
    with bus.held_until_answered():
        bus.announce(7, 3)
        with bus.held_until_answered():  # nested: the outer one holds
            bus.announce(7, 4)
        assert published == []
    assert published == [(7, 3), (7, 4)]
    bus.announce(7, 5)  # outside a request: at once
    assert published[-1] == (7, 5)


def test_a_tap_is_announced_after_its_answer_is_rendered(
    game, owner_client, monkeypatch
):
    game = to_activation(game)
    order = []
    render = game_views._render_answer

    def rendered(*args, **kwargs):
        response = render(*args, **kwargs)
        order.append("answer rendered")
        return response

    monkeypatch.setattr(game_views, "_render_answer", rendered)
    monkeypatch.setattr(
        bus, "_publish", lambda game_id, version: order.append(("announced", version))
    )
    response = act(owner_client, game, side="a", type="draw", action="draw")
    assert response.status_code == 200
    game.refresh_from_db()
    assert order == ["answer rendered", ("announced", game.version)]


def test_an_answer_that_fails_after_the_commit_still_announces(
    game, owner_client, monkeypatch
):
    """The action is saved: the other phones hear of it even if rendering
    the tapping phone's answer fails."""
    game = to_activation(game)
    announced = []

    def broken(*args, **kwargs):
        raise RuntimeError("the answer could not be rendered")

    monkeypatch.setattr(game_views, "_render_answer", broken)
    monkeypatch.setattr(
        bus, "_publish", lambda game_id, version: announced.append(version)
    )
    owner_client.raise_request_exception = False
    response = act(owner_client, game, side="a", type="draw", action="draw")
    assert response.status_code == 500
    game.refresh_from_db()
    assert announced == [game.version]
    assert services.state_at(game, game.version) is not None


def test_announcements_held_for_the_server_go_when_it_calls_them(monkeypatch):
    published = []
    monkeypatch.setattr(
        bus, "_publish", lambda game_id, version: published.append((game_id, version))
    )
    after_answer = []
    with bus.held_until_answered(after_answer):
        bus.announce(7, 3)
        bus.announce(7, 4)
    assert published == []
    assert len(after_answer) == 1
    after_answer[0]()
    assert published == [(7, 3), (7, 4)]
    nothing_left = []
    with bus.held_until_answered(nothing_left):
        pass  # nothing announced: nothing left for later
    assert nothing_left == []


def _served_tap(game, owner_client, send) -> None:
    """A draw tapped on side A's phone, served as the app's server serves it
    (``SyncViews``: Django whole in a worker thread, the answer sent from
    the event loop), with the page's CSRF header."""
    game.refresh_from_db()
    token = _get_new_csrf_string()
    cookies = f"sessionid={owner_client.cookies['sessionid'].value}; csrftoken={token}"
    body = urlencode(
        {"side": "a", "type": "draw", "action": "draw", "version": game.version}
    ).encode()
    scope = {
        "type": "http",
        "method": "POST",
        "path": f"/games/{game.public_id}/act",
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"testserver"),
            (b"cookie", cookies.encode()),
            (b"x-csrftoken", token.encode()),
            (b"hx-request", b"true"),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"accept-language", b"en"),
        ],
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 51000),
        "scheme": "http",
        "http_version": "1.1",
    }

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    views = SyncViews(get_wsgi_application(), workers=1)
    try:
        asyncio.run(views(scope, receive, send))
    finally:
        views.close()


def test_a_served_tap_is_announced_once_its_answer_has_been_sent(
    game, owner_client, monkeypatch
):
    game = to_activation(game)
    order = []
    monkeypatch.setattr(
        bus, "_publish", lambda game_id, version: order.append(("announced", version))
    )

    async def send(message):
        order.append((message["type"], message.get("status")))

    _served_tap(game, owner_client, send)
    game.refresh_from_db()
    assert order == [
        ("http.response.start", 200),
        ("http.response.body", None),
        ("announced", game.version),
    ]


def test_a_served_tap_whose_phone_has_gone_is_announced_all_the_same(
    game, owner_client, monkeypatch
):
    """The action is saved: the other phones hear of it even if its answer
    cannot reach the phone that tapped."""
    game = to_activation(game)
    announced = []
    monkeypatch.setattr(
        bus, "_publish", lambda game_id, version: announced.append(version)
    )

    async def send(message):
        raise OSError("the phone has gone")

    with pytest.raises(OSError):
        _served_tap(game, owner_client, send)
    game.refresh_from_db()
    assert announced == [game.version]
