"""``rules.game.kinds`` describes every command and event kind, and their fields."""

from __future__ import annotations

from rules.game import COMMANDS
from rules.game.evolve import EVOLVERS, META_KINDS
from rules.game.kinds import COMMAND_KINDS, EVENT_KINDS
from tests.support.table import play_whole_game


def test_every_command_kind_is_described():
    assert set(COMMAND_KINDS) == set(COMMANDS)


def test_every_event_kind_is_described():
    assert set(EVENT_KINDS) == {"game_started", *EVOLVERS, *META_KINDS}


def test_the_events_of_a_whole_game_have_the_described_fields():
    table = play_whole_game(11, turns=2)
    for event in table.events:
        described = EVENT_KINDS[event["kind"]]
        fields = set(described.__annotations__)
        payload = set(event["payload"])
        assert payload <= fields, (event["kind"], payload - fields)
        assert described.__required_keys__ <= payload, event["kind"]
