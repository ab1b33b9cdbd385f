"""From measured dice to the reader's tunables for one table (pure numbers, no images)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from einhorn_table.calibration.profile import DiceSection
from einhorn_table.calibration.seeing import DieMeasure
from einhorn_table.errors import EinhornError
from einhorn_table.vision.brightness import luminance
from einhorn_table.vision.profile import ReaderProfile

#: The smallest die size given to the reader, as a share of the smallest measured.
SMALL_MARGIN = 0.75
#: Share of the measured dice that must agree on a pip polarity to fix it.
POLARITY_AGREEMENT = 0.85
#: The candidate thresholds for min_confidence (at and above the default 0.5; see
#: :func:`choose_min_confidence`), and what a silent error costs against a die read
#: right (a wrong payout is worse than twenty re-rolls).
CONFIDENCE_STEPS = tuple(round(0.5 + 0.05 * k, 2) for k in range(9))
SILENT_ERROR_COST = 20.0
#: A die read where there is none makes the roll doubtful (re-roll), like an abstention.
PHANTOM_COST = 0.5
#: Dice darker than this (grey level of their body) have light pips.
DARK_DICE = 110.0


class CalibrationError(EinhornError):
    """Calibrating could not finish; the message says what to do."""


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


def players_polarity(
    measures: Sequence[Sequence[DieMeasure]], colours: Sequence[tuple[int, int, int]]
) -> str:
    """The pip polarity that covers every player's dice: "dark", "light" or "both".

    A player's dice count by the pips measured on them; where none were (the
    dice were not read), by their colour: dark dice have light pips.
    """
    found: set[str] = set()
    for player_measures, colour in zip(measures, colours, strict=True):
        seen = {m.polarity for m in player_measures if m.polarity is not None}
        if not seen:
            seen = {"light" if luminance(colour) < DARK_DICE else "dark"}
        found |= seen
    return found.pop() if len(found) == 1 else "both"


def reader_for(dice: DiceSection, base: ReaderProfile | None = None) -> ReaderProfile:
    """The reader narrowed to these dice: their smallest size with a margin, their polarity.

    The largest die size stays the base's (see :func:`candidate_readers`).
    """
    base = base or ReaderProfile()
    if dice.die_px_min is None or dice.die_px_max is None:
        return replace(base, pip_polarity=dice.pip_polarity)
    low = max(base.die_px_range(1.0)[0] * 0.5, SMALL_MARGIN * dice.die_px_min)
    return replace(base, min_die_px=round(low, 1), pip_polarity=dice.pip_polarity)


def candidate_readers(
    dice: DiceSection, base: ReaderProfile | None = None
) -> tuple[ReaderProfile, ...]:
    """The readers a calibration chooses from, the base last.

    The largest die size is left as the base has it: the reader judges pip
    contrast in a window that shrinks with it, and a narrowed maximum read the
    few dice of a calibration better yet gave more silent errors on fresh
    pictures of the same table. Only the smallest die size and the pips' polarity
    are narrowed; first of all, that narrowed reader also reading frames at the
    scale of the typical die measured (``typical_die_px``: large dice are read
    better shrunk; dice already small enough are read as they are). The one that
    reads the calibration's own dice best is taken (:func:`best_reader`).
    """
    base = base or ReaderProfile()
    narrowed = reader_for(dice, base)
    found: list[ReaderProfile] = [narrowed, base]
    if dice.die_px is not None and dice.die_px > 0:
        found.insert(0, replace(narrowed, typical_die_px=dice.die_px))
    unique: list[ReaderProfile] = []
    for reader in found:
        if reader not in unique:
            unique.append(reader)
    return tuple(unique)


@dataclass(frozen=True)
class Tally:
    """How a reader did on dice whose values are known."""

    right: int = 0
    #: Dice read with a value that is not theirs (silent errors).
    wrong: int = 0
    #: Dice read where there is none.
    phantoms: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.right + other.right, self.wrong + other.wrong,
                     self.phantoms + other.phantoms)

    @property
    def score(self) -> float:
        return self.right - SILENT_ERROR_COST * self.wrong - PHANTOM_COST * self.phantoms


def roll_tally(read: Sequence[int | None], truth: Sequence[int]) -> Tally:
    """A roll read as ``read`` (reader order) whose dice are ``truth`` (any order)."""
    counted = Counter(v for v in read if v is not None)
    right = sum((counted & Counter(truth)).values())
    given = sum(counted.values())
    phantoms = max(0, len(read) - len(truth))
    return Tally(right, max(0, given - right - phantoms), phantoms)


def best_reader(tallies: Sequence[Tally]) -> int:
    """The index of the best tally; on a tie, the widest (candidates end with the base).

    A calibration reads only a few dice; a narrowed reader must read them better
    than the general one to be kept, since narrowing can cost on dice it did not see.
    """
    return max(range(len(tallies)), key=lambda i: (tallies[i].score, i))


def choose_min_confidence(
    read_at: Mapping[float, Sequence[Tally]], default: float = ReaderProfile.min_confidence
) -> float:
    """The bar that reads most dice right for fewest silent errors, from each candidate
    bar's tallies of the same photos (in the same order) read with that bar; never
    below ``default`` (calibration may make the reader warier, not bolder).

    Each bar is measured by reading with it, not by cutting one reading's
    confidences: the combined reader takes the other reader's value where one is
    unsure, so a higher bar can let a silent error through that a lower one stopped.
    Score: right reads, less twenty per silent error and half per phantom die. With
    too few dice read the default stays; on a tie the bar nearest the default wins.
    The best bar replaces the default only if it also scores better on each half of
    the photos (every other one): a bar that wins by a few lucky dice does not carry
    over to new photos.
    """
    steps = sorted(s for s in read_at if s >= default)
    if default not in read_at or not steps:
        return default
    at_default = read_at[default]
    if sum(t.right + t.wrong for t in at_default) < 20:
        return default

    def score(tallies: Sequence[Tally]) -> float:
        return sum(tallies, Tally()).score

    best = max(steps, key=lambda s: (score(read_at[s]), -abs(s - default)))
    halves = (slice(0, None, 2), slice(1, None, 2))
    if all(score(read_at[best][half]) > score(at_default[half]) for half in halves):
        return best
    return default
