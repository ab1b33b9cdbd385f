"""Touching dice of different colours: a neighbour's find that one-find-per-die drops."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
from vision_helpers import labels, load_photo

from einhorn_table.vision.learned import SAME_DIE_REACH, Detection, distinct
from einhorn_table.vision.neighbours import neighbours_of_another_colour
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import same_die

RED, BLUE, GREEN = (40, 40, 200), (200, 60, 30), (50, 170, 50)  # BGR


def _tray(dice: list[tuple[tuple[int, int], tuple[int, int, int]]]) -> npt.NDArray[np.uint8]:
    """A grey tray with square dice of side 40 (centre, BGR body) and a dark pip each."""
    image = np.full((400, 400, 3), 180, np.uint8)
    for (cx, cy), colour in dice:
        cv2.rectangle(image, (cx - 20, cy - 20), (cx + 19, cy + 19), colour, -1)
        cv2.circle(image, (cx, cy), 4, (20, 20, 20), -1)
    return image


# A red die at (100, 100) touching a die at (140, 100), and two lone dice that set the
# typical side (40). The detector's box for the red die has grown over its neighbour
# (60 px), so the neighbour's own find, 30 px away, lies within 0.7 of that box's side.
GROWN = Detection((110.0, 100.0), (60.0, 60.0), 0.7)
NEIGHBOUR = Detection((140.0, 100.0), (40.0, 40.0), 0.6)
LONE = [Detection((300.0, 300.0), (40.0, 40.0), 0.9), Detection((300.0, 100.0), (40.0, 40.0), 0.9)]
LONE_DICE = [((300, 300), GREEN), ((300, 100), GREEN)]


def _neighbours(
    image: npt.NDArray[np.uint8], found: list[Detection]
) -> tuple[list[Detection], list[Detection]]:
    """The finds one-find-per-die keeps, and those the rule adds back."""
    kept = distinct(found)
    added = neighbours_of_another_colour(
        image, found, kept, threshold=0.3, same_die_reach=SAME_DIE_REACH
    )
    return kept, added


def _added(image: npt.NDArray[np.uint8], neighbour: Detection) -> list[Detection]:
    kept, added = _neighbours(image, [GROWN, neighbour, *LONE])
    assert neighbour not in kept  # one find per die drops it
    return added


def test_a_neighbour_of_another_colour_is_a_die_of_its_own() -> None:
    image = _tray([((100, 100), RED), ((140, 100), BLUE), *LONE_DICE])
    assert _added(image, NEIGHBOUR) == [NEIGHBOUR]


def test_a_find_of_the_same_colour_stays_dropped() -> None:
    # Another maximum on the same die, or a neighbour of the same colour: one find.
    image = _tray([((100, 100), RED), ((140, 100), RED), *LONE_DICE])
    assert _added(image, NEIGHBOUR) == []


def test_a_find_nearer_than_touching_dice_lie_stays_dropped() -> None:
    # 15 px from the kept find: closer than two dice of side 40 can lie, whatever colour
    # the find shows there.
    image = _tray([((100, 100), RED), ((140, 100), BLUE), *LONE_DICE])
    near = Detection((125.0, 100.0), (40.0, 40.0), 0.6)
    assert _added(image, near) == []


def test_a_find_much_larger_or_smaller_than_a_die_stays_dropped() -> None:
    # Where dice are too large for the detector it finds their pips and parts; a
    # whole die's find then spans several typical sides, and a pip's is a fraction.
    image = _tray([((100, 100), RED), ((140, 100), BLUE), *LONE_DICE])
    for side in (20.0, 70.0):
        other = Detection((140.0, 100.0), (side, side), 0.6)
        assert _added(image, other) == []


def test_a_weak_find_stays_dropped() -> None:
    image = _tray([((100, 100), RED), ((140, 100), BLUE), *LONE_DICE])
    weak = Detection((140.0, 100.0), (40.0, 40.0), 0.2)
    assert _added(image, weak) == []


def test_a_weak_find_of_the_neighbour_itself_does_not_hold_it_back() -> None:
    # The detector also finds the blue neighbour weakly (0.2, under the threshold), a
    # little further out, where one find per die keeps it: that weak find is no die
    # yet, and it is the neighbour's own, so the neighbour's find is still added.
    image = _tray([((100, 100), RED), ((145, 100), BLUE), *LONE_DICE])
    neighbour = Detection((138.0, 100.0), (40.0, 40.0), 0.6)
    own_weak = Detection((155.0, 100.0), (40.0, 40.0), 0.2)
    kept, added = _neighbours(image, [GROWN, neighbour, own_weak, *LONE])
    assert neighbour not in kept
    assert own_weak in kept
    assert added == [neighbour]


def test_no_find_is_added_without_a_sure_die_to_size_them_by() -> None:
    image = _tray([((100, 100), RED), ((140, 100), BLUE)])
    unsure = Detection((110.0, 100.0), (60.0, 60.0), 0.45)
    neighbour = Detection((140.0, 100.0), (40.0, 40.0), 0.4)
    assert _neighbours(image, [unsure, neighbour])[1] == []


def test_a_white_die_touching_a_black_one_is_read_on_a_real_photo() -> None:
    # byler_d6 IMG_20191208_111246: a white 6 touching a black 3. The 6's find lies
    # 0.64 of a side from the 3's and was dropped as the same die; the classical
    # reader's 6 was then paired with the 3's find, which reads 3, and the 6 was
    # asked about.
    name = "byler_d6__IMG_20191208_111246.jpg"
    boxes = [(die.value, die.box) for die in labels(name) if die.box is not None]
    six = next(box for value, box in boxes if value == 6 and box[0] < 400)
    three = next(box for value, box in boxes if value == 3 and 290 < box[0] < 300)
    reading = read_frame(load_photo(name))
    read_six = [d for d in reading.dice if same_die(six, d.box)]
    read_three = [d for d in reading.dice if same_die(three, d.box)]
    assert [d.value for d in read_six] == [6]
    assert [d.value for d in read_three] == [3]


def test_a_find_at_the_frame_s_edge_is_measured_inside_the_frame() -> None:
    # A die cut by the frame's right edge, touching a blue one: its colour is taken
    # from the part inside the frame.
    image = _tray([((385, 200), RED), ((345, 200), BLUE), *LONE_DICE])
    grown = Detection((355.0, 200.0), (60.0, 60.0), 0.7)
    cut = Detection((392.0, 200.0), (40.0, 40.0), 0.6)
    kept, added = _neighbours(image, [grown, cut, *LONE])
    assert cut not in kept
    assert added == [cut]
