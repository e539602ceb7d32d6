"""The tapping phone's answer first (issue 25): a request's live
announcements go out once its answer is rendered, so the other phones'
renders do not share the CPU with it; they go out even when the view fails."""

from __future__ import annotations

import pytest

from battles.live import bus
from battles.services import games as services
from battles.views import games as game_views
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
