"""Telling the same dice pushed together (a bumped tray) from a new roll, by readings."""

from __future__ import annotations

import pytest

from einhorn_table.vision.moved_together import moved_together
from einhorn_table.vision.results import DieReading, FrameReading


def _dice(*dice: tuple[int | None, float, float]) -> FrameReading:
    """Dice 40 px across: (value, x, y of the middle)."""
    return FrameReading(tuple(DieReading((x - 20, y - 20, x + 20, y + 20), v, 0.9, (240, 240, 240))
                              for v, x, y in dice))


LYING = _dice((2, 100, 100), (3, 300, 120), (5, 200, 300))


@pytest.mark.parametrize(("dx", "dy"), [(0, 0), (12, -6), (-40, 25), (90, 0)])
def test_the_dice_lying_pushed_alike_moved_together(dx: float, dy: float) -> None:
    now = _dice((5, 200 + dx, 300 + dy), (2, 100 + dx + 3, 100 + dy - 2), (3, 300 + dx, 120 + dy))
    assert moved_together(LYING, now) == (dx, dy)  # the median of the dice's shifts


def test_dice_thrown_anew_did_not_move_together() -> None:
    assert moved_together(LYING, _dice((2, 400, 100), (3, 150, 320), (5, 300, 300))) is None
    # the same faces, but not all moved alike (each shifted otherwise by a third of a die)
    assert moved_together(LYING, _dice((2, 110, 100), (3, 310, 120), (5, 210, 314))) is None


def test_other_faces_or_other_dice_did_not_move_together() -> None:
    assert moved_together(LYING, _dice((2, 110, 100), (3, 310, 120), (6, 210, 300))) is None
    assert moved_together(LYING, _dice((2, 110, 100), (3, 310, 120))) is None
    assert moved_together(LYING, _dice((2, 110, 100), (3, 310, 120), (None, 210, 300))) is None
    two_alike = _dice((4, 100, 100), (4, 300, 100))
    assert moved_together(two_alike, _dice((4, 320, 110), (4, 120, 110))) == (20, 10)


def test_one_die_showing_its_face_again_is_a_roll() -> None:
    """A single die re-rolled shows its old face one time in six: no telling."""
    assert moved_together(_dice((6, 100, 100)), _dice((6, 130, 100))) is None
