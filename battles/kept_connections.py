"""Database connections kept by a long-lived thread: a server's worker
threads (``confrontation_site.sync_views``) and the live streams' look thread
(``battles.live.stream``).

Opening one costs about 5 ms on PostgreSQL (a backend process starts) and
1.2–3 ms on SQLite (Django registers its functions and runs the pragmas:
measured), against an action of about 15 ms. A kept SQLite connection would
go on serving a file that was replaced or removed (a database put back from
elsewhere), so it is dropped when its file is no longer the one it opened.
"""

from __future__ import annotations

import os

# Told by the backend's vendor, not by its module's name (settings.py names a
# subclass of Django's SQLite backend).
KEPT_VENDORS = ("postgresql", "sqlite")


def in_memory(settings: dict) -> bool:
    """Whether ``settings`` name an in-memory SQLite database (never kept)."""
    name = str(settings.get("NAME") or "")
    return settings["ENGINE"].endswith("sqlite3") and (
        name in ("", ":memory:") or "mode=memory" in name
    )


def _file_identity(name: str) -> tuple[int, int] | None:
    try:
        found = os.stat(name)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def remember_file(sender, connection, **kwargs) -> None:
    """``connection_created``: note which file a SQLite connection opened."""
    if connection.vendor == "sqlite":
        connection.opened_file = _file_identity(str(connection.settings_dict["NAME"]))


def forget_replaced_files() -> None:
    """Close this thread's SQLite connections whose file is no longer the one
    they opened: the next query opens the file now at that name."""
    from django.db import connections

    for wrapper in connections.all(initialized_only=True):
        if wrapper.vendor != "sqlite" or wrapper.connection is None:
            continue
        name = str(wrapper.settings_dict["NAME"])
        if getattr(wrapper, "opened_file", None) != _file_identity(name):
            wrapper.close()
