"""A die's box from its body, where a rough box gives only where it roughly is."""

from __future__ import annotations

import numpy as np
import pytest

from einhorn_table.vision.body_box import body_box
from einhorn_table.vision.synth import SynthTable

TRAY = (200, 190, 180)


def _tray_with(*squares: tuple[int, int, int, tuple[int, int, int]]) -> np.ndarray:
    """A plain tray with square dice: (left, top, side, BGR colour) each."""
    frame = np.zeros((120, 200, 3), np.uint8)
    frame[:] = TRAY
    for left, top, side, colour in squares:
        frame[top : top + side, left : left + side] = colour
    return frame


def test_a_rough_box_is_put_right_by_the_dies_body() -> None:
    frame = _tray_with((60, 40, 40, (30, 30, 160)))  # a red die, 40 px, at (60..100, 40..80)
    # The detector's box: off-centre, and a fifth too small.
    assert body_box(frame, (67.0, 46.0, 99.0, 78.0)) == (60.0, 40.0, 100.0, 80.0)
    # Far too small a box (a third of the die's side): its window does not hold the die.
    assert body_box(frame, (74.0, 54.0, 87.0, 67.0)) is None


def test_a_die_on_a_synthetic_tray_is_boxed_closely() -> None:
    frame = SynthTable(seed=4).still([5])
    die = frame.dice[0]
    x0, y0, x1, y1 = die.box
    side = max(x1 - x0, y1 - y0)
    rough = (x0 + 0.15 * side, y0 + 0.1 * side, x1 - 0.1 * side, y1 - 0.15 * side)
    found = body_box(frame.image, rough)
    assert found is not None
    assert found == pytest.approx(die.box, abs=0.12 * side)


def test_no_body_where_none_stands_out_or_it_is_not_the_die_alone() -> None:
    # A die as pale as the tray: nothing stands out.
    assert body_box(_tray_with((60, 40, 40, (205, 195, 185))), (60.0, 40.0, 100.0, 80.0)) is None
    # Two touching dice: the body runs on past the window.
    pair = _tray_with((60, 40, 40, (30, 30, 160)), (100, 40, 40, (30, 30, 160)))
    assert body_box(pair, (60.0, 40.0, 100.0, 80.0)) is None
    # A box around a single pip-sized spot: too small to be the die.
    assert body_box(_tray_with((76, 56, 8, (20, 20, 20))), (60.0, 40.0, 100.0, 80.0)) is None
    # A box at the frame's edge with too little of the frame to look in.
    assert body_box(_tray_with(), (-20.0, -20.0, -4.0, -4.0)) is None
