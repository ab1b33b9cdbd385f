"""Where the match is written down as it happens: the ``MatchRecorder`` seam.

The table records into the match history (SQLite, with resume):
:class:`einhorn_table.adapters.history_log.HistoryRecorder` implements this
protocol; the tests use an in-memory one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from einhorn_table.errors import EinhornError
from einhorn_table.rules import Input


class SaveKind(Enum):
    """Why an input could not be written down, as the table's screen tells the family."""

    FULL = "full"  # the SD card (or the history's size limit) is full
    READ_ONLY = "read-only"  # the card or the state directory cannot be written
    OTHER = "other"  # anything else: the message (for the journal) says what


class RecorderError(EinhornError):
    """An input could not be written down; the message says what to do (for the
    installer), ``kind`` why (for the family's screen)."""

    def __init__(self, message: str, kind: SaveKind = SaveKind.OTHER) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Halt:
    """The table takes no more inputs: the last one could not be written down."""

    kind: SaveKind
    message: str  # the recorder's words (the journal has them)

    @classmethod
    def of(cls, error: RecorderError) -> Halt:
        return cls(error.kind, str(error))


class MatchRecorder(Protocol):
    """Keeps every input of a match, durably, in order."""

    def append(self, item: Input) -> None:
        """Write ``item``; it is on disk when this returns, else raises :class:`RecorderError`."""
        ...

    def close(self) -> None: ...
