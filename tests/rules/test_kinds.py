"""``rules.game.kinds`` describes every command and event kind, and their fields."""

from __future__ import annotations

from rules.game import COMMANDS
from rules.game.evolve import EVOLVERS, META_KINDS
from rules.game.kinds import COMMAND_FIELDS, COMMAND_KINDS, EVENT_KINDS
from tests.support.table import play_whole_game


def test_every_command_kind_is_described():
    assert set(COMMAND_KINDS) == set(COMMANDS)


def test_every_command_declares_its_fields_once():
    assert set(COMMAND_FIELDS) == set(COMMAND_KINDS)
    for kind, fields in COMMAND_FIELDS.items():
        names = [f.name for f in fields]
        assert len(names) == len(set(names)), kind
        described = set(COMMAND_KINDS[kind].__annotations__) - {"type"}
        assert set(names) == described, kind
        for field in fields:
            if field.type in ("int", "float"):
                assert field.low is not None and field.high is not None, field
            if field.type in ("id", "text", "list", "map"):
                assert field.max_length, field
            if field.type in ("list", "map"):
                assert field.max_items, field
            if field.type == "choice":
                assert field.choices, field


def test_the_melee_commands_carry_their_bounds():
    """RULES_API "Melee": initiative, place_dice (sequence), attack
    (master_strike), parry (dice, counter)."""
    fields = {k: {f.name: f for f in v} for k, v in COMMAND_FIELDS.items()}
    assert fields["initiative"]["fighter"].type == "id"
    assert fields["place_dice"]["attack"].low == 0
    assert not fields["place_dice"]["sequence"].required
    assert fields["attack"]["master_strike"].type == "bool"
    assert fields["parry"]["dice"].type == "int"
    assert fields["parry"]["counter"].default is False


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
