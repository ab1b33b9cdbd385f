"""Dice touching each other: read, or asked about, never read as a part of a die."""

from __future__ import annotations

import pytest

from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import same_die
from einhorn_table.vision.synth import SynthTable
from einhorn_table.vision.synth.palette import DICE_PALETTE

WHITE, RED, PURPLE, ORANGE = (DICE_PALETTE[i] for i in (0, 1, 6, 7))
ELL = [(0, 0), (1, 0), (0, 1)]

# Three dice in an L, each touching the corner die: the detector found a pip of one
# as a small die of its own, and the classifier read that pip as a sure 1.
# Per case: seed, values, colours, centre, angle.
CASES = {
    "orange, white and orange": (161, [4, 6, 1], [ORANGE, WHITE, ORANGE], (323.0, 247.0), 21.0),
    "red, white and purple": (167, [5, 4, 2], [RED, WHITE, PURPLE], (268.0, 181.0), 38.0),
}


@pytest.mark.parametrize("name", CASES)
def test_touching_dice_are_never_read_by_a_part_of_one(name: str) -> None:
    seed, values, colours, centre, angle = CASES[name]
    table = SynthTable(seed, die_size=48, camera_height=None)
    frame = table.side_by_side(values, ELL, colors=colours, centre=centre, angle=angle)
    for die in read_frame(frame.image).dice:
        # A turned die's upright box reaches over its neighbours' corners.
        under = [shown.value for shown in frame.dice if same_die(shown.box, die.box)]
        assert die.value is None or die.value in under, f"a {die.value} read where {under} lie"
