"""Finding the dice tray in a camera frame: the largest even four-cornered region."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.calibration.geometry import Corners, order_corners
from einhorn_table.vision.frames import shrunk

#: The tray fills at least this share of the frame, and leaves some of it free.
MIN_AREA_SHARE = 0.15
MAX_AREA_SHARE = 0.985


def find_tray(image: npt.NDArray[np.uint8]) -> Corners | None:
    """The tray's corners (clockwise from top left, frame pixels), or None when no
    large four-cornered region stands out.

    Regions come from the areas between edges (first: they follow the tray's
    rim most exactly) and else from splitting the frame into light and dark at
    Otsu's threshold, both ways round. Each large region is simplified to a
    polygon (``approxPolyDP``); four-cornered convex ones that fill their outline
    are scored by size and evenness (a tray floor is one colour).
    """
    grey = _u8(image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    grey, scale = shrunk(grey, 320.0)
    small = _u8(cv2.GaussianBlur(grey, (5, 5), 0))
    frame_area = float(small.shape[0] * small.shape[1])
    _, light = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
    masks = [_edge_free(small)]
    for mask in (light, cv2.bitwise_not(light)):
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        masks.append(_u8(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)))
    best: tuple[float, npt.NDArray[np.float64]] | None = None
    for mask in masks:
        if best is not None:
            break  # the edges outline the tray more exactly than a threshold
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if not MIN_AREA_SHARE <= area / frame_area <= MAX_AREA_SHARE:
                continue
            quad = _quadrilateral(np.asarray(contour, dtype=np.int32))
            if quad is None:
                continue
            filled = np.zeros_like(small)
            cv2.fillConvexPoly(filled, quad.astype(np.int32), 255)
            inside = filled > 0
            # The region must fill its outline (not a ring around something else).
            if np.count_nonzero(mask[inside]) < 0.85 * np.count_nonzero(inside):
                continue
            spread = float(np.std(small[filled > 0]))
            score = area / frame_area / (1.0 + spread / 8.0)
            if best is None or score > best[0]:
                best = (score, quad)
    if best is None:
        return None
    return order_corners([(float(x) / scale, float(y) / scale) for x, y in best[1]])


def _edge_free(small: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """255 where no edge is near: even regions, however the lamp shades them."""
    median = float(np.median(small))
    edges = cv2.Canny(small, max(8.0, 0.33 * median), max(24.0, 0.66 * median))
    edges = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    return _u8(cv2.bitwise_not(edges))


def _u8(image: object) -> npt.NDArray[np.uint8]:
    return np.asarray(image, dtype=np.uint8)


def _quadrilateral(contour: npt.NDArray[np.int32]) -> npt.NDArray[np.float64] | None:
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.04, 0.06):
        poly = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(poly) == 4 and cv2.isContourConvex(poly):
            return np.asarray(poly.reshape(4, 2), dtype=np.float64)
    return None
