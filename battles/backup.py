"""Backup and restore of the whole database (``manage.py backup`` / ``restore``).

Two formats, chosen by the database in use:

- **SQLite** (the embedded default): a copy of the database file made with
  SQLite's online backup API, consistent and safe while the server runs. It
  is itself a SQLite database. Restoring copies it back the same way, then
  runs the migrations the copy may lack.
- **PostgreSQL** (or ``--format json`` anywhere): every row of every table
  Django knows, read in one repeatable-read transaction, written as JSON with
  Django's serializers (pure Python: no ``pg_dump`` needed on the machine).
  Restoring empties those tables and loads the rows in one transaction, with
  the same primary keys, then resets the sequences.

Both cover every model of every installed app, found at run time (armies,
games, accounts, sessions, whatever a later app adds), never a hand-kept list.
A backup records the migrations applied; a backup made by a newer version of
the app is refused rather than half-loaded.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import sqlite3
import tempfile
import uuid
from pathlib import Path

from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.recorder import MigrationRecorder

FORMAT = "confrontation-backup"
VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"


class BackupError(Exception):
    """A backup or a restore refused, with a message for the operator."""


def _connection(using: str):
    connection = connections[using]
    connection.ensure_connection()
    return connection


def backup(
    path: str | os.PathLike, *, using: str = DEFAULT_DB_ALIAS, fmt: str = ""
) -> str:
    """Write a backup of the database ``using`` to ``path``; the format used."""
    connection = _connection(using)
    fmt = fmt or ("sqlite" if connection.vendor == "sqlite" else "json")
    if fmt == "sqlite" and connection.vendor != "sqlite":
        raise BackupError(
            "An SQLite backup needs an SQLite database; use --format json."
        )
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Write beside the target, then rename: a failed backup leaves no half file.
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".backup-")
    os.close(handle)
    try:
        if fmt == "sqlite":
            _sqlite_backup(connection, temporary)
        elif fmt == "json":
            _json_backup(connection, temporary)
        else:
            raise BackupError(f"Unknown backup format {fmt!r}: sqlite or json.")
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return fmt


def restore(path: str | os.PathLike, *, using: str = DEFAULT_DB_ALIAS) -> str:
    """Replace the contents of the database ``using`` with the backup at ``path``."""
    source = Path(path)
    if not source.is_file():
        raise BackupError(f"No backup at {source}.")
    with source.open("rb") as file:
        magic = file.read(len(SQLITE_MAGIC))
    connection = _connection(using)
    if magic == SQLITE_MAGIC:
        if connection.vendor != "sqlite":
            raise BackupError(
                "This is an SQLite backup; restore it on SQLite, or make a JSON "
                "backup (manage.py backup --format json) to move databases."
            )
        _sqlite_restore(connection, source, using)
        return "sqlite"
    _json_restore(connection, source)
    return "json"


# --- what the code knows ----------------------------------------------------------


def _known_migrations(connection) -> set[tuple[str, str]]:
    from django.db.migrations.loader import MigrationLoader

    return set(MigrationLoader(connection, ignore_no_migrations=True).disk_migrations)


def _applied_migrations(connection) -> set[tuple[str, str]]:
    return set(MigrationRecorder(connection).applied_migrations())


def _refuse_newer(backup_migrations: set[tuple[str, str]], connection) -> None:
    unknown = backup_migrations - _known_migrations(connection)
    if unknown:
        names = ", ".join(f"{app}.{name}" for app, name in sorted(unknown)[:5])
        raise BackupError(
            f"This backup was made by a newer version of the app ({names}); "
            "update the app first."
        )


def backed_up_models():
    """Every concrete model with a table, of every installed app."""
    return [
        model
        for model in apps.get_models()
        if model._meta.managed and not model._meta.proxy
    ]


# --- SQLite: the online backup API ------------------------------------------------


def _sqlite_backup(connection, temporary: str) -> None:
    destination = sqlite3.connect(temporary)
    try:
        connection.connection.backup(destination)
    finally:
        destination.close()


def _sqlite_restore(connection, source: Path, using: str) -> None:
    origin = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        try:
            rows = origin.execute("SELECT app, name FROM django_migrations").fetchall()
        except sqlite3.DatabaseError as error:
            raise BackupError(
                f"{source} is not a backup of this app ({error})."
            ) from None
        _refuse_newer({tuple(row) for row in rows}, connection)
        origin.backup(connection.connection)
    finally:
        origin.close()
    # The copy may be older than the code: bring its tables up to date.
    call_command("migrate", database=using, interactive=False, verbosity=0)


# --- JSON: every row through Django's serializers ---------------------------------


def _json_backup(connection, temporary: str) -> None:
    with transaction.atomic(using=connection.alias):
        if connection.vendor == "postgresql":
            # One snapshot of every table, while the server keeps writing.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        migrations = sorted(_applied_migrations(connection))
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(json.dumps({"format": FORMAT, "version": VERSION})[:-1])
            out.write(', "migrations": ' + json.dumps(migrations))
            out.write(', "rows": {')
            for index, model in enumerate(backed_up_models()):
                rows = model._base_manager.using(connection.alias).order_by("pk")
                label = model._meta.label_lower
                out.write(("," if index else "") + f"\n{json.dumps(label)}: ")
                python_rows = serializers.serialize("python", rows.iterator())
                json.dump(python_rows, out, default=_exact, ensure_ascii=False)
            out.write("\n}}\n")


def _exact(value):
    """JSON for what the serializer leaves as Python objects, losing nothing
    (``DjangoJSONEncoder`` would round datetimes to the millisecond)."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID | datetime.timedelta):
        return str(value)  # each field's to_python reads these back exactly
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    raise TypeError(f"cannot back up a {type(value).__name__}")


def _json_restore(connection, source: Path) -> None:
    try:
        with source.open(encoding="utf-8") as file:
            data = json.load(file)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BackupError(f"{source} is not a backup of this app ({error}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{source} is not a backup of this app.")
    if data.get("version") != VERSION:
        raise BackupError(f"Unknown backup version {data.get('version')!r}.")
    wanted = {tuple(item) for item in data["migrations"]}
    _refuse_newer(wanted, connection)
    missing = wanted - _applied_migrations(connection)
    if missing or _applied_migrations(connection) - wanted:
        raise BackupError(
            "The database's migrations differ from the backup's: run "
            "manage.py migrate to the same version first."
        )
    models = backed_up_models()
    tables = connection.introspection.django_table_names(
        only_existing=True, include_views=False
    )
    with transaction.atomic(using=connection.alias):
        flush = connection.ops.sql_flush(
            no_style(), tables, reset_sequences=True, allow_cascade=True
        )
        connection.ops.execute_sql_flush(flush)
        with connection.constraint_checks_disabled():
            for rows in data["rows"].values():
                for item in serializers.deserialize(
                    "python",
                    rows,
                    using=connection.alias,
                    handle_forward_references=True,
                ):
                    item.save(using=connection.alias)
        connection.check_constraints(table_names=tables)
        reset = connection.ops.sequence_reset_sql(no_style(), models)
        if reset:
            with connection.cursor() as cursor:
                for statement in reset:
                    cursor.execute(statement)


__all__ = ["BackupError", "backed_up_models", "backup", "restore"]
