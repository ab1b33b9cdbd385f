"""A table whose typical die a calibration measured is read at that die's scale."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from vision_synthetic import sized_frame

from einhorn_table.calibration.fit import candidate_readers
from einhorn_table.calibration.profile import DiceSection
from einhorn_table.vision.profile import READ_DIE_PX, ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import same_die


def test_frames_are_shrunk_so_that_the_typical_die_is_read_at_its_best_size() -> None:
    plain = ReaderProfile()
    assert plain.read_side(480, 640) == plain.max_side
    large = ReaderProfile(typical_die_px=200.0)
    assert large.read_side(480, 640) == pytest.approx(640 * READ_DIE_PX / 200.0)
    # Sizes are in pixels of the full frame: in a phone's photo, 200 px is a small die
    # (32 px once shrunk to max_side), and 1,000 px a large one.
    assert large.read_side(3024, 4032) == large.max_side
    phone = ReaderProfile(typical_die_px=1000.0)
    assert phone.read_side(3024, 4032) == pytest.approx(4032 * READ_DIE_PX / 1000.0)
    # Dice already small are never enlarged: max_side still bounds the side.
    small = ReaderProfile(typical_die_px=30.0)
    assert small.read_side(480, 640) == small.max_side


def test_calibration_offers_a_reader_at_the_measured_die_s_scale_first() -> None:
    dice = DiceSection(die_px=180.0, die_px_min=150.0, die_px_max=210.0, pip_polarity="dark")
    candidates = candidate_readers(dice)
    assert candidates[0] == replace(candidates[1], typical_die_px=180.0)
    assert candidates[-1] == ReaderProfile()
    assert all(c.typical_die_px is None for c in candidates[1:])


def test_without_a_measured_die_there_is_no_such_reader() -> None:
    dice = DiceSection(pip_polarity="dark")
    assert all(c.typical_die_px is None for c in candidate_readers(dice))


# Frames of the synthetic benchmark's size table, never read when it was chosen
# (``vision_synthetic.py --tables known --first-seed 100``), with the typical die its
# row measured: a 4 of 160 px the reader without it reads as another value, and a 2
# of 200 px it misreads as well.
LARGE_DICE = {"160 px": (160, 160138, 208.5), "200 px": (200, 200130, 249.0)}


@pytest.mark.parametrize("name", LARGE_DICE)
def test_a_large_die_is_read_right_at_the_typical_die_s_scale(name: str) -> None:
    size, seed, typical = LARGE_DICE[name]
    frame = sized_frame(size, seed)
    reading = read_frame(frame.image, ReaderProfile(typical_die_px=typical))
    shown = [(die.value, die.box) for die in frame.dice if die.value is not None]
    assert len(reading.dice) == len(shown)
    for value, box in shown:
        assert [d.value for d in reading.dice if same_die(box, d.box)] == [value]
