"""A second look with the detector where dice are too large for it, in a shrunk frame.

The detector was trained on dice up to about a hundred pixels across (a webcam over
a tray). A die much larger than that, as under a camera mounted low, it does not
see whole: it finds the die's pips, or a few of them, as small dice of their own,
and the classifier may then read two pips of a 3 as a sure 2. The classical reader,
which fits pips to the six layouts, still finds most such dice whole. So where
either reader finds a die of :data:`SECOND_LOOK_PX` or more (the classical reader one
it can read; the detector's box of a die it sees only in part is smaller than the
die), where the detector finds no die at all, or where it reads none of the dice it
is fairly sure of, the learned reader looks again at the frame shrunk until that die is about
:data:`LARGE_DIE_TARGET` pixels across (at least to half the size), where the
detector sees it whole. Each large
die it finds there takes the place of whatever the first look found inside its box,
unless the first look saw that die whole too and read it more surely.

On the synthetic table (``benchmarks/vision_synthetic.py``) this reads 80 to 93 % of
dice of 110 to 200 px right, none wrong, against 35 to 80 % and up to 7.5 % silently
wrong without it; no labelled photo of the development sets reads otherwise. It
looks again from dice of 100 px found rather than 110 px since a 3 of 134 px, which
the detector found at 86 px beside a die found at 103 px, was read from two of its
pips as a 2; that finds one more die of the development photos (in epanemu_dice3,
asked about) and reads the synthetic table as before.

A die of 160 or 200 px the detector may see only as its pips, each a small find it
cannot read; the classical reader, looking only around those finds, may then not read
the die either, and no die of 100 px is found to call for the second look. So it is
also taken where the learned reader read none of its finds: on the synthetic table
that reads 14 more of its 160 dice of 130 to 200 px right (5 of them not found at
all before, 9 asked about), and no labelled photo otherwise. Where the detector
finds such a pip weakly, the classifier may still read it as a sure 1, so the second
look is taken wherever the learned reader read no die the detector is fairly sure of
(:data:`~einhorn_table.vision.combined.ALONE_SCORE`): on the size rows' frames never
read before (seeds 100 to 139) 2 of the 5 silent errors of dice of 130 to 200 px go,
and the benchmark's own frames read 3 more large dice right; no labelled photo
otherwise.

The second look also checks the classical reader's large dice. In a badly blurred
frame (or one out of focus) the classical reader can take whole dice for the pips
of one large face, and read that face surely: two dice a few die sides apart make a
"2" of 300 px. The detector, which sees dice and not pips, finds no die of that size
there, only the dice themselves. So a large die the classical reader read keeps its
value only where the second look finds a die there at least :data:`SEEN_SHARE` of
its side; otherwise it is reported with no value, and the table asks.
On the synthetic table blurred by 6 px, this takes the silent errors from 5 of 120
dice to 2; of its dice of 100 to 200 px, one (of 130 px) is now asked about.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.combined import ALONE_SCORE
from einhorn_table.vision.frames import shrunk
from einhorn_table.vision.learned import DETECTOR_FILE, MODEL_DIR, LearnedFrame, learned_reader
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import DieReading, FrameReading, box_side
from einhorn_table.vision.scoring import centre_inside, same_die

#: A die this large (pixels of the frame read) is beyond what the detector sees whole.
LARGE_DIE_PX = 110.0
#: A die found this large or larger may be larger still: the detector's box of a die of
#: 130 px, which it sees only in part, can be as small as 86 to 103 px.
SECOND_LOOK_PX = 100.0
#: The second look shrinks the frame so that the largest die is about this large...
LARGE_DIE_TARGET = 70.0
#: ...and by at least this factor (also where no die has been found to size it by).
MOST_SCALE = 0.5
#: A die the first look found at least this share of a large die's side, inside it, is
#: that die seen whole (a part of its face, or its pips, are smaller).
SEEN_WHOLE = 0.8
#: A large die the classical reader read is a die where the second look finds one there
#: at least this share of its side (a face whose pips are dice holds only dice).
SEEN_SHARE = 0.5


def look_again_for_large_dice(
    image: npt.NDArray[np.uint8],
    profile: ReaderProfile,
    learned: LearnedFrame,
    classical: FrameReading,
    model_dir: Path = MODEL_DIR,
    detector: str = DETECTOR_FILE,
) -> tuple[LearnedFrame, FrameReading]:
    """``learned`` (the learned reader's first look at ``image``), with the large dice
    of a second look in a shrunk frame where it may have missed them, and
    ``classical`` (the classical reader's reading of it) without a value for a large
    die that look does not see (see the module)."""
    largest = largest_die(learned, classical)
    if not needs_second_look(learned, largest):
        return learned, classical
    seen = read_large_dice(image, profile, largest, model_dir, detector)
    large = dice_of_at_least(seen, LARGE_DIE_PX)
    return with_large_dice(learned, large), unseen_large_dice_unread(classical, seen)


def largest_die(learned: LearnedFrame, classical: FrameReading) -> float:
    """The longer side of the largest die either reader found (0 for none). Only the
    classical dice it read count: one it cannot read may be several dark dice whose
    bodies it took for the pips of one large face."""
    read = [die for die in classical.dice if die.value is not None]
    return max((box_side(die.box) for die in [*read, *(d for d, _ in learned.dice)]), default=0.0)


def needs_second_look(learned: LearnedFrame, largest_found: float) -> bool:
    """Whether the frame may hold dice too large for the detector: a die of
    :data:`SECOND_LOOK_PX` or more was found (``largest_found``, its side, by either
    reader), the detector found no die at all (its regions are None then), or the
    learned reader read none of the dice it is fairly sure of (a detector score of
    :data:`~einhorn_table.vision.combined.ALONE_SCORE`): the finds it read may then be
    a large die's pips, each read as a 1."""
    if largest_found >= SECOND_LOOK_PX or learned.regions is None:
        return True
    return all(die.value is None or score < ALONE_SCORE for die, score in learned.dice)


def read_large_dice(
    image: npt.NDArray[np.uint8],
    profile: ReaderProfile,
    largest_found: float,
    model_dir: Path = MODEL_DIR,
    detector: str = DETECTOR_FILE,
) -> LearnedFrame:
    """The learned reader on ``image`` shrunk so that a die of ``largest_found`` pixels
    becomes about :data:`LARGE_DIE_TARGET` (by :data:`MOST_SCALE` at least): the dice
    of :data:`SEEN_SHARE` times :data:`LARGE_DIE_PX` or more, in ``image``'s pixels."""
    scale = MOST_SCALE
    if largest_found > 0:
        scale = min(MOST_SCALE, LARGE_DIE_TARGET / largest_found)
    height, width = image.shape[:2]
    small, scale = shrunk(image, max(1, round(max(height, width) * scale)))
    smallest = SEEN_SHARE * LARGE_DIE_PX
    found = (
        learned_reader(model_dir, detector)
        .read_scored(small, min_confidence=profile.min_confidence, min_die_px=smallest * scale)
        .scaled(1.0 / scale)
    )
    return dice_of_at_least(replace(found, regions=None), smallest)


def dice_of_at_least(found: LearnedFrame, side: float) -> LearnedFrame:
    """``found`` with only its dice whose longer side is ``side`` pixels or more."""
    kept = [
        (die, face)
        for die, face in zip(found.dice, found.faces, strict=True)
        if box_side(die[0].box) >= side
    ]
    return replace(found, dice=tuple(die for die, _ in kept), faces=tuple(face for _, face in kept))


def unseen_large_dice_unread(classical: FrameReading, seen: LearnedFrame) -> FrameReading:
    """``classical`` with no value for each large die it read (:data:`LARGE_DIE_PX` or
    more) where the second look (``seen``) finds no die of :data:`SEEN_SHARE` of its
    side or more: its "pips" were most likely dice, as in a blurred frame."""

    unseen = [_unseen(die, seen) for die in classical.dice]
    if not any(unseen):
        return classical
    dice = tuple(
        replace(die, value=None, confidence=0.0) if gone else die
        for die, gone in zip(classical.dice, unseen, strict=True)
    )
    return replace(classical, dice=dice)


def _unseen(die: DieReading, seen: LearnedFrame) -> bool:
    """Whether a die the classical reader read is large, and ``seen`` holds no die of
    :data:`SEEN_SHARE` of its side or more there."""
    side = box_side(die.box)
    return (
        die.value is not None
        and side >= LARGE_DIE_PX
        and not any(
            box_side(found.box) >= SEEN_SHARE * side and same_die(found.box, die.box)
            for found, _ in seen.dice
        )
    )


def with_large_dice(learned: LearnedFrame, large: LearnedFrame) -> LearnedFrame:
    """``learned`` with each of ``large``'s dice in place of its dice whose centres lie
    inside that die's box (its pips, or parts of its face). Where one of those is nearly
    as large (:data:`SEEN_WHOLE`), both looks saw the die whole, and the surer reading
    of it stands."""
    first = [
        (die, score, face) for (die, score), face in zip(learned.dice, learned.faces, strict=True)
    ]
    new = [
        (die, score, face)
        for (die, score), face in zip(large.dice, large.faces, strict=True)
        if not any(
            box_side(seen.box) >= SEEN_WHOLE * box_side(die.box)
            and centre_inside(seen.box, die.box)
            and seen.confidence >= die.confidence
            for seen, _, _ in first
        )
    ]
    if not new:
        return learned
    kept = [
        found
        for found in first
        if not any(centre_inside(found[0].box, die.box) for die, _, _ in new)
    ]
    kept += new
    kept.sort(key=lambda found: (found[0].box[0], found[0].box[1]))
    return LearnedFrame(
        tuple((die, score) for die, score, _ in kept),
        learned.regions,
        tuple(face for _, _, face in kept),
        learned.heat,
    )
