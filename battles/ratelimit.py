"""Rate limits that work on the embedded default and on a club server.

DESIGN "Rate limits": django-ratelimit refuses local-memory and database
caches, and the embedded default has neither Redis nor several processes to
share one. So this is a small fixed-window counter of its own:

- on the database (``RateLimitHit``, one row per key and window), the
  default: SQLite in one process as well as PostgreSQL behind several workers;
- on Redis (``INCR`` then ``EXPIRE``) when ``REDIS_URL`` is set. Should Redis
  not answer, the database counts instead: a limit never fails open.

A key is the SHA-256 of the limit's scope and what identifies the client (its
address, a username): no address or name is stored in clear.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from battles.models.ratelimit import RateLimitHit

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most ``attempts`` in each window of ``seconds``, per key."""

    scope: str
    attempts: int
    seconds: int


# Sign-in attempts, per client address and username...
SIGN_IN = Limit("sign-in", attempts=10, seconds=5 * 60)
# ...and per client address across usernames (one address trying many names).
SIGN_IN_ADDRESS = Limit("sign-in-address", attempts=20, seconds=5 * 60)


def sign_up_limit() -> Limit:
    """New accounts per client address and hour: successful sign-ups only
    (``peek`` before, ``hit`` after), as many as ``SIGN_UP_LIMIT_PER_HOUR``
    (a club night behind one venue address needs more than a home does)."""
    return Limit("sign-up", settings.SIGN_UP_LIMIT_PER_HOUR, 60 * 60)


# Join-link lookups and claims (GET and POST /join/<token>), per client address.
JOIN = Limit("join", attempts=30, seconds=5 * 60)


@dataclass(frozen=True)
class Decision:
    """What the limiter says about one attempt."""

    allowed: bool
    count: int
    limit: Limit
    retry_after: int  # seconds until the window ends

    @property
    def retry_minutes(self) -> int:
        return max(1, math.ceil(self.retry_after / 60))


def clock() -> datetime:
    """Now; tests replace it (``monkeypatch.setattr(ratelimit, "clock", ...)``)."""
    return timezone.now()


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or the proxy's word for it.

    Only the site's own TLS proxy (``BEHIND_TLS_PROXY``, connecting from one
    of ``PROXY_ADDRESSES``) may name the client: then the address is the last
    entry of ``X-Forwarded-For``, the one that proxy appended. Earlier entries
    are whatever the client wrote in the header itself, and a header from any
    other connection is the client's own word: trusting either would give
    anyone a fresh allowance with every forged header. (uvicorn applies the
    same rule first: ``confrontation_site/serve.py``.)
    """
    remote = request.META.get("REMOTE_ADDR") or "unknown"
    if settings.BEHIND_TLS_PROXY and remote in settings.PROXY_ADDRESSES:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return remote


def window_start(limit: Limit, now: datetime) -> datetime:
    """The start of the fixed window ``now`` falls in (aligned on the epoch)."""
    seconds = int(now.timestamp())
    return datetime.fromtimestamp(seconds - seconds % limit.seconds, tz=UTC)


def key_for(limit: Limit, parts: tuple[str, ...]) -> str:
    text = "\x1f".join((limit.scope, *parts))
    return hashlib.sha256(text.encode()).hexdigest()


def _decision(limit: Limit, count: int, start: datetime, now: datetime) -> Decision:
    """``count`` in the window opened at ``start``, held against ``limit``."""
    ends = start + timedelta(seconds=limit.seconds)
    return Decision(
        allowed=count <= limit.attempts,
        count=count,
        limit=limit,
        retry_after=max(1, math.ceil((ends - now).total_seconds())),
    )


def hit(limit: Limit, *parts: str, now: datetime | None = None) -> Decision:
    """Count one attempt of ``parts`` (client address, username...) under ``limit``.

    Every attempt counts, the refused ones too; a refusal lasts until the
    window ends.
    """
    now = now or clock()
    start = window_start(limit, now)
    key = key_for(limit, parts)
    count = _count(key, start, limit, now)
    return _decision(limit, count, start, now)


def peek(limit: Limit, *parts: str, now: datetime | None = None) -> Decision:
    """Whether one more would be allowed, counting nothing (for limits that
    count successes only: ``peek`` first, ``hit`` once it succeeded)."""
    now = now or clock()
    start = window_start(limit, now)
    key = key_for(limit, parts)
    count = _current(key, start) + 1
    return _decision(limit, count, start, now)


def _current(key: str, start: datetime) -> int:
    if settings.REDIS_URL:
        try:
            name = f"confrontation:ratelimit:{key}:{int(start.timestamp())}"
            return int(_redis_client(settings.REDIS_URL).get(name) or 0)
        except Exception as error:  # redis.RedisError and socket errors alike
            logger.warning("rate limit: Redis failed (%s); the database counts", error)
    found = RateLimitHit.objects.filter(key=key, window_start=start).first()
    return found.count if found else 0


def _count(key: str, start: datetime, limit: Limit, now: datetime) -> int:
    if settings.REDIS_URL:
        try:
            return RedisCounter(settings.REDIS_URL).hit(key, start, limit)
        except Exception as error:  # redis.RedisError and socket errors alike
            logger.warning("rate limit: Redis failed (%s); the database counts", error)
    return DatabaseCounter().hit(key, start, limit, now)


class DatabaseCounter:
    """A row per key and window, incremented in one transaction."""

    def hit(self, key: str, start: datetime, limit: Limit, now: datetime) -> int:
        rows = RateLimitHit.objects.filter(key=key, window_start=start)
        with transaction.atomic():
            if not rows.update(count=F("count") + 1):
                try:
                    with transaction.atomic():
                        RateLimitHit.objects.create(
                            key=key,
                            window_start=start,
                            expires=start + timedelta(seconds=limit.seconds),
                            count=1,
                        )
                except IntegrityError:  # another request made it just now
                    rows.update(count=F("count") + 1)
                else:
                    # A new window: a good moment to forget the finished ones.
                    RateLimitHit.objects.filter(expires__lte=now).delete()
            return rows.values_list("count", flat=True).get()


class RedisCounter:
    """``INCR`` on a key per window, which expires with its window."""

    def __init__(self, url: str):
        self.client = _redis_client(url)

    def hit(self, key: str, start: datetime, limit: Limit) -> int:
        name = f"confrontation:ratelimit:{key}:{int(start.timestamp())}"
        pipe = self.client.pipeline(transaction=True)
        pipe.incr(name)
        pipe.expire(name, limit.seconds + 1)
        count, _expire_set = pipe.execute()
        return int(count)


@functools.lru_cache(maxsize=4)
def _redis_client(url: str):
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


__all__ = [
    "JOIN",
    "SIGN_IN",
    "SIGN_IN_ADDRESS",
    "Decision",
    "Limit",
    "client_ip",
    "hit",
    "peek",
    "sign_up_limit",
]
