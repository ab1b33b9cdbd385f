"""Reading the dice in the calibrated tray, as ``play`` does: a die against a wall
shows its top face over the wall and is read whole; a die beside the tray is not read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from einhorn_table.calibration.profile import load_profile
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.calibration.tray_reading import (
    TrayReader,
    read_in_tray,
    rigid_move,
    tray_reader_for,
)
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.synth import SynthTable
from einhorn_table.vision.synth.views import MOUNT_GUIDE_HEIGHT, MOUNT_GUIDE_MARGIN

#: A camera at the mount guide's height: 37 cm above a tray seen 36 cm wide, with
#: about 2 cm of table around the tray (the dice's size set by each test).
MOUNT_GUIDE = {"camera_height": MOUNT_GUIDE_HEIGHT, "tray_margin": MOUNT_GUIDE_MARGIN}

WALLS = [
    [("left", 0.4), ("right", 0.6), ("top", 0.3)],
    [("bottom", 0.7), ("left", 0.75), ("right", 0.25)],
    [("top", 0.65), ("bottom", 0.35), ("left", 0.2)],
]


@pytest.mark.parametrize("die_px", [None, 40.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_dice_against_the_walls_are_read_whole(seed: int, die_px: float | None) -> None:
    """Seen from above the middle, the top face of a die against a wall lies partly
    over the wall, outside the floor's outline. (Read in the outline widened by 4
    pixels, as before, none of these six rolls was read right: the table asked.)"""
    table = SynthTable(seed, die_size=40, **MOUNT_GUIDE)  # type: ignore[arg-type]
    corners = find_tray(table.empty().image)
    assert corners is not None
    for k, walls in enumerate(WALLS):
        values = [(seed + k + i) % 6 + 1 for i in range(3)]
        frame = table.still(values, positions=table.against_walls(walls))
        x0, y0, x1, y1 = table.geometry.floor
        assert any(d.box[0] < x0 or d.box[2] > x1 or d.box[1] < y0 or d.box[3] > y1
                   for d in frame.dice)  # the scene is what the test says
        reading = read_in_tray(frame.image, ReaderProfile(), corners, die_px)
        assert sorted(v or 0 for v in reading.values) == sorted(values), walls


def test_a_die_beside_the_tray_is_not_read() -> None:
    """A die lying on the table just beside the tray's wall is no die of the roll."""
    table = SynthTable(4, die_size=30, **MOUNT_GUIDE)  # type: ignore[arg-type]
    corners = find_tray(table.empty().image)
    assert corners is not None
    x0, _, _, _ = table.geometry.outer
    frame = table.still([2, 5, 6], positions=[(250.0, 200.0), (400.0, 300.0),
                                              (x0 / 2, 240.0)])
    assert sorted(v or 0 for v in read_frame(frame.image).values) == [2, 5, 6]
    assert sorted(v or 0 for v in read_in_tray(frame.image, ReaderProfile(),
                                                corners).values) == [2, 5]


def test_the_tray_reader_reads_in_its_corners_as_they_move() -> None:
    """Told the camera moved, the tray reader reads in the outline where it lies now."""
    table = SynthTable(2, die_size=40, **MOUNT_GUIDE)  # type: ignore[arg-type]
    corners = find_tray(table.empty().image)
    assert corners is not None
    reader = TrayReader(ReaderProfile(), corners, 40.0)
    frame = table.still([3, 4, 1], positions=[(320.0, 240.0), (200.0, 150.0), (450.0, 330.0)])
    assert sorted(v or 0 for v in reader(frame.image).values) == [1, 3, 4]
    reader.camera_moved(np.asarray([[1, 0, 300], [0, 1, 0]], dtype=np.float32))
    assert sorted(v or 0 for v in reader(frame.image).values) == [4]  # only the left die
    assert reader.corners is not None
    assert reader.corners[0] == pytest.approx((corners[0][0] - 300, corners[0][1]))


def test_frames_larger_than_at_calibration_are_read_in_the_outline_scaled() -> None:
    """Calibrated on 640x480 frames, the camera now gives 1280x960 (the same view):
    the outline and the die's size grow with them, and dice against the walls are
    read. (Not scaled, the outline covers the top left quarter of the tray.)"""
    small = SynthTable(5, size=(640, 480), die_size=40, **MOUNT_GUIDE)  # type: ignore[arg-type]
    large = SynthTable(5, size=(1280, 960), die_size=80, **MOUNT_GUIDE)  # type: ignore[arg-type]
    corners = find_tray(small.empty().image)
    assert corners is not None
    frame = large.still([2, 6, 3], positions=large.against_walls(WALLS[0]))
    scaled = TrayReader(ReaderProfile(), corners, 40.0, (640, 480))
    assert sorted(v or 0 for v in scaled(frame.image).values) == [2, 3, 6]
    assert scaled.corners is not None and scaled.corners[2] == pytest.approx(
        (corners[2][0] * 2, corners[2][1] * 2))
    as_calibrated = TrayReader(ReaderProfile(), corners, 40.0)
    assert sorted(v or 0 for v in as_calibrated(frame.image).values) != [2, 3, 6]


