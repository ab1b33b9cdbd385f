"""Roll photos: small JPEG files in ``photos/`` beside the history, oldest deleted first."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.history.errors import HistoryError

#: The default limit on the space the photos take: 200 MB.
DEFAULT_LIMIT_BYTES = 200 * 1024 * 1024


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
    """A folder of photos that never takes more than ``limit_bytes``: the oldest go first."""

    folder: Path
    limit_bytes: int = DEFAULT_LIMIT_BYTES

    def save(self, name: str, data: bytes) -> Path:
        """Write ``data`` as ``folder/name`` (whole or not at all), then keep to the limit."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / name
        partial = path.with_name(path.name + ".part")
        with open(partial, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
        self.prune(keep=path)
        return path

    def used_bytes(self) -> int:
        return sum(size for _, _, size in self._photos())

    def prune(self, keep: Path | None = None) -> list[Path]:
        """Delete the oldest photos until the rest fit in the limit; returns those deleted."""
        photos = sorted(self._photos())
        total = sum(size for _, _, size in photos)
        deleted: list[Path] = []
        for _, path, size in photos:
            if total <= self.limit_bytes:
                break
            if keep is not None and path == keep:
                continue
            path.unlink(missing_ok=True)
            total -= size
            deleted.append(path)
        return deleted

    def _photos(self) -> list[tuple[int, Path, int]]:
        if not self.folder.is_dir():
            return []
        found = []
        for path in self.folder.glob("*.jpg"):
            try:
                info = path.stat()
            except FileNotFoundError:
                continue
            found.append((info.st_mtime_ns, path, info.st_size))
        return found
