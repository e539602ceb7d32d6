"""The health check's probe (issue 30): the database answers and takes a
write, proved by a value that changes in a table of its own.

A value rewritten as it was proves nothing: SQLite does not write it at all,
and a full disk answered "ok" while every action failed. The probe moves a
counter on and stamps the time, in one committed transaction; on SQLite it
also looks at the free space beside the database file (a write-ahead log
with room left can take the probe's page while an action needing more is
refused).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from battles.models.health import HealthProbe

PROBE_ID = 1


def _free_bytes_beside_sqlite() -> int | None:
    """Free bytes on the SQLite file's disk; None for another database."""
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    try:
        stats = os.statvfs(Path(name).parent)
    except OSError:
        return 0
    return stats.f_bavail * stats.f_frsize


def database_problem() -> str | None:
    """None when the database answers and takes a write; else what is wrong:
    "unreachable", "disk full" or "not writable"."""
    try:
        with connection.cursor() as cursor:
            # A table of the app's: an SQLite file that went away leaves an
            # empty database that answers, and serves nothing.
            cursor.execute("SELECT 1 FROM django_migrations LIMIT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unreachable"
    free = _free_bytes_beside_sqlite()
    if free is not None and free < settings.HEALTHZ_MIN_FREE_BYTES:
        return "disk full"
    try:
        with transaction.atomic():
            moved = HealthProbe.objects.filter(pk=PROBE_ID).update(
                count=F("count") + 1, written=timezone.now()
            )
            if not moved:
                try:
                    with transaction.atomic():
                        HealthProbe.objects.create(
                            pk=PROBE_ID, count=1, written=timezone.now()
                        )
                except IntegrityError:  # another check created it at once
                    pass
    except DatabaseError:
        return "not writable"
    return None


__all__ = ["database_problem"]
