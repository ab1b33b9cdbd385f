"""The pieces of calibrating: tray finder, light, measuring, fitting, advice, camera lock."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.advice import advice
from einhorn_table.calibration.camera_lock import lock_for, settings_from_locked
from einhorn_table.calibration.fit import (
    PHANTOM_COST,
    SILENT_ERROR_COST,
    CalibrationError,
    Tally,
    best_reader,
    candidate_readers,
    choose_min_confidence,
    dice_section,
    reader_for,
    roll_tally,
)
from einhorn_table.calibration.geometry import move_corner, order_corners
from einhorn_table.calibration.light import LightSample, light_report, light_sample
from einhorn_table.calibration.measure import DieMeasure, measure_die
from einhorn_table.calibration.profile import DiceSection
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.vision.profile import UNKNOWN_TABLE_DIE_PX, ReaderProfile
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable


@pytest.mark.parametrize("seed", [0, 1, 4, 7])
@pytest.mark.parametrize("lighting", [0.5, 1.4])
def test_the_tray_is_found_along_its_rim_or_floor(seed: int, lighting: float) -> None:
    table = SynthTable(seed, lighting=lighting, size=(800, 600) if seed % 2 else (640, 480))
    corners = find_tray(table.still([1, 4, 6]).image)
    assert corners is not None
    outlines = (table.geometry.floor, table.geometry.outer)
    assert any(
        max(abs(corners[0][0] - o[0]), abs(corners[0][1] - o[1]),
            abs(corners[2][0] - o[2]), abs(corners[2][1] - o[3])) < 12
        for o in outlines
    ), (corners, outlines)


def test_no_tray_in_a_picture_without_one() -> None:
    rng = np.random.default_rng(1)
    noise = rng.integers(0, 255, size=(480, 640, 3), dtype=np.uint8)
    assert find_tray(noise) is None


def test_corners_are_ordered_clockwise_from_the_top_left_and_move_in_and_out() -> None:
    corners = order_corners([(600.0, 420.0), (40.0, 40.0), (40.0, 430.0), (610.0, 50.0)])
    assert corners == ((40.0, 40.0), (610.0, 50.0), (600.0, 420.0), (40.0, 430.0))
    inward = move_corner(corners, 0, -10.0, False, (640, 480))
    assert inward[0][0] > 40 and inward[0][1] > 40 and inward[1:] == corners[1:]
    outward = move_corner(corners, 0, 100.0, False, (640, 480))
    assert outward[0] == (0.0, 0.0)  # kept inside the frame


def test_light_report_warns_of_dark_glare_and_flicker() -> None:
    steady = light_report([LightSample(120.0, 0.0)] * 30)
    assert steady.warnings == ()
    dark = light_report([LightSample(35.0, 0.0)] * 30)
    assert any("Too little light" in w for w in dark.warnings)
    glare = light_report([LightSample(150.0, 0.05)] * 30)
    assert any("Glare" in w for w in glare.warnings)
    flicker = light_report([LightSample(120.0 + (6 if k % 2 else -6), 0.0) for k in range(30)])
    assert flicker.flicker > 0.05 and any("flickers" in w for w in flicker.warnings)
    grey = np.full((10, 10), 100, np.uint8)
    grey[0, :5] = 255
    assert light_sample(grey) == LightSample(pytest.approx(107.75), 0.05)


def test_measuring_a_synthetic_die_finds_its_size_and_pip_polarity() -> None:
    table = SynthTable(2, die_size=40, dice_colors=[DICE_PALETTE[0], DICE_PALETTE[5]], players=2)
    for colour, polarity in ((DICE_PALETTE[0], "dark"), (DICE_PALETTE[5], "light")):
        frame = table.still([5], colors=[colour])
        die = frame.dice[0]
        measure = measure_die(frame.image, tuple(float(v) for v in die.box), 5)
        assert measure.polarity == polarity
        assert 36 <= measure.size <= 60
        assert measure.pip_px is not None and 3 <= measure.pip_px <= 12


def test_dice_section_and_reader_narrow_to_what_was_measured() -> None:
    measures = [DieMeasure(40.0 + k % 5, "dark", 7.0, 90.0) for k in range(20)]
    dice = dice_section(measures)
    assert dice.die_px == pytest.approx(42.0) and dice.pip_polarity == "dark"
    reader = reader_for(dice)
    # 0.75 x the smallest; the largest stays the reader's own (its pip-contrast window).
    assert reader.min_die_px == pytest.approx(30.0)
    assert reader.max_die_px == ReaderProfile().max_die_px
    assert reader.pip_polarity == "dark"
    mixed = dice_section(measures + [DieMeasure(41.0, "light", 7.0, 80.0)] * 10)
    assert mixed.pip_polarity == "both"
    with pytest.raises(CalibrationError, match="roll the dice"):
        dice_section([])


def _photos(right: int, wrong: int = 0, count: int = 10) -> list[Tally]:
    """``count`` photos' tallies, each ``right`` dice right and ``wrong`` wrong."""
    return [Tally(right, wrong)] * count


def test_min_confidence_rises_where_a_higher_bar_stops_silent_errors() -> None:
    # At 0.5 each photo has a die read wrong; from 0.7 up that die is asked about.
    read_at = {0.5: _photos(4, 1), 0.6: _photos(4, 1), 0.7: _photos(4), 0.8: _photos(3)}
    assert choose_min_confidence(read_at) == 0.7
    # A bar that only costs right reads stays at the default, and none is below it.
    costly = {0.4: _photos(5), 0.5: _photos(4), 0.7: _photos(3)}
    assert choose_min_confidence(costly) == 0.5
    # Too few dice read to tell: the default.
    assert choose_min_confidence({0.5: _photos(1, 1, count=5), 0.7: _photos(1, count=5)}) == 0.5


