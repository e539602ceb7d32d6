"""A game of the demo armies with spells and miracles (issue #32): the
Griffons' Guerrier-mage knows two spells, their Fidèle a miracle, the Wolfen
Magicien a spell that can counter; the reserves entered at the table."""

from __future__ import annotations

from battles.models import Miracle, Spell
from battles.services import games as services
from rules.game import waiting_for
from tests.support.game_steps import to_activation
from tests.support.live import demo_armies

GRIFFON_MAGE = "a7.1"  # the Griffons' Guerrier-mage (POU 3)
GRIFFON_FAITHFUL = "a4.1"  # their Fidèle (FOI 4)
WOLFEN_MAGICIAN = "b5.1"  # the Wolfen Magicien (POU 4)


def library() -> None:
    Spell.objects.get_or_create(
        name="Boule de feu",
        defaults={
            "cost": {"fire": 2},
            "cost_text": "2 Fuoco",
            "difficulty": 7,
            "difficulty_text": "7",
            "frequency": 1,
            "frequency_text": "1",
            "duration": "instant",
            "points": 5,
        },
    )
    Spell.objects.get_or_create(
        name="Aura de lumière",
        defaults={
            "cost": {"light": 1, "neutral": 1},
            "difficulty": 6,
            "duration": "end_of_round",
        },
    )
    Spell.objects.get_or_create(
        name="Brume", defaults={"cost": {"water": 1}, "difficulty": 5, "frequency": 2}
    )
    Miracle.objects.get_or_create(
        name="Bénédiction",
        defaults={
            "cult": "Merin",
            "fervour_text": "x libero",
            "difficulty_text": "x + 4",
            "duration": "end_of_round",
        },
    )


def with_magic() -> None:
    """The demo armies' magicians and faithful know their spells, miracles."""
    library()
    griffons, wolfen = demo_armies()
    cards = {c.card.name: c for c in griffons.cards.select_related("card")}
    cards["Guerrier-mage"].spells.set(
        Spell.objects.filter(name__in=["Boule de feu", "Aura de lumière"])
    )
    cards["Fidèle"].miracles.set(Miracle.objects.filter(name="Bénédiction"))
    theirs = {c.card.name: c for c in wolfen.cards.select_related("card")}
    theirs["Magicien"].spells.set(Spell.objects.filter(name="Brume"))


def perform(game, side, command):
    game.refresh_from_db()
    services.perform_action(game, side, command)
    game.refresh_from_db()


def reserves(game) -> None:
    """HR-M1: the magicians' gems entered at the table."""
    perform(
        game,
        "a",
        {
            "type": "set_mystic",
            "fighter": GRIFFON_MAGE,
            "gems": {"fire": 3, "light": 1, "air": 1},
        },
    )
    perform(
        game,
        "b",
        {
            "type": "set_mystic",
            "fighter": WOLFEN_MAGICIAN,
            "gems": {"water": 2, "darkness": 1},
        },
    )


def until_active(game, fighter: str):
    """Draw and pass until ``fighter``'s card is being activated."""
    if game.state["phase"] == "strategic":
        game = to_activation(game)
    for _ in range(60):
        game.refresh_from_db()
        active = game.state["active"]
        if active and fighter in active["fighters"]:
            return game
        side = sorted(waiting_for(game.state))[0]
        if active:
            perform(game, side, {"type": "end_activation"})
        else:
            perform(game, side, {"type": "draw", "action": "draw"})
    raise AssertionError(f"{fighter} never activated")


def to_upkeep(game):
    """Every card drawn and ended, no combat: the upkeep's checklist."""
    for _ in range(80):
        game.refresh_from_db()
        if game.state["phase"] != "activation":
            break
        side = sorted(waiting_for(game.state))[0]
        if game.state["pending"]:
            raise AssertionError(game.state["pending"])
        if game.state["active"]:
            perform(game, side, {"type": "end_activation"})
        else:
            perform(game, side, {"type": "draw", "action": "draw"})
    return game
