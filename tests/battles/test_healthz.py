"""``/healthz`` proves a write (issue 30): a counter in a table of its own
moves on with every check, on SQLite and PostgreSQL; a full or read-only disk
answers 503, and "ok" comes back once the database can write again.

Before: its probe rewrote a value as it was, which SQLite does not write at
all: 23 of 23 "ok" on a full disk while every tap got 503.

Run on both: ``DATABASE_URL=postgres://... pytest tests/battles/test_healthz.py``
(the full and read-only disk tests need SQLite, and root to mount a tmpfs).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from django.db import connection

from battles.models import HealthProbe


@pytest.mark.django_db
def test_each_check_writes_a_value_that_changes(client):
    seen = []
    for _ in range(3):
        answer = client.get("/healthz")
        assert answer.status_code == 200
        assert answer.json() == {"status": "ok", "database": "ok"}
        probe = HealthProbe.objects.get()
        seen.append((probe.count, probe.written))
    assert [count for count, _ in seen] == [1, 2, 3]
    assert seen[0][1] <= seen[1][1] <= seen[2][1]


@contextlib.contextmanager
def tmpfs(where: Path, megabytes: int):
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(where)],
        capture_output=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@contextlib.contextmanager
def database_at(path: Path):
    """The default connection on a copy of the (migrated) test database."""
    source = sqlite3.connect(connection.settings_dict["NAME"])
    copy = sqlite3.connect(path)
    source.backup(copy)
    copy.close()
    source.close()
    connection.close()
    name = connection.settings_dict["NAME"]
    connection.settings_dict["NAME"] = str(path)
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name


def fill(disk: Path) -> Path:
    """Write until the disk refuses. Unbuffered: a buffered file keeps the
    bytes a short write left over and raises ENOSPC again when it closes."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                os.fsync(out.fileno())
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler


def _status(client) -> tuple[int, str]:
    answer = client.get("/healthz")
    return answer.status_code, answer.json()["database"]


sqlite_only = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="a database file on a disk of the test's own: SQLite",
)


@sqlite_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("min_free", [1024 * 1024, 0])
def test_a_full_disk_answers_503_then_ok_once_space_is_freed(
    client, tmp_path, settings, min_free
):
    """Both ways a full disk is seen: the free space beside the file, and
    (with that check off) the probe's own write failing."""
    settings.HEALTHZ_MIN_FREE_BYTES = min_free
    with tmpfs(tmp_path / "disk", 12) as disk, database_at(disk / "db.sqlite3"):
        assert _status(client) == (200, "ok")
        filler = fill(disk)
        status, problem = _status(client)
        assert status == 503
        assert problem == ("disk full" if min_free else "not writable")
        filler.unlink()
        assert _status(client) == (200, "ok")


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_read_only_database_answers_503_then_ok_once_writable(client, tmp_path):
    with tmpfs(tmp_path / "disk", 12) as disk, database_at(disk / "db.sqlite3"):
        assert _status(client) == (200, "ok")
        connection.close()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        status, _problem = _status(client)
        assert status == 503
        connection.close()
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        assert _status(client) == (200, "ok")
