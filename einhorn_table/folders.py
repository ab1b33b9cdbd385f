"""Making the folders a command writes into (recordings, drawings, screenshots)."""

from __future__ import annotations

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
