"""Armies of 30 cards a side (the size the page-weight budgets are set for)."""

from __future__ import annotations

from battles.models.armies import Army, ArmyCard, Owner
from battles.models.games import Game
from tests.support.live import demo_armies

CARDS_A_SIDE = 30


def thirty_card_army(model: Army, name: str, owner: Owner) -> Army:
    """A copy of ``model`` with 30 cards, cycling through its cards (2 each)."""
    army = Army.objects.create(
        name=name,
        people=model.people,
        points_limit=10000,
        owner_id=owner.user_id,
        guest_key=owner.guest_key or "",
    )
    ordered = model.cards.order_by("position", "id")
    cards = list(ordered.values_list("card_id", flat=True))
    ArmyCard.objects.bulk_create(
        ArmyCard(army=army, card_id=cards[i % len(cards)], fighters=2, position=i)
        for i in range(CARDS_A_SIDE)
    )
    return army


def big_game(owner: Owner, **options) -> Game:
    """A game of two 30-card armies, side A held by ``owner``."""
    from battles.services.games import create_game

    first, second = demo_armies()
    army_a = thirty_card_army(first, "Trente cartes A", owner)
    army_b = thirty_card_army(second, "Trente cartes B", owner)
    return create_game(owner=owner, army_a=army_a, army_b=army_b, **options)
