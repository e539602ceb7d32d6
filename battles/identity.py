"""Who is asking: a signed-in user, or a guest known by a key in their session.

Guests can build armies and play casual games without an account; the key
lives in their session, so it survives reloads. When the guest signs up or
signs in, ``battles.services.accounts.adopt_guest_data`` gives what that key
owns to the account and the key leaves the session.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest

from battles.models.identity import Owner

GUEST_SESSION_KEY = "guest_key"


def requester(request: HttpRequest, *, create: bool = False) -> Owner:
    """The requester as an ``Owner``; ``create`` gives a guest a key."""
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk)
    key = request.session.get(GUEST_SESSION_KEY, "")
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[GUEST_SESSION_KEY] = key
    return Owner(guest_key=key)
