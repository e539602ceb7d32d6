"""Tampered requests on the game endpoints: a clear answer, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.services import games as services
from rules.game import COMMANDS, replay
from tests.support.cast import phone_of
from tests.support.live import guests_game

FIELDS = [
    "type",
    "side",
    "version",
    "tap",
    "faces",
    "fighter",
    "target",
    "targets",
    "action",
    "order",
    "first",
    "distance_cm",
    "combat",
    "attack",
    "defence",
    "attacker",
    "parry",
    "key",
    "rallied",
    "value",
    "method",
    "one",
    "two",
    "contact",
    "difficulty",
    "nearest_friend",
    "amplified",
    "attenuated",
    "mana",
    "faith",
    "routed",
]
NASTY = st.one_of(
    st.sampled_from(
        ["", "a", "b", "c", "a1.1", "b1.1", "-1", "1e309", "nan", "NaN", "0", "999999"]
    ),
    st.sampled_from(sorted(COMMANDS)),
    st.text(max_size=40),
    st.integers(-(10**12), 10**12).map(str),
)


@pytest.fixture
def table(db):
    """One game, shared by all the examples of a test (hypothesis does not reset
    it: whatever the tampered requests managed to apply, the checks must hold)."""
    game = guests_game("tamper-a", "tamper-b")
    return game, phone_of("tamper-a", Client(HTTP_ACCEPT_LANGUAGE="en"))


@pytest.mark.django_db
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    data=st.dictionaries(st.sampled_from(FIELDS), NASTY, max_size=8),
    path=st.sampled_from(["act", "undo", "sequence", "view-as"]),
    htmx=st.booleans(),
)
def test_no_tampered_post_gets_a_500_or_breaks_the_log(table, data, path, htmx):
    game, client = table
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(f"/games/{game.public_id}/{path}", data, **headers)
    assert response.status_code in (200, 302, 403, 404, 405), response.status_code
    game.refresh_from_db()
    assert replay(services.rules_events(game)) == game.state


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/games/%00/",
        "/games/..%2f..%2fetc/",
        "/games/" + "x" * 500 + "/",
        "/join/not-a-token",
        "/games/nope/stream",
        "/games/nope/share/b.svg",
        "/armies/999999/",
    ],
)
def test_strange_urls_get_a_404_not_a_500(client, path):
    assert client.get(path).status_code == 404
