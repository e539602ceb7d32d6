"""Limits on creation per guest and per account (issue 30).

A guest with no account made 320 games in 30 s. Each creating service
spends one unit of its kind's allowance (``settings.CREATION_LIMITS``: how
many per window, per guest or per account) inside its own transaction, on
the rate limiter's counters (``battles.ratelimit``: the database, or Redis).
A creation refused by the limit, or failing for any other reason, rolls its
unit back with everything else (on the database counter): only what was
made counts, and nothing is written for a refusal.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _lazy

from battles import ratelimit
from battles.models.identity import Owner

NOUNS = {
    "game": _lazy("games"),
    "army": _lazy("armies"),
    "custom card": _lazy("custom cards"),
    "club": _lazy("clubs"),
    "invitation": _lazy("invitations"),
}


def who(owner: Owner | None = None, user=None) -> str:
    """What a limit counts by: the account, else the guest's key."""
    if user is not None:
        return f"user:{user.pk}"
    if owner is not None and owner.user_id is not None:
        return f"user:{owner.user_id}"
    if owner is not None and owner.guest_key:
        return f"guest:{owner.guest_key}"
    return "nobody"


def spend(
    kind: str, by: str, *, error: type[Exception], owner: Owner | None = None
) -> None:
    """Count one ``kind`` made ``by`` someone; ``error`` (with a message that
    says the limit and when to try again) once the allowance is spent.

    For a guest ``owner`` with a known address, the address's allowance too
    (``settings.GUEST_ADDRESS_LIMITS``): dropping the cookie makes a new
    guest, not a new address."""
    _spend(kind, by, settings.CREATION_LIMITS, f"create-{kind}", error, _MESSAGE)
    if owner is not None and owner.user_id is None and owner.address:
        _spend(
            kind,
            f"address:{owner.address}",
            getattr(settings, "GUEST_ADDRESS_LIMITS", {}),
            f"create-{kind}-address",
            error,
            _ADDRESS_MESSAGE,
        )


_MESSAGE = _lazy(
    "This server lets each player make %(n)s %(things)s per %(period)s: "
    "try again in %(minutes)s minutes."
)
_ADDRESS_MESSAGE = _lazy(
    "This server lets guests at one address make %(n)s %(things)s per "
    "%(period)s: sign in, or try again in %(minutes)s minutes."
)


def _spend(kind, by, limits, scope, error, message) -> None:
    attempts, seconds = limits.get(kind, (0, 3600))
    if attempts <= 0:  # 0: no limit on this server
        return
    limit = ratelimit.Limit(scope, attempts=attempts, seconds=seconds)
    decision = ratelimit.hit(limit, by)
    if decision.allowed:
        return
    period = _lazy("day") if seconds >= 24 * 3600 else _lazy("hour")
    raise error(
        str(message)
        % {
            "n": attempts,
            "things": NOUNS[kind],
            "period": period,
            "minutes": decision.retry_minutes,
        }
    )


__all__ = ["NOUNS", "spend", "who"]
