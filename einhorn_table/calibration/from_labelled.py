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

Step 3 takes nearly all the time (every photo is read once per bar and candidate,
about 27 times): ``progress`` hears how far it has got.
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
from einhorn_table.vision.labelled import LabelledPhoto, LabelsError
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import match, score_image

Image = npt.NDArray[np.uint8]
ImageLoader = Callable[[LabelledPhoto], Image | None]
#: Told (done, total): how many of the calibration's photo readings are done.
Progress = Callable[[int, int], None]
#: How far (pixels) a label's box may reach past the photo's edge (rounding).
BOX_MARGIN = 1.0


def calibrate_from_labelled(
    photos: Sequence[LabelledPhoto],
    load: ImageLoader,
    *,
    made_by: str = "",
    made_at: str = "",
    base: ReaderProfile | None = None,
    progress: Progress | None = None,
) -> CalibrationProfile:
    """The profile for the setup these photos show; ``load`` decodes a photo (BGR).

    ``progress``, where given, is called with ``(done, total)``: the photo readings
    of step 3 done, out of all it makes (photos read, times confidence bars, times
    candidate readers). First with ``(0, total)`` once the photos are loaded and
    measured (steps 1 and 2, a few hundredths of the time), then after each photo
    read, the last call ``(total, total)``; ``total`` stays the same throughout. It
    changes nothing in what is computed.

    A label box reaching outside its photo raises a :class:`LabelsError` naming the photo.
    """
    base = base or ReaderProfile()
    images = [(photo, load(photo)) for photo in photos]
    usable = [(photo, image) for photo, image in images if image is not None]
    if not usable:
        raise CalibrationError("none of the labelled photos could be read: check the folder")
    for photo, image in usable:
        _check_boxes(photo, image)
    measures: list[DieMeasure] = []
    for photo, image in usable:
        measures += _measure_photo(photo, image, base)
    dice = dice_section(measures)
    readers = candidate_readers(dice, base)
    counter = _Counter(progress, sum(len(_steps(r)) for r in readers) * len(usable))
    counter.start()
    trials = [_trial(reader, usable, counter) for reader in readers]
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


class _Counter:
    """Counts the photo readings done and tells ``progress`` (if any)."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.done = 0

    def start(self) -> None:
        if self.progress is not None:
            self.progress(0, self.total)

    def step(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


def _steps(reader: ReaderProfile) -> list[float]:
    """The min_confidence bars a candidate is tried at: its own, and those above."""
    return sorted({reader.min_confidence,
                   *(s for s in CONFIDENCE_STEPS if s >= reader.min_confidence)})


def _trial(
    reader: ReaderProfile, photos: Sequence[tuple[LabelledPhoto, Image]], counter: _Counter
) -> _Trial:
    """The reader on the photos, with the min_confidence at which it reads them best."""
    read_at = {
        step: [_photo_tally(photo, image, replace(reader, min_confidence=step), counter)
               for photo, image in photos]
        for step in _steps(reader)
    }
    threshold = choose_min_confidence(read_at, reader.min_confidence)
    return _Trial(replace(reader, min_confidence=threshold), sum(read_at[threshold], Tally()))


def _photo_tally(
    photo: LabelledPhoto, image: Image, reader: ReaderProfile, counter: _Counter
) -> Tally:
    score = score_image(photo.dice, read_frame(image, reader).dice)
    counter.step()
    return Tally(right=score.right, wrong=score.wrong, phantoms=score.read - score.found)


def _check_boxes(photo: LabelledPhoto, image: Image) -> None:
    """Each die's label box lies in the photo (a box past its edge is a wrong label)."""
    height, width = image.shape[:2]
    for k, die in enumerate(photo.dice, start=1):
        if die.box is None:
            continue
        x0, y0, x1, y1 = die.box
        if x1 > width + BOX_MARGIN or y1 > height + BOX_MARGIN:
            raise LabelsError(
                f"{photo.path}: the box of die {k} in labels.jsonl, [{x0:g}, {y0:g}, "
                f"{x1:g}, {y1:g}], reaches outside the photo, which is {width}x{height} "
                "pixels: fix that box (x0, y0, x1, y1 in the photo's pixels), or take the "
                "photo's line out of labels.jsonl"
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
