"""What the reader says about a frame: plain values, no drawing."""

from __future__ import annotations

from dataclasses import dataclass, replace

from einhorn_table.rules.categories import Category, categorize

Box = tuple[float, float, float, float]


def box_centre(box: Box) -> tuple[float, float]:
    """The middle of a box."""
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def box_side(box: Box) -> float:
    """A box's longer side."""
    return max(box[2] - box[0], box[3] - box[1])


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame."""

    #: [x0, y0, x1, y1] in pixels of the frame as given.
    box: Box
    #: The face value 1..6, or None when the reader is not sure (the die must be re-rolled).
    value: int | None
    #: How sure the reader is of the value, 0..1.
    confidence: float
    #: The colour of the die body, (r, g, b).
    color: tuple[int, int, int]

    def scaled(self, factor: float) -> DieReading:
        """The same reading with its box in a frame ``factor`` times as large."""
        x0, y0, x1, y1 = self.box
        return replace(self, box=(x0 * factor, y0 * factor, x1 * factor, y1 * factor))

    @property
    def area(self) -> float:
        return max(0.0, self.box[2] - self.box[0]) * max(0.0, self.box[3] - self.box[1])


@dataclass(frozen=True)
class FrameReading:
    """All dice found in one frame."""

    dice: tuple[DieReading, ...]

    def scaled(self, factor: float) -> FrameReading:
        """The same reading with its boxes in a frame ``factor`` times as large."""
        return FrameReading(tuple(die.scaled(factor) for die in self.dice))

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(die.value for die in self.dice)

    @property
    def category(self) -> Category | None:
        """The rules category when exactly three dice are read with values, else None."""
        values = [die.value for die in self.dice]
        if len(values) != 3 or any(value is None for value in values):
            return None
        return categorize(tuple(values))
