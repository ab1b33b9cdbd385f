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
        rows, columns = self.cells.shape
        grid = np.where(self.cells, np.uint8(255), np.uint8(0))
        size = (max(1, round(columns * side)), max(1, round(rows * side)))
        full = np.asarray(cv2.resize(grid, size, interpolation=cv2.INTER_NEAREST), np.uint8)
        # The grid's edge cells reach past the frame, or fall a little short of it.
        full = full[:height, :width]
        short = (height - full.shape[0], width - full.shape[1])
        if any(short):
            full = np.asarray(
                cv2.copyMakeBorder(full, 0, short[0], 0, short[1], cv2.BORDER_REPLICATE),
                np.uint8,
            )
        return full

    @property
    def share(self) -> float:
        """How much of the frame the map leaves to search, 0..1."""
        return float(self.cells.mean()) if self.cells.size else 0.0


@dataclass(frozen=True, eq=False)
class HeatMap:
    """The detector's score (0..1) that a die's centre lies in each cell of a grid over
    the frame."""

    #: (rows, columns); cell (0, 0) is the frame's top left corner.
    scores: npt.NDArray[np.float32]
    #: A cell's side in the frame's pixels.
    cell_px: float

    def scaled(self, factor: float) -> HeatMap:
        """The same map over a frame ``factor`` times as large."""
        return HeatMap(self.scores, self.cell_px * factor)

    def highest_in_middle(self, box: tuple[float, float, float, float]) -> float:
        """The highest score in the middle half of ``box`` (x0, y0, x1, y1; frame
        pixels): the cells its middle half covers, at least the one at its centre."""
        x0, y0, x1, y1 = box
        width, height = x1 - x0, y1 - y0
        rows, columns = self.scores.shape
        left = min(columns - 1, max(0, int((x0 + width / 4) // self.cell_px)))
        top = min(rows - 1, max(0, int((y0 + height / 4) // self.cell_px)))
        right = max(left + 1, min(columns, int(np.ceil((x1 - width / 4) / self.cell_px))))
        bottom = max(top + 1, min(rows, int(np.ceil((y1 - height / 4) / self.cell_px))))
        return float(self.scores[top:bottom, left:right].max())


def spread(cells: npt.NDArray[np.bool_], reach: float) -> npt.NDArray[np.bool_]:
    """The cells within ``reach`` cells of a true one."""
    radius = max(0, int(np.ceil(reach)))
    if radius == 0:
        return cells.copy()
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return np.asarray(cv2.dilate(cells.astype(np.uint8), disc), np.uint8).astype(bool)
