"""The tunable parameters of the dice reader, one frozen object per table."""

from __future__ import annotations

from dataclasses import dataclass

#: The smallest and largest die of a table not yet measured, in pixels of the frame
#: as read (its longer side at most ``max_side``, 640): dice of 15 to 200 px there,
#: with a margin.
UNKNOWN_TABLE_DIE_PX = (12.0, 220.0)
#: Where the table's typical die is known (a calibration measured it: the side of its
#: box, about 1.25 times the die's edge for dice lying at any angle), frames are read
#: shrunk so that it is about this many pixels, about 60 px of edge: both readers read
#: dice of 30 to 60 px best, larger ones less well (the detector was trained on
#: smaller dice), and a smaller frame reads faster. At 50 (about 40 px of edge) large
#: dice whose pip a sheen hides were misread more often (see the model card).
READ_DIE_PX = 75.0


@dataclass(frozen=True)
class ReaderProfile:
    """What the reader assumes about a table; the defaults suit an unknown one.

    A calibration step may narrow these for one camera and tray (e.g. the die
    size once it is known), which makes reading faster and abstaining rarer.
    """

    #: Which reader: "combined" (the classical and the learned reader cross-checked),
    #: "learned" (the trained models in ``vision_models/`` alone) or "classical" (pips
    #: found and fitted, no model; also what stands in where the models are missing).
    method: str = "combined"
    #: Frames larger than this (longest side, pixels) are shrunk before reading.
    max_side: int = 640
    #: Smallest and largest die, edge length in pixels of the full frame (a
    #: calibration measures them there). None, for a table not yet measured: judged
    #: on the frame as read (shrunk to ``max_side``), :data:`UNKNOWN_TABLE_DIE_PX`
    #: there, so that a phone's 4032-pixel photo reads as the same scene at 640.
    min_die_px: float | None = None
    max_die_px: float | None = None
    #: The table's typical die (the median side of its dice's boxes), in pixels of the
    #: full frame, where a calibration chose to read at its scale: frames are then
    #: shrunk further, so that it is :data:`READ_DIE_PX` across (never enlarged).
    #: None: only ``max_side`` sets the scale.
    typical_die_px: float | None = None
    #: Which pips to look for: "dark", "light" or "both".
    pip_polarity: str = "both"
    #: Minimum contrast (grey levels) between a pip and the face around it.
    min_pip_contrast: float = 28.0
    #: A die whose reading is less sure than this gets no value (None). Both readers
    #: scale their confidence so that 0.5 is their own measured default bar.
    min_confidence: float = 0.5

    def read_side(self, height: int, width: int) -> float:
        """The longest side a frame of this size is read at (at most its own)."""
        side = float(self.max_side)
        if self.typical_die_px is not None and self.typical_die_px > 0:
            side = min(side, max(height, width) * READ_DIE_PX / self.typical_die_px)
        return side

    def die_px_range(self, scale: float) -> tuple[float, float]:
        """The smallest and largest die in pixels of the frame as read, which is the
        full frame shrunk by ``scale`` (1.0: not shrunk)."""
        low, high = UNKNOWN_TABLE_DIE_PX
        return (
            low if self.min_die_px is None else self.min_die_px * scale,
            high if self.max_die_px is None else self.max_die_px * scale,
        )
