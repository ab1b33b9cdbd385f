"""``dir:frames/``: pictures in a folder, replayed in name order (to reproduce a problem)."""

from __future__ import annotations

import re
from pathlib import Path

from einhorn_table.adapters.image_files import picture_or_none
from einhorn_table.adapters.opencv_source import not_a_video
from einhorn_table.adapters.source_base import BaseSource, Pacer, SourceError
from einhorn_table.ports import Clock, Frame

#: The picture files a folder source reads; others (notes, metadata) are skipped.
PICTURE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})

#: Timestamps of a folder replayed flat out assume this rate.
DEFAULT_FPS = 30.0


def natural_key(path: Path) -> tuple[tuple[int, int | str], ...]:
    """Sort ``frame2.png`` before ``frame10.png``: digits compare as numbers."""
    parts = re.split(r"(\d+)", path.name)
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in parts if part)


def list_pictures(folder: Path) -> list[Path]:
    """The picture files in ``folder``, in name order."""
    files = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in PICTURE_SUFFIXES]
    return sorted(files, key=natural_key)


class DirSource(BaseSource):
    """Reads the pictures of a folder one after another.

    ``fps`` paces the replay on ``clock`` (``None``: as fast as they are asked
    for); timestamps are ``index / fps`` either way, so a replay's frames have
    the spacing they had at the table. ``loop`` starts again after the last.
    """

    simulated = True

    def __init__(
        self, folder: Path, clock: Clock, *, fps: float | None = None, loop: bool = False
    ) -> None:
        super().__init__()
        self.folder = folder
        self.description = f"recorded pictures in {folder}"
        self._clock = clock
        self._fps = fps
        self._loop = loop
        self._pacer = Pacer(clock, fps)
        self._files: list[Path] = []
        self._position = 0

    def _open(self) -> None:
        if self.folder.is_file():
            mistaken = not_a_video(self.folder)  # (a match or settings file: no "file:")
            if mistaken is not None:
                raise SourceError(mistaken)
            picture = self.folder.suffix.lower() in PICTURE_SUFFIXES
            raise SourceError(
                f"{self.folder} is {'a picture' if picture else 'a file'}, not a folder: "
                "\"dir:\" takes the folder that holds the pictures"
                + (f", \"dir:{self.folder.parent}\"." if picture else
                   f"; a video file goes after \"file:\", \"file:{self.folder}\".")
            )
        if not self.folder.is_dir():
            raise SourceError(
                f"The folder {self.folder} does not exist. Check the path after "
                '"dir:", e.g. "dir:recordings/2024-05-01/".'
            )
        self._files = list_pictures(self.folder)
        if not self._files:
            kinds = ", ".join(sorted(PICTURE_SUFFIXES))
            raise SourceError(
                f"The folder {self.folder} holds no pictures ({kinds}). "
                "Record some first, or point at the folder that holds them."
            )
        self._position = 0

    def _read(self) -> Frame | None:
        import numpy as np

        if self._position >= len(self._files):
            if not self._loop:
                return None
            self._position = 0
        path = self._files[self._position]
        self._position += 1
        self._pacer.wait_for(self.frames_read)
        image = picture_or_none(path)  # (unreadable, or over the gigapixel OpenCV decodes)
        if image is None:
            raise SourceError(
                f"{path} could not be read as a picture. Delete it or replace it "
                "with a PNG or JPEG file."
            )
        fps = self._fps or DEFAULT_FPS
        pixels = np.ascontiguousarray(image, dtype=np.uint8)
        return Frame(image=pixels, timestamp=self.frames_read / fps, index=self.frames_read)

    def _close(self) -> None:
        self._files = []

    def __len__(self) -> int:
        """How many pictures the folder holds (once opened)."""
        return len(self._files)
