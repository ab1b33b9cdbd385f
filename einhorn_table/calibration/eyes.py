"""The calibration flow's eyes on camera frames, with OpenCV and the vision package.

:class:`CameraEyes` implements :class:`~einhorn_table.calibration.seeing.Eyes`:
find the tray, judge the light, read dice, tell a die's colour, measure it,
notice a roll coming to rest.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from einhorn_table.calibration.clear_tray import things_in_tray
from einhorn_table.calibration.geometry import Corners, bounding_box
from einhorn_table.calibration.light import LightSample, light_sample
from einhorn_table.calibration.measure import measure_die
from einhorn_table.calibration.seeing import RGB, DieMeasure, Image, RestWatch
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.calibration.tray_reading import read_in_tray
from einhorn_table.vision.colours import colors_too_alike, dice_set_color
from einhorn_table.vision.empty_tray import drop_unchanged
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import Box, FrameReading
from einhorn_table.vision.watcher import EventKind, RollWatcher, TrayState, shrink


class _WatcherRest:
    def __init__(self, empty_tray: Image) -> None:
        self._watcher = RollWatcher(reference=shrink(empty_tray))
        self._rests = 0

    def at_rest(self, image: Image, t: float) -> bool:
        events = self._watcher.feed(image, t)
        rested = any(
            e.kind in (EventKind.SETTLED, EventKind.NUDGED) and not e.same_as_last
            for e in events
        )
        self._rests += rested
        return rested

    def rests(self) -> int | None:
        return None if self._watcher.state is TrayState.MOVING else self._rests

    def held_since(self) -> float | None:
        return self._watcher.still_since


class CameraEyes:
    """The flow's eyes on real (or synthetic) camera frames."""

    def find_tray(self, image: Image) -> Corners | None:
        return find_tray(image)

    def light(self, image: Image, corners: Corners) -> LightSample:
        x0, y0, x1, y1 = bounding_box(corners, -4.0, _size(image))
        grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        return light_sample(np.asarray(grey, dtype=np.uint8))

    def read(self, image: Image, profile: ReaderProfile, corners: Corners | None) -> FrameReading:
        return read_in_tray(image, profile, corners)

    def dice_colour(self, image: Image, boxes: Sequence[Box]) -> RGB:
        return dice_set_color(image, [
            (int(b[0]), int(b[1]), int(b[2]), int(b[3])) for b in boxes
        ])

    def measure(self, image: Image, box: Box, value: int) -> DieMeasure:
        return measure_die(image, box, value)

    def colours_too_alike(self, a: RGB, b: RGB) -> bool:
        return colors_too_alike(a, b)

    def things_in_tray(self, image: Image, corners: Corners) -> tuple[Box, ...]:
        return things_in_tray(image, corners)

    def floor_colour(self, image: Image, corners: Corners) -> RGB:
        # The middle of the floor's box (its walls and corners left out): the median.
        x0, y0, x1, y1 = bounding_box(corners, 0.0, _size(image))
        dx, dy = (x1 - x0) // 5, (y1 - y0) // 5
        middle = image[y0 + dy:max(y1 - dy, y0 + dy + 1), x0 + dx:max(x1 - dx, x0 + dx + 1)]
        b, g, r = (int(v) for v in np.median(middle.reshape(-1, 3), axis=0))
        return (r, g, b)

    def rest_watch(self, empty_tray: Image) -> RestWatch:
        return _WatcherRest(empty_tray)

    def changed_since(self, reading: FrameReading, image: Image, empty_tray: Image,
                      ) -> FrameReading:
        # As the table does in play (einhorn_table.adapters.vision_tray).
        return drop_unchanged(reading, image, shrink(empty_tray))


def _size(image: Image) -> tuple[int, int]:
    return int(image.shape[1]), int(image.shape[0])
