"""A frame of the synthetic table planned but not drawn yet: what it will show.

A scene's frames are planned when the scene is made (every random choice taken then,
the camera noise's too), and each is drawn only when a camera shows it
(:meth:`SynthTable.draw`): a camera that skips frames, behind a slow screen, draws
none of those it skips, and the frames it does show are those the whole scene drawn
at once would hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from einhorn_table.vision.synth.edge import EdgeThing
from einhorn_table.vision.synth.hand import HandPose
from einhorn_table.vision.synth.layout import PlacedDie


@dataclass(frozen=True)
class PlannedFrame:
    """The dice (placed, smeared while they tumble), a hand over them, what lies still
    at the picture's edge, the phase the truth tells, the blur, and which of the
    table's fields of camera noise is added where (bank index, x and y offset; None:
    no noise)."""

    dice: tuple[PlacedDie, ...]
    hand: HandPose | None
    at_edge: tuple[HandPose | EdgeThing, ...]
    phase: str
    blur: float
    noise: tuple[int, int, int] | None

    @property
    def still(self) -> bool:
        """Whether the picture, noise aside, is the same each time it is drawn with the
        same dice and edge: no hand, no blur, no die moving."""
        return self.hand is None and self.blur <= 0 and \
            all(d.smear == (0.0, 0.0) for d in self.dice)

    @property
    def values(self) -> tuple[int, ...]:
        """The faces up that can be read, in the dice's order."""
        return tuple(d.look.value for d in self.dice
                     if d.readable and d.look.value is not None)
