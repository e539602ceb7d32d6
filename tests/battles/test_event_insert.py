"""An action's events go in with one INSERT of plain values: on PostgreSQL,
Django's UNNEST of arrays would quote every JSON value again in Python (a
state snapshot has hundreds of quotes), about a millisecond per action."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models.games import GameEvent
from battles.services.games import perform_action
from tests.support.game_bot import next_command
from tests.support.live import two_phone_game

pytestmark = pytest.mark.django_db


def test_an_action_of_several_events_is_one_insert_of_plain_values():
    game = two_phone_game()
    rng = random.Random(3)
    for _ in range(40):
        game.refresh_from_db()
        before_state, before_version = game.state, game.version
        side, command = next_command(game.state, rng)
        with CaptureQueriesContext(connection) as asked:
            result = perform_action(game, side, command)
        if len(result.events) > 1:
            break
    else:
        pytest.fail("no action of several events in 40")
    inserts = [q["sql"] for q in asked if 'INSERT INTO "battles_gameevent"' in q["sql"]]
    assert len(inserts) == 1
    assert "UNNEST" not in inserts[0].upper()
    # What went in comes back as it was.
    rows = list(GameEvent.objects.filter(game=game, seq__gt=before_version))
    assert [r.seq for r in rows] == [e.seq for e in result.events]
    assert rows[0].state_before == before_state
    assert [r.payload for r in rows] == [e.payload for e in result.events]
    assert all(r.state_before is None for r in rows[1:])
