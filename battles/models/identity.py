"""Identity: who is asking, a signed-in user or a guest known by a session key.

Armies, reference cards and game seats are all held this way: a row belongs
to a user (``owner``) or to a guest (``guest_key``), or to nobody (the shared
library). ``Owner`` is the one value that carries it from the request to the
services; ``battles.identity.requester`` builds it from a request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

__all__ = ["Owner"]


@dataclass(frozen=True)
class Owner:
    """Who is asking: a user, a guest (by the key in their session), or nobody.

    ``Owner()`` (no user, no key) owns nothing: its filters match no row, so
    it can never reach the shared library's rows as if it owned them.
    """

    user_id: int | None = None
    guest_key: str = ""
    # A guest's client address (``battles.ratelimit.client_ip``), for the
    # per-address limits on creation only; not part of who owns what.
    address: str = field(default="", compare=False, repr=False)

    @property
    def is_anyone(self) -> bool:
        return self.user_id is not None or bool(self.guest_key)

    def q(self, prefix: str = "") -> Q:
        """Rows owned by this owner (``prefix`` for a related lookup)."""
        if self.user_id is not None:
            return Q(**{f"{prefix}owner_id": self.user_id})
        if self.guest_key:
            return Q(**{f"{prefix}guest_key": self.guest_key})
        return Q(pk__in=[])

    def fields(self) -> dict:
        """The owner fields to set on a new row."""
        return {"owner_id": self.user_id, "guest_key": self.guest_key}
