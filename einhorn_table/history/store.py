"""The match history: every match and every line of it, in SQLite in the state directory.

Each input is committed (WAL, ``synchronous=FULL``) before ``append`` returns, so
whatever the screen shows after it survives a pulled plug. A match stored here
exports as match notation that replays to the same ledger.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from einhorn_table.folders import why_not_writable
from einhorn_table.history import schema
from einhorn_table.history.errors import (
    AlreadyKept,
    HistoryError,
    StoreFull,
    StoreReadOnly,
    StoreRefusing,
    StoreUnreadable,
    UnknownMatch,
    explain,
    failure_kind,
)
from einhorn_table.history.extras import PRACTICE, STARTED, started_at
from einhorn_table.history.paths import CHOOSE_STATE, DATABASE, PHOTOS
from einhorn_table.history.photo_writer import PhotoWriter, not_saved
from einhorn_table.history.photos import DEFAULT_LIMIT_BYTES, PhotoShelf, encode_jpeg
from einhorn_table.history.summary import (
    CallSummary,
    FaceSummary,
    MatchSummary,
    PlayerSummary,
    UnicornHolding,
    summarize,
)
from einhorn_table.history.totals import add_summary, rebuild_totals, remove_summary
from einhorn_table.rules import (
    Category,
    Input,
    Match,
    NotationError,
    RuleViolation,
    Setup,
    format_input,
    parse_line,
    replay,
)
from einhorn_table.words import command_name

#: How many times opening a history tries to switch it to WAL while another program
#: opens it too (each try after the first waits for that program's write to end).
WAL_TRIES = 5
#: Gives the time now (timezone-aware); the store writes it as ISO 8601.
WallClock = Callable[[], datetime]
#: Opens the database file: ``sqlite3.connect``'s shape; tests pass another.
Connector = Callable[[str], sqlite3.Connection]


def connect_file(path: str) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, timeout=5.0, check_same_thread=False)


def connect_read_only(path: str) -> sqlite3.Connection:
    """Opens the history only to read it, also where nothing may be written (a folder
    copied off the Pi, an SD card mounted read-only, another user's folder).

    SQLite reads a WAL file through its ``-shm`` file, which it must create when it is
    not there; where it cannot, the file is read as it lies (``immutable``), which is
    all of it unless a ``-wal`` file holds changes not yet written into it.
    """
    uri = Path(path).absolute().as_uri()
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=5.0,
                           check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as error:
        conn.close()
        if getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            raise  # being written right now: not to be read as it lies
        wal = Path(f"{path}-wal")
        if wal.is_file() and wal.stat().st_size > 0:
            raise StoreReadOnly(
                f"the last changes to {path} are still in {wal.name} beside it, which can "
                "only be read where the folder may be written. Copy the whole folder "
                "somewhere you may write and name that copy with --state-dir."
            ) from None
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None,
                           check_same_thread=False)


def _into_wal(conn: sqlite3.Connection) -> str:
    """Switch the history to WAL; returns the journal mode it is in then. Where another
    program switches it or writes it at this very moment (two programs opening a new
    history at once), SQLite refuses the switch at once rather than waiting: this waits
    for that program's write to end (SQLite's own timeout, as for any write) and tries
    again."""
    for _ in range(WAL_TRIES - 1):
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as error:
            if not getattr(error, "sqlite_errorname", "").startswith("SQLITE_BUSY"):
                raise
        conn.execute("BEGIN IMMEDIATE")  # (waits while the other program writes)
        conn.execute("COMMIT")
    return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])


def _nfc(text: str | None) -> str | None:
    """A name in one Unicode form: "Zoë" typed as one letter or as "e" and its dots."""
    return unicodedata.normalize("NFC", text) if isinstance(text, str) else text


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One stored match, as ``history list`` shows it."""

    match_id: str
    started: str
    updated: str
    finished: str | None
    players: tuple[str, ...]
    variant: str
    state: str  # "playing", "finished" or "abandoned"
    winner: str | None
    games: int
    practice: bool
    source: str  # "table" or "import"
    #: The games agreed at the setup, for a match not finished (None: a finished match,
    #: whose games played say it all, or a setup line that no longer reads).
    agreed_games: int | None = None


#: A match (``matches`` row) with at least one input stored.
_PLAYED = "EXISTS (SELECT 1 FROM inputs WHERE inputs.match_id = matches.id)"

