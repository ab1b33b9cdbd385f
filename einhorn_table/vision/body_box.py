"""A die's box from its body: where its colour stands out from what lies around it.

The detector's boxes are rough (on byler's photos off-centre by 8 % of a side, and
some 0.6 to 0.8 of the die's side), and the classifier reads a crop of the die's
true box better. Where a die lies alone on a plain tray its body is easy to tell from
the tray, and its outline gives the box.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.results import Box, box_centre, box_side

#: The window looked in reaches this many box sides from the box's centre each way.
WINDOW_REACH = 0.9
#: A pixel is the die's where its colour (CIE Lab, 0..255 each) lies at least this far
#: from the median colour of the window's rim, taken to be the tray's.
BODY_CONTRAST = 25.0
#: A body smaller or larger than these shares of the box's side is not the die's alone
#: (a part of it, or the die merged with a neighbour or a shadow).
SMALLEST = 0.6
LARGEST = 1.5


def body_box(image: npt.NDArray[np.uint8], box: Box) -> Box | None:
    """The box of the body of the die roughly boxed by ``box`` in a BGR frame: the
    pixels near the box (:data:`WINDOW_REACH`) whose colour stands out from the rim of
    that window (:data:`BODY_CONTRAST`), joined to the box's centre. None where the
    centre is not on such a body, where the body runs to the window's edge (it touches
    something else), or where its side is not :data:`SMALLEST` to :data:`LARGEST` times
    the box's."""
    side = box_side(box)
    cx, cy = box_centre(box)
    reach = WINDOW_REACH * side
    height, width = image.shape[:2]
    left, top = int(max(0.0, cx - reach)), int(max(0.0, cy - reach))
    right, bottom = int(min(width, cx + reach)), int(min(height, cy + reach))
    window = image[top:bottom, left:right]
    if min(window.shape[:2]) < 8:
        return None
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
    rim = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    distance = np.linalg.norm(lab - np.median(rim, axis=0), axis=2)
    body = (distance > BODY_CONTRAST).astype(np.uint8)
    body = cv2.morphologyEx(body, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(body)
    row = min(max(int(cy) - top, 0), labels.shape[0] - 1)
    column = min(max(int(cx) - left, 0), labels.shape[1] - 1)
    part = labels[row, column]
    if part == 0:
        return None
    x, y, w, h = (int(v) for v in stats[part][:4])
    if x == 0 or y == 0 or x + w >= window.shape[1] or y + h >= window.shape[0]:
        return None
    if not SMALLEST * side <= max(w, h) <= LARGEST * side:
        return None
    return (float(left + x), float(top + y), float(left + x + w), float(top + y + h))
