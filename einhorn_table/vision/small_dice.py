"""A second reading with the small-dice detector where a frame's dice are small.

The detector was trained on crops whose dice are at least half their size in the
photos and at least 14 px, so dice of about 20 px and up. Dice smaller than that,
as under a camera mounted high, or the companion's 1280-px camera read at 640 px
(a 16 mm die is about 27 px there), it mostly does not find: on the development
photos shrunk to half (dice of 14 to 27 px), the models trained on the other fold
read 1,355 of 1,814 dice right and miss 297. A second detector, the same network
trained the same way on crops whose dice may be as small as 12 px
(``vision_models/train.py``, ``SMALL_DICE_FLOOR``), finds most of them, but at the
photos' own size it loses dice the first one reads. So each frame is read first as
always; where the median side of the dice that reading reports (read or not) is
under :data:`SMALL_DICE_PX` pixels of the frame as read, the frame is read again with
the small-dice detector, and that reading replaces the first.

Measured held out (seed-7 fold models; the model card's "The small-dice detector"):
the photos shrunk to half read 1,477 dice right and 22 silently wrong, against 1,355
and 24; the photos as taken 2,158 and 14, against 2,153 and 17 (the trigger takes 65
of byler's 125 photos and 29 of epanemu's 65, none of matteop65's or tomitomi3's).
"""

from __future__ import annotations

from einhorn_table.vision.order_stats import median
from einhorn_table.vision.results import FrameReading, box_side

#: A frame whose dice's median side (pixels of the frame as read) is under this is
#: read again with the small-dice detector. Variant A's trigger on the model card,
#: fixed before the detector was measured with it, not tuned since.
SMALL_DICE_PX = 32.0


def dice_are_small(reading: FrameReading) -> bool:
    """Whether the dice of ``reading`` (read or not; boxes in pixels of the frame as
    read) are small enough to read the frame again with the small-dice detector. A
    frame with no dice found is not: an empty tray stays one reading."""
    if not reading.dice:
        return False
    return bool(median([box_side(die.box) for die in reading.dice]) < SMALL_DICE_PX)
