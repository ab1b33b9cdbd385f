"""Frames held in memory (synthetic, or recorded earlier) played back as a camera.

Each :meth:`~ReplaySource.read` gives the next frame with its own timestamp, as a
camera would; after the last one the source says the camera stopped. The tests and
the benchmarks play scenes through the tray with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from einhorn_table.adapters.source_base import BaseSource, SourceError
from einhorn_table.ports import Frame

if TYPE_CHECKING:
    from einhorn_table.ports import Image


class ReplaySource(BaseSource):
    """``images`` played back one per read, at ``times`` (seconds)."""

    description = "frames played back"
    simulated = True

    def __init__(self, images: Sequence[Image], times: Sequence[float]) -> None:
        super().__init__()
        if len(images) != len(times):
            raise SourceError(f"{len(images)} frames but {len(times)} timestamps")
        self._frames = list(zip(images, times, strict=True))
        self._next = 0

    def _open(self) -> None:
        pass

    def _read(self) -> Frame | None:
        if self._next >= len(self._frames):
            raise SourceError(f"{self.description}: all {len(self._frames)} frames were read")
        image, t = self._frames[self._next]
        self._next += 1
        return Frame(image, t, self._next)

    def _close(self) -> None:
        pass
