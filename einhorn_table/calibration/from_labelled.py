"""``calibrate --from-labelled DIR``: a profile from labelled photos of one setup, no screen.

1. Every labelled die is measured (:func:`~einhorn_table.calibration.measure.measure_die`)
   in its label box; a crop's die (no box) in the box the reader finds for it.
2. The dice section (size range, pip size, polarity, contrast) gives the reader's
   size range and polarity (:func:`~einhorn_table.calibration.fit.reader_for`).
3. The photos are read with that reader, every die given a value, and
   ``min_confidence`` is chosen where right reads outweigh silent errors most.

Only what generalises to new photos of the same camera and dice is set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from einhorn_table.calibration.fit import (
    CalibrationError,
    ReadOutcome,
    choose_min_confidence,
    dice_section,
    reader_for,
)
from einhorn_table.calibration.measure import DieMeasure, measure_die
from einhorn_table.calibration.profile import CalibrationProfile, CheckSection
from einhorn_table.vision.labelled import LabelledPhoto
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import match

Image = npt.NDArray[np.uint8]
ImageLoader = Callable[[LabelledPhoto], Image | None]


def calibrate_from_labelled(
    photos: Sequence[LabelledPhoto],
    load: ImageLoader,
    *,
    made_by: str = "",
    made_at: str = "",
    base: ReaderProfile | None = None,
) -> CalibrationProfile:
    """The profile for the setup these photos show; ``load`` decodes a photo (BGR)."""
    base = base or ReaderProfile()
    images = [(photo, load(photo)) for photo in photos]
    usable = [(photo, image) for photo, image in images if image is not None]
    if not usable:
        raise CalibrationError("none of the labelled photos could be read: check the folder")
    measures: list[DieMeasure] = []
    for photo, image in usable:
        measures += _measure_photo(photo, image, base)
    dice = dice_section(measures)
    reader = reader_for(dice, base)
    outcomes: list[ReadOutcome] = []
    labelled = right = 0
    for photo, image in usable:
        reading = read_frame(image, replace(reader, min_confidence=0.0))
        for li, di in match(photo.dice, reading.dice):
            die = reading.dice[di]
            outcomes.append(ReadOutcome(die.confidence, die.value == photo.dice[li].value))
        labelled += len(photo.dice)
    threshold = choose_min_confidence(outcomes, base.min_confidence)
    right = sum(1 for o in outcomes if o.right and o.confidence >= threshold)
    return CalibrationProfile(
        made_by=made_by,
        made_at=made_at,
        dice=dice,
        reader=replace(reader, min_confidence=threshold),
        check=CheckSection(rolls=len(usable), dice=labelled, right=right),
    )


def _measure_photo(photo: LabelledPhoto, image: Image, base: ReaderProfile) -> list[DieMeasure]:
    measures: list[DieMeasure] = []
    unboxed = [i for i, die in enumerate(photo.dice) if die.box is None]
    found: dict[int, tuple[float, float, float, float]] = {}
    if unboxed:
        reading = read_frame(image, base)
        found = {li: reading.dice[di].box for li, di in match(photo.dice, reading.dice)}
    for i, die in enumerate(photo.dice):
        box = die.box if die.box is not None else found.get(i)
        if box is not None:
            measures.append(measure_die(image, box, die.value))
    return measures
