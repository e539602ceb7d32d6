"""The rate limiter's counters on the database (the embedded default).

DESIGN "Rate limits": django-ratelimit refuses local-memory and database
caches, so the embedded default (SQLite, one process, no Redis) counts in a
table of its own. One row per key and fixed window; ``battles.ratelimit``
increments it and purges expired rows now and then.
"""

from __future__ import annotations

from django.db import models


class RateLimitHit(models.Model):
    """How many attempts ``key`` made in the window starting at ``window_start``."""

    # A SHA-256 of the scope and what identifies the client (IP, username):
    # no address or name is stored in clear.
    key = models.CharField(max_length=64)
    window_start = models.DateTimeField()
    expires = models.DateTimeField(db_index=True)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["key", "window_start"], name="rate_limit_hit_one_per_window"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key[:8]}… {self.window_start:%Y-%m-%d %H:%M} ×{self.count}"
