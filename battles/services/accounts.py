"""Accounts: what a guest built follows them into their account.

Issue #6: "Players with accounts keep their games; guests hold their side
through their session." A guest is known by the ``guest_key`` in their
session (``battles.identity``). When that guest signs up or signs in, the
sign-in view calls ``adopt_guest_data`` right after the login: their armies,
their own reference cards and their seats in games become the account's, so
another phone signed in to the same account finds them too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from battles.models.armies import Army, ReferenceCard
from battles.models.games import GameSeat, SeatRole

PLAYING_ROLES = {SeatRole.SIDE_A.value, SeatRole.SIDE_B.value}


@dataclass(frozen=True)
class AdoptedGuestData:
    """What moved from the guest to the account."""

    armies: int = 0
    cards: int = 0
    seats: int = 0  # seats moved (a duplicate seat is dropped, not counted)
    # (name the guest gave, name in the account) for each name already taken.
    renamed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        return bool(self.armies or self.cards or self.seats)


def free_name(wanted: str, taken: set[str], max_length: int) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)``... the first not in ``taken``."""
    if wanted not in taken:
        return wanted
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = wanted[: max_length - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1


def adopt_guest_data(guest_key: str, user: AbstractBaseUser) -> AdoptedGuestData:
    """Give ``user`` everything the guest ``guest_key`` owns, in one transaction.

    - Custom reference cards and armies change owner. One whose name the
      account already uses (per people for cards, among living armies for
      armies) is renamed "name (2)", "(3)"...
    - Seats in games change holder. Where the account already holds that
      seat, or already plays a game the guest only watched, the guest's seat
      goes (one seat is enough); a guest's side replaces the account's
      spectator seat in that game. Two different sides stay two sides: a
      side always needs someone to play it.

    A guest key that owns nothing (or an empty one) changes nothing.
    """
    if not guest_key:
        return AdoptedGuestData()
    renamed: list[tuple[str, str]] = []
    with transaction.atomic():
        cards = _adopt_cards(guest_key, user, renamed)
        armies = _adopt_armies(guest_key, user, renamed)
        seats = _adopt_seats(guest_key, user)
    return AdoptedGuestData(armies=armies, cards=cards, seats=seats, renamed=renamed)


def _adopt_cards(guest_key: str, user, renamed: list[tuple[str, str]]) -> int:
    guest_cards = list(
        ReferenceCard.objects.select_for_update()
        .filter(guest_key=guest_key)
        .order_by("id")
    )
    if not guest_cards:
        return 0
    max_length = ReferenceCard._meta.get_field("name").max_length
    taken: dict[int, set[str]] = {}
    for people_id, name in ReferenceCard.objects.filter(owner=user).values_list(
        "people_id", "name"
    ):
        taken.setdefault(people_id, set()).add(name)
    for card in guest_cards:
        names = taken.setdefault(card.people_id, set())
        name = free_name(card.name, names, max_length)
        if name != card.name:
            renamed.append((card.name, name))
        names.add(name)
        card.name, card.owner, card.guest_key = name, user, ""
        card.save(update_fields=["name", "owner", "guest_key"])
    return len(guest_cards)


def _adopt_armies(guest_key: str, user, renamed: list[tuple[str, str]]) -> int:
    guest_armies = list(
        Army.objects.select_for_update().filter(guest_key=guest_key).order_by("id")
    )
    if not guest_armies:
        return 0
    max_length = Army._meta.get_field("name").max_length
    taken = set(Army.objects.alive().filter(owner=user).values_list("name", flat=True))
    for army in guest_armies:
        # Names are unique among living armies only; a deleted one keeps its
        # name and gets a free one if it is ever restored (undo_delete).
        if army.deleted_at is None:
            name = free_name(army.name, taken, max_length)
            if name != army.name:
                renamed.append((army.name, name))
            taken.add(name)
            army.name = name
        army.owner, army.guest_key = user, ""
        army.save(update_fields=["name", "owner", "guest_key", "updated"])
    return len(guest_armies)


def _adopt_seats(guest_key: str, user) -> int:
    guest_seats = list(
        GameSeat.objects.select_for_update().filter(guest_key=guest_key).order_by("id")
    )
    if not guest_seats:
        return 0
    game_ids = {seat.game_id for seat in guest_seats}
    held: dict[int, dict[str, GameSeat]] = {}
    for seat in GameSeat.objects.select_for_update().filter(
        user=user, game_id__in=game_ids
    ):
        held.setdefault(seat.game_id, {})[seat.role] = seat
    moved = 0
    for seat in guest_seats:
        roles = held.setdefault(seat.game_id, {})
        already_plays = bool(PLAYING_ROLES & roles.keys())
        if seat.role in roles or (seat.role == SeatRole.SPECTATOR and already_plays):
            seat.delete()
            continue
        if seat.role in PLAYING_ROLES and SeatRole.SPECTATOR in roles:
            roles.pop(SeatRole.SPECTATOR).delete()
        seat.user, seat.guest_key = user, ""
        seat.save(update_fields=["user", "guest_key"])
        roles[seat.role] = seat
        moved += 1
    return moved


__all__ = ["AdoptedGuestData", "adopt_guest_data", "free_name"]
