"""The same dice moved together: a tray pushed along the table, not a roll.

A bumped tray slides on the table with the dice lying in it. The roll watcher sees
the whole tray move and come to rest again, which looks like a new roll; but a roll
never leaves two or more dice showing the same faces, all moved by one shift. This
compares two readings for that, and tells the shift (the tray's outline in the
picture moved by as much).
"""

from __future__ import annotations

import math
import statistics

from einhorn_table.vision.results import DieReading, FrameReading, box_centre, box_side

#: Two dice at least: a single die re-rolled shows its old face one time in six.
FEWEST_DICE = 2
#: How far (in dice) each die may lie from where the common shift takes it.
SHIFT_TOLERANCE = 0.25


def _shift(a: DieReading, b: DieReading) -> tuple[float, float]:
    (ax, ay), (bx, by) = box_centre(a.box), box_centre(b.box)
    return bx - ax, by - ay


def moved_together(before: FrameReading, now: FrameReading) -> tuple[float, float] | None:
    """The shift (pixels) by which every die of ``before`` moved to where ``now`` shows
    it, where ``now`` shows just those dice (as many, each face read and the same) all
    moved alike; else None."""
    if len(now.dice) != len(before.dice) or len(now.dice) < FEWEST_DICE:
        return None
    if None in now.values or sorted(v or 0 for v in now.values) != sorted(
            v or 0 for v in before.values):
        return None
    first = now.dice[0]
    for start in (d for d in before.dice if d.value == first.value):
        dx, dy = _shift(start, first)
        left = list(before.dice)
        shifts = []
        for die in now.dice:
            tolerance = SHIFT_TOLERANCE * box_side(die.box)
            pairs = ((b, _shift(b, die)) for b in left if b.value == die.value)
            match = next(((b, shift) for b, shift in pairs
                          if math.hypot(shift[0] - dx, shift[1] - dy) <= tolerance), None)
            if match is None:
                break
            left.remove(match[0])
            shifts.append(match[1])
        else:
            return (statistics.median(x for x, _ in shifts),
                    statistics.median(y for _, y in shifts))
    return None
