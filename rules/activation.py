"""Drawing the activation sequences: reserve and refusals (IV-B-1).

Also the initiation rules' "Tirage des cartes" (seed 004), which is the same
procedure without reserve and refusals.

``DrawPhase`` is the state of one activation phase. The side that has the
floor ("la parole") does exactly one of: ``draw()`` the top card,
``reserve()`` it face down, ``play_reserve()`` (alone or with the top card) or
``refuse()``; then the floor passes. Every action returns the cards played
(empty for a reserve or a refusal), so the app can activate their fighters.

Choices where IV-B-1 is silent (each one is tested):

* A side may reserve its last card. Its pile is then empty, but it still has a
  card, so it keeps its turns of speech and plays the reserve at its next one
  (Remarque 1 counts the reserve as a card).
* A side with no card at all (neither pile nor reserve) never has the floor;
  the other side plays on alone (Remarque 1). So a side can never refuse
  without cards.
* A refusal gives the floor "directly back to the adversary". When the
  adversary has no card left there is nobody to give it to, and the refusal
  would just burn itself: it is refused as illegal rather than wasted by a
  mistaken tap.
* A card whose fighters were all eliminated is played like any other
  (Remarque 2): this engine does not know fighters, it just plays the card.
* The phase is finished when neither side has a card (pile or reserve);
  unused refusals are lost with the phase.

The state is serialisable (``to_dict``/``from_dict``, plain JSON types) and
every action can be replayed from an event log with ``apply``. Cards are any
JSON scalars (ids or names), never ``None``; they are never inspected,
only moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.errors import IllegalAction, Message, _

__all__ = ["SIDES", "DrawAction", "DrawPhase", "Play", "other_side"]

SIDES = ("a", "b")

SNAPSHOT_VERSION = 1


class DrawAction(StrEnum):
    """What a side may do when it has the floor (IV-B-1)."""

    DRAW = "draw"
    RESERVE = "reserve"
    PLAY_RESERVE = "play_reserve"
    PLAY_RESERVE_AND_TOP = "play_reserve_and_top"
    REFUSE = "refuse"


@dataclass(frozen=True)
class Play:
    """One turn of speech in the log: who, what, and the cards played (IV-B-1)."""

    side: str
    action: DrawAction
    cards: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form of this log entry."""
        return {
            "side": self.side,
            "action": str(self.action),
            "cards": list(self.cards),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Play:
        """Inverse of ``to_dict``."""
        side = _checked_side(data["side"])
        return cls(side, DrawAction(data["action"]), tuple(data["cards"]))


def other_side(side: str) -> str:
    """The adversary of ``side`` (``"a"`` <-> ``"b"``)."""
    return "b" if _checked_side(side) == "a" else "a"


def _checked_side(side: object) -> str:
    if side not in SIDES:
        raise ValueError(f"A side is 'a' or 'b', not {side!r}.")
    return side  # type: ignore[return-value]


class DrawPhase:
    """The activation draws of one turn (IV-B-1).

    ``sequences`` maps ``"a"`` and ``"b"`` to their activation sequence, top
    card first; ``first`` is the side the Tactics winner chose to speak first
    (IV-A-2). Refusals are counted now, at the start of the phase: the side
    with fewer cards gets the difference.

    Each action may be given ``side=``: when it is not the side that has the
    floor, ``IllegalAction`` says whose turn it is. An illegal action never
    changes the state.
    """

    def __init__(self, sequences: Mapping[str, Sequence[Any]], first: str):
        if set(sequences) != set(SIDES):
            raise ValueError("Activation sequences are given for sides 'a' and 'b'.")
        _checked_side(first)
        if any(card is None for s in SIDES for card in sequences[s]):
            # None means "no card" in ``reserved``: it cannot be a card.
            raise ValueError("A card cannot be None.")
        self._piles: dict[str, list[Any]] = {s: list(sequences[s]) for s in SIDES}
        sizes = {s: len(self._piles[s]) for s in SIDES}
        # IV-B-1 "Refus": compared once, at the start of the phase.
        self._refusals = {s: max(0, sizes[other_side(s)] - sizes[s]) for s in SIDES}
        self._reserved: dict[str, Any] = {s: None for s in SIDES}
        # A card may be reserved once per phase: playing it does not reopen it.
        self._has_reserved = {s: False for s in SIDES}
        self._first = first
        self._played: list[Play] = []
        self._speaker: str | None = self._next_speaker(after=other_side(first))

    # -- state ---------------------------------------------------------------

    @property
    def speaker(self) -> str | None:
        """The side that has the floor; ``None`` once the phase is finished."""
        return self._speaker

    @property
    def first(self) -> str:
        """The side that was chosen to speak first (IV-A-2)."""
        return self._first

    @property
    def refusals(self) -> dict[str, int]:
        """Refusals left to each side (IV-B-1 "Refus")."""
        return dict(self._refusals)

    @property
    def reserved(self) -> dict[str, Any]:
        """Each side's card in reserve, or ``None`` (IV-B-1)."""
        return dict(self._reserved)

    @property
    def has_reserved(self) -> dict[str, bool]:
        """Whether each side already used its one reserve of the phase."""
        return dict(self._has_reserved)

    @property
    def remaining(self) -> dict[str, list[Any]]:
        """The cards left in each pile, top card first (the reserve excluded).

        Only the owner may look at its own order (IV-A-1); the app shows the
        adversary the count alone.
        """
        return {s: list(self._piles[s]) for s in SIDES}

    @property
    def finished(self) -> bool:
        """True when neither side has a card left, in pile or in reserve."""
        return self._speaker is None

    @property
    def played(self) -> list[Play]:
        """Every turn of speech so far, in order."""
        return list(self._played)

    def has_cards(self, side: str) -> bool:
        """Whether ``side`` still has a card, in its pile or in reserve."""
        return bool(self._piles[side]) or self._reserved[side] is not None

    def legal_actions(self) -> list[DrawAction]:
        """What the side with the floor may do now, in the order of IV-B-1."""
        if self._speaker is None:
            return []
        return [a for a in DrawAction if self._why_illegal(a, self._speaker) is None]

    # -- actions -------------------------------------------------------------

    def draw(self, *, side: str | None = None) -> list[Any]:
        """Reveal and play the top card of the pile (IV-B-1)."""
        return self._act(DrawAction.DRAW, side)

    def reserve(self, *, side: str | None = None) -> list[Any]:
        """Put the top card face down in reserve, once per phase (IV-B-1).

        Returns ``[]``: no card is played.
        """
        return self._act(DrawAction.RESERVE, side)

    def play_reserve(
        self, with_top: bool = False, *, side: str | None = None
    ) -> list[Any]:
        """Play the reserved card instead of the top card, or with it (IV-B-1).

        With ``with_top`` the reserve is played first, then the top card.
        """
        action = (
            DrawAction.PLAY_RESERVE_AND_TOP if with_top else DrawAction.PLAY_RESERVE
        )
        return self._act(action, side)

    def refuse(self, *, side: str | None = None) -> list[Any]:
        """Use a refusal: play no card and give the floor back (IV-B-1 "Refus")."""
        return self._act(DrawAction.REFUSE, side)

    def apply(self, action: str | DrawAction, *, side: str | None = None) -> list[Any]:
        """Do ``action`` by its name, as stored in the game's event log."""
        try:
            action = DrawAction(action)
        except ValueError:
            raise IllegalAction(
                _("Unknown activation action {action}."), action=repr(action)
            ) from None
        return self._act(action, side)

    # -- mechanics -----------------------------------------------------------

    def _why_illegal(self, action: DrawAction, side: str) -> Message | None:
        pile, reserved = self._piles[side], self._reserved[side]
        if action is DrawAction.DRAW:
            if not pile:
                return Message(_("Your pile is empty: play your card in reserve."))
        elif action is DrawAction.RESERVE:
            if self._has_reserved[side]:
                return Message(_("You already put a card in reserve this phase."))
            if not pile:
                return Message(
                    _("Your pile is empty: there is no card to put in reserve.")
                )
        elif action is DrawAction.PLAY_RESERVE:
            if reserved is None:
                return Message(_("You have no card in reserve."))
        elif action is DrawAction.PLAY_RESERVE_AND_TOP:
            if reserved is None:
                return Message(_("You have no card in reserve."))
            if not pile:
                return Message(
                    _("Your pile is empty: play your card in reserve alone.")
                )
        elif action is DrawAction.REFUSE:
            if self._refusals[side] <= 0:
                return Message(_("No refusal left."))
            if not self.has_cards(other_side(side)):
                return Message(
                    _(
                        "Your opponent has no card left: a refusal would only give "
                        "you the floor back."
                    )
                )
        return None

    def _act(self, action: DrawAction, side: str | None) -> list[Any]:
        if self._speaker is None:
            raise IllegalAction(
                _("The activation phase is over: every card was played.")
            )
        if side is not None and side != self._speaker:
            if side not in SIDES:
                raise IllegalAction(_("There is no side {side}."), side=repr(side))
            raise IllegalAction(
                _("It is side {side}'s turn."), side=self._speaker.upper()
            )

        speaker = self._speaker
        reason = self._why_illegal(action, speaker)
        if reason is not None:
            raise IllegalAction(reason)

        # Legal: from here on the state changes.
        pile = self._piles[speaker]
        cards: list[Any] = []
        if action is DrawAction.DRAW:
            cards = [pile.pop(0)]
        elif action is DrawAction.RESERVE:
            self._reserved[speaker] = pile.pop(0)
            self._has_reserved[speaker] = True
        elif action in (DrawAction.PLAY_RESERVE, DrawAction.PLAY_RESERVE_AND_TOP):
            cards = [self._reserved[speaker]]
            self._reserved[speaker] = None
            if action is DrawAction.PLAY_RESERVE_AND_TOP:
                cards.append(pile.pop(0))
        else:
            self._refusals[speaker] -= 1
        self._played.append(Play(speaker, action, tuple(cards)))
        self._speaker = self._next_speaker(after=speaker)
        return cards

    def _next_speaker(self, *, after: str) -> str | None:
        # The floor passes to the adversary; a side with no card at all is
        # skipped and the other plays on alone (Remarque 1).
        for side in (other_side(after), after):
            if self.has_cards(side):
                return side
        return None

    # -- snapshot ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON types; ``from_dict`` gives it back."""
        return {
            "version": SNAPSHOT_VERSION,
            "first": self._first,
            "speaker": self._speaker,
            "piles": {s: list(self._piles[s]) for s in SIDES},
            "reserved": dict(self._reserved),
            "has_reserved": dict(self._has_reserved),
            "refusals": dict(self._refusals),
            "played": [play.to_dict() for play in self._played],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DrawPhase:
        """Rebuild a phase from ``to_dict`` output (the game's JSON snapshot).

        Raises ``ValueError`` when the snapshot is not one this version wrote
        or does not hold together (e.g. a speaker without cards).
        """
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError("Unknown activation snapshot version.")
        phase = cls.__new__(cls)
        phase._first = _checked_side(data["first"])
        phase._piles = {s: list(data["piles"][s]) for s in SIDES}
        phase._reserved = {s: data["reserved"][s] for s in SIDES}
        phase._has_reserved = {s: bool(data["has_reserved"][s]) for s in SIDES}
        phase._refusals = {s: int(data["refusals"][s]) for s in SIDES}
        phase._played = [Play.from_dict(p) for p in data["played"]]
        speaker = data["speaker"]
        phase._speaker = None if speaker is None else _checked_side(speaker)
        if any(n < 0 for n in phase._refusals.values()):
            raise ValueError("Refusals cannot be negative.")
        for s in SIDES:
            if phase._reserved[s] is not None and not phase._has_reserved[s]:
                raise ValueError("A card is in reserve but no reserve was made.")
        if phase._speaker is None:
            if any(phase.has_cards(s) for s in SIDES):
                raise ValueError("The phase cannot be over while cards remain.")
        elif not phase.has_cards(phase._speaker):
            raise ValueError("The side with the floor has no card.")
        return phase

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DrawPhase):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable state

    def __repr__(self) -> str:
        return (
            f"DrawPhase(speaker={self._speaker!r}, remaining="
            f"{ {s: len(p) for s, p in self._piles.items()} }, "
            f"reserved={self._reserved!r}, refusals={self._refusals!r})"
        )
