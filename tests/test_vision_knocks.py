"""Putting the camera's knocks together, and moving points the calibration marked with
them: by hand-made moves, and through the roll watcher on a synthetic tray."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from einhorn_table.vision.knocks import after, in_frame_pixels, no_move, pushed_by, seen_now
from einhorn_table.vision.synth import SynthTable, knocked
from einhorn_table.vision.watcher import SMALL_SIZE, EventKind, RollWatcher


def test_no_move_leaves_points_where_they_were() -> None:
    assert seen_now([(3.0, 4.0), (600.5, 7.25)], no_move()) == ((3.0, 4.0), (600.5, 7.25))


def test_two_shifts_make_one_shift_of_both() -> None:
    both = after(pushed_by(3, -1), pushed_by(5, 2))
    assert seen_now([(10.0, 10.0)], both)[0] == pytest.approx((18.0, 11.0))


def test_a_turn_then_a_shift_move_a_point_as_one_after_the_other() -> None:
    turn = cv2.invertAffineTransform(cv2.getRotationMatrix2D((50.0, 40.0), 10.0, 1.0))
    point = (90.0, 20.0)
    one_by_one = seen_now(seen_now([point], turn), pushed_by(4, 6))[0]
    assert seen_now([point], after(turn, pushed_by(4, 6)))[0] == pytest.approx(one_by_one)


def test_a_small_frames_move_is_that_many_times_larger_in_camera_pixels() -> None:
    frame = in_frame_pixels(pushed_by(2, -1), (160, 120), (640, 480))
    assert seen_now([(100.0, 200.0)], frame)[0] == pytest.approx((108.0, 196.0))
    turn = cv2.invertAffineTransform(cv2.getRotationMatrix2D((79.5, 59.5), 2.0, 1.0))
    middle = seen_now([(319.5, 239.5)], in_frame_pixels(turn, (160, 120), (640, 480)))
    assert middle[0] == pytest.approx((319.5, 239.5), abs=1e-3)  # turned about the middle


def test_the_watcher_puts_two_knocks_together() -> None:
    """The camera is knocked twice, the tray empty then with dice lying: the watcher's
    move since the first frame, in camera pixels, is both knocks (to 2 camera pixels)."""
    table = SynthTable(seed=2)
    images = [table.empty().image for _ in range(10)]
    images += [knocked(table.empty().image, 8, 4) for _ in range(30)]
    images += [knocked(f.image, 8, 4) for f in table.roll_sequence([2, 3, 5],
                                                                   settle_frames=30)]
    images += [knocked(f.image, 8 - 12, 4 + 6, 1.0) for f in table.settled_frames(30)]
    watcher = RollWatcher()
    kinds = []
    for i, image in enumerate(images):
        kinds += [e.kind for e in watcher.feed(image, i / 30) if e.kind != "motion_started"]
    assert kinds == [EventKind.UNCHANGED, EventKind.SETTLED, EventKind.UNCHANGED]
    size = (images[0].shape[1], images[0].shape[0])
    moved = in_frame_pixels(watcher.camera_warp, SMALL_SIZE, size)
    truth = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), 1.0, 1.0)
    truth[:, 2] += (-4, 10)
    # (The watcher lines up frames a quarter as wide: to about a third of their pixel.)
    for corner in [(40.0, 40.0), (600.0, 40.0), (600.0, 440.0), (40.0, 440.0)]:
        now = seen_now([corner], moved)[0]
        assert np.hypot(*(truth @ (*corner, 1.0) - now)) < 2.0
