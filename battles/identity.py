"""Who is asking: a signed-in user, or a guest known by a key in their session;
and what they see of a game (``Viewer``).

Guests can build armies and play casual games without an account; the key
lives in their session, so it survives reloads. When the guest signs up or
signs in, ``battles.services.accounts.adopt_guest_data`` gives what that key
owns to the account and the key leaves the session.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.http import HttpRequest

from battles.models.identity import Owner
from battles.ratelimit import client_ip

GUEST_SESSION_KEY = "guest_key"


def requester(request: HttpRequest, *, create: bool = False) -> Owner:
    """The requester as an ``Owner``; ``create`` gives a guest a key."""
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk)
    key = request.session.get(GUEST_SESSION_KEY, "")
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[GUEST_SESSION_KEY] = key
    return Owner(guest_key=key, address=client_ip(request))


SPECTATOR = "spectator"


@dataclass(frozen=True)
class Viewer:
    """The person looking at a game: the sides they hold, or a spectator; and,
    for a render shared by every phone of one viewpoint (the live push), the
    language it is rendered in."""

    roles: frozenset[str]
    language: str = ""

    @property
    def sides(self) -> list[str]:
        return sorted(role for role in self.roles if role in ("a", "b"))

    @property
    def is_player(self) -> bool:
        return bool(self.sides)

    @property
    def holds_both_sides(self) -> bool:
        return len(self.sides) == 2

    @property
    def side(self) -> str | None:
        """The one side this viewer holds (None: a spectator, or both)."""
        sides = self.sides
        return sides[0] if len(sides) == 1 else None

    def may_act_for(self, side: str) -> bool:
        return side in self.roles

    def watching(self, language: str) -> Viewer | None:
        """The viewpoint of this seat for a shared render, in ``language``:
        the spectators' (no private card) for every spectator; None for a
        phone holding both sides (what it shows depends on who holds it now,
        its session)."""
        return viewpoint(self.roles, language)


def viewpoint(roles: Iterable[str], language: str) -> Viewer | None:
    """The shared viewpoint of a seat's ``roles`` (see ``Viewer.watching``)."""
    roles = frozenset(roles)
    if {"a", "b"} <= roles or not roles:
        return None
    if not roles & {"a", "b"}:
        roles = frozenset({SPECTATOR})
    return Viewer(roles, language or "fr")
