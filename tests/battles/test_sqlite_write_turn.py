"""SQLite writers of one process queue on a lock, not on SQLite's busy
handler (``confrontation_site.backends.sqlite3``, issue 33).

Each second writer here has SQLite's own busy timeout set to 0: had it met
the write lock inside SQLite, its ``BEGIN IMMEDIATE`` would fail at once
with "database is locked". It succeeds: it waited for the process's turn.
"""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from battles.models.once import FormSubmission
from confrontation_site.backends.sqlite3 import base as backend

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's writers only"),
]


class WatchedTurn:
    """A write turn that says when a writer has to wait for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting = threading.Event()

    def acquire(self, timeout: float = -1) -> bool:
        if self.lock.acquire(blocking=False):
            return True
        self.waiting.set()
        return self.lock.acquire(timeout=timeout)

    def release(self) -> None:
        self.lock.release()

    def locked(self) -> bool:
        return self.lock.locked()


@pytest.fixture
def turn(monkeypatch) -> WatchedTurn:
    watched = WatchedTurn()
    name = str(connection.settings_dict["NAME"])
    monkeypatch.setitem(backend._turns, name, watched)
    return watched


def _no_busy_wait() -> None:
    """This thread's connection: SQLite's own busy handler off."""
    connection.ensure_connection()
    connection.connection.execute("PRAGMA busy_timeout=0")


def _write(key: str) -> None:
    FormSubmission.objects.create(key=key, kind="test")


def _writer(key: str, outcome: dict) -> None:
    try:
        _no_busy_wait()
        with transaction.atomic():
            _write(key)
        outcome["done"] = True
    except Exception as error:  # reported to the test's thread
        outcome["error"] = error
    finally:
        connections.close_all()


def _in_thread(key: str) -> tuple[threading.Thread, dict]:
    outcome: dict = {}
    thread = threading.Thread(target=_writer, args=(key, outcome))
    thread.start()
    return thread, outcome


def test_a_second_writer_waits_for_the_first_to_commit_then_writes(turn):
    with transaction.atomic():
        _write("first")
        thread, outcome = _in_thread("second")
        assert turn.waiting.wait(10), "the second writer never waited"
        assert not thread.join(0) and "done" not in outcome
    thread.join(10)
    assert outcome == {"done": True}
    assert set(FormSubmission.objects.values_list("key", flat=True)) == {
        "first",
        "second",
    }
    assert not turn.locked()


def test_a_rolled_back_transaction_gives_the_turn_back(turn):
    with pytest.raises(RuntimeError), transaction.atomic():
        _write("undone")
        assert turn.locked()
        raise RuntimeError("the action failed half-way")
    assert not turn.locked()
    thread, outcome = _in_thread("after")
    thread.join(10)
    assert outcome == {"done": True}
    assert list(FormSubmission.objects.values_list("key", flat=True)) == ["after"]


def test_a_connection_closed_mid_transaction_gives_the_turn_back(turn):
    connection.ensure_connection()
    connection.set_autocommit(
        False, force_begin_transaction_with_broken_autocommit=True
    )
    _write("lost")
    assert turn.locked()
    connection.close()  # never committed
    assert not turn.locked()
    thread, outcome = _in_thread("after")
    thread.join(10)
    assert outcome == {"done": True}
    assert list(FormSubmission.objects.values_list("key", flat=True)) == ["after"]


def test_a_writer_kept_waiting_past_the_timeout_is_told_and_writes_nothing(
    turn, monkeypatch
):
    outcome: dict = {}

    def impatient() -> None:
        monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.05)
        _writer("too late", outcome)

    with transaction.atomic():
        _write("holder")
        thread = threading.Thread(target=impatient)
        thread.start()
        thread.join(10)
    assert isinstance(outcome.get("error"), OperationalError)
    assert "database is locked" in str(outcome["error"])
    assert list(FormSubmission.objects.values_list("key", flat=True)) == ["holder"]
    assert not turn.locked()


def test_a_second_begin_on_the_same_connection_fails_at_once_and_keeps_the_turn(turn):
    with transaction.atomic():
        _write("kept")
        with pytest.raises(OperationalError, match="within a transaction"):
            connection._start_transaction_under_autocommit()
        assert turn.locked() and not turn.waiting.is_set()
    assert not turn.locked()
    assert list(FormSubmission.objects.values_list("key", flat=True)) == ["kept"]
