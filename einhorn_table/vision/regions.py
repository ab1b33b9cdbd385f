"""Where in a frame dice may lie: a coarse map that the detector draws and the
classical reader searches, so that it spends no time on the rest of the frame."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, eq=False)
class DieMap:
    """A grid over the frame, true in the cells where a die may lie."""

    #: (rows, columns); cell (0, 0) is the frame's top left corner.
    cells: npt.NDArray[np.bool_]
    #: A cell's side in the frame's pixels.
    cell_px: float

    def scaled(self, factor: float) -> DieMap:
        """The same map over a frame ``factor`` times as large."""
        return DieMap(self.cells, self.cell_px * factor)

    def mask(self, shape: tuple[int, ...], scale: float = 1.0) -> npt.NDArray[np.uint8]:
        """The map as a mask (255 where a die may lie, else 0) of a frame of ``shape``
        that is the map's frame shrunk by ``scale``."""
        height, width = shape[:2]
        side = self.cell_px * scale
        rows = np.minimum((np.arange(height) / side).astype(np.intp), self.cells.shape[0] - 1)
        columns = np.minimum((np.arange(width) / side).astype(np.intp), self.cells.shape[1] - 1)
        inside = self.cells[rows[:, np.newaxis], columns[np.newaxis, :]]
        return np.where(inside, np.uint8(255), np.uint8(0))

    @property
    def share(self) -> float:
        """How much of the frame the map leaves to search, 0..1."""
        return float(self.cells.mean()) if self.cells.size else 0.0


def spread(cells: npt.NDArray[np.bool_], reach: float) -> npt.NDArray[np.bool_]:
    """The cells within ``reach`` cells of a true one."""
    radius = max(0, int(np.ceil(reach)))
    if radius == 0:
        return cells.copy()
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return np.asarray(cv2.dilate(cells.astype(np.uint8), disc), np.uint8).astype(bool)
