"""Is the light over the tray good enough? Brightness, glare and flicker, from frames."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: Mean grey level of the tray below which there is too little light.
TOO_DARK = 60.0
#: Mean grey level above which the picture is washed out.
TOO_BRIGHT = 215.0
#: Share of (nearly) saturated pixels that counts as glare.
GLARE_LEVEL = 250
GLARE_SHARE = 0.01
#: Mean frame-to-frame change of the mean brightness, as a share of it, that is flicker.
FLICKER_SHARE = 0.015


@dataclass(frozen=True)
class LightSample:
    """One frame's light over the tray: mean grey level and the share of glare."""

    mean: float
    glare: float


@dataclass(frozen=True)
class LightReport:
    mean: float
    glare: float
    #: Mean frame-to-frame change of brightness as a share of it (0 = steady).
    flicker: float
    frames: int

    @property
    def warnings(self) -> tuple[str, ...]:
        """What to fix, in words for the person at the table; () when all is well."""
        found: list[str] = []
        if self.mean < TOO_DARK:
            found.append("Too little light: put a lamp over the tray.")
        elif self.mean > TOO_BRIGHT:
            found.append("Too bright: dim the lamp or move it away.")
        if self.glare > GLARE_SHARE:
            found.append(
                f"Glare: {100 * self.glare:.0f} % of the tray is white-hot. "
                "Use a matte tray lining or light from the side."
            )
        if self.flicker > FLICKER_SHARE:
            found.append("The light flickers: use another lamp (no dimmer, no cheap LED).")
        return tuple(found)


def light_sample(grey: npt.NDArray[np.uint8]) -> LightSample:
    """Brightness and glare of a grey picture of the tray (already cut to it)."""
    if grey.size == 0:
        return LightSample(0.0, 0.0)
    return LightSample(float(grey.mean()), float(np.count_nonzero(grey >= GLARE_LEVEL)) / grey.size)


def light_report(samples: Sequence[LightSample]) -> LightReport:
    """The light over a run of frames taken with the camera settings locked."""
    if not samples:
        return LightReport(0.0, 0.0, 0.0, 0)
    means = np.array([s.mean for s in samples])
    mean = float(means.mean())
    steps = np.abs(np.diff(means)) if len(means) > 1 else np.zeros(1)
    flicker = float(steps.mean()) / max(mean, 1.0)
    glare = float(np.median([s.glare for s in samples]))
    return LightReport(round(mean, 1), round(glare, 4), round(flicker, 4), len(samples))