def test_a_higher_bar_that_lets_a_silent_error_through_is_not_taken() -> None:
    # The combined reader takes the classical value where the learned one is unsure:
    # at 0.8 a die the two readers disagreed on (asked about at 0.5) is read wrong.
    read_at = {0.5: _photos(4), 0.8: [Tally(4, 1), *_photos(4, count=9)]}
    assert choose_min_confidence(read_at) == 0.5


def test_advice_names_small_dice_and_dim_light() -> None:
    small = DiceSection(die_px=18.0, pip_contrast=30.0)
    tips = advice(light_report([LightSample(40.0, 0.0)] * 5), small, (640, 480))
    text = " ".join(tips)
    assert "Too little light" in text and "lower the camera" in text and "faint" in text
    big = DiceSection(die_px=140.0, pip_contrast=120.0)
    assert any("raise the camera" in t for t in advice(None, big, (640, 480)))
    assert advice(None, None, (640, 480))  # always something to try


class FakePiCamera:
    description = "Raspberry Pi camera 0 (imx708, picamera2)"
    settings = CameraSettings(size=(1280, 960))
    locked: ClassVar[dict[str, object]] = {
        "ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5),
        "LensPosition": 2.5,
    }


def test_the_pi_cameras_locked_controls_become_camera_settings() -> None:
    lock = lock_for(FakePiCamera())()
    assert lock.settings == CameraSettings(
        size=(1280, 960), exposure_time_us=12000, analogue_gain=2.0,
        colour_gains=(1.8, 1.5), lens_position=2.5,
    )
    assert lock.message == "The camera's colour balance, exposure and focus are locked now."
    assert settings_from_locked({}) == CameraSettings()


def test_sources_without_a_camera_lock_say_so() -> None:
    class Recording:
        description = "recording frames/"

    lock = lock_for(Recording())()
    assert lock.settings == CameraSettings()
    assert "Nothing to lock on recording frames/" in lock.message


def test_roll_tally_counts_right_wrong_and_phantom_dice() -> None:
    assert roll_tally((3, 5, 6), (6, 5, 3)) == Tally(3, 0, 0)
    assert roll_tally((3, None, 6), (6, 5, 3)) == Tally(2, 0, 0)
    assert roll_tally((3, 4, 6), (6, 5, 3)) == Tally(2, 1, 0)
    assert roll_tally((3, 5, 6, 2), (6, 5, 3)) == Tally(3, 0, 1)
    # A wrong die costs SILENT_ERROR_COST right ones, a phantom die PHANTOM_COST.
    assert Tally(10, 1, 2).score == pytest.approx(10 - SILENT_ERROR_COST - 2 * PHANTOM_COST)


def test_candidates_narrow_the_smallest_die_only_and_ties_keep_the_base() -> None:
    dice = DiceSection(die_px=30.0, die_px_min=26.0, die_px_max=34.0, pip_polarity="dark")
    candidates = candidate_readers(dice)
    assert candidates[-1] == ReaderProfile()
    narrowed = candidates[0].min_die_px
    assert narrowed is not None and narrowed > UNKNOWN_TABLE_DIE_PX[0]
    assert all(c.max_die_px == ReaderProfile().max_die_px for c in candidates)
    assert best_reader([Tally(5), Tally(6), Tally(6)]) == 2
    assert best_reader([Tally(7), Tally(6)]) == 0


def test_camera_eyes_see_flicker_and_glare_on_the_tray() -> None:
    from einhorn_table.calibration.eyes import CameraEyes

    table = SynthTable(6)
    empty = table.empty().image
    corners = find_tray(empty)
    assert corners is not None
    eyes = CameraEyes()
    steady = light_report([eyes.light(empty, corners) for _ in range(10)])
    assert steady.warnings == ()
    flickering = [
        np.clip(empty.astype(np.float32) * (1.08 if k % 2 else 0.92), 0, 255).astype(np.uint8)
        for k in range(10)
    ]
    assert any("flickers" in w for w in light_report(
        [eyes.light(image, corners) for image in flickering]).warnings)
    glaring = empty.copy()
    glaring[150:250, 200:400] = 255  # a lamp mirrored in a glossy tray
    assert any("Glare" in w for w in light_report([eyes.light(glaring, corners)]).warnings)


def test_the_autopilot_enters_dice_as_a_parent_would() -> None:
    from einhorn_table.calibration.autopilot import entry_target

    assert entry_target((6, None, None), (2, 5, 6)) == (6, 2, 5)
    assert entry_target((3, 4, 6), (6, 5, 3)) == (3, 5, 6)
    assert entry_target((), (1, 2, 3)) == (1, 2, 3)


def test_a_threshold_that_wins_on_one_half_only_keeps_the_default() -> None:
    # Wrong reads at 0.5 only on even photos: half of the photos gain from 0.7.
    lucky = {0.5: [Tally(4, k % 2 == 0) for k in range(12)], 0.7: _photos(4, count=12)}
    assert choose_min_confidence(lucky) == 0.5
    everywhere = {0.5: _photos(4, 1, count=12), 0.7: _photos(4, count=12)}
    assert choose_min_confidence(everywhere) == 0.7
