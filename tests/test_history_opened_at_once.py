"""Two programs opening a new history at the very same moment (the table's first start
and a ``history import``), with SQLite's own locks: each opens it, neither is told that
the file is "a database of another program" or "locked"."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from einhorn_table.history import schema
from einhorn_table.history.paths import DATABASE
from einhorn_table.history.store import MatchStore


def _now() -> datetime:
    return datetime(2026, 11, 27, 15, 5, tzinfo=UTC)


def _connecting(before: str, meanwhile: Callable[[], None]) -> Callable[[str], Any]:
    """A connector whose connection runs ``meanwhile`` (the other program) the first
    time it is about to execute a statement beginning ``before``."""
    done: list[bool] = []

    class Hooked(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
            if sql.startswith(before) and not done:
                done.append(True)
                meanwhile()
            return super().execute(sql, *args)

    def connect(path: str) -> sqlite3.Connection:
        return sqlite3.connect(path, isolation_level=None, timeout=5.0,
                               check_same_thread=False, factory=Hooked)

    return connect


def test_a_history_made_by_another_program_between_two_looks_is_not_another_programs(
        tmp_path: Path) -> None:
    # The store looked at the file's application id (none yet), then, in a statement
    # of its own, at its version: the other program made the whole history in between,
    # and the store said "a database of another program ... Move it aside".
    path = tmp_path / DATABASE
    told: list[str] = []

    def the_other_makes_it() -> None:
        other = sqlite3.connect(path, isolation_level=None, timeout=0.2)
        try:
            schema.migrate(other)
            told.append("made in between")
        except sqlite3.OperationalError:  # (it waits for the store's look to end)
            told.append("waited")
        finally:
            other.close()

    store = MatchStore(tmp_path, now=_now,
                       connect=_connecting("PRAGMA user_version", the_other_makes_it))
    try:
        assert store.count() == 0
        assert schema.version(store._conn) == schema.LATEST
    finally:
        store.close()
    assert told  # (the other program did come in)
    with MatchStore(tmp_path, now=_now) as again:  # and its turn comes after
        assert again.count() == 0


def test_a_history_another_program_writes_while_it_is_switched_to_wal_is_opened(
        tmp_path: Path) -> None:
    # SQLite refuses the switch to WAL at once (no waiting) while another program
    # writes the file: "another program holds ... locked. Close other einhorn-table
    # commands", on the table's first start beside an import.
    path = tmp_path / DATABASE
    other = sqlite3.connect(path, isolation_level=None, timeout=5.0, check_same_thread=False)
    ended = threading.Event()

    def the_other_writes() -> None:
        other.execute("BEGIN IMMEDIATE")
        other.execute("CREATE TABLE IF NOT EXISTS scratch (x)")  # (a write under way)

        def end() -> None:
            other.execute("ROLLBACK")
            ended.set()
        threading.Timer(0.3, end).start()

    store = MatchStore(tmp_path, now=_now,
                       connect=_connecting("PRAGMA journal_mode = WAL", the_other_writes))
    try:
        assert ended.is_set()
        assert store.count() == 0
        assert str(store._conn.execute("PRAGMA journal_mode").fetchone()[0]) == "wal"
    finally:
        store.close()
        other.close()