# (The setup line only where it is read: not for a finished match, see _row.)
_ROW_COLUMNS = ("id, started, updated, finished, players, variant, state, winner, games, "
                "practice, source, CASE WHEN state = 'finished' THEN NULL ELSE setup END")


def _row(values: Sequence[Any]) -> MatchRow:
    return MatchRow(str(values[0]), values[1], values[2], values[3],
                    _players(values[4]), values[5], values[6], values[7],
                    int(values[8]), bool(values[9]), values[10],
                    # (Parsed only where shown: `history list --all` reads every row.)
                    None if values[6] == "finished" else _agreed_games(values[11]))


@lru_cache(maxsize=4096)
def _players(text: str) -> tuple[str, ...]:
    """A match's players from their stored JSON list, each list read once: a club plays
    in a few line-ups, and `history list --all` reads thousands of rows."""
    return tuple(json.loads(text))


def _agreed_games(setup_line: str) -> int | None:
    try:
        setup = parse_line(setup_line)
        return setup.resolve()[1] if isinstance(setup, Setup) else None
    except RuleViolation:
        return None


@dataclass(frozen=True, slots=True)
class ImportedMatch:
    """Where an imported match file went."""

    match_id: str
    #: Lines of it the history held already (the setup line included), in a copy it
    #: now completes; 0 when the match is new here.
    held_lines: int = 0


#: A kept copy and an imported file are taken for the same match when one begins with
#: at least this many input lines of the other (besides the same setup line): the
#: start rolls alone could match another match by chance, ten lines of dice cannot.
SAME_MATCH_LINES = 10


