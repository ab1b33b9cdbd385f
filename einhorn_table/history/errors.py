"""What can go wrong with the match history, in words for the person at the table."""

from __future__ import annotations

import shlex
import shutil
import sqlite3
from pathlib import Path

from einhorn_table.errors import EinhornError
from einhorn_table.history.paths import CHOOSE_STATE


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


class StoreNotReadable(StoreReadOnly):
    """This user may not read the history (or its folder): another user keeps it. Not
    a read-only history: whoever may read it may change it too."""


class StoreRefused(StoreReadOnly):
    """This user may not change a part of the history (its folder, its file, a file
    SQLite keeps beside it), found before SQLite was asked: the message names it, why,
    and what to do."""


class StoreRefusing(HistoryError):
    """An earlier save failed; this recorder takes no more inputs until the table restarts.

    ``first`` is that earlier failure (a :class:`StoreFull`, a :class:`StoreReadOnly`...):
    what it was, not only its words, so that the table still says why."""

    def __init__(self, message: str, first: HistoryError) -> None:
        super().__init__(message)
        self.first = first

    def __reduce__(self) -> tuple[type[StoreRefusing], tuple[str, HistoryError]]:
        return type(self), (str(self), self.first)


#: What a failure of SQLite is, by its error code's name (``sqlite_errorname``, extended
#: codes included: ``SQLITE_READONLY_DIRECTORY`` is a ``SQLITE_READONLY``).
_BY_CODE = (
    ("SQLITE_FULL", "full"),
    ("SQLITE_READONLY", "read-only"),
    ("SQLITE_PERM", "read-only"),
    ("SQLITE_NOTADB", "unreadable"),
    ("SQLITE_CORRUPT", "unreadable"),
    ("SQLITE_CANTOPEN", "cannot-open"),
    ("SQLITE_BUSY", "locked"),
    ("SQLITE_LOCKED", "locked"),
    ("SQLITE_IOERR", "io"),
)

#: The same, by the words of its message: for an error without a code (Python before
#: 3.11, or one raised by the companion itself in SQLite's words).
_BY_WORDS = (
    (("disk is full", "no space"), "full"),
    (("readonly", "read-only", "read only"), "read-only"),
    (("not a database", "malformed", "file is encrypted"), "unreadable"),
    (("unable to open",), "cannot-open"),
    (("locked", "busy"), "locked"),
    (("disk i/o error",), "io"),
)


def failure_kind(error: sqlite3.Error) -> str | None:
    """What ``error`` is: "full", "read-only", "unreadable", "cannot-open", "locked",
    "io" (the card could not be read or written), or None (something else). By its
    error code where Python gives it, else by its words."""
    name = getattr(error, "sqlite_errorname", None)
    if isinstance(name, str):
        for code, kind in _BY_CODE:
            if name == code or name.startswith(code + "_"):
                return kind
    text = str(error).lower()
    for words, kind in _BY_WORDS:
        if any(word in text for word in words):
            return kind
    return None


#: Below this much free space a disk is full for the history: SQLite makes a file of
#: 32 KiB beside it to read it (``-shm``), and each match line needs a few KiB more.
FULL_BELOW_BYTES = 256 * 1024


def disk_full(folder: Path) -> bool:
    """Whether the disk holding ``folder`` is (all but) full: False where that cannot be
    told (the folder is gone)."""
    try:
        return shutil.disk_usage(folder).free < FULL_BELOW_BYTES
    except OSError:
        return False


def explain(error: sqlite3.Error, path: Path, doing: str,
            choose: str = CHOOSE_STATE) -> HistoryError:
    """The HistoryError for a failure of SQLite while ``doing`` something with ``path``;
    ``choose``: how the command run chooses another state directory
    (:data:`~einhorn_table.history.paths.CHOOSE_STATE`)."""
    kind = failure_kind(error)
    if kind in ("io", "cannot-open") and disk_full(path.parent):
        kind = "full"  # (SQLite says "disk I/O error" where it cannot make its -shm file)
    if kind == "full":
        return StoreFull(
            f"could not {doing}: the disk holding {path} is full. Everything saved before "
            "this is safe. Free some space (delete old roll photos or files), then restart the "
            "table; it will offer to continue the match."
        )
    if kind == "read-only":
        return StoreReadOnly(
            f"could not {doing}: {path} is read-only. Everything saved before this is safe. "
            f"Make the state directory writable (or choose another {choose}), then restart "
            "the table."
        )
    if kind == "unreadable":
        return StoreUnreadable(
            f"{path} is not a readable match history (it is damaged or belongs to another "
            f"program). Move it aside (`mv {_quoted(path)} {_quoted(path)}.damaged`) and start "
            "again: a new, empty history will be made; keep the old file if you want to "
            "rescue it."
        )
    if kind == "cannot-open":
        return StoreReadOnly(
            f"could not {doing}: {path} cannot be opened. Check that the state directory "
            f"exists and is writable, or choose another {choose}."
        )
    if kind == "locked":
        return HistoryError(
            f"could not {doing}: another program holds {path} locked. Close other "
            "einhorn-table commands and try again."
        )
    if kind == "io":
        return HistoryError(
            f"could not {doing}: the disk holding {path} could not be read or written "
            f"({error}): it may be full, failing, or no longer there (a card or stick "
            "pulled out). Everything saved before this is safe. Check the disk (df -h shows "
            "the space left), then try again: a table restarted offers to continue the match "
            "it was playing."
        )
    return HistoryError(f"could not {doing} in {path}: {error}. Try again; if it keeps "
                        "happening, move the file aside and restart.")


def _quoted(path: Path) -> str:
    """``path`` as the shell takes it (a folder "My Games")."""
    return shlex.quote(str(path))