def test_a_tables_calibration_gives_the_reader_its_outline_dice_size_and_frame_size() -> None:
    shipped = Path(__file__).resolve().parent.parent / "calibration" / "synth.toml"
    reader = tray_reader_for(load_profile(shipped))
    assert reader.calibrated is not None and reader.calibrated[0] == (40.4, 40.8)
    assert reader.die_px == 70.0 and reader.frame_size == (640, 480)
    assert reader.anchor is None  # where it was loaded from is not known
    assert tray_reader_for(None).calibrated is None


def test_the_tray_is_anchored_where_the_finder_finds_it_in_the_calibrations_picture(
    tmp_path: Path,
) -> None:
    """Loaded from its file, the calibration's empty-tray picture beside it gives the
    place the tray's moves are measured from; without the picture there is none."""
    shipped = Path(__file__).resolve().parent.parent / "calibration" / "synth.toml"
    reader = tray_reader_for(load_profile(shipped), shipped)
    assert reader.anchor is not None and reader.calibrated is not None
    for found, calibrated in zip(reader.anchor, reader.calibrated, strict=True):
        assert found == pytest.approx(calibrated, abs=3.0)
    alone = tmp_path / "calibration.toml"
    alone.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    assert tray_reader_for(load_profile(alone), alone).anchor is None


def test_an_anchored_reader_follows_a_tray_set_back_off_its_place_at_the_first_look() -> None:
    """The first empty tray seen is measured against the calibration's finding (the
    anchor): a tray standing 33 px off its calibrated place moves the outline at
    once. Without the anchor the first finding is only where later moves count from."""
    table = SynthTable(3, die_size=40, **MOUNT_GUIDE)  # type: ignore[arg-type]
    calibrated = find_tray(table.empty().image)
    assert calibrated is not None
    first = table.slid(table.empty().image, -32, 8)
    anchored = TrayReader(ReaderProfile(), calibrated, 40.0, anchor=calibrated)
    unanchored = TrayReader(ReaderProfile(), calibrated, 40.0)
    walls = table.against_walls([("left", 0.3), ("left", 0.7), ("bottom", 0.5)])
    frame = table.slid(table.still([1, 4, 6], positions=walls).image, -32, 8)
    for reader in (anchored, unanchored):
        reader.tray_seen_empty(first)
        reader(frame)
    assert anchored.corners is not None and unanchored.corners == calibrated
    for now, then in zip(anchored.corners, calibrated, strict=True):
        assert now == pytest.approx((then[0] - 32, then[1] + 8), abs=0.5)
    assert sorted(v or 0 for v in anchored(frame).values) == [1, 4, 6]
    assert sorted(v or 0 for v in unanchored(frame).values) != [1, 4, 6]


def test_an_empty_tray_found_moved_moves_the_outline_as_far() -> None:
    """The empty tray is pushed along the table where the roll watcher cannot line it
    up (it tells the reader of no move): the tray finder finds it moved against where
    it first found it empty, and the outline follows. (Left as calibrated, the outline
    loses the dice against the wall the tray was pushed towards.)"""
    table = SynthTable(3, die_size=40, **MOUNT_GUIDE)  # type: ignore[arg-type]
    calibrated = find_tray(table.empty().image)
    assert calibrated is not None
    reader = TrayReader(ReaderProfile(), calibrated, 40.0)
    reader.tray_seen_empty(table.empty().image)
    reader.tray_seen_empty(table.slid(table.empty().image, 30, -12))
    walls = table.against_walls([("right", 0.3), ("right", 0.7), ("top", 0.5)])
    frame = table.slid(table.still([5, 2, 6], positions=walls).image, 30, -12)
    assert sorted(v or 0 for v in reader(frame).values) == [2, 5, 6]
    assert reader.corners is not None
    for now, then in zip(reader.corners, calibrated, strict=True):
        assert now == pytest.approx((then[0] + 30, then[1] - 12), abs=0.5)
    as_calibrated = TrayReader(ReaderProfile(), calibrated, 40.0)
    assert sorted(v or 0 for v in as_calibrated(frame).values) != [2, 5, 6]


def test_a_tray_found_otherwise_than_turned_and_shifted_is_left_out() -> None:
    first = ((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0))
    shifted = tuple((x + 12, y - 5) for x, y in first)
    move = rigid_move(shifted, first, 72.0)
    assert move is not None and move[:, 2] == pytest.approx((-12, 5), abs=1e-3)
    larger = tuple((1.1 * x, 1.1 * y) for x, y in first)
    assert rigid_move(larger, first, 72.0) is None  # another region, not the tray moved
    skewed = ((100.0, 100.0), (500.0, 100.0), (560.0, 400.0), (100.0, 400.0))
    assert rigid_move(skewed, first, 72.0) is None
    far = tuple((x + 100, y) for x, y in first)
    assert rigid_move(far, first, 72.0) is None
