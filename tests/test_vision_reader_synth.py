"""The reader on clean synthetic rolls: every die found where it lies, none misread."""

from __future__ import annotations

import random

import pytest

from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.results import Box
from einhorn_table.vision.scoring import iou
from einhorn_table.vision.synth import SynthTable

SEEDS = range(40)


def still_roll(seed: int) -> tuple[list[tuple[int, Box]], list[tuple[int | None, Box]]]:
    """The true dice of one seeded still roll of three, and what the reader made of it."""
    table = SynthTable(seed, players=4)
    rng = random.Random(seed)
    frame = table.still([rng.randint(1, 6) for _ in range(3)])
    truth = [(die.value, die.box) for die in frame.dice if die.value is not None]
    read = [(die.value, die.box) for die in read_frame(frame.image).dice]
    return truth, read


@pytest.mark.parametrize("seed", SEEDS)
def test_a_die_given_a_value_lies_where_a_die_of_that_value_lies(seed: int) -> None:
    truth, read = still_roll(seed)
    for value, box in read:
        if value is None:
            continue
        overlaps = [(iou(box, true_box), true_value) for true_value, true_box in truth]
        best, true_value = max(overlaps)
        assert best >= 0.5, f"a {value} read at {box} is no die of {truth}"
        assert value == true_value, f"a {true_value} read as {value} at {box}"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_die_of_a_clean_roll_is_read_right_in_its_place(seed: int) -> None:
    truth, read = still_roll(seed)
    for true_value, true_box in truth:
        found = [value for value, box in read if iou(box, true_box) >= 0.5]
        assert found == [true_value], f"the {true_value} at {true_box} was read as {found}"


@pytest.mark.parametrize("seed", SEEDS)
def test_every_box_lies_within_the_frame(seed: int) -> None:
    _, read = still_roll(seed)
    for _, (x0, y0, x1, y1) in read:
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
