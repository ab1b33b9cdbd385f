"""From measured dice to the reader's tunables for one table (pure numbers, no images)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from einhorn_table.calibration.measure import DieMeasure
from einhorn_table.calibration.profile import DiceSection
from einhorn_table.errors import EinhornError
from einhorn_table.vision.profile import ReaderProfile

#: The die size range given to the reader, around the sizes measured.
SMALL_MARGIN = 0.75
LARGE_MARGIN = 1.3
#: Share of the measured dice that must agree on a pip polarity to fix it.
POLARITY_AGREEMENT = 0.85
#: The candidate thresholds for min_confidence, and what a silent error costs
#: against a die read right (a wrong roll is far worse than a re-roll).
CONFIDENCE_STEPS = tuple(round(0.3 + 0.05 * k, 2) for k in range(13))
SILENT_ERROR_COST = 4.0


class CalibrationError(EinhornError):
    """Calibrating could not finish; the message says what to do."""


@dataclass(frozen=True)
class ReadOutcome:
    """A labelled (or confirmed) die the reader found: how sure it was and if it was right."""

    confidence: float
    right: bool


def dice_section(measures: Sequence[DieMeasure]) -> DiceSection:
    """Typical size, size range, pip size, polarity and contrast of the measured dice."""
    if not measures:
        raise CalibrationError(
            "no dice were measured: roll the dice into the tray (all of them inside, "
            "lying flat) and check the light"
        )
    sizes = np.array([m.size for m in measures])
    with_pips = [m for m in measures if m.polarity is not None]
    polarity = "both"
    if with_pips:
        dark = sum(1 for m in with_pips if m.polarity == "dark") / len(with_pips)
        if dark >= POLARITY_AGREEMENT:
            polarity = "dark"
        elif 1.0 - dark >= POLARITY_AGREEMENT:
            polarity = "light"
    pip_px = [m.pip_px for m in with_pips if m.pip_px is not None]
    contrast = [m.pip_contrast for m in with_pips if m.pip_contrast is not None]
    return DiceSection(
        die_px=round(float(np.median(sizes)), 1),
        die_px_min=round(float(np.percentile(sizes, 2)), 1),
        die_px_max=round(float(np.percentile(sizes, 98)), 1),
        pip_px=round(float(np.median(pip_px)), 1) if pip_px else None,
        pip_polarity=polarity,
        pip_contrast=round(float(np.median(contrast)), 1) if contrast else None,
    )


def reader_for(dice: DiceSection, base: ReaderProfile | None = None) -> ReaderProfile:
    """The reader narrowed to these dice: their size range with a margin, their polarity."""
    base = base or ReaderProfile()
    if dice.die_px_min is None or dice.die_px_max is None:
        return replace(base, pip_polarity=dice.pip_polarity)
    low = max(base.min_die_px * 0.5, SMALL_MARGIN * dice.die_px_min)
    high = max(low * 2.0, LARGE_MARGIN * dice.die_px_max)
    return replace(
        base,
        min_die_px=round(low, 1),
        max_die_px=round(high, 1),
        pip_polarity=dice.pip_polarity,
    )


def choose_min_confidence(
    outcomes: Sequence[ReadOutcome], default: float = ReaderProfile.min_confidence
) -> float:
    """The threshold that reads most dice right for fewest silent errors on these outcomes.

    Score per step: dice right minus ``SILENT_ERROR_COST`` times dice wrong (those
    under the threshold are abstentions, which cost nothing but a re-roll). With
    too few outcomes the default stays; on a tie the step nearest the default wins.
    """
    if len(outcomes) < 20:
        return default
    confidence = np.array([o.confidence for o in outcomes])
    right = np.array([o.right for o in outcomes])

    def score(step: float) -> float:
        kept = confidence >= step
        return float(np.sum(right & kept) - SILENT_ERROR_COST * np.sum(~right & kept))

    return max(CONFIDENCE_STEPS, key=lambda s: (score(s), -abs(s - default)))
