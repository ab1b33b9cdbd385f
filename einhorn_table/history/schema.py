"""The history's schema: a numbered list of steps, applied in order (``PRAGMA user_version``).

Version 1 is what the table writes as it plays: the matches and their lines.
Version 2 adds the summaries filled when a match finishes (or is abandoned or
imported), so that ``history stats`` never re-reads every input; matches stored
before it are summarised when the store opens (``MatchStore.backfill``).
Version 3 adds running totals over the summaries (:mod:`totals`), so that
``history stats`` reads a few hundred rows however many matches are kept.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from einhorn_table.history import totals

#: One step of a migration: SQL statements (separated by ";") or a function.
Step = str | Callable[[sqlite3.Connection], None]

#: Marks the file as ours ("EINH"): a SQLite file of another program has another.
APPLICATION_ID = 0x45494E48

MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    # 1: matches and their lines, exactly as written.
    ("""
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        started TEXT NOT NULL,
        updated TEXT NOT NULL,
        finished TEXT,
        players TEXT NOT NULL,
        variant TEXT NOT NULL,
        setup TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('playing', 'finished', 'abandoned')),
        winner TEXT,
        games INTEGER NOT NULL DEFAULT 1,
        practice INTEGER NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT 'table'
    );
    CREATE INDEX matches_by_state ON matches (state, started);
    CREATE INDEX matches_by_started ON matches (started);
    CREATE TABLE inputs (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seq INTEGER NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID;
    """,),
    # 2: summaries for the statistics, one set per finished or abandoned match.
    ("""
    ALTER TABLE matches ADD COLUMN summarized INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX matches_to_summarize ON matches (summarized, state);
    CREATE TABLE match_players (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        stash INTEGER NOT NULL,
        won INTEGER NOT NULL,
        stash_by_game TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE match_calls (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        player TEXT NOT NULL,
        call TEXT NOT NULL,
        made INTEGER NOT NULL,
        came_true INTEGER NOT NULL,
        PRIMARY KEY (match_id, player, call)
    ) WITHOUT ROWID;
    CREATE TABLE match_faces (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        dice TEXT NOT NULL,
        player TEXT NOT NULL,
        rolls INTEGER NOT NULL,
        f1 INTEGER NOT NULL, f2 INTEGER NOT NULL, f3 INTEGER NOT NULL,
        f4 INTEGER NOT NULL, f5 INTEGER NOT NULL, f6 INTEGER NOT NULL,
        PRIMARY KEY (match_id, dice, player)
    ) WITHOUT ROWID;
    CREATE TABLE match_unicorn (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        n INTEGER NOT NULL,
        player TEXT NOT NULL,
        how TEXT NOT NULL CHECK (how IN ('auction', 'roll')),
        bid INTEGER NOT NULL,
        gained INTEGER NOT NULL,
        PRIMARY KEY (match_id, n)
    ) WITHOUT ROWID;
    """,),
    # 3: running totals over all counted matches, worked out from the summaries.
    (totals.CREATE, totals.rebuild_totals),
)

LATEST = len(MIGRATIONS)


def version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(conn: sqlite3.Connection, upto: int = LATEST) -> int:
    """Apply the steps after the file's version up to ``upto``, each in one transaction.

    A step another program took meanwhile (the table and a ``history`` command opening a
    new history at once) is not taken again. Returns the version reached. ``conn`` must
    be in autocommit mode (``isolation_level=None``), as the store opens it.
    """
    current = version(conn)
    for number in range(current + 1, upto + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            if version(conn) >= number:  # (another program, opening the same history at
                conn.execute("COMMIT")   # the same moment, took this step first)
                continue
            for step in MIGRATIONS[number - 1]:
                if callable(step):
                    step(conn)
                    continue
                for statement in step.split(";"):
                    if statement.strip():
                        conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return max(current, upto)
