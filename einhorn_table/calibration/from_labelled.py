"""``calibrate --from-labelled DIR``: a profile from labelled photos of one setup, no screen.

1. Every labelled die is measured (:func:`~einhorn_table.calibration.measure.measure_die`)
   in its label box; a crop's die (no box) in the box the reader finds for it.
2. The dice section (size range, pip size, polarity, contrast) gives candidate
   readers, from narrowed to the size range and polarity measured, to the base
   (:func:`~einhorn_table.calibration.fit.candidate_readers`).
3. Each candidate reads the photos at each ``min_confidence`` from the reader's
   default up; the one where right reads outweigh silent errors most is chosen
   (:func:`~einhorn_table.calibration.fit.choose_min_confidence`), and the
   candidate that then reads best (right reads, less twenty per silent error and
   half per phantom die) is kept.

Only what generalises to new photos of the same camera and dice is set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from einhorn_table.calibration.fit import (
    CONFIDENCE_STEPS,
    CalibrationError,
    Tally,
    best_reader,
    candidate_readers,
    choose_min_confidence,
    dice_section,
)
from einhorn_table.calibration.measure import measure_die
from einhorn_table.calibration.profile import CalibrationProfile, CheckSection
from einhorn_table.calibration.seeing import DieMeasure
from einhorn_table.vision.labelled import LabelledPhoto
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import match, score_image

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
    trials = [_trial(reader, usable) for reader in candidate_readers(dice, base)]
    best = trials[best_reader([t.tally for t in trials])]
    labelled = sum(len(photo.dice) for photo, _ in usable)
    return CalibrationProfile(
        made_by=made_by,
        made_at=made_at,
        dice=dice,
        reader=best.reader,
        check=CheckSection(rolls=len(usable), dice=labelled, right=best.tally.right),
    )


@dataclass(frozen=True)
class _Trial:
    reader: ReaderProfile
    tally: Tally


def _trial(reader: ReaderProfile, photos: Sequence[tuple[LabelledPhoto, Image]]) -> _Trial:
    """The reader on the photos, with the min_confidence at which it reads them best."""
    steps = [s for s in CONFIDENCE_STEPS if s >= reader.min_confidence]
    read_at = {
        step: [_photo_tally(photo, image, replace(reader, min_confidence=step))
               for photo, image in photos]
        for step in sorted({reader.min_confidence, *steps})
    }
    threshold = choose_min_confidence(read_at, reader.min_confidence)
    return _Trial(replace(reader, min_confidence=threshold), sum(read_at[threshold], Tally()))


def _photo_tally(photo: LabelledPhoto, image: Image, reader: ReaderProfile) -> Tally:
    score = score_image(photo.dice, read_frame(image, reader).dice)
    return Tally(right=score.right, wrong=score.wrong, phantoms=score.read - score.found)


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
