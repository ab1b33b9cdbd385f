"""Where the match is written down as it happens: the ``MatchRecorder`` seam.

The table records into the match history (SQLite, with resume):
:class:`einhorn_table.adapters.history_log.HistoryRecorder` implements this
protocol; the tests use an in-memory one.
"""

from __future__ import annotations

from typing import Protocol

from einhorn_table.errors import EinhornError
from einhorn_table.rules import Input


class RecorderError(EinhornError):
    """An input could not be written down; the message says what to do."""


class MatchRecorder(Protocol):
    """Keeps every input of a match, durably, in order."""

    def append(self, item: Input) -> None:
        """Write ``item``; it is on disk when this returns, else raises :class:`RecorderError`."""
        ...

    def close(self) -> None: ...
