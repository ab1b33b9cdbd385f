"""Running totals over every counted match, so that ``history stats`` reads a few
hundred rows however many matches are kept.

A match counts when it is not practice; its players' matches, wins and stashes
count when it finished, its calls, dice and unicorn spells when it finished or
was abandoned. The totals are added in the same transaction that writes a
match's summary rows, and can always be rebuilt from those rows
(:func:`rebuild_totals`, also the migration step that introduced them).
"""

from __future__ import annotations

import json
import sqlite3

from einhorn_table.history.summary import MatchSummary

TABLES = ("totals_players", "totals_stash", "totals_calls", "totals_faces", "totals_unicorn")

CREATE = """
CREATE TABLE totals_players (
    name TEXT PRIMARY KEY, matches INTEGER NOT NULL, wins INTEGER NOT NULL,
    stash INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE totals_stash (
    name TEXT NOT NULL, game INTEGER NOT NULL, stash INTEGER NOT NULL,
    matches INTEGER NOT NULL, PRIMARY KEY (name, game)
) WITHOUT ROWID;
CREATE TABLE totals_calls (
    player TEXT NOT NULL, call TEXT NOT NULL, made INTEGER NOT NULL,
    came_true INTEGER NOT NULL, PRIMARY KEY (player, call)
) WITHOUT ROWID;
CREATE TABLE totals_faces (
    dice TEXT NOT NULL, player TEXT NOT NULL, rolls INTEGER NOT NULL,
    f1 INTEGER NOT NULL, f2 INTEGER NOT NULL, f3 INTEGER NOT NULL,
    f4 INTEGER NOT NULL, f5 INTEGER NOT NULL, f6 INTEGER NOT NULL,
    PRIMARY KEY (dice, player)
) WITHOUT ROWID;
CREATE TABLE totals_unicorn (
    player TEXT NOT NULL, how TEXT NOT NULL, spells INTEGER NOT NULL,
    paid INTEGER NOT NULL, gained INTEGER NOT NULL, PRIMARY KEY (player, how)
) WITHOUT ROWID;
CREATE INDEX matches_counted ON matches (state, practice);
"""


def add_players(conn: sqlite3.Connection, rows: list[tuple[str, int, int, list[int]]],
                sign: int = 1) -> None:
    """Add finished matches' (name, won, final stash, stash after each game) rows (take
    them away again with ``sign=-1``)."""
    conn.executemany(
        "INSERT INTO totals_players VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
        "matches = matches + excluded.matches, wins = wins + excluded.wins, "
        "stash = stash + excluded.stash",
        [(name, sign, sign * won, sign * stash) for name, won, stash, _ in rows],
    )
    conn.executemany(
        "INSERT INTO totals_stash VALUES (?, ?, ?, ?) ON CONFLICT (name, game) DO UPDATE SET "
        "stash = stash + excluded.stash, matches = matches + excluded.matches",
        [(name, game, sign * value, sign) for name, _, _, by_game in rows
         for game, value in enumerate(by_game, start=1)],
    )


def add_summary(conn: sqlite3.Connection, summary: MatchSummary, *, finished: bool,
                sign: int = 1) -> None:
    """Add one counted match's summary to the totals (``sign=-1``: see
    :func:`remove_summary`)."""
    if finished:
        add_players(conn, [(p.name, int(p.won), p.stash, list(p.stash_by_game))
                           for p in summary.players], sign)
    conn.executemany(
        "INSERT INTO totals_calls VALUES (?, ?, ?, ?) ON CONFLICT (player, call) DO UPDATE SET "
        "made = made + excluded.made, came_true = came_true + excluded.came_true",
        [(c.player, c.call.value, sign * c.made, sign * c.came_true) for c in summary.calls],
    )
    conn.executemany(
        "INSERT INTO totals_faces VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (dice, player) DO UPDATE SET rolls = rolls + excluded.rolls, "
        "f1 = f1 + excluded.f1, f2 = f2 + excluded.f2, f3 = f3 + excluded.f3, "
        "f4 = f4 + excluded.f4, f5 = f5 + excluded.f5, f6 = f6 + excluded.f6",
        [(f.dice, f.player, sign * f.rolls, *(sign * n for n in f.faces))
         for f in summary.faces],
    )
    spells: dict[tuple[str, str], list[int]] = {}
    for u in summary.unicorn:
        entry = spells.setdefault((u.player, u.how), [0, 0, 0])
        entry[0] += sign
        entry[1] += sign * u.bid
        entry[2] += sign * u.gained
    conn.executemany(
        "INSERT INTO totals_unicorn VALUES (?, ?, ?, ?, ?) ON CONFLICT (player, how) DO UPDATE "
        "SET spells = spells + excluded.spells, paid = paid + excluded.paid, "
        "gained = gained + excluded.gained",
        [(player, how, *entry) for (player, how), entry in spells.items()],
    )


#: A row of each totals table that counts nothing (as none that a rebuild makes).
_EMPTY = {"totals_players": "matches", "totals_stash": "matches", "totals_calls": "made",
          "totals_faces": "rolls", "totals_unicorn": "spells"}


def remove_summary(conn: sqlite3.Connection, summary: MatchSummary, *, finished: bool) -> None:
    """Take one match's summary out of the totals, as it was added (``finished``: it
    counted as finished): a match marked practice, or played on after its end. As
    quick as adding it, however many matches are kept; the totals are then those
    :func:`rebuild_totals` would work out."""
    add_summary(conn, summary, finished=finished, sign=-1)
    for table, count in _EMPTY.items():
        conn.execute(f"DELETE FROM {table} WHERE {count} = 0")


_COUNTED = "m.practice = 0 AND m.state IN ('finished', 'abandoned')"


def rebuild_totals(conn: sqlite3.Connection) -> None:
    """Work the totals out afresh from the summary rows (inside the caller's transaction)."""
    for table in TABLES:
        conn.execute(f"DELETE FROM {table}")
    rows = conn.execute(
        "SELECT p.name, p.won, p.stash, p.stash_by_game FROM match_players p JOIN matches m "
        "ON m.id = p.match_id WHERE m.practice = 0 AND m.state = 'finished'").fetchall()
    add_players(conn, [(name, won, stash, json.loads(by_game))
                       for name, won, stash, by_game in rows])
    conn.execute(
        "INSERT INTO totals_calls SELECT c.player, c.call, sum(c.made), sum(c.came_true) "
        f"FROM match_calls c JOIN matches m ON m.id = c.match_id WHERE {_COUNTED} "
        "GROUP BY c.player, c.call")
    conn.execute(
        "INSERT INTO totals_faces SELECT f.dice, f.player, sum(f.rolls), sum(f.f1), sum(f.f2), "
        "sum(f.f3), sum(f.f4), sum(f.f5), sum(f.f6) FROM match_faces f JOIN matches m "
        f"ON m.id = f.match_id WHERE {_COUNTED} GROUP BY f.dice, f.player")
    conn.execute(
        "INSERT INTO totals_unicorn SELECT u.player, u.how, count(*), sum(u.bid), sum(u.gained) "
        f"FROM match_unicorn u JOIN matches m ON m.id = u.match_id WHERE {_COUNTED} "
        "GROUP BY u.player, u.how")
