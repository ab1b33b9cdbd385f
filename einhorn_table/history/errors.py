"""What can go wrong with the match history, in words for the person at the table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from einhorn_table.errors import EinhornError


class HistoryError(EinhornError):
    """The match history cannot do what was asked; the message says what to do."""


class UnknownMatch(HistoryError):
    """No stored match has this id."""


class AlreadyKept(HistoryError):
    """An imported match file is one the history keeps already."""


class StoreUnreadable(HistoryError):
    """The history file is damaged, belongs to another program, or is too new."""


class StoreFull(HistoryError):
    """The disk (or the history's size limit) is full; nothing more can be saved."""


class StoreReadOnly(HistoryError):
    """The history cannot be written: the state directory or file is read-only."""


class StoreRefusing(HistoryError):
    """An earlier save failed; this recorder takes no more inputs until the table restarts.

    ``first`` is that earlier failure (a :class:`StoreFull`, a :class:`StoreReadOnly`...):
    what it was, not only its words, so that the table still says why."""

    def __init__(self, message: str, first: HistoryError) -> None:
        super().__init__(message)
        self.first = first

    def __reduce__(self) -> tuple[type[StoreRefusing], tuple[str, HistoryError]]:
        return type(self), (str(self), self.first)


def explain(error: sqlite3.Error, path: Path, doing: str) -> HistoryError:
    """The HistoryError for a failure of SQLite while ``doing`` something with ``path``."""
    text = str(error).lower()
    if "disk is full" in text or "no space" in text:
        return StoreFull(
            f"could not {doing}: the disk holding {path} is full. Everything saved before "
            "this is safe. Free some space (delete old roll photos or files), then restart the "
            "table; it will offer to continue the match."
        )
    if "readonly" in text or "read-only" in text or "read only" in text:
        return StoreReadOnly(
            f"could not {doing}: {path} is read-only. Everything saved before this is safe. "
            "Make the state directory writable (or choose another with --state-dir or "
            "EINHORN_STATE_DIR), then restart the table."
        )
    if "not a database" in text or "malformed" in text or "file is encrypted" in text:
        return StoreUnreadable(
            f"{path} is not a readable match history (it is damaged or belongs to another "
            "program). Move it aside (rename it) and start again: a new, empty history will be "
            "made; keep the old file if you want to rescue it."
        )
    if "unable to open" in text:
        return StoreReadOnly(
            f"could not {doing}: {path} cannot be opened. Check that the state directory "
            "exists and is writable, or choose another with --state-dir or EINHORN_STATE_DIR."
        )
    if "locked" in text or "busy" in text:
        return HistoryError(
            f"could not {doing}: another program holds {path} locked. Close other "
            "einhorn-table commands and try again."
        )
    return HistoryError(f"could not {doing} in {path}: {error}. Try again; if it keeps "
                        "happening, move the file aside and restart.")