class MatchStore:
    """The history database and the photo folder of one state directory."""

    def __init__(
        self,
        state_dir: Path,
        *,
        now: WallClock,
        photo_limit_bytes: int = DEFAULT_LIMIT_BYTES,
        connect: Connector = connect_file,
        read_only: bool = False,
        choose: str = CHOOSE_STATE,
    ) -> None:
        """``choose``: how the command that opens the history chooses another state
        directory, for its messages (``history``'s, by default; see ``paths``)."""
        self.state_dir = Path(state_dir)
        self.choose = choose
        self.path = self.state_dir / DATABASE
        self.now = now
        self.read_only = read_only
        self.photos = PhotoShelf(self.state_dir / PHOTOS, photo_limit_bytes)
        #: Writes the roll photos off the caller's thread, once the table asks for it
        #: (:meth:`write_photos_in_background`); None: each is written before
        #: ``save_photo`` returns.
        self.photo_writer: PhotoWriter | None = None
        try:
            if not read_only:
                self.state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            why = "a file has that name" if isinstance(error, FileExistsError) else error.strerror
            raise HistoryError(
                f"cannot make the state directory {self.state_dir} ({why}). Choose "
                f"a writable one {choose}."
            ) from None
        try:
            self._conn = connect(str(self.path))
            # Names typed in either Unicode form count as one player (see gather).
            self._conn.create_function("nfc", 1, _nfc, deterministic=True)
        except sqlite3.Error as error:
            raise self._not_opened(error) from None
        try:
            self._open()
        except sqlite3.Error as error:
            self._conn.close()
            raise self._not_opened(error) from None
        except HistoryError:
            self._conn.close()
            raise

    def _not_opened(self, error: sqlite3.Error) -> HistoryError:
        """What to say where SQLite could not open the history to write it: why the
        state directory takes nothing, where that is so (a disk mounted read-only,
        another user's folder), not only "cannot be opened"."""
        explained = explain(error, self.path, "open the match history", self.choose)
        if self.read_only or failure_kind(error) not in ("cannot-open", "read-only"):
            return explained
        why = why_not_writable(self.state_dir)
        if why is None:  # (the folder takes files: the history file itself is refused)
            return explained
        return StoreReadOnly(
            f"could not open the match history in {self.state_dir}: {why}. Make it "
            f"writable, or choose another state directory {self.choose}."
        )

    @classmethod
    def for_reading(cls, state_dir: Path, *, now: WallClock,
                    connect: Connector = connect_file) -> MatchStore:
        """The history opened to read it (``history list``, ``show``, ``stats``): as
        usual where it may be written (a history of an older companion is updated), else
        only to read, so that a folder copied off the Pi, a card mounted read-only or a
        full card (where SQLite cannot make the file it reads a history through) can be
        read."""
        try:
            return cls(state_dir, now=now, connect=connect)
        except (StoreReadOnly, StoreFull):
            return cls(state_dir, now=now, connect=connect_read_only, read_only=True)

    def _open(self) -> None:
        conn = self._conn
        # Read together, in one snapshot: another program making a new history at this
        # moment (the table's first start, an import) is seen as not begun or as done,
        # never half, which would read as "a database of another program".
        conn.execute("BEGIN")
        try:
            app = int(conn.execute("PRAGMA application_id").fetchone()[0])
            found = schema.version(conn)
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")
        if app != schema.APPLICATION_ID and (app != 0 or found != 0 or tables):
            raise StoreUnreadable(
                f"{self.path} is a database of another program, not an Einhorn Table "
                f"history. Move it aside (`mv {shlex.quote(str(self.path))} "
                f"{shlex.quote(str(self.path))}.other`) or choose another --state-dir; a new "
                "history will be made."
            )
        if found > schema.LATEST:
            raise StoreUnreadable(
                f"{self.path} was written by a newer Einhorn Table (history version {found}; "
                f"this one reads up to {schema.LATEST}). Update this companion to read it: in "
                "its folder, `git pull && ./start --version` (docs/install.md, \"update the "
                "companion\"); nothing was changed in the history."
            )
        if self.read_only:
            if found < schema.LATEST:
                raise StoreReadOnly(
                    f"{self.path} was written by an older Einhorn Table and must be updated "
                    "before it can be read, which needs write access. Copy the whole folder "
                    "somewhere you may write and name that copy with --state-dir."
                )
            return
        mode = _into_wal(conn)
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if found < schema.LATEST:
            if str(mode).lower() != "wal":
                raise sqlite3.OperationalError("attempt to write a readonly database")
            schema.migrate(conn)
            self.backfill()

    def write_photos_in_background(self) -> PhotoWriter:
        """From now on, ``save_photo`` hands each photo to a background thread and
        returns at once (the table's loop: see :mod:`~einhorn_table.history.photo_writer`).
        """
        if self.photo_writer is None:
            self.photo_writer = PhotoWriter(self.photos)
        return self.photo_writer

    def photo_failures(self) -> list[HistoryError]:
        """The roll photos the background writer could not write since the last call
        (a full card), each handed over once; none where photos are written at once
        (``save_photo`` raises instead)."""
        return self.photo_writer.failures() if self.photo_writer is not None else []

    def close(self) -> None:
        """Close the history, once the photos still being written are (see
        :meth:`PhotoWriter.close`)."""
        if self.photo_writer is not None:
            self.photo_writer.close()
        self._conn.close()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ---------------------------------------------------------------

    @contextmanager
    def transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction; a failure of SQLite becomes a HistoryError."""
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise explain(error, self.path, doing, self.choose) from None

    def _stamp(self) -> str:
        return self.now().isoformat(timespec="seconds")

    def begin(self, setup: Setup, *, practice: bool = False) -> MatchRecorder:
        """Store a new match's setup; returns the recorder that takes its inputs."""
        match = Match(setup)  # refuses a setup the rules refuse, before anything is stored
        stamp = self._stamp()
        # (Now, also for a setup read back from an earlier match: its date is that one's.)
        line = format_input(replace(setup, extra={**setup.extra, STARTED: stamp}))
        with self.transaction("start a new match") as conn:
            cursor = conn.execute(
                "INSERT INTO matches (started, updated, players, variant, setup, state, "
                "practice) VALUES (?, ?, ?, ?, ?, 'playing', ?)",
                (stamp, stamp, json.dumps(list(setup.players), ensure_ascii=False),
                 match.ledger().variant, line, int(practice)),
            )
            match_id = cursor.lastrowid
        assert match_id is not None
        return MatchRecorder(self, str(match_id), match, [line])

    def _store_line(self, match_id: str, seq: int, line: str, match: Match,
                    reopened: bool = False) -> None:
        """Commit one input line; when it ended the match, finish and summarise it too;
        when it ``reopened`` the match (an undo after its end), the match is played again:
        its summary and its count in the totals go until it ends anew."""
        with self.transaction("save this input") as conn:
            conn.execute("INSERT INTO inputs (match_id, seq, line) VALUES (?, ?, ?)",
                         (int(match_id), seq, line))
            stamp = self._stamp()
            if match.over:
                summary = summarize(match)
                conn.execute(
                    "UPDATE matches SET updated = ?, finished = ?, state = 'finished', "
                    "winner = ?, games = ? WHERE id = ?",
                    (stamp, stamp, summary.winner, summary.games, int(match_id)),
                )
                write_summary(conn, int(match_id), summary)
            else:
                if reopened:
                    forget_summary(conn, int(match_id))
                    conn.execute("UPDATE matches SET state = 'playing', finished = NULL, "
                                 "winner = NULL WHERE id = ?", (int(match_id),))
                conn.execute("UPDATE matches SET updated = ?, games = ? WHERE id = ?",
                             (stamp, match.ledger().game, int(match_id)))

    def abandon(self, match_id: str) -> None:
        """Mark a match abandoned: it is kept, and its rolls and calls count in the stats."""
        match = self.replay(match_id)
        row = self.get(match_id)
        if row.state != "playing":
            raise HistoryError(f"match {match_id} is {row.state}, not being played")
        summary = summarize(match)
        with self.transaction("mark the match abandoned") as conn:
            conn.execute("UPDATE matches SET state = 'abandoned', updated = ?, winner = NULL, "
                         "games = ? WHERE id = ?",
                         (self._stamp(), match.ledger().game, int(match_id)))
            write_summary(conn, int(match_id), summary)

    def set_practice(self, match_id: str, practice: bool = True) -> bool:
        """Set a kept match aside as practice (left out of the statistics), or count it
        again (``practice=False``); returns False when it was so already. A match being
        played counts once it ends, as practice or not as it is marked then."""
        self.get(match_id)  # (an unknown match is refused in words)
        with self.transaction("mark the match practice" if practice
                              else "count the match again") as conn:
            # (Read inside the transaction: the table may end the match meanwhile.)
            was, state, summarized = conn.execute(
                "SELECT practice, state, summarized FROM matches WHERE id = ?",
                (_as_id(match_id),)).fetchone()
            if bool(was) == practice:
                return False
            conn.execute("UPDATE matches SET practice = ? WHERE id = ?",
                         (int(practice), _as_id(match_id)))
            if summarized:  # (a match being played counts, or not, once it ends)
                summary = read_summary(conn, _as_id(match_id))
                change = remove_summary if practice else add_summary
                change(conn, summary, finished=state == "finished")
        return True

    def import_notation(self, lines: Sequence[str], *, source: str = "import") -> ImportedMatch:
        """Store a whole match file in one transaction; a bad file stores nothing.

        A match that is over is stored finished; one that is not is stored abandoned
        (it was played elsewhere). Refusals name the line. A file the history keeps
        already, or keeps more of, is refused; a file that goes on from a copy kept
        earlier (exported before the match ended) completes that match instead of
        counting its first part twice.
        """
        numbered = [(n, text.rstrip("\n")) for n, text in enumerate(lines, start=1)
                    if text.strip()]
        match = replay(text for _, text in numbered)  # raises RuleViolation naming the line
        # Keep each line exactly as written, but checked: a line must parse on its own.
        for number, text in numbered:
            parse_line(text, number)
        setup_line, practice = _practice_mark(numbered[0][1])
        inputs = [text for _, text in numbered[1:]]
        summary = summarize(match)
        now = self.now()
        stamp = now.isoformat(timespec="seconds")
        began = started_at(match.setup.extra, now)
        started = stamp if began is None else began.astimezone(now.tzinfo).isoformat(
            timespec="seconds")
        state = "finished" if match.over else "abandoned"
        games = summary.games if match.over else match.ledger().game
        # (What is kept is looked at in the same transaction as the write: another import
        # of the same file at the same moment, from a second terminal, waits for this one
        # and then finds the match kept, rather than keeping it twice.)
        with self.transaction("import the match") as conn:
            kept = self.same_match(setup_line, inputs)
            if kept is not None:
                raise AlreadyKept(f"this match is kept already, as match {kept}; nothing of "
                                  "this file was imported")
            longer = self._kept_with_beginning(setup_line, inputs)
            if longer is not None:
                raise AlreadyKept(f"match {longer} keeps all of this file and how the match "
                                  "went on; nothing of this file was imported")
            earlier = self._kept_beginning_of(setup_line, inputs)
            if earlier is not None:
                match_id, held = earlier
                forget_summary(conn, match_id)  # (the whole match's is written below)
                conn.execute(
                    "UPDATE matches SET updated = ?, finished = ?, state = ?, winner = ?, "
                    "games = ?, practice = max(practice, ?) WHERE id = ?",
                    (stamp, stamp if match.over else None, state, summary.winner, games,
                     int(practice), match_id))
                conn.executemany(
                    "INSERT INTO inputs (match_id, seq, line) VALUES (?, ?, ?)",
                    [(match_id, seq, text) for seq, text in enumerate(inputs[held:],
                                                                       start=held + 1)])
            else:
                cursor = conn.execute(
                    "INSERT INTO matches (started, updated, finished, players, variant, "
                    "setup, state, winner, games, source, practice) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (started, stamp, stamp if match.over else None,
                     json.dumps(list(match.names), ensure_ascii=False),
                     match.ledger().variant, setup_line, state, summary.winner, games, source,
                     int(practice)),
                )
                assert cursor.lastrowid is not None
                match_id = cursor.lastrowid
                conn.executemany(
                    "INSERT INTO inputs (match_id, seq, line) VALUES (?, ?, ?)",
                    [(match_id, seq, text) for seq, text in enumerate(inputs, start=1)],
                )
            write_summary(conn, match_id, summary)
        return ImportedMatch(str(match_id), 0 if earlier is None else earlier[1] + 1)

    def same_match(self, setup: str, inputs: Sequence[str]) -> str | None:
        """The id of a kept match whose lines are exactly these, if there is one."""
        for match_id, kept in self._kept_lines(setup, "= ?", len(inputs)):
            if kept == list(inputs):
                return str(match_id)
        return None

    def _kept_with_beginning(self, setup: str, inputs: Sequence[str]) -> str | None:
        """A kept match that begins with all of ``inputs`` and goes on (at least
        :data:`SAME_MATCH_LINES` of them, so that no other match matches by chance)."""
        if len(inputs) < SAME_MATCH_LINES:
            return None
        for match_id, kept in self._kept_lines(setup, "> ?", len(inputs)):
            if kept[: len(inputs)] == list(inputs):
                return str(match_id)
        return None

    def _kept_beginning_of(self, setup: str, inputs: Sequence[str]) -> tuple[int, int] | None:
        """A kept match whose lines begin ``inputs``, at least :data:`SAME_MATCH_LINES` of
        them (one imported before it ended, or one ended here and then taken on further
        with an undo elsewhere): its id and how many. A match still being played here is
        left alone: the file is refused."""
        for match_id, kept in self._kept_lines(setup, "< ?", len(inputs)):
            if len(kept) >= SAME_MATCH_LINES and list(inputs[: len(kept)]) == kept:
                state = self.get(str(match_id)).state
                if state != "playing":
                    return match_id, len(kept)
                raise AlreadyKept(
                    f"match {match_id}, still being played on this table, is the beginning of "
                    "this file; nothing of this file was imported, so that the match is not "
                    "counted twice")
        return None

    def _kept_lines(self, setup: str, compare: str, count: int) -> list[tuple[int, list[str]]]:
        """Kept matches with this setup line whose number of inputs ``compare`` ``count``."""
        candidates = self._read(
            "SELECT id FROM matches WHERE setup = ? AND "
            f"(SELECT count(*) FROM inputs WHERE match_id = matches.id) {compare}",
            (setup, count))
        out = []
        for (match_id,) in candidates:
            kept = self._read("SELECT line FROM inputs WHERE match_id = ? ORDER BY seq",
                              (match_id,))
            out.append((int(match_id), [line for (line,) in kept]))
        return out

    def backfill(self) -> int:
        """Summarise finished and abandoned matches stored without a summary; returns how many."""
        rows = self._read(
            "SELECT id FROM matches WHERE summarized = 0 AND state != 'playing'", ())
        for (match_id,) in rows:
            summary = summarize(self.replay(str(match_id)))
            with self.transaction("summarise stored matches") as conn:
                write_summary(conn, int(match_id), summary)
        return len(rows)

    # --- reading ---------------------------------------------------------------

    def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise explain(error, self.path, "read the match history", self.choose) from None

    def get(self, match_id: str) -> MatchRow:
        rows = self._read(f"SELECT {_ROW_COLUMNS} FROM matches WHERE id = ?",
                          (_as_id(match_id),))
        if not rows:
            raise self._unknown(match_id)
        return _row(rows[0])

    def _unknown(self, match_id: str) -> UnknownMatch:
        """No match ``match_id`` is kept: the command that lists those kept, or that
        none is (not "`history list` shows the matches kept", which shows none)."""
        if self.count() == 0:
            return UnknownMatch(f"there is no match {match_id}: the history in "
                                f"{self.state_dir} keeps no matches yet")
        return UnknownMatch(f"there is no match {match_id}; `{command_name()} history list` "
                            "shows the matches kept")

    def matches(self, *, limit: int | None = None) -> list[MatchRow]:
        """The stored matches, newest first."""
        sql = f"SELECT {_ROW_COLUMNS} FROM matches ORDER BY started DESC, id DESC"
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (limit,)
        return [_row(r) for r in self._read(sql, params)]

    def count(self) -> int:
        return int(self._read("SELECT count(*) FROM matches", ())[0][0])

    def lines(self, match_id: str) -> list[str]:
        """The match file: the setup line, then every input line exactly as written."""
        rows = self._read("SELECT setup FROM matches WHERE id = ?", (_as_id(match_id),))
        if not rows:
            raise self._unknown(match_id)
        inputs = self._read("SELECT line FROM inputs WHERE match_id = ? ORDER BY seq",
                            (_as_id(match_id),))
        return [rows[0][0], *(line for (line,) in inputs)]

    def export_lines(self, match_id: str) -> list[str]:
        """The match file to take elsewhere: :meth:`lines`, the setup line marked
        ``"practice": true`` for a practice match, so that an import keeps it practice."""
        lines = self.lines(match_id)
        if self.get(match_id).practice:
            setup = parse_line(lines[0])
            lines[0] = format_input(replace(setup, extra={**setup.extra, PRACTICE: True}))
        return lines

    def notation(self, match_id: str) -> str:
        return "".join(line + "\n" for line in self.export_lines(match_id))

    def replay(self, match_id: str) -> Match:
        """The match rebuilt from its stored lines."""
        try:
            return replay(self.lines(match_id))
        except RuleViolation as error:
            raise StoreUnreadable(
                f"match {match_id} in {self.path} does not replay ({error}); export it with "
                "`history export` and check it by hand."
            ) from None

    def unfinished(self, *, begun: bool = False) -> MatchRow | None:
        """The latest match still being played (the plug was pulled), if any; ``begun``:
        only one with at least one input (the table's: a match nobody rolled in yet is
        no match to go on with, see :meth:`forget_unplayed`)."""
        only = f" AND {_PLAYED}" if begun else ""
        rows = self._read(
            f"SELECT {_ROW_COLUMNS} FROM matches WHERE state = 'playing'{only} "
            "ORDER BY started DESC, id DESC LIMIT 1", ())
        return _row(rows[0]) if rows else None

    def forget_unplayed(self, match_id: str | None = None) -> list[str]:
        """Delete the matches still being played that hold no input yet (``match_id``
        alone, where given): begun, then the table stopped or lost its power before
        anyone rolled to start. Nobody played them, so they are not kept (not listed,
        not counted, not offered to go on with). Returns the ids deleted.

        What is deleted is decided by the history file itself, in the one transaction
        that deletes: a match whose first input is stored meanwhile (by the table
        playing it) is left alone, whatever was read before."""
        only = "" if match_id is None else " AND id = ?"
        params: tuple[Any, ...] = () if match_id is None else (_as_id(match_id),)
        with self.transaction("forget a match nobody played") as conn:
            gone = [str(i) for (i,) in conn.execute(
                f"SELECT id FROM matches WHERE state = 'playing' AND NOT {_PLAYED}{only}",
                params).fetchall()]
            for table in SUMMARY_TABLES:  # (none for a match never ended: to be sure)
                conn.executemany(f"DELETE FROM {table} WHERE match_id = ?",
                                 [(int(i),) for i in gone])
            conn.executemany("DELETE FROM matches WHERE id = ?", [(int(i),) for i in gone])
        for i in gone:  # (its photos too: a deleted match's id is the next match's)
            self.photos.forget(photo_prefix(i))
        return gone

    def resume(self, match_id: str) -> Match:
        """The unfinished match exactly where it stood: same ledger, turn and unicorn."""
        row = self.get(match_id)
        if row.state != "playing":
            raise HistoryError(f"match {match_id} is {row.state}; only a match being played "
                               "can be continued")
        return self.replay(match_id)

    def reopen(self, match_id: str) -> MatchRecorder:
        """A recorder that goes on storing the inputs of an unfinished match."""
        match = self.resume(match_id)
        return MatchRecorder(self, match_id, match, self.lines(match_id))

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Read-only SQL for the statistics (rows as tuples)."""
        return self._read(sql, params)


#: The rows summarising one match for the statistics.
SUMMARY_TABLES = ("match_players", "match_calls", "match_faces", "match_unicorn")


def write_summary(conn: sqlite3.Connection, match_id: int, summary: MatchSummary) -> None:
    """Store the statistics rows of one match and add it to the running totals, inside
    the caller's transaction; the match's state must already be finished or abandoned."""
    practice, state, done = conn.execute(
        "SELECT practice, state, summarized FROM matches WHERE id = ?", (match_id,)).fetchone()
    for table in SUMMARY_TABLES:
        conn.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
    conn.executemany(
        "INSERT INTO match_players VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, p.seat, p.name, p.stash, int(p.won), json.dumps(list(p.stash_by_game)))
         for p in summary.players],
    )
    conn.executemany(
        "INSERT INTO match_calls VALUES (?, ?, ?, ?, ?)",
        [(match_id, c.player, c.call.value, c.made, c.came_true) for c in summary.calls],
    )
    conn.executemany(
        "INSERT INTO match_faces VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(match_id, f.dice, f.player, f.rolls, *f.faces) for f in summary.faces],
    )
    conn.executemany(
        "INSERT INTO match_unicorn VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, n, u.player, u.how, u.bid, u.gained)
         for n, u in enumerate(summary.unicorn)],
    )
    conn.execute("UPDATE matches SET summarized = 1 WHERE id = ?", (match_id,))
    if done:
        rebuild_totals(conn)  # the match was summarised before: work the totals out afresh
    elif not practice:
        add_summary(conn, summary, finished=state == "finished")


def read_summary(conn: sqlite3.Connection, match_id: int) -> MatchSummary:
    """The summary of one match as :func:`write_summary` stored it."""
    winner, games = conn.execute("SELECT winner, games FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()

    def rows(columns: str, table: str, order: str) -> list[Any]:
        return conn.execute(f"SELECT {columns} FROM {table} WHERE match_id = ? "
                            f"ORDER BY {order}", (match_id,)).fetchall()

    return MatchSummary(
        winner, games,
        tuple(PlayerSummary(seat, name, stash, bool(won), tuple(json.loads(by_game)))
              for seat, name, stash, won, by_game in rows(
                  "seat, name, stash, won, stash_by_game", "match_players", "seat")),
        tuple(CallSummary(player, Category(call), made, true) for player, call, made, true
              in rows("player, call, made, came_true", "match_calls", "player, call")),
        tuple(FaceSummary(dice, player, n, (f1, f2, f3, f4, f5, f6))
              for dice, player, n, f1, f2, f3, f4, f5, f6 in rows(
                  "dice, player, rolls, f1, f2, f3, f4, f5, f6", "match_faces", "dice, player")),
        tuple(UnicornHolding(player, how, bid, gained) for player, how, bid, gained in rows(
            "player, how, bid, gained", "match_unicorn", "n")),
    )


def forget_summary(conn: sqlite3.Connection, match_id: int) -> None:
    """Delete one match's summary rows and take it out of the totals where it counted
    (a match played on after its end, or completed by an import), inside the caller's
    transaction; the match is then to be summarised anew."""
    practice, state, done = conn.execute(
        "SELECT practice, state, summarized FROM matches WHERE id = ?", (match_id,)).fetchone()
    if done and not practice and state != "playing":
        remove_summary(conn, read_summary(conn, match_id), finished=state == "finished")
    for table in SUMMARY_TABLES:
        conn.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
    conn.execute("UPDATE matches SET summarized = 0 WHERE id = ?", (match_id,))


def _practice_mark(setup_line: str) -> tuple[str, bool]:
    """An imported setup line as the history keeps it, and whether it marks a practice
    match. The mark is kept in the ``practice`` column, not in the line, so that the line
    is the one the table that played the match keeps (and a file imported again is
    known as the same match)."""
    setup = parse_line(setup_line)
    if not isinstance(setup, Setup) or PRACTICE not in setup.extra:
        return setup_line, False
    extra = {k: v for k, v in setup.extra.items() if k != PRACTICE}
    return format_input(replace(setup, extra=extra)), setup.extra[PRACTICE] is True


def photo_prefix(match_id: str) -> str:
    """How the names of a match's roll photos begin: ``000012-``."""
    return f"{int(match_id):06d}-"


