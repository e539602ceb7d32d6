"""The cast of the tests: the guests who own, play, watch or pry, and their phones.

A guest is known by the key their session holds (``Owner.guest_key``).
``phone_of`` gives a test client (or an ``AsyncClient``) that guest's session:
the one way the tests sign a phone in as a guest. The fixtures built on them
are in ``tests/conftest.py`` and ``tests/battles/conftest.py``.
"""

from __future__ import annotations

from typing import TypeVar

from django.test import AsyncClient, Client

from battles.models.armies import Owner

OWNER = Owner(guest_key="guest-key-of-the-owner")
OPPONENT = Owner(guest_key="guest-key-of-the-opponent")
SPECTATOR = Owner(guest_key="guest-key-of-a-spectator")
OUTSIDER = Owner(guest_key="guest-key-of-an-outsider")

# The password of the registered players the account tests sign up and in.
PASSWORD = "dragon-de-braise-42"

AnyClient = TypeVar("AnyClient", Client, AsyncClient)


def phone_of(who: Owner | str, client: AnyClient | None = None) -> AnyClient:
    """``client`` (a new ``Client`` if none) as the phone of the guest ``who``
    (an ``Owner`` or a guest key): its session now holds that guest key."""
    phone = Client() if client is None else client
    session = phone.session
    session["guest_key"] = who if isinstance(who, str) else who.guest_key
    session.save()
    return phone
