"""Every command kind is declared once (``rules.game.commands``), every event
kind described (``rules.game.kinds``), with their fields."""

from __future__ import annotations

from rules.game import COMMANDS
from rules.game.commands import COMMAND_TABLE
from rules.game.evolve import EVOLVERS, META_KINDS
from rules.game.kinds import EVENT_KINDS
from tests.support.table import play_whole_game


def test_every_command_kind_is_declared():
    assert set(COMMAND_TABLE) == set(COMMANDS)
    for kind, declared in COMMAND_TABLE.items():
        assert declared.type == kind
        assert declared.__doc__, kind  # what it does, and its section
        assert callable(declared.legal) and callable(declared.apply), kind
        # One tap may carry several commands only where none rolls a die.
        assert not (declared.batched and declared.rolls), kind


def test_every_command_declares_its_fields_once():
    for kind, declared in COMMAND_TABLE.items():
        names = [f.name for f in declared.fields]
        assert len(names) == len(set(names)), kind
        for field in declared.fields:
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
    fields = {k: {f.name: f for f in v.fields} for k, v in COMMAND_TABLE.items()}
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
