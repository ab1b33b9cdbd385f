"""The tunable parameters of the dice reader, one frozen object per table."""

from __future__ import annotations

from dataclasses import dataclass


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
    #: Smallest and largest die (edge length in pixels of the full frame).
    min_die_px: float = 12.0
    max_die_px: float = 220.0
    #: Which pips to look for: "dark", "light" or "both".
    pip_polarity: str = "both"
    #: Minimum contrast (grey levels) between a pip and the face around it.
    min_pip_contrast: float = 28.0
    #: A die whose reading is less sure than this gets no value (None). Both readers
    #: scale their confidence so that 0.5 is their own measured default bar.
    min_confidence: float = 0.5
