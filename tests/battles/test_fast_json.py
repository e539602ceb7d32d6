"""A game's JSON columns go through orjson (``battles.models.fast_json``):
what goes in comes back as the standard library would give it, rows written
before (spaced as ``json.dumps`` spaces them) read the same, and migrations
see a plain ``JSONField``."""

from __future__ import annotations

import json

import pytest
from django.db import connection, models

from battles.models.fast_json import FastJSONDecoder, FastJSONEncoder, FastJSONField
from battles.models.games import Game, GameEvent
from tests.support.live import two_phone_game

VALUE = {
    "turn": 3,
    "ratio": 0.5,
    "name": "Griffons d'Akkylannie — « Lion »",
    "flags": [True, False, None],
    "nested": {"fighters": [{"id": "a-1", "wounds": 2}], "empty": {}},
}


def test_the_codec_writes_what_the_standard_library_reads():
    encoded = json.dumps(VALUE, cls=FastJSONEncoder)
    assert json.loads(encoded) == VALUE
    assert json.loads(json.dumps(VALUE), cls=FastJSONDecoder) == VALUE


def test_keys_that_are_not_strings_are_written_as_the_standard_library_writes_them():
    value = {1: "one", None: "none"}
    assert json.loads(json.dumps(value, cls=FastJSONEncoder)) == json.loads(
        json.dumps(value)
    )


def test_what_json_cannot_hold_is_refused_as_before():
    with pytest.raises(TypeError):
        json.dumps({"when": object()}, cls=FastJSONEncoder)
    with pytest.raises(json.JSONDecodeError):
        json.loads("{not json", cls=FastJSONDecoder)


def test_migrations_see_a_plain_json_field():
    name, path, args, kwargs = FastJSONField(default=dict).deconstruct()
    assert path == "django.db.models.JSONField"
    assert "encoder" not in kwargs and "decoder" not in kwargs
    for field in (Game._meta.get_field("state"), GameEvent._meta.get_field("payload")):
        assert field.encoder is FastJSONEncoder
        assert field.decoder is FastJSONDecoder
        assert isinstance(field, models.JSONField)


@pytest.mark.django_db
def test_a_state_written_by_the_standard_library_reads_the_same():
    game = two_phone_game()
    state = dict(game.state, note=VALUE)
    # As an earlier version of the app wrote it: json.dumps's spacing.
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE battles_game SET state = %s WHERE id = %s",
            [json.dumps(state), game.pk],
        )
    assert Game.objects.get(pk=game.pk).state == state
    # Written again by the app, it reads back equal.
    game.refresh_from_db()
    game.save(update_fields=["state"])
    assert Game.objects.get(pk=game.pk).state == state
