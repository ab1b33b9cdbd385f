"""Where the match is written down as it happens: the ``MatchRecorder`` seam.

The history store (SQLite, with resume) will implement the same protocol; until
then :class:`JsonLinesRecorder` writes the match notation of RULES.md section 8,
one line per input, each flushed and fsync'ed before ``append`` returns.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol, TextIO

from einhorn_table.errors import EinhornError
from einhorn_table.rules import Input, Setup, format_input


class RecorderError(EinhornError):
    """An input could not be written down; the message says what to do."""


class MatchRecorder(Protocol):
    """Keeps every input of a match, durably, in order."""

    def append(self, item: Input) -> None:
        """Write ``item``; it is on disk when this returns, else raises :class:`RecorderError`."""
        ...

    def close(self) -> None: ...


class JsonLinesRecorder:
    """A match file of JSON lines (RULES.md section 8), made durable line by line."""

    def __init__(self, path: Path, setup: Setup) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() and path.stat().st_size > 0:
                raise RecorderError(
                    f"the match file {path} already exists; choose another name or move it away"
                )
            self._file: TextIO | None = open(path, "a", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise RecorderError(_disk_message(path, error)) from None
        self.append(setup)

    def append(self, item: Input) -> None:
        if self._file is None:
            raise RecorderError(f"the match file {self.path} is closed")
        line = format_input(item) + "\n"
        try:
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as error:
            raise RecorderError(_disk_message(self.path, error)) from None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _disk_message(path: Path, error: OSError) -> str:
    return (
        f"Cannot write the match to {path} ({error.strerror or error}). Nothing was lost, "
        "but no input is taken until it can be saved: free some space on the SD card "
        "(or fix the folder's permissions), then press the button again."
    )
