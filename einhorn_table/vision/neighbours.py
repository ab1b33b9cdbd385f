"""Touching dice of different colours: finds that one-find-per-die drops but that are
neighbours of their own.

Where dice touch, the detector finds each, but the two centres can lie within
:data:`~einhorn_table.vision.learned.SAME_DIE_REACH` of the larger box's side (its
centres are rough, and some of its boxes grow over the neighbour), and the weaker
find is dropped as the same die seen again. Most dropped finds are the same die
(another local maximum on its face, a side face on a slant), which shows the same
body colour. A find whose body colour differs from that of every find that dropped
it is a neighbour of another colour: a die of its own.

The same test keeps a weak find (scored under the detection threshold) that lies
within a die's side of a stronger one, which would otherwise be taken for a part of
that die: where dice touch, the detector may score the neighbour only 0.2 or so.
Such a find is still a die only where the classifier is all but certain of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from einhorn_table.vision.colours import RGB, TOO_ALIKE, color_difference, face_colours
from einhorn_table.vision.order_stats import median

#: Two finds whose body colours differ at least this much are two dice (the colour
#: difference below which two players' dice are too alike to tell apart).
OTHER_COLOUR = TOO_ALIKE
#: A dropped find nearer than this many typical die sides to a kept one stays
#: dropped whatever its colour: two touching dice's centres lie about a side apart.
NEIGHBOUR_GAP = 0.6
#: The typical die side is the median of the finds scored at least this.
SURE_SCORE = 0.5
#: A dropped find smaller or larger than these shares of the typical side is no
#: neighbour: a pip or part of a die, or, where dice are too large for the detector
#: and it finds their parts, a whole die found again over its parts.
SMALLEST = 0.6
LARGEST = 1.5


class Find(Protocol):
    """What the rule needs of a detector's find."""

    @property
    def centre(self) -> tuple[float, float]: ...

    @property
    def size(self) -> tuple[float, float]: ...

    @property
    def score(self) -> float: ...


F = TypeVar("F", bound=Find)


def neighbours_of_another_colour(
    image: npt.NDArray[np.uint8],
    found: Sequence[F],
    kept: Sequence[F],
    *,
    threshold: float,
    same_die_reach: float,
) -> list[F]:
    """The finds in ``found`` scored ``threshold`` or more that are not in ``kept``
    (one find per die, see :func:`~einhorn_table.vision.learned.distinct`) but are
    about a typical die's size (:data:`SMALLEST` to :data:`LARGEST`), lie at
    least :data:`NEIGHBOUR_GAP` typical sides from every kept find scored
    ``threshold`` or more, and show a body colour other than (:data:`OTHER_COLOUR`)
    that of every such find, or find added, within ``same_die_reach`` of them,
    strongest first. The typical side is the median of
    the kept finds scored :data:`SURE_SCORE` or more; with none, no find is added."""
    sure = [max(k.size) for k in kept if k.score >= SURE_SCORE]
    if not sure:
        return []
    typical = median(sure)
    kept_ids = {id(k) for k in kept}
    added: list[F] = []
    colours: dict[int, RGB | None] = {}

    def colour(find: F) -> RGB | None:
        if id(find) not in colours:
            colours[id(find)] = _body_colour(image, find.centre, typical)
        return colours[id(find)]

    # Only the kept finds that count as dice can have dropped a find; a weak find kept
    # below the threshold is often the dropped find's own die, found weakly beside it.
    dice = [k for k in kept if k.score >= threshold]
    for find in sorted(found, key=lambda f: -f.score):
        if id(find) in kept_ids or find.score < threshold:
            continue
        if not SMALLEST * typical <= max(find.size) <= LARGEST * typical:
            continue
        others = [*dice, *added]
        if any(_gap(find, other) < NEIGHBOUR_GAP * typical for other in others):
            continue
        dropped_by = [
            other
            for other in others
            if _gap(find, other) < same_die_reach * max(*find.size, *other.size)
        ]
        own = colour(find)
        if own is None:
            continue
        if all(_differs(own, colour(other)) for other in dropped_by):
            added.append(find)
    return added


def _gap(a: Find, b: Find) -> float:
    return float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))


def _differs(own: RGB, other: RGB | None) -> bool:
    return other is not None and color_difference(own, other) >= OTHER_COLOUR


def _body_colour(
    image: npt.NDArray[np.uint8], centre: tuple[float, float], side: float
) -> RGB | None:
    """The body colour of a die of ``side`` centred at ``centre``, or None where too
    little of it lies inside the frame."""
    height, width = image.shape[:2]
    x0, y0 = max(0, int(centre[0] - side / 2)), max(0, int(centre[1] - side / 2))
    x1 = min(width, int(centre[0] + side / 2) + 1)
    y1 = min(height, int(centre[1] + side / 2) + 1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    return face_colours(image, (x0, y0, x1, y1)).body
