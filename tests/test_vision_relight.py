"""Telling the same tray seen otherwise (other light, a knocked camera) from dice that
moved, on synthetic trays."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from einhorn_table.vision.relight import SameScene, displacement, registration, same_scene
from einhorn_table.vision.synth import SynthTable, knocked
from einhorn_table.vision.watcher import shrink

SETTINGS = {"threshold": 12, "tolerance": 0.15, "most_pixels": 23}


def _tray(seed: int) -> tuple[SynthTable, np.ndarray]:
    table = SynthTable(seed)
    table.roll_sequence([2, 3, 5], settle_frames=1)
    return table, table.settled_frames(1)[0].image


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_other_light_is_the_same_scene_without_a_move(seed: int) -> None:
    table, before = _tray(seed)
    now = table.settled_frames(1)[0].image.astype(np.float32)
    now *= np.linspace(1.2, 0.85, now.shape[1], dtype=np.float32)[None, :, None]
    scene = same_scene(shrink(np.clip(now, 0, 255).astype(np.uint8)), shrink(before),
                       **SETTINGS)
    assert isinstance(scene, SameScene) and scene.warp is None and scene.moved_px == 0


@pytest.mark.parametrize(("dx", "dy", "turn"), [(8, -4, 0.0), (-16, 6, 0.0), (0, 0, 1.5)])
def test_a_knocked_camera_is_the_same_scene_moved(dx: float, dy: float, turn: float) -> None:
    table, before = _tray(3)
    now = knocked(table.settled_frames(1)[0].image, dx, dy, turn)
    scene = same_scene(shrink(now), shrink(before), **SETTINGS)
    assert scene is not None and scene.warp is not None
    # 640x480 shrunk to 160x120: a quarter of the camera's pixels.
    expected = max(np.hypot(dx, dy), np.radians(turn) * np.hypot(320, 240)) / 4
    assert scene.moved_px == pytest.approx(expected, rel=0.35, abs=0.5)


@pytest.mark.parametrize(("dx", "dy"), [(8, 4), (4, -2), (-8, -4), (0, 4)])
def test_a_knock_is_seen_also_where_the_picture_shows_plain_table_around_the_tray(
    dx: float, dy: float,
) -> None:
    """The mount guide's view: table around the tray. A small knock changes
    nothing along the picture's edges (plain table), yet the tray moved: a knock.
    (The watcher once also asked that the edges change, and took these for rolls.)"""
    table = SynthTable(2, camera_height=1.0, tray_margin=0.08, die_size=40)
    table.roll_sequence([2, 3, 5], settle_frames=1)
    before = table.settled_frames(1)[0].image
    now = knocked(table.settled_frames(1)[0].image, dx, dy)
    scene = same_scene(shrink(now), shrink(before), **SETTINGS)
    assert scene is not None and scene.warp is not None
    assert scene.moved_px == pytest.approx(np.hypot(dx, dy) / 4, rel=0.2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_die_moved_is_no_scene_seen_otherwise(seed: int) -> None:
    table, before = _tray(seed)
    nudged = table.nudge_sequence(0, settle_frames=1)[-1].image
    assert same_scene(shrink(nudged), shrink(before), **SETTINGS) is None
    knocked_too = knocked(nudged, 8, 4)
    assert same_scene(shrink(knocked_too), shrink(before), **SETTINGS) is None


def test_dice_thrown_elsewhere_are_no_knocked_camera_even_where_ecc_lines_them_up() -> None:
    """Two rolls in a row from the headless demo: ECC lines the first picture up with
    the second by a turn of 7 degrees and a shift of about 70 small pixels. Taken for a
    knock, the new roll was never read and the demo stopped. A knock moves the picture
    a little (at most 8 % of the picture's shorter side); this moved it far."""
    folder = Path(__file__).parent / "fixtures" / "watcher"
    before = cv2.imread(str(folder / "roll_before.png"))
    now = cv2.imread(str(folder / "roll_now.png"))
    assert before is not None and now is not None and now.shape == (120, 160, 3)
    warp = registration(now, before, shifted_only=True)
    assert warp is not None and displacement(warp, now.shape) > 50  # what ECC finds
    assert same_scene(now, before, **SETTINGS) is None


def test_a_picture_moved_far_is_no_knock() -> None:
    table, before = _tray(4)
    far = knocked(table.settled_frames(1)[0].image, 120, 60)  # a quarter of the picture
    assert same_scene(shrink(far), shrink(before), **SETTINGS) is None
