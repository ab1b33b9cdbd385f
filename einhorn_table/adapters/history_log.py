"""The table records into the match history: the ``MatchRecorder`` and ``PhotoStore`` seams
of the table, implemented with the history's :class:`~einhorn_table.history.TableLog`.

Every input is committed to SQLite before ``append`` returns; the history's errors
(a full disk, a read-only card) become :class:`RecorderError`, with their kind
(:class:`SaveKind`, taken from the error's class, not its words), which the controller
shows and which stops it taking inputs. Roll photos go onto the history's photo
shelf (small JPEGs, the oldest deleted first beyond its space limit).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from einhorn_table.history import (
    HistoryError,
    StoreFull,
    StoreReadOnly,
    StoreRefusing,
    TableLog,
)
from einhorn_table.rules import Input, Match, Setup
from einhorn_table.table.recorder import RecorderError, SaveKind

if TYPE_CHECKING:
    from einhorn_table.ports import Image


def save_kind(error: HistoryError) -> SaveKind:
    """Why the history could not save: a refusal after an earlier failure is of that
    failure's kind (a second throw on a full card still says the card is full)."""
    while isinstance(error, StoreRefusing):
        error = error.first
    if isinstance(error, StoreFull):
        return SaveKind.FULL
    if isinstance(error, StoreReadOnly):
        return SaveKind.READ_ONLY
    return SaveKind.OTHER


def recorder_error(error: HistoryError) -> RecorderError:
    return RecorderError(str(error), save_kind(error))


class HistoryRecorder:
    """Writes one match into the history store; see the module's description."""

    def __init__(self, log: TableLog) -> None:
        self.log = log

    @classmethod
    def begin(cls, log: TableLog, setup: Setup) -> tuple[HistoryRecorder, str]:
        """Store a new match; returns the recorder and the match's id."""
        try:
            match_id = log.begin(setup)
        except HistoryError as error:
            raise recorder_error(error) from None
        return cls(log), match_id

    @classmethod
    def resume(cls, log: TableLog, match_id: str) -> tuple[HistoryRecorder, Match]:
        """Go on with a stored, unfinished match; returns the recorder and the match."""
        try:
            match = log.resume(match_id)
        except HistoryError as error:
            raise recorder_error(error) from None
        return cls(log), match

    def append(self, item: Input) -> None:
        try:
            self.log.append(item)
        except HistoryError as error:
            raise recorder_error(error) from None

    def save(self, image: Image) -> str:
        """Keep a roll's photo; returns its path relative to the state directory, or ""
        when it cannot be kept (a missing photo does not stop the match)."""
        recorder = self.log.recorder
        if recorder is None:
            return ""
        try:
            path = recorder.save_photo(image)
        except HistoryError as error:
            self._tell(error)
            path = ""
        self._tell_photo_failures()
        return path

    def close(self) -> None:
        self.log.close()  # (writes the photos still waiting)
        self._tell_photo_failures()

    def _tell_photo_failures(self) -> None:
        """The photos the background writer could not write (a full card), each said
        once in the journal; the match goes on without them."""
        for failure in self.log.store.photo_failures():
            self._tell(failure)

    @staticmethod
    def _tell(error: HistoryError) -> None:
        print(f"einhorn-table: {error}", file=sys.stderr)
