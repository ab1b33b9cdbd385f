"""Roll photos: small JPEG files in ``photos/`` beside the history, oldest deleted first."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.history.errors import HistoryError

#: The default limit on the space the photos take: 200 MB.
DEFAULT_LIMIT_BYTES = 200 * 1024 * 1024
#: How a photo being written is named: ``000012-00034.jpg.part``.
PART = ".part"


def encode_jpeg(frame: Any, *, longest_side: int = 480, quality: int = 80) -> bytes:
    """A camera frame (a numpy image, BGR or grey) as a small JPEG: the adapter to OpenCV."""
    try:
        import cv2
    except ImportError:  # pragma: no cover - opencv is a core dependency
        raise HistoryError("roll photos need OpenCV: pip install opencv-python-headless") from None
    height, width = frame.shape[:2]
    scale = longest_side / max(height, width)
    if scale < 1:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise HistoryError("this camera frame could not be saved as a JPEG photo")
    return bytes(data.tobytes())


@dataclass(slots=True)
class PhotoShelf:
    """A folder of photos that never takes more than ``limit_bytes``: the oldest go first.

    A photo is written as ``NAME.jpg.part`` and renamed when whole, with the folder
    locked (``flock``) meanwhile. A ``.part`` that a power cut or a full card left
    behind is deleted by the next save, under that lock: so never one that a table
    using the same folder is writing right now, however its clock is set. (A folder
    that cannot be locked keeps its ``.part`` files.)
    """

    folder: Path
    limit_bytes: int = DEFAULT_LIMIT_BYTES

    def save(self, name: str, data: bytes) -> Path:
        """Write ``data`` as ``folder/name`` (whole or not at all), then keep to the limit."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / name
        partial = path.with_name(path.name + PART)
        with _locked(self.folder) as held:
            try:
                with open(partial, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(partial, path)
            except BaseException:
                partial.unlink(missing_ok=True)  # a full card: leave no half photo behind
                raise
            # (The folder listed once, under the lock: the .part files left behind, and
            # the photos to keep to the limit.)
            photos, parts = self._listing()
            if held:
                for part in parts:  # (no table is writing one while the folder is locked)
                    part.unlink(missing_ok=True)
        self._prune(photos, keep=path)
        return path

    def forget(self, prefix: str) -> int:
        """Delete the photos whose names begin ``prefix`` (a match's, ``000012-``), under
        the folder's lock; how many went. One that cannot be deleted (a read-only card)
        stays until the limit takes it."""
        gone = 0
        with _locked(self.folder), suppress(OSError):  # (no folder yet: no photo)
            for entry in os.scandir(self.folder):
                if entry.name.startswith(prefix) and entry.name.endswith(".jpg"):
                    with suppress(OSError):
                        os.unlink(entry.path)
                        gone += 1
        return gone

    def used_bytes(self) -> int:
        return sum(size for _, _, size in self._listing()[0])

    def _prune(self, found: list[tuple[int, str, int]], keep: Path) -> None:
        """Delete the oldest of the photos ``found`` (but ``keep``) until the rest fit in
        the limit."""
        photos = sorted(found)
        total = sum(size for _, _, size in photos)
        for _, name, size in photos:
            if total <= self.limit_bytes:
                break
            path = self.folder / name
            if path == keep:
                continue
            path.unlink(missing_ok=True)
            total -= size

    def _listing(self) -> tuple[list[tuple[int, str, int]], list[Path]]:
        """The folder's photos, (mtime, file name, size) each, and its ``.part`` files,
        from one listing of it."""
        photos: list[tuple[int, str, int]] = []
        parts: list[Path] = []
        try:
            entries = list(os.scandir(self.folder))
        except OSError:  # (none yet; or a folder this user may write in but not list)
            return photos, parts
        for entry in entries:
            if entry.name.endswith(".jpg"):
                try:
                    info = entry.stat()
                except FileNotFoundError:
                    continue
                photos.append((info.st_mtime_ns, entry.name, info.st_size))
            elif entry.name.endswith(f".jpg{PART}"):
                parts.append(self.folder / entry.name)
        return photos, parts


@contextmanager
def _locked(folder: Path) -> Iterator[bool]:
    """Hold the photo folder's lock (``flock`` on the folder itself) while a photo is
    written; yields whether it is held. Where it cannot be held, the photo is written
    all the same, and a ``.part`` left there stays rather than risk deleting one being
    written: on Windows (no ``flock``), and on a folder shared over the network, as two
    tables' folder is (NFS locks no folder: EBADF)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - the companion runs on Linux
        yield False
        return
    held, fd = False, None
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        fcntl.flock(fd, fcntl.LOCK_EX)  # (a write takes milliseconds)
        held = True
    except OSError:  # (NFS, or a folder this user may write in but not list)
        pass
    try:
        yield held
    finally:
        if fd is not None:
            os.close(fd)
