"""Dice too large for the detector (a camera mounted low): looked at again in a shrunk frame."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from vision_synthetic import sized_frame

from einhorn_table.vision.colours import FaceColours
from einhorn_table.vision.large_dice import (
    LARGE_DIE_PX,
    largest_die,
    needs_second_look,
    read_large_dice,
    unseen_large_dice_unread,
    with_large_dice,
)
from einhorn_table.vision.learned import LearnedFrame
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.regions import DieMap
from einhorn_table.vision.results import Box, DieReading, FrameReading
from einhorn_table.vision.scoring import iou, same_die
from einhorn_table.vision.synth import SynthFrame, SynthTable
from einhorn_table.vision.synth.palette import DICE_PALETTE

FACE = FaceColours(body=(240, 240, 235), pips=(20, 20, 20), body_share=0.8)


def found(*dice: tuple[Box, int | None]) -> LearnedFrame:
    return LearnedFrame(
        tuple((DieReading(box, value, 0.9, FACE.body), 0.8) for box, value in dice),
        DieMap(np.ones((10, 10), bool), 4.0),
        tuple(FACE for _ in dice),
    )


def test_a_large_die_takes_the_place_of_what_was_found_inside_it() -> None:
    pips = found(((210, 110, 250, 150), None), ((300, 200, 340, 240), 2), ((500, 50, 540, 90), 4))
    large = found(((200, 100, 360, 260), 3))
    merged = with_large_dice(pips, large)
    assert [(die.box, die.value) for die, _ in merged.dice] == [
        ((200, 100, 360, 260), 3),
        ((500, 50, 540, 90), 4),
    ]
    assert len(merged.faces) == 2
    assert merged.regions is pips.regions


def test_without_large_dice_the_first_look_stands() -> None:
    pips = found(((210, 110, 250, 150), 1))
    assert with_large_dice(pips, found()) is pips


def test_a_second_look_is_taken_for_a_large_die_or_where_the_detector_found_none() -> None:
    some = found(((10, 10, 50, 50), 2))
    assert not needs_second_look(some, 60.0)
    assert needs_second_look(some, LARGE_DIE_PX)
    assert needs_second_look(LearnedFrame((), None, ()), 0.0)
    tall = DieReading((0, 0, 30, 120), 5, 0.9, (0, 0, 0))
    assert largest_die(some, FrameReading((tall,))) == 120
    assert largest_die(LearnedFrame((), None, ()), FrameReading(())) == 0.0


def test_a_second_look_is_taken_where_the_detector_read_none_of_its_finds() -> None:
    # A die too large for the detector shows as its pips, each an unsure small find.
    pips = found(((210, 110, 250, 150), None), ((300, 200, 340, 240), None))
    assert needs_second_look(pips, 40.0)
    assert not needs_second_look(found(((210, 110, 250, 150), None), ((10, 10, 50, 50), 2)), 40.0)


def test_a_second_look_is_taken_where_only_weak_finds_were_read() -> None:
    # A large die's pips, each found weakly (under 0.5) and read as a sure 1.
    def weak(*dice: tuple[Box, int | None]) -> LearnedFrame:
        first = found(*dice)
        return replace(first, dice=tuple((die, 0.4) for die, _ in first.dice))

    assert needs_second_look(weak(((210, 110, 250, 150), 1), ((300, 200, 340, 240), 1)), 40.0)
    # A die read where the detector is fairly sure of it is a die: no second look.
    sure_and_weak = found(((10, 10, 50, 50), 2))
    sure_and_weak = replace(
        sure_and_weak,
        dice=(*sure_and_weak.dice, (DieReading((300, 200, 340, 240), 1, 0.9, FACE.body), 0.4)),
        faces=(FACE, FACE),
    )
    assert not needs_second_look(sure_and_weak, 40.0)


@pytest.mark.parametrize(("size", "seed", "value"), [(130, 130127, 4), (160, 160138, 4)])
def test_a_large_die_whose_pip_alone_was_found_is_not_read_as_a_1(
    size: int, seed: int, value: int
) -> None:
    # Frames of the synthetic benchmark's size table (``--first-seed 100``): the
    # detector found one pip of the 4, weakly (under 0.5), and the classifier read it as a
    # sure 1; the classical reader found the face but could not read it. No die was
    # read that the detector was fairly sure of, so the second look now sees it whole.
    frame = sized_frame(size, seed)
    shown = next(die for die in frame.dice if die.value == value)
    read = read_frame(frame.image).dice
    assert [d.value for d in read if same_die(shown.box, d.box)] == [value]


def test_a_large_die_the_classical_reader_cannot_read_calls_for_no_second_look() -> None:
    # Such a "die" is more often several dark dice taken for the pips of one face.
    unread = DieReading((0, 0, 260, 260), None, 0.0, (0, 0, 0))
    some = found(((10, 10, 50, 50), 2))
    assert largest_die(some, FrameReading((unread,))) == 40


def test_a_large_die_the_classical_reader_read_keeps_its_value_only_where_seen_again() -> None:
    face_of_dice = DieReading((340, 80, 640, 370), 2, 1.0, (60, 70, 80))
    large = DieReading((100, 100, 230, 230), 5, 0.9, (240, 240, 235))
    small = DieReading((20, 300, 70, 350), 3, 0.9, (240, 240, 235))
    classical = FrameReading((face_of_dice, large, small))
    # The second look sees the large die (a little smaller, as the detector's box may
    # be) and, where the face of dice was, only the dice (60 px each).
    seen = found(((110, 105, 220, 225), 5), ((380, 180, 440, 240), None), ((530, 200, 590, 260), 4))
    checked = unseen_large_dice_unread(classical, seen)
    assert [(die.value, die.confidence) for die in checked.dice] == [
        (None, 0.0),
        (5, 0.9),
        (3, 0.9),
    ]
    assert [die.box for die in checked.dice] == [die.box for die in classical.dice]
    # Seen again whole, every large die keeps its value.
    seen_whole = found(((350, 90, 630, 360), None), ((110, 105, 220, 225), 5))
    assert unseen_large_dice_unread(classical, seen_whole) is classical


def blurred_dice(seed: int) -> SynthFrame:
    rng = random.Random(seed)
    table = SynthTable(seed)
    values = [rng.randint(1, 6) for _ in range(3)]
    colours = [DICE_PALETTE[rng.randrange(len(DICE_PALETTE))] for _ in range(3)]
    return table.still(values, colors=colours, blur=6.0)


@pytest.mark.parametrize("seed", [21, 25, 34])
def test_dice_out_of_focus_are_not_read_as_the_pips_of_one_large_face(seed: int) -> None:
    # So blurred that their pips are all but gone, three dice a few sides apart look
    # to the classical reader like the pips of a large face, which it reads surely.
    frame = blurred_dice(seed)
    side = max(die.box[2] - die.box[0] for die in frame.dice)
    for die in read_frame(frame.image).dice:
        if die.value is not None:
            assert die.box[2] - die.box[0] < 2 * side, f"a {die.value} read at {die.box}"
            (truth,) = [shown for shown in frame.dice if same_die(shown.box, die.box)]
            assert die.value == truth.value


def large_dice(size: int, seed: int, *, coloured: bool = False) -> SynthFrame:
    rng = random.Random(seed)
    table = SynthTable(seed, die_size=size)
    count = 2 if size < 150 else 1
    colours = [DICE_PALETTE[rng.randrange(len(DICE_PALETTE))] for _ in range(count)]
    return table.still(
        [rng.randint(1, 6) for _ in range(count)], colors=colours if coloured else None
    )


def test_the_second_look_finds_a_large_die_whole_in_frame_pixels() -> None:
    frame = large_dice(170, 1)
    (truth,) = frame.dice
    dice = read_large_dice(frame.image, ReaderProfile(), 240.0)
    assert [die.value for die, _ in dice.dice] == [truth.value]
    assert iou(dice.dice[0][0].box, truth.box) >= 0.5


@pytest.mark.parametrize("size", [140, 170, 200])
@pytest.mark.parametrize("seed", range(4))
def test_large_dice_are_read_right_in_their_place(size: int, seed: int) -> None:
    frame = large_dice(size, seed)
    read = read_frame(frame.image).dice
    for die in frame.dice:
        at = [d.value for d in read if iou(d.box, die.box) >= 0.5]
        assert at == [die.value], f"the {die.value} at {die.box} was read as {at}"


@pytest.mark.parametrize(("size", "seed"), [(160, 7), (200, 0)])
def test_a_large_die_the_detector_sees_only_as_its_pips_is_read(size: int, seed: int) -> None:
    # The detector finds only the die's pips, none of which it can read, and the
    # classical reader, looking only around them, cannot read the die either: the
    # second look, in a shrunk frame, sees it whole.
    frame = large_dice(size, seed, coloured=True)
    (truth,) = frame.dice
    read = read_frame(frame.image).dice
    assert [d.value for d in read if same_die(truth.box, d.box)] == [truth.value]


@pytest.mark.parametrize("size", [110, 130, 160, 200])
def test_large_coloured_dice_are_never_read_as_another_value(size: int) -> None:
    right = shown = 0
    for seed in range(8):
        frame = large_dice(size, seed, coloured=True)
        read = read_frame(frame.image).dice
        for die in frame.dice:
            shown += 1
            values = [d.value for d in read if same_die(die.box, d.box) and d.value is not None]
            assert set(values) <= {die.value}, f"a {die.value} read as {values} ({size} px)"
            right += values == [die.value]
    assert right >= 0.6 * shown
