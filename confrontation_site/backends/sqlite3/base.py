"""Django's SQLite backend, with writers queued in the process (issue 33).

A write transaction begins with ``BEGIN IMMEDIATE`` (settings: two phones'
actions never fail half-way). When another connection holds the write lock,
SQLite's busy handler sleeps and polls again, in growing steps (1, 2, 5, 10,
15, 20, 25 ... 100 ms): a waiting writer wakes up to 100 ms after the lock
came free, and a writer that came later may take it first. At 40 tables on
one process, 1 ``BEGIN`` in 8 waited over 10 ms, the slowest 638 ms.

So each process queues its own writers on a lock per database file, taken
before ``BEGIN`` and given back when the transaction ends (commit, rollback,
or the connection closed): the next writer starts as soon as the last one
ends. Writers of another process (a management command, a second server
process) still meet SQLite's own lock and its busy timeout.
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_turns: dict[str, threading.Lock] = {}
_turns_guard = threading.Lock()
DEFAULT_WAIT_SECONDS = 5.0  # Python's sqlite3 default timeout


def write_turn(name: str) -> threading.Lock:
    """The lock this process's writers to the database file ``name`` queue on."""
    with _turns_guard:
        return _turns.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _turn: threading.Lock | None = None

    def _start_transaction_under_autocommit(self) -> None:
        if self._turn is not None:  # already in one: SQLite says so at once
            super()._start_transaction_under_autocommit()
            return
        turn = write_turn(str(self.settings_dict["NAME"]))
        options = self.settings_dict.get("OPTIONS", {})
        # As long as SQLite itself would wait for the lock (the "timeout").
        if not turn.acquire(timeout=options.get("timeout", DEFAULT_WAIT_SECONDS)):
            raise OperationalError("database is locked")
        self._turn = turn
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._give_turn()
            raise

    def _give_turn(self) -> None:
        turn, self._turn = self._turn, None
        if turn is not None:
            turn.release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._give_turn()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._give_turn()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._give_turn()
