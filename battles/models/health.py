"""The health check's own row (issue 30): ``/healthz`` proves a write.

``/healthz`` moves ``count`` on and stamps ``written`` in one committed
transaction: a value that changes, so the database has to write it (a value
rewritten as it was is not written at all by SQLite, and a full disk went
unnoticed).
"""

from __future__ import annotations

from django.db import models


class HealthProbe(models.Model):
    """One row: how many health checks wrote, and when the last one did."""

    count = models.BigIntegerField(default=0)
    written = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"health probe #{self.count} at {self.written}"