def _as_id(match_id: str) -> int:
    try:
        number = int(match_id)
    except ValueError:
        raise UnknownMatch(f"{match_id!r} is not a match id; ids are numbers, as "
                           f"`{command_name()} history list` shows them") from None
    if not 0 < number < 2**63:  # (SQLite's ids; a larger number is no match either)
        raise UnknownMatch(f"there is no match {match_id}; `{command_name()} history list` "
                           "shows the matches kept")
    return number


class MatchRecorder:
    """Takes the inputs of one match and stores each before ``append`` returns.

    The recorder checks each input against the rules first (a refused input raises
    RuleViolation and stores nothing). If saving fails (disk full, read-only), it
    raises a HistoryError saying so and refuses every later input: what was stored
    stays intact, and the match can be continued after a restart.
    """

    def __init__(self, store: MatchStore, match_id: str, match: Match, lines: list[str]) -> None:
        self.store = store
        self.match_id = match_id
        self._match = match
        self._lines = lines
        self._failure: HistoryError | None = None
        self._closed = False

    @property
    def seq(self) -> int:
        """How many inputs are stored (the seq of the last one)."""
        return len(self._lines) - 1

    def append(self, item: Input) -> None:
        if self._closed:
            raise HistoryError(f"match {self.match_id} was closed; reopen it to go on")
        if self._failure is not None:
            raise StoreRefusing(
                f"the history takes no more inputs for match {self.match_id} after an earlier "
                f"failure ({self._failure}). Restart the table to continue the match.",
                self._failure,
            )
        if isinstance(item, Setup):
            raise NotationError("a match has one setup line, the first")
        was_over = self._match.over
        self._match.apply(item)  # a refused input raises here; nothing is stored
        line = format_input(item)
        try:
            self.store._store_line(self.match_id, len(self._lines), line, self._match,
                                   reopened=was_over and not self._match.over)
        except HistoryError as error:
            self._failure = error
            self._match = replay(self._lines)  # back to what is stored
            raise
        self._lines.append(line)

    def save_photo(self, frame: Any) -> str:
        """Save a roll's camera frame as a small JPEG; returns the path to put in the
        roll's ``"photo"`` extra (relative to the state directory). With the store's
        photo writer (:meth:`MatchStore.write_photos_in_background`) the photo is
        written after this returns; a HistoryError says it will not be kept."""
        name = f"{photo_prefix(self.match_id)}{len(self._lines):05d}.jpg"
        writer = self.store.photo_writer
        if writer is not None:
            writer.submit(name, frame)
            return f"{PHOTOS}/{name}"
        try:
            self.store.photos.save(name, encode_jpeg(frame))
        except OSError as error:
            raise not_saved(name, error) from None
        return f"{PHOTOS}/{name}"

    def ledger_json(self) -> dict[str, Any]:
        return self._match.ledger().to_json()

    def close(self) -> None:
        """No more inputs; the photos still being written are written first (the
        table's normal stop loses none)."""
        self._closed = True
        if self.store.photo_writer is not None:
            self.store.photo_writer.flush()


class TableLog:
    """The interface the table records through: ``begin(setup) -> match id``,
    ``append(item)`` (durable before it returns), ``close()``.

    ``background_photos``: the roll photos are written on a background thread, so that
    a slow SD card never freezes the table's screen and buttons (the table's own
    log); without it, before ``save_photo`` returns."""

    def __init__(self, store: MatchStore, *, practice: bool = False,
                 background_photos: bool = False) -> None:
        self.store = store
        self.practice = practice
        self.recorder: MatchRecorder | None = None
        if background_photos:
            store.write_photos_in_background()

    def begin(self, setup: Setup) -> str:
        self.recorder = self.store.begin(setup, practice=self.practice)
        return self.recorder.match_id

    def resume(self, match_id: str) -> Match:
        """Continue a stored match: returns it as it stood; appends go on into it."""
        self.recorder = self.store.reopen(match_id)
        return self.store.resume(match_id)

    def append(self, item: Input) -> None:
        if self.recorder is None:
            raise HistoryError("no match was begun: call begin(setup) first")
        self.recorder.append(item)

    def close(self) -> None:
        if self.recorder is not None:
            self.recorder.close()
