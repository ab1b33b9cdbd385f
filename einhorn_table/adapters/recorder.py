"""Write frames into a folder that a ``dir:`` source replays (to reproduce a problem)."""

from __future__ import annotations

import contextlib
import errno
from pathlib import Path

from einhorn_table.adapters.dir_source import list_pictures
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.folders import FolderError, make_folder
from einhorn_table.ports import Frame, FrameSource


class FrameRecorder:
    """Saves frames as ``000000.png``, ``000001.png``... in ``folder`` (made if missing).

    A folder that already holds pictures is refused, so that one recording never
    mixes with another.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        if folder.exists() and not folder.is_dir():
            raise SourceError(f"{folder} is a file; give a folder to record into.")
        if folder.is_dir() and list_pictures(folder):
            raise SourceError(
                f"{folder} already holds pictures; record into a new, empty folder."
            )
        try:
            make_folder(folder, "the recording")
        except FolderError as error:
            raise SourceError(str(error)) from None
        self.written = 0

    def write(self, frame: Frame) -> Path:
        from einhorn_table.adapters.image_files import write_picture

        path = self.folder / f"{self.written:06d}.png"
        try:
            write_picture(path, frame.image)
        except OSError as error:
            # A picture cut short by a full disk would stop the replay at it, and keep
            # the folder from being taken away (or recorded into again) when it is the
            # only one.
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
            raise SourceError(
                f"Could not write {path} ({error.strerror or error}): "
                f"{_what_to_do(error)}"
            ) from None
        self.written += 1
        return path


def _what_to_do(error: OSError) -> str:
    """What to do about a picture the disk did not take, by the system's reason."""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return ("the disk is full; free some space, or record onto another disk "
                "(a USB stick), and record again")
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "this folder takes no files; record into a folder you may write to"
    return "check that the disk is in place and the folder writable, and record again"


def record(source: FrameSource, folder: Path, count: int) -> int:
    """Read up to ``count`` frames from an opened ``source`` into ``folder``; returns how many."""
    recorder = FrameRecorder(folder)
    for _ in range(count):
        frame = source.read()
        if frame is None:
            break
        recorder.write(frame)
    return recorder.written
