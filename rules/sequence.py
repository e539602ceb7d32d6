"""Building the activation sequences of the strategic phase (IV-A-1).

Each player stacks face down all of their reference cards, in the order they
choose: that pile is the activation sequence. A card whose fighters were all
eliminated in earlier turns is no longer included (Remarque). A player may
look at their own sequence at any time but may not change it once the Tactics
roll is made (IV-A-2).

Cards are any hashable values (ids or names); the first is the top card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Sequence

from rules.errors import IllegalAction, _

__all__ = ["cards_in_play", "ensure_sequence_open", "validate_sequence"]


def cards_in_play(
    reference_cards: Sequence[Hashable], eliminated: Collection[Hashable] = ()
) -> list[Hashable]:
    """The cards that must be in this turn's sequence (IV-A-1, Remarque).

    ``eliminated`` are the cards whose fighters were all eliminated in earlier
    turns; they drop out. A card whose fighters fall during this turn's
    activation phase stays in the sequence and is played (IV-B-1, Remarque 2):
    that is the draw's business, not this function's.
    """
    gone = set(eliminated)
    return [card for card in reference_cards if card not in gone]


def validate_sequence(
    order: Sequence[Hashable],
    reference_cards: Sequence[Hashable],
    eliminated: Collection[Hashable] = (),
) -> list[Hashable]:
    """Check a player's activation sequence and return it, top card first (IV-A-1).

    It must hold every reference card still in play exactly once, in any
    order, and no other card. Raises ``IllegalAction`` with the first problem
    found.
    """
    expected = cards_in_play(reference_cards, eliminated)
    known = set(reference_cards)
    gone = set(eliminated)
    counts = Counter(order)
    for card in order:
        if card not in known:
            raise IllegalAction(
                _("{card} is not one of your reference cards."), card=card
            )
        if card in gone:
            raise IllegalAction(
                _(
                    "Every fighter of {card} was eliminated in an earlier turn: "
                    "the card leaves the activation sequence (IV-A-1)."
                ),
                card=card,
            )
        if counts[card] > 1:
            raise IllegalAction(
                _("{card} appears more than once in the sequence."), card=card
            )
    for card in expected:
        if card not in counts:
            raise IllegalAction(
                _(
                    "{card} is missing: the sequence holds all your reference "
                    "cards (IV-A-1)."
                ),
                card=card,
            )
    return list(order)


def ensure_sequence_open(tactics_rolled: bool) -> None:
    """Raise ``IllegalAction`` if the sequence is locked by the Tactics roll (IV-A-1).

    "[Le joueur] ne peut en aucun cas la modifier une fois le jet de tactique
    effectué."
    """
    if tactics_rolled:
        raise IllegalAction(
            _("Your activation sequence cannot change once the Tactics roll is made.")
        )
