"""Why the match could not be saved travels as a value (the recorder's SaveKind, from the
history's error class), not as words to be read again: the red banner says "the SD card
is full" or "is read-only" whatever the history's message says, and still says it for
every later throw, which the history refuses quoting the first failure."""

from __future__ import annotations

import pickle
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from history_helpers import open_store
from table_helpers import BLUE, RED, MemoryRecorder, reading

from einhorn_table.adapters.history_log import HistoryRecorder, recorder_error, save_kind
from einhorn_table.history import (
    HistoryError,
    StoreFull,
    StoreReadOnly,
    StoreRefusing,
    TableLog,
)
from einhorn_table.history.store import connect_file
from einhorn_table.rules import EINHORN, Input, Match, Setup, StartRoll
from einhorn_table.screen.view_model import build_view
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import MotionStarted, Settled
from einhorn_table.table.recorder import Halt, RecorderError, SaveKind

SETUP = Setup.for_variant(EINHORN, ["Ana", "Ben"])
SEATS = [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")]
FULL_BANNER = "Match not saved: the SD card is full."
READ_ONLY_BANNER = "Match not saved: the SD card is read-only."


def throw(c: TableController, t: float) -> None:
    """The player to roll throws 2 3 4 and the tray settles."""
    roller = c.roller()
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading([2, 3, 4], (RED, BLUE)[roller or 0])))


def throw_until_halted(c: TableController, t: float = 0.0) -> float:
    for _ in range(300):
        if c.halted is not None or c.roller() is None:
            break
        throw(c, t)
        t += 10
    assert c.halted is not None, "the history never refused an input"
    return t


def banner(c: TableController, t: float) -> str:
    words = build_view(c, t).banner
    assert words is not None
    return words


# ---------------------------------------------------------------- real SQLite failures


def test_a_full_card_says_full_for_the_first_throw_and_every_later_one(
        tmp_path: Path) -> None:
    connections: list[sqlite3.Connection] = []

    def keep(path: str) -> sqlite3.Connection:
        connections.append(connect_file(path))
        return connections[-1]

    store = open_store(tmp_path, connect=keep)
    recorder, match_id = HistoryRecorder.begin(TableLog(store), SETUP)
    c = TableController(Match(SETUP), recorder, SEATS)
    throw(c, 0.0)
    assert c.halted is None
    # The card fills up: SQLite can take no new page (SQLITE_FULL, "database or disk is
    # full", as a full SD card gives it).
    (conn,) = connections
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    t = throw_until_halted(c, 10.0)
    assert c.halted is not None and c.halted.kind is SaveKind.FULL
    assert banner(c, t).startswith(FULL_BANNER)
    taken = len(c.match.inputs)
    throw(c, t)  # the next throw: the history refuses it after the earlier failure
    assert c.halted.kind is SaveKind.FULL and "earlier failure" in c.halted.message
    assert banner(c, t + 2).startswith(FULL_BANNER)
    assert len(c.match.inputs) == taken
    store.close()
    assert len(open_store(tmp_path).lines(match_id)) == taken + 1  # all shown is kept


def _read_only_after_restart(tmp_path: Path) -> TableController:
    """The Pi restarted with the card mounted read-only: the table goes on with the
    match, the history opened as SQLite opens a file it may not write."""
    store = open_store(tmp_path)
    recorder, match_id = HistoryRecorder.begin(TableLog(store), SETUP)
    c = TableController(Match(SETUP), recorder, SEATS)
    throw(c, 0.0)
    store.close()

    def read_only(path: str) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)

    store = open_store(tmp_path, connect=read_only)
    recorder, match = HistoryRecorder.resume(TableLog(store), match_id)
    return TableController(match, recorder, SEATS)


def _read_only_while_playing(tmp_path: Path) -> TableController:
    """The history stops taking writes in the middle of the match."""
    connections: list[sqlite3.Connection] = []

    def keep(path: str) -> sqlite3.Connection:
        connections.append(connect_file(path))
        return connections[-1]

    recorder, _ = HistoryRecorder.begin(TableLog(open_store(tmp_path, connect=keep)), SETUP)
    c = TableController(Match(SETUP), recorder, SEATS)
    throw(c, 0.0)
    assert c.halted is None
    connections[0].execute("PRAGMA query_only = ON")  # SQLITE_READONLY from here on
    return c


@pytest.mark.parametrize("made", [_read_only_after_restart, _read_only_while_playing])
def test_a_read_only_card_says_read_only_for_the_first_throw_and_every_later_one(
        tmp_path: Path, made: Callable[[Path], TableController]) -> None:
    c = made(tmp_path)
    taken = len(c.match.inputs)
    throw(c, 20.0)
    assert c.halted is not None and c.halted.kind is SaveKind.READ_ONLY
    assert "read-only" in c.halted.message  # (the journal's words, with the path)
    assert banner(c, 22.0).startswith(READ_ONLY_BANNER)
    throw(c, 30.0)
    assert c.halted.kind is SaveKind.READ_ONLY and "earlier failure" in c.halted.message
    assert banner(c, 32.0).startswith(READ_ONLY_BANNER)
    assert len(c.match.inputs) == taken


# ---------------------------------------------------------------- the kind, not the words


class FailingRecorder(MemoryRecorder):
    def __init__(self, error: RecorderError) -> None:
        super().__init__()
        self.error = error

    def append(self, item: Input) -> None:
        raise self.error


NOT_FULL = StoreFull("kein Platz mehr auf der Karte; lösche alte Fotos")
CANNOT_OPEN = StoreReadOnly("could not save this input: /home/pi/state/history.sqlite3 "
                            "cannot be opened. Check that the state directory exists")


@pytest.mark.parametrize(("error", "kind", "words"), [
    # Reworded: the class says what it is.
    (NOT_FULL, SaveKind.FULL, FULL_BANNER),
    (CANNOT_OPEN, SaveKind.READ_ONLY, READ_ONLY_BANNER),
    # Words that sound like one trouble in another's message (here, in the path).
    (HistoryError("could not save this input in /media/read-only-backup is full/history."
                  "sqlite3: disk I/O error. Try again"), SaveKind.OTHER,
     "Match not saved: writing failed."),
    # A later input, refused after the first failure: that failure's kind.
    (StoreRefusing(f"no more inputs after an earlier failure ({NOT_FULL})", NOT_FULL),
     SaveKind.FULL, FULL_BANNER),
    (StoreRefusing(f"no more inputs after an earlier failure ({CANNOT_OPEN})", CANNOT_OPEN),
     SaveKind.READ_ONLY, READ_ONLY_BANNER),
])
def test_the_banner_follows_the_kind_of_the_error_not_its_words(
        error: HistoryError, kind: SaveKind, words: str) -> None:
    assert save_kind(error) is kind
    c = TableController(Match(SETUP), FailingRecorder(recorder_error(error)), SEATS)
    throw(c, 0.0)
    assert c.halted == Halt(kind, str(error))
    assert banner(c, 2.0).startswith(words)


def test_the_history_keeps_the_first_failure_with_its_refusal(tmp_path: Path) -> None:
    """The history's own recorder: the refusal of a later input holds the first failure
    (it crosses a copy or a pickle too)."""
    store = open_store(tmp_path)
    recorder = store.begin(SETUP)
    store._conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreReadOnly) as first:
        recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))
    with pytest.raises(StoreRefusing) as later:
        recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))
    assert later.value.first is first.value
    copied = pickle.loads(pickle.dumps(later.value))
    assert isinstance(copied.first, StoreReadOnly) and str(copied) == str(later.value)
    store.close()
