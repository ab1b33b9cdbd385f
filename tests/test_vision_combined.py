"""The two readers cross-checked: who wins, who is dropped, when the table must ask."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from einhorn_table.vision.colours import FaceColours
from einhorn_table.vision.combined import (
    ALONE_SCORE,
    CERTAIN_VALUE,
    FAR_FROM_SURE,
    GUESSED_BOX,
    LIKELY_SCORE,
    PIP_OF_FACE,
    SURE_VALUE,
    TEXTURE_HEAT,
    UNBACKED_CLASSICAL,
    combine,
    likely_pip_polarity,
)
from einhorn_table.vision.learned import WEAK_DETECTION_THRESHOLD
from einhorn_table.vision.regions import HeatMap
from einhorn_table.vision.results import DieReading, FrameReading


def die(x: float, value: int | None, confidence: float = 0.8) -> DieReading:
    return DieReading((x, 10.0, x + 40.0, 50.0), value, confidence, (250, 250, 250))


def test_readers_that_agree_give_the_value_with_the_surer_confidence() -> None:
    reading = combine([(die(0, 4, 0.7), 0.9)], FrameReading((die(2, 4, 0.95),)))
    assert [(d.value, d.confidence) for d in reading.dice] == [(4, 0.95)]


def test_readers_that_disagree_give_no_value() -> None:
    reading = combine([(die(0, 4), 0.9)], FrameReading((die(2, 6),)))
    assert [(d.value, d.confidence) for d in reading.dice] == [(None, 0.0)]


def test_a_classical_reader_that_missed_pips_gives_way_to_a_very_sure_classifier() -> None:
    # From real photos: the classical reader fitted two pips of a 4 (or a 6) as a 2,
    # sure of it; the classifier is very sure of the 4.
    assert combine([(die(0, 4, SURE_VALUE), 0.9)], FrameReading((die(2, 2, 1.0),))).values == (4,)
    # ... in the detector's box: the classical box holds only the two pips it found.
    four = die(0, 4, SURE_VALUE)
    corners = replace(die(2, 2, 1.0), box=(12.0, 20.0, 30.0, 38.0))
    assert [d.box for d in combine([(four, 0.9)], FrameReading((corners,))).dice] == [four.box]
    # Less sure, or sure of fewer pips than the classical reader found: asked about.
    unsure = (die(0, 4, SURE_VALUE - 0.01), 0.9)
    assert combine([unsure], FrameReading((die(2, 2, 1.0),))).values == (None,)
    fewer = (die(0, 1, 0.99), 0.9)
    assert combine([fewer], FrameReading((die(2, 2, 1.0),))).values == (None,)


def test_a_die_keeps_the_detector_s_box_where_the_classical_one_is_a_guess() -> None:
    # From the demo: the classical reader took a red 6's whole body for the lone pip of
    # a huge 1 and could not read it; its box, 155 x 213 px around a die of 57, made the
    # table's empty-tray check drop the die ("2 dice seen, not 3").
    six = DieReading((165.0, 273.0, 222.0, 330.0), 6, 1.0, (200, 40, 40))
    guess = DieReading((111.0, 202.0, 266.0, 415.0), None, 0.0, (200, 40, 40))
    assert [(d.value, d.box) for d in combine([(six, 0.72)], FrameReading((guess,))).dice] == [
        (6, six.box)
    ]
    # A box of no value under twice the die's side, or one with a value, is still taken.
    near = replace(guess, box=(160.0, 268.0, 160.0 + 57 * GUESSED_BOX - 2, 330.0))
    assert [d.box for d in combine([(six, 0.72)], FrameReading((near,))).dice] == [near.box]
    fitted = replace(guess, value=6, confidence=0.9, box=(168.0, 276.0, 220.0, 328.0))
    assert [d.box for d in combine([(six, 0.72)], FrameReading((fitted,))).dice] == [fitted.box]


def test_a_learned_1_that_is_one_pip_of_an_unread_face_is_asked_about() -> None:
    # From the synthetic table: the detector found one pip of a green 2 of 100 px (a
    # box of 51 px) and the classifier read it as a sure 1; the classical reader found
    # the whole face (101 px) but could not read it.
    pip = DieReading((392.0, 187.0, 443.0, 238.0), 1, 0.97, (22, 140, 64))
    face = DieReading((361.0, 185.0, 462.0, 286.0), None, 0.38, (22, 140, 64))
    reading = combine([(pip, 0.43)], FrameReading((face,)))
    assert [(d.value, d.box) for d in reading.dice] == [(None, face.box)]
    # A learned 1 about as large as the face is the face, and keeps its value.
    whole = replace(pip, box=(366.0, 190.0, 366.0 + 101 * PIP_OF_FACE + 2, 281.0))
    assert combine([(whole, 0.43)], FrameReading((face,))).values == (1,)


def test_an_unsure_reader_gives_way_to_a_sure_one() -> None:
    learned_unsure = combine([(die(0, None, 0.3), 0.9)], FrameReading((die(2, 5, 0.9),)))
    assert learned_unsure.values == (5,)
    classical_unsure = combine([(die(0, 2, 0.9), 0.9)], FrameReading((die(2, None, 0.2),)))
    assert classical_unsure.values == (2,)
    both_unsure = combine([(die(0, None, 0.3), 0.9)], FrameReading((die(2, None, 0.2),)))
    assert both_unsure.values == (None,)


def test_a_die_only_one_reader_finds_is_kept_unless_the_detector_doubts_it() -> None:
    classical_only = die(200, 3)
    strong, weak = (die(0, 1), ALONE_SCORE + 0.1), (die(100, 6), ALONE_SCORE - 0.1)
    reading = combine([strong, weak], FrameReading((classical_only,)))
    assert reading.values == (1, 3)
    assert reading.category is None  # two dice are no roll


def test_a_speck_only_the_classical_reader_finds_and_cannot_read_is_no_die() -> None:
    # Camera noise in dim light, or a stray pip, grouped into a "die" a third the size
    # of the dice the detector is sure of: dropped, so the table need not ask.
    three = [(die(0, 4), 0.9), (die(100, 2), 0.8), (die(200, 6), 0.7)]
    speck = DieReading((300.0, 10.0, 312.0, 22.0), None, 0.0, (90, 90, 90))
    assert combine(three, FrameReading((speck,))).values == (4, 2, 6)
    # Kept: a speck it reads (such values need a sure classical reading anyway), a
    # find half the dice's size or more, and anything where the detector is sure of
    # no die to size it by.
    read_speck = replace(speck, value=1, confidence=UNBACKED_CLASSICAL)
    assert combine(three, FrameReading((read_speck,))).values == (4, 2, 6, 1)
    half = replace(speck, box=(300.0, 10.0, 320.0, 30.0))
    assert combine(three, FrameReading((half,))).values == (4, 2, 6, None)
    weak_only = [(die(0, 4, CERTAIN_VALUE), LIKELY_SCORE)]
    assert combine(weak_only, FrameReading((speck,))).values == (4, None)


def test_a_part_of_a_die_the_detector_found_gives_no_value() -> None:
    # Where dice touch, the detector may find a pip or two of one (a box under half
    # the size of the dice it is sure of), and the classifier reads just that: a 1.
    sure = [(die(0, 4), 0.9), (die(100, 2), 0.8)]
    part = DieReading((210.0, 20.0, 228.0, 38.0), 1, 0.64, (250, 250, 250))
    assert combine([*sure, (part, 0.6)], FrameReading(())).values == (4, 2, None)
    # The die it is part of, found by the classical reader too, unsure of it: asked about.
    whole = DieReading((200.0, 10.0, 240.0, 50.0), None, 0.3, (250, 250, 250))
    assert combine([*sure, (part, 0.4)], FrameReading((whole,))).values == (4, 2, None)
    # ... and where the classical reader reads it surely, its value stands.
    read = replace(whole, value=2, confidence=0.9)
    assert combine([*sure, (part, 0.4)], FrameReading((read,))).values == (4, 2, 2)
    # Half the dice's size or more is a die: its value stands.
    half = replace(part, box=(210.0, 20.0, 230.0, 40.0))
    assert combine([*sure, (half, 0.6)], FrameReading(())).values == (4, 2, 1)


def test_a_die_the_detector_is_less_sure_of_is_kept_only_where_its_value_is_sure() -> None:
    # A die on a slant: the detector scores it below ALONE_SCORE and the classical
    # reader does not find it, but the classifier reads its face without doubt.
    slanted = (die(100, 3, CERTAIN_VALUE), LIKELY_SCORE)
    assert combine([slanted], FrameReading(())).values == (3,)
    # Down to the weakest find the detector reports at all.
    weakest = (die(100, 3, 1.0), WEAK_DETECTION_THRESHOLD + 0.01)
    assert combine([weakest], FrameReading(())).values == (3,)
    # Only sure of the value (enough to read a die the detector is fairly sure of),
    # even where the detector nearly is; a find the detector scores lower still; or
    # one the classifier cannot read: dropped.
    only_sure = (die(100, 3, SURE_VALUE), ALONE_SCORE - 0.05)
    unsure_value = (die(100, 3, CERTAIN_VALUE - 0.01), LIKELY_SCORE + 0.05)
    doubted_find = (die(100, 3, 1.0), LIKELY_SCORE - 0.01)
    unread = (die(100, None, 0.95), LIKELY_SCORE + 0.05)
    for find in (only_sure, unsure_value, doubted_find, unread):
        assert combine([find], FrameReading(())).dice == ()
    assert combine([(die(100, 3, SURE_VALUE), ALONE_SCORE)], FrameReading(())).values == (3,)


def test_a_roll_of_three_comes_out_in_order_across_the_tray() -> None:
    learned = [(die(100, 2), 0.9), (die(0, 2), 0.9)]
    reading = combine(learned, FrameReading((die(200, 2), die(101, 2))))
    assert reading.values == (2, 2, 2)
    # Left to right; a die both found has the classical reader's box (x0 101, not 100).
    assert [d.box[0] for d in reading.dice] == [0, 101, 200]


def test_a_die_seen_on_a_slant_is_reported_once_and_unread() -> None:
    # The detector finds the top face (a 1) and the side face below it (a 5), and
    # scores the side face higher; the classical reader sees one die it cannot read.
    top = DieReading((440.0, 82.0, 478.0, 121.0), 1, 0.95, (240, 240, 240))
    side = DieReading((425.0, 117.0, 474.0, 165.0), 5, 0.99, (240, 240, 240))
    spanning = DieReading((430.0, 91.0, 470.0, 178.0), None, 0.0, (240, 240, 240))
    reading = combine([(top, 0.48), (side, 0.59)], FrameReading((spanning,)))
    assert [(d.value, d.box) for d in reading.dice] == [(None, spanning.box)]
    # Where the classical reader read that die, its value stands as before (the side
    # face, sure enough on its own, is one die more, so a roll of three is asked again).
    read = replace(spanning, value=1, confidence=0.9)
    assert combine([(top, 0.48), (side, 0.59)], FrameReading((read,))).values == (5, 1)


def _face(
    body: tuple[int, int, int], pips: tuple[int, int, int], share: float = 0.85
) -> FaceColours:
    return FaceColours(body, pips, share)


WHITE_DIE = _face((240, 240, 240), (20, 20, 20))
BLACK_DIE_RED_PIPS = _face((30, 30, 35), (200, 30, 35))


def test_the_classical_reader_looks_for_the_pips_the_dice_have() -> None:
    three = [(die(0, 4), 0.9), (die(100, 2), 0.8), (die(200, 6), 0.7)]
    assert likely_pip_polarity(three, [WHITE_DIE] * 3) == "dark"
    assert likely_pip_polarity(three, [BLACK_DIE_RED_PIPS] * 3) == "light"
    assert likely_pip_polarity(three, [WHITE_DIE, BLACK_DIE_RED_PIPS, WHITE_DIE]) == "both"
    # Pips not told surely from the body (big pips fill the box's middle), or too
    # alike in brightness: both kinds are looked for.
    unsure = _face((15, 15, 15), (230, 230, 230), share=0.52)
    assert likely_pip_polarity(three, [WHITE_DIE, WHITE_DIE, unsure]) == "both"
    faint = _face((200, 200, 200), (180, 170, 170))
    assert likely_pip_polarity(three, [WHITE_DIE, faint, WHITE_DIE]) == "both"
    # A find the detector doubts does not count; no dice at all: both.
    doubted = [*three, (die(300, None), ALONE_SCORE - 0.1)]
    assert likely_pip_polarity(doubted, [WHITE_DIE] * 3 + [BLACK_DIE_RED_PIPS]) == "dark"
    assert likely_pip_polarity([], []) == "both"
    # A die the learned reader cannot read: the classical reader looks for both.
    unread = [*three[:2], (die(200, None, 0.3), 0.7)]
    assert likely_pip_polarity(unread, [WHITE_DIE] * 3) == "both"


def test_finds_far_apart_in_one_unread_classical_box_are_separate_dice() -> None:
    # The classical reader joined pips across several dice into one box it could not
    # read: the detector's dice there lie dice apart, so each keeps its own reading.
    first = DieReading((218.0, 143.0, 257.0, 181.0), 2, 0.8, (200, 40, 40))
    second = DieReading((242.0, 273.0, 282.0, 314.0), 4, 0.9, (200, 40, 40))
    joined = DieReading((116.0, 96.0, 380.0, 360.0), None, 0.0, (200, 40, 40))
    reading = combine([(first, 0.77), (second, 0.69)], FrameReading((joined,)))
    assert 2 in reading.values and 4 in reading.values


def test_a_classical_value_nothing_backs_needs_a_sure_classical_reading() -> None:
    sure, doubtful = UNBACKED_CLASSICAL, UNBACKED_CLASSICAL - 0.1
    # Only the classical reader finds the die.
    assert combine([], FrameReading((die(200, 4, sure),))).values == (4,)
    alone = combine([], FrameReading((die(200, 4, doubtful),))).dice
    assert [d.value for d in alone] == [None]
    assert alone[0].confidence < 0.5  # below the bar, as a die with no value is
    # The learned reader finds it but is far from sure what it shows.
    far = (die(0, None, FAR_FROM_SURE - 0.05), 0.9)
    assert combine([far], FrameReading((die(2, 4, sure),))).values == (4,)
    assert combine([far], FrameReading((die(2, 4, doubtful),))).values == (None,)
    # Nearer sure, it leaves the classical reader's value standing.
    near = (die(0, None, FAR_FROM_SURE + 0.05), 0.9)
    assert combine([near], FrameReading((die(2, 4, doubtful),))).values == (4,)


def test_a_die_is_paired_with_its_own_classical_reading_not_a_neighbours() -> None:
    # From a real photo: the detector's box of a 1 reaches over the centre of the 5
    # beside it, which only the classical reader found. They are two dice, each read.
    one = DieReading((322.0, 210.0, 360.0, 249.0), 1, 0.99, (60, 60, 60))
    five = DieReading((308.0, 232.0, 338.0, 261.0), 5, 1.0, (200, 40, 40))
    reading = combine([(one, 0.68)], FrameReading((five,)))
    assert sorted((d.value, d.box) for d in reading.dice if d.value) == [
        (1, one.box),
        (5, five.box),
    ]
    # Two classical readings within one die (from another photo: its pips grouped
    # two ways, one read, one not): the die takes the nearer, though the other comes
    # first across the tray, and is read once.
    two = DieReading((325.0, 165.0, 356.0, 196.0), 2, 0.99, (60, 60, 60))
    nearer = DieReading((332.0, 171.0, 348.0, 186.0), 2, 0.9, (60, 60, 60))
    farther = DieReading((331.0, 184.0, 347.0, 200.0), None, 0.4, (60, 60, 60))
    reading = combine([(two, 0.72)], FrameReading((farther, nearer)))
    assert [d.value for d in reading.dice if d.value] == [2]
    assert [(d.box, d.confidence) for d in reading.dice if d.value] == [(nearer.box, 0.99)]


def heat_with(score: float, cells: tuple[slice, slice]) -> HeatMap:
    """A detector's heat of 0.02 over a 200 x 120 px frame (cells of 4 px), ``score``
    in ``cells`` (rows, columns)."""
    scores = np.full((30, 50), 0.02, np.float32)
    scores[cells] = score
    return HeatMap(scores, 4.0)


def test_an_unread_face_where_the_detector_sees_nothing_is_texture() -> None:
    # The dots of a speckled floor grouped into a face the classical reader cannot read,
    # where the detector scores nothing die-like: no die.
    speckles = DieReading((100.0, 40.0, 140.0, 80.0), None, 0.0, (120, 110, 100))
    assert combine([], FrameReading((speckles,)), heat_with(0.02, (slice(0), slice(0)))).dice == ()
    # Where the detector scores its middle at TEXTURE_HEAT or more, it stays, to be asked
    # about (a cocked die it cannot read either).
    middle = (slice(14, 16), slice(29, 31))
    kept = combine([], FrameReading((speckles,)), heat_with(TEXTURE_HEAT, middle)).dice
    assert kept == (speckles,)
    # A score at the box's edge only is not in its middle.
    edge = (slice(10, 11), slice(25, 26))
    assert combine([], FrameReading((speckles,)), heat_with(0.9, edge)).dice == ()
    # A face it reads surely stands whatever the detector scores there; without a heat
    # map nothing is dropped.
    read = replace(speckles, value=5, confidence=UNBACKED_CLASSICAL)
    assert combine([], FrameReading((read,)), heat_with(0.02, edge)).values == (5,)
    assert combine([], FrameReading((speckles,))).dice == (speckles,)


def test_the_heat_in_a_box_s_middle_half() -> None:
    heat = heat_with(0.7, (slice(15, 16), slice(30, 31)))  # the cell of pixel (120..124, 60..64)
    assert heat.highest_in_middle((100.0, 40.0, 140.0, 80.0)) == pytest.approx(0.7)
    assert heat.highest_in_middle((130.0, 40.0, 170.0, 80.0)) == pytest.approx(0.02)
    assert heat.scaled(2.0).highest_in_middle((200.0, 80.0, 280.0, 160.0)) == pytest.approx(0.7)
    # A box smaller than a cell, or reaching past the frame, still has a middle.
    assert heat.highest_in_middle((121.0, 61.0, 122.0, 62.0)) == pytest.approx(0.7)
    assert heat.highest_in_middle((190.0, 110.0, 260.0, 180.0)) == pytest.approx(0.02)
