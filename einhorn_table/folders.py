"""Making the folders a command writes into (recordings, drawings, screenshots)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from einhorn_table.errors import EinhornError


class FolderError(EinhornError):
    """A folder to write into cannot be made; the message says which and why."""


def make_folder(folder: Path, purpose: str) -> Path:
    """``folder``, made where it is missing; a plain error where it cannot be (a file of
    that name, no permission, a read-only disk)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FolderError(f"{folder} is a file, not a folder for {purpose}: name a folder") \
            from None
    except OSError as error:
        raise FolderError(f"cannot make the folder {folder} for {purpose} "
                          f"({error.strerror}): name a folder you may write to") from None
    return folder


def cannot_write_in(folder: Path) -> str | None:
    """Why no file can be saved in ``folder``, found by trying: its missing folders are
    made and a file is written in it, then all of it is taken away again; None where it
    worked. (Permissions alone do not tell: root passes them all, yet writes nothing on
    a read-only card, in /proc or in a network folder that refuses root.)"""
    missing: list[Path] = []
    place = folder
    while not place.exists() and not place.is_symlink() and place != place.parent:
        missing.append(place)
        place = place.parent
    made: list[Path] = []
    try:
        for part in reversed(missing):
            try:
                part.mkdir()
            except OSError as error:
                return f"the folder {part} cannot be made ({error.strerror or error})"
            made.append(part)
        try:
            handle, trial = tempfile.mkstemp(prefix=".einhorn-trial-", dir=folder)
        except OSError as error:
            return f"nothing can be written in {folder} ({error.strerror or error})"
        os.close(handle)
        os.unlink(trial)
        return None
    finally:
        for part in reversed(made):
            with contextlib.suppress(OSError):  # (something else wrote there meanwhile)
                part.rmdir()
