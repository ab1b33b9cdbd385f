"""The learned dice reader: a small die detector and a face classifier, run through OpenCV.

Two ONNX models from ``vision_models/`` (trained by ``vision_models/train.py``; see
``vision_models/README.md``, the model card):

* the **detector** looks at the whole frame and marks die centres on a grid four
  pixels apart, with each die's width and height (CenterNet-style heat map);
* the **face classifier** looks at one square crop per die, scaled to
  :data:`CROP` pixels whatever the die's size, and says background, a value 1..6,
  or "a die with no readable face" (cocked, smeared).

A die gets a value only when the classifier is sure (``min_confidence``);
otherwise it is reported with value None, so the table asks for a re-roll. Both
models are plain ONNX files of well under a megabyte each. By
default the table cross-checks this reader with the classical one
(:mod:`einhorn_table.vision.combined`).

The models run through ``onnxruntime`` where it is installed (it is one of the
companion's dependencies; on this CPU it runs the detector about twice as fast) and
otherwise through OpenCV's ``cv2.dnn``, which gives the same outputs. Both use as
many threads as OpenCV is allowed (``cv2.setNumThreads``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError
from einhorn_table.vision.body_box import body_box
from einhorn_table.vision.colours import FaceColours, face_colours
from einhorn_table.vision.frames import shrunk
from einhorn_table.vision.neighbours import neighbours_of_another_colour
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.regions import DieMap, HeatMap, spread
from einhorn_table.vision.results import DieReading, FrameReading, box_centre, box_side

#: Where the trained models live (the repository's ``vision_models/`` folder).
MODEL_DIR = Path(__file__).resolve().parents[2] / "vision_models"
DETECTOR_FILE = "dice_detector.onnx"
#: A second detector, trained on dice down to 12 px, for frames whose dice are small.
SMALL_DICE_DETECTOR_FILE = "dice_detector_small.onnx"
CLASSIFIER_FILE = "dice_faces.onnx"

#: The detector's output grid step, in input pixels, as ``train.py`` builds it. The
#: reader takes each model's own step from its output, so a detector trained to
#: another grid (see the model card) is read as it was trained.
STRIDE = 4
#: The detector's input sides must be multiples of this.
ALIGN = 32
#: The classifier's crop side, in pixels.
CROP = 40
#: Each crop is classified as it is and turned a quarter turn, and the probabilities
#: averaged (a die's face reads the same turned). Two turns read held-out photos about
#: as well as all four (byler better, epanemu and matteop a die either way), in
#: 2.5 ms less a photo (see the model card).
QUARTER_TURNS = 2
#: A die those views leave unsure (no value reaching PROBABILITY_BAR, and not
#: background) gets a second look: the crop in all four quarter turns and their
#: mirror images, averaged. On held-out photos this read 1.6 and 0.6 % more of
#: byler's dice and 1.1 and 0.7 % more of epanemu's, with no silent error more.
#: It costs a classifier run of six views, only for the unsure dice whose likeliest
#: value could still reach the bar, or that may be no die at all (background
#: probability at least SECOND_LOOK_BACKGROUND; the second look drops some such
#: crops as background), see the model card.
SECOND_LOOK_VIEWS = 8
SECOND_LOOK_BACKGROUND = 0.25
#: The views (see :func:`views`) each crop gets first, and the others of a second look.
FIRST_VIEWS = range(QUARTER_TURNS)
OTHER_VIEWS = range(QUARTER_TURNS, SECOND_LOOK_VIEWS)
#: A die still unsure after the second look, whose likeliest value has a probability of
#: at least LOOK_AROUND_LEAN, gets a third: the detector's box is rough (on byler's
#: photos off-centre by 8 % of a side, and a little small), so the crop is taken again
#: moved by LOOK_AROUND_SHIFT of the box's side each way (eight places) and at each
#: place in LOOK_AROUND_SIZES of the crop, each in its eight views. Where at least
#: LOOK_AROUND_AGREE of those crops are sure of the value the die leaned to and none
#: is sure of another, that value stands, with the mean of those crops' probabilities.
#: Over ten pairs of held-out fold models (24,140 dice) this read 116 dice more right
#: and 3 more silently wrong; with the shipped recipe's classifiers 55 more right and
#: one fewer wrong (see the model card). It costs a classifier run of 52 views for
#: each such die, and of six more for each crop that could still be sure (up to 208
#: views, about 70 ms here), which most photos never pay.
LOOK_AROUND_LEAN = 0.5
LOOK_AROUND_SHIFT = 0.12
LOOK_AROUND_SIZES = (1.0, 0.85, 1.15)
LOOK_AROUND_AGREE = 3
#: A crop the classifier calls background with more than this probability is no die.
BACKGROUND_BAR = 0.5
#: A crop is this many times the die's longer box side.
CROP_MARGIN = 1.25
#: The classifier's probability that is reported as confidence 0.5, the default bar
#: (``ReaderProfile.min_confidence``); chosen on held-out photos (see the model card).
PROBABILITY_BAR = 0.9
#: A value can reach PROBABILITY_BAR over all the views only if its probability over
#: the first ones is at least this (were every other view sure of it); the other views
#: are looked at only where it is.
SURE_FLOOR = (SECOND_LOOK_VIEWS * PROBABILITY_BAR - len(OTHER_VIEWS)) / len(FIRST_VIEWS)
#: A place the detector scores below this is no die, unless it is a weak find: one
#: scored from WEAK_DETECTION_THRESHOLD up, at least WEAK_FIND_REACH die sides from
#: every find scored higher (or nearer, where it is a touching neighbour of another
#: colour, :mod:`~einhorn_table.vision.neighbours`), which is a die only where the
#: first look (FIRST_VIEWS) is all but certain of its value (CERTAIN_PROBABILITY);
#: it gets no second look.
#: The detector scores some dice low, most of them small ones in crowded photos
#: (see the model card).
DETECTION_THRESHOLD = 0.3
WEAK_DETECTION_THRESHOLD = 0.15
WEAK_FIND_REACH = 1.0
CERTAIN_PROBABILITY = 0.99
#: A weak find's value can be certain over the first views only if its probability
#: in the first is at least this; the others are looked at only where it is.
CERTAIN_FLOOR = len(FIRST_VIEWS) * CERTAIN_PROBABILITY - (len(FIRST_VIEWS) - 1)
#: Every die the classical reader read right in held-out photos lay where the
#: detector scored at least 0.1. The classical reader looks for pips only within
#: REGION_REACH typical die sides of a place scoring at least REGION_THRESHOLD
#: (see :class:`LearnedFrame`).
REGION_THRESHOLD = 0.05
REGION_REACH = 1.0
#: Two detections closer than this many die sides are one die (see :func:`distinct`),
#: unless their colours say they are touching dice (:mod:`einhorn_table.vision.neighbours`).
SAME_DIE_REACH = 0.7
#: Classifier classes: 0 background, 1..6 the value up, 7 a die with no readable face.
BACKGROUND = 0
UNREADABLE = 7
CLASSES = 8


#: The detector's onnxruntime sessions made for one frame size each that are kept
#: (see :func:`load_net`); the oldest goes when another size comes.
MAX_SIZED_SESSIONS = 4

#: Ways to run the models: "auto" picks onnxruntime where it is installed, else OpenCV.
BACKENDS = ("auto", "onnxruntime", "opencv")

Net = Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]


@dataclass(frozen=True)
class LearnedFrame:
    """What the learned reader makes of a frame."""

    #: Each die found (value None where the classifier is unsure), with the
    #: detector's score for it, 0..1.
    dice: tuple[tuple[DieReading, float], ...]
    #: Where dice may lie: within a typical die's side of every place the detector
    #: scores at least REGION_THRESHOLD. None when it found no die to size that by
    #: (then dice may lie anywhere).
    regions: DieMap | None
    #: Each die's body and pip colours, in the order of ``dice``.
    faces: tuple[FaceColours, ...] = ()
    #: The detector's score over the frame (None where it was not run).
    heat: HeatMap | None = None

    def scaled(self, factor: float) -> LearnedFrame:
        """The same, in a frame ``factor`` times as large."""
        return LearnedFrame(
            tuple((die.scaled(factor), score) for die, score in self.dice),
            None if self.regions is None else self.regions.scaled(factor),
            self.faces,
            None if self.heat is None else self.heat.scaled(factor),
        )


class ModelError(EinhornError):
    """The learned reader's model files are missing or unreadable."""


#: How many times a model has been readied in this process (see :func:`models_readied`).
_readied = [0]


def models_readied() -> int:
    """How many times, so far in this process, a model was loaded or readied for an
    input size it had not run at (an onnxruntime session made, an OpenCV net loaded or
    re-planned for a new size): tens to hundreds of ms each, once. A reading during
    which this grew paid for it, and a second reading of the same picture does not."""
    return _readied[0]


def note_model_readied() -> None:
    """Count one readying (see :func:`models_readied`)."""
    _readied[0] += 1


def _onnxruntime_net(path: Path, per_shape: bool = False) -> Net:
    import onnxruntime

    def session(fixed: dict[str, int]) -> onnxruntime.InferenceSession:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        for dimension, size in fixed.items():
            options.add_free_dimension_override_by_name(dimension, size)
        note_model_readied()
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    general = session({})
    name = general.get_inputs()[0].name
    free = [(axis, d) for axis, d in enumerate(general.get_inputs()[0].shape) if isinstance(d, str)]
    # A session made for one input size plans its work for that size, which runs the
    # detector on a 640x480 frame about a tenth faster; a camera's frames are all one
    # size, so there are few such sessions to keep.
    sized: dict[tuple[int, ...], onnxruntime.InferenceSession] = {}

    def run(blob: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        chosen = general
        if per_shape and free:
            if blob.shape not in sized:
                if len(sized) >= MAX_SIZED_SESSIONS:
                    sized.pop(next(iter(sized)))
                sized[blob.shape] = session({d: blob.shape[axis] for axis, d in free})
            chosen = sized[blob.shape]
        return np.asarray(chosen.run(None, {name: blob})[0], np.float32)

    return run


def _opencv_net(path: Path) -> Net:
    net = cv2.dnn.readNetFromONNX(str(path))
    note_model_readied()
    shapes: set[tuple[int, ...]] = set()

    def run(blob: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        if blob.shape not in shapes:  # OpenCV plans the net again for each new size
            shapes.add(blob.shape)
            note_model_readied()
        net.setInput(blob)
        return np.asarray(net.forward(), np.float32)

    return run


def has_onnxruntime() -> bool:
    """Whether onnxruntime can be imported here."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def load_net(path: Path, backend: str = "auto", *, per_shape: bool = False) -> Net:
    """One ONNX model as a function from an input blob to its (first) output.

    With ``per_shape`` onnxruntime runs each input size in a session of its own
    (worth it for the detector, whose frames are large; not for the classifier)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if not path.is_file():
        raise ModelError(
            f"the dice reader's model {path} is missing; reinstall Einhorn Table "
            "or train it with: python vision_models/train.py"
        )
    use_onnxruntime = backend == "onnxruntime" or (backend == "auto" and has_onnxruntime())
    try:
        return _onnxruntime_net(path, per_shape) if use_onnxruntime else _opencv_net(path)
    except ImportError:
        raise
    except Exception as error:  # each backend has its own error types for a bad file
        raise ModelError(
            f"the dice reader's model {path} cannot be loaded ({error}); "
            "reinstall Einhorn Table or retrain it with vision_models/train.py"
        ) from error


@dataclass(frozen=True)
class Detection:
    """One die centre the detector found, in frame pixels."""

    centre: tuple[float, float]
    size: tuple[float, float]
    score: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        (cx, cy), (w, h) = self.centre, self.size
        return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def normalised(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """BGR uint8 (H, W, 3) to the models' input scale: float32, -0.5..0.5."""
    return image.astype(np.float32) * np.float32(1 / 255) - np.float32(0.5)


def frame_blob(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """A BGR frame as the detector's input: (1, 3, H, W), scaled as :func:`normalised`
    (the same numbers, made a channel at a time, which is several times faster)."""
    height, width = image.shape[:2]
    blob = np.empty((1, 3, height, width), np.float32)
    for channel, plane in enumerate(cv2.split(image)):
        blob[0, channel] = plane
    blob *= np.float32(1 / 255)
    blob -= np.float32(0.5)
    return blob


def padded_to_grid(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The frame padded on the right and bottom (edge pixels repeated) to multiples of ALIGN."""
    height, width = image.shape[:2]
    bottom = (-height) % ALIGN
    right = (-width) % ALIGN
    if bottom == 0 and right == 0:
        return image
    return np.asarray(
        cv2.copyMakeBorder(image, 0, bottom, 0, right, cv2.BORDER_REPLICATE), np.uint8
    )


def crop_square(
    image: npt.NDArray[np.uint8], centre: tuple[float, float], side: float, size: int = CROP
) -> npt.NDArray[np.uint8]:
    """A ``size`` x ``size`` crop of the square of ``side`` pixels around ``centre``;
    parts outside the frame repeat its edge."""
    height, width = image.shape[:2]
    half = max(2.0, side / 2)
    x0, y0 = round(centre[0] - half), round(centre[1] - half)
    x1, y1 = round(centre[0] + half), round(centre[1] + half)
    inner = image[max(0, y0) : min(height, y1), max(0, x0) : min(width, x1)]
    if inner.size == 0:
        return np.zeros((size, size, 3), np.uint8)
    pads = (max(0, -y0), max(0, y1 - height), max(0, -x0), max(0, x1 - width))
    if any(pads):
        inner = np.asarray(cv2.copyMakeBorder(inner, *pads, cv2.BORDER_REPLICATE), np.uint8)
    interpolation = cv2.INTER_AREA if inner.shape[0] > size else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(inner, (size, size), interpolation=interpolation), np.uint8)


def decode_detections(
    heat: npt.NDArray[np.float32],
    geometry: npt.NDArray[np.float32],
    *,
    threshold: float,
    stride: int = STRIDE,
    limit: int = 64,
) -> list[Detection]:
    """Die centres from the detector's outputs: ``heat`` (h, w) in 0..1 and
    ``geometry`` (4, h, w): x and y offsets within a grid cell, log width and log
    height in grid steps of ``stride`` pixels. A centre is a local maximum of the heat
    above ``threshold``."""
    peaks = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peaks) & (heat >= threshold))
    order = np.argsort(-heat[ys, xs])[:limit]
    found = []
    for y, x in zip(ys[order], xs[order], strict=True):
        dx, dy, log_w, log_h = (float(v) for v in geometry[:, y, x])
        centre = ((x + dx) * stride, (y + dy) * stride)
        size = (float(np.exp(log_w)) * stride, float(np.exp(log_h)) * stride)
        found.append(Detection(centre, size, float(heat[y, x])))
    return found


def confidence_of(probability: float, bar: float = PROBABILITY_BAR) -> float:
    """The classifier's probability on the reader's confidence scale, where 0.5 is
    the default bar: linear from 0 to ``bar`` (0 to 0.5) and from ``bar`` to 1."""
    if probability <= bar:
        return 0.5 * probability / bar
    return 0.5 + 0.5 * (probability - bar) / (1.0 - bar)


#: :data:`CERTAIN_PROBABILITY` on the reader's confidence scale (0.95).
CERTAIN_CONFIDENCE = confidence_of(CERTAIN_PROBABILITY)


def distinct(detections: list[Detection], reach: float = SAME_DIE_REACH) -> list[Detection]:
    """One detection per die: going from the strongest, a detection whose centre lies
    within ``reach`` times the larger of the two dice's sides of one already kept is
    the same die seen again, and is dropped."""
    kept: list[Detection] = []
    for d in sorted(detections, key=lambda d: -d.score):
        if _apart(d, kept, reach):
            kept.append(d)
    return kept


def _apart(detection: Detection, others: list[Detection], reach: float) -> bool:
    """Whether ``detection``'s centre lies at least ``reach`` times the larger of the
    two dice's sides from each of ``others``' centres."""
    side = max(detection.size)
    return all(
        np.hypot(detection.centre[0] - k.centre[0], detection.centre[1] - k.centre[1])
        >= reach * max(side, max(k.size))
        for k in others
    )


def views(crops: npt.NDArray[np.uint8], which: range) -> npt.NDArray[np.uint8]:
    """Views ``which`` (of 0 to 7) of each of ``crops`` (n, h, w, 3): views 0 to 3
    are the crop in each quarter turn, 4 to 7 its mirror image in each. View-major:
    the j-th view asked for of crop i is at ``j * n + i``. A die's face reads the
    same in all."""
    if not 0 <= which.start < which.stop <= 8 or which.step != 1:
        raise ValueError(f"a crop has the views 0 to 7, not {which}")
    mirrored = crops[:, :, ::-1]
    chosen = [np.rot90(mirrored if k >= 4 else crops, k % 4, axes=(1, 2)) for k in which]
    return np.ascontiguousarray(np.concatenate(chosen))


def _sure(probabilities: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which rows of class probabilities are a die sure of its value (PROBABILITY_BAR)
    and not background (BACKGROUND_BAR)."""
    top = probabilities[:, 1:7].max(axis=1)
    return np.asarray((top >= PROBABILITY_BAR) & (probabilities[:, BACKGROUND] <= BACKGROUND_BAR))


def _unsure(probabilities: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which rows are a die (not background) not sure of its value."""
    top = probabilities[:, 1:7].max(axis=1)
    return np.asarray((top < PROBABILITY_BAR) & (probabilities[:, BACKGROUND] <= BACKGROUND_BAR))


def _sigmoid(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(1.0 / (1.0 + np.exp(-x)), np.float32)


def _softmax(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)


class LearnedReader:
    """The two models, loaded once; :meth:`read` reads a BGR frame. ``detector`` names
    the detector's file (:data:`DETECTOR_FILE` or :data:`SMALL_DICE_DETECTOR_FILE`);
    ``classifier``, one already loaded from ``model_dir`` to share instead of loading
    it again."""

    def __init__(
        self,
        model_dir: Path = MODEL_DIR,
        backend: str = "auto",
        detector: str = DETECTOR_FILE,
        classifier: Net | None = None,
    ) -> None:
        self.detector = load_net(model_dir / detector, backend, per_shape=True)
        self.classifier = classifier or load_net(model_dir / CLASSIFIER_FILE, backend)

    def detect(
        self, image: npt.NDArray[np.uint8], threshold: float, *, weakest: float | None = None
    ) -> tuple[list[Detection], DieMap | None, HeatMap]:
        """Die centres and sizes in a BGR frame scored ``threshold`` or more (or down
        to ``weakest``, strongest first); where dice may lie, sized by the dice scored
        ``threshold`` or more; and the detector's score over the frame."""
        padded = padded_to_grid(image)
        out = self.detector(frame_blob(padded))[0]
        # The grid step is the model's own (its input side over its output side).
        stride = padded.shape[0] // out.shape[1]
        heat = _sigmoid(out[0])
        floor = threshold if weakest is None else min(weakest, threshold)
        found = decode_detections(heat, out[1:5], threshold=floor, stride=stride)
        dice = distinct(found)
        # Touching dice: a neighbour's find dropped as the same die as a larger box.
        touching = neighbours_of_another_colour(
            image, found, dice, threshold=threshold, same_die_reach=SAME_DIE_REACH
        )
        if touching:
            dice = sorted([*dice, *touching], key=lambda d: -d.score)
        height, width = image.shape[:2]
        inside = heat[: -(-height // stride), : -(-width // stride)]
        scores = HeatMap(np.ascontiguousarray(inside), float(stride))
        strong = [d for d in dice if d.score >= threshold]
        if not strong:
            return dice, None, scores
        typical = float(np.median([max(d.size) for d in strong])) / stride
        regions = DieMap(spread(inside >= REGION_THRESHOLD, REGION_REACH * typical), float(stride))
        return dice, regions, scores

    def classify(
        self, image: npt.NDArray[np.uint8], detections: list[Detection]
    ) -> npt.NDArray[np.float32]:
        """Class probabilities (n, CLASSES) for a crop around each detection: the mean
        over the crop turned :data:`QUARTER_TURNS` quarter turns, or, where that
        leaves the die unsure but a second look could make it sure, over its
        :data:`SECOND_LOOK_VIEWS` views."""
        if not detections:
            return np.zeros((0, CLASSES), np.float32)
        crops = self._crops(image, detections)
        mean = self._mean_over_views(crops, FIRST_VIEWS)
        # A crop that may be no die is looked at again too, as that may show it.
        top = mean[:, 1:7].max(axis=1)
        could_change = (top >= SURE_FLOOR) | (mean[:, BACKGROUND] >= SECOND_LOOK_BACKGROUND)
        self._add_other_views(crops, mean, _unsure(mean) & could_change)
        self._look_around(image, detections, mean)
        self._look_at_body(image, detections, mean)
        return mean

    def classify_weak(
        self, image: npt.NDArray[np.uint8], detections: list[Detection]
    ) -> npt.NDArray[np.float32]:
        """Class probabilities (n, CLASSES) for a crop around each weak find (see
        :data:`WEAK_DETECTION_THRESHOLD`), meant only to tell which are certain: over
        :data:`FIRST_VIEWS` where the first view could make its value certain
        (:data:`CERTAIN_FLOOR`), else over the first view alone."""
        if not detections:
            return np.zeros((0, CLASSES), np.float32)
        crops = self._crops(image, detections)
        mean = self._mean_over_views(crops, range(1))
        could = mean[:, 1:7].max(axis=1) >= CERTAIN_FLOOR
        if could.any():
            rest = range(1, len(FIRST_VIEWS))
            mean[could] = (
                mean[could] + len(rest) * self._mean_over_views(crops[could], rest)
            ) / len(FIRST_VIEWS)
        return mean

    @staticmethod
    def _crops(image: npt.NDArray[np.uint8], detections: list[Detection]) -> npt.NDArray[np.uint8]:
        return _crops_around(image, [(d.centre, max(d.size)) for d in detections])

    def _look_around(
        self,
        image: npt.NDArray[np.uint8],
        detections: list[Detection],
        mean: npt.NDArray[np.float32],
    ) -> None:
        """The third look (:data:`LOOK_AROUND_LEAN`): for each die still unsure but
        leaning to a value, crops around its box; ``mean`` is updated where they agree."""
        leaning = np.flatnonzero(_unsure(mean) & (mean[:, 1:7].max(axis=1) >= LOOK_AROUND_LEAN))
        if not len(leaning):
            return
        places = [
            (dx, dy, size)
            for dx, dy in itertools.product((-1, 0, 1), repeat=2)
            for size in LOOK_AROUND_SIZES
            if (dx, dy, size) != (0, 0, 1.0)  # the crop already looked at
        ]
        shift = LOOK_AROUND_SHIFT
        boxes = [(detections[i].centre, max(detections[i].size)) for i in leaning]
        crops = _crops_around(
            image,
            [
                ((centre[0] + dx * shift * side, centre[1] + dy * shift * side), size * side)
                for centre, side in boxes
                for dx, dy, size in places
            ],
        )
        around = self._mean_over_views_where_sure_may_be(crops)
        for row, i in enumerate(leaning):
            each = around[row * len(places) : (row + 1) * len(places)]
            sure = each[_sure(each)]
            leaned_to = int(np.argmax(mean[i, 1:7])) + 1
            values = set((np.argmax(sure[:, 1:7], axis=1) + 1).tolist())
            if len(sure) >= LOOK_AROUND_AGREE and values == {leaned_to}:
                mean[i] = sure.mean(axis=0)

    def _look_at_body(
        self,
        image: npt.NDArray[np.uint8],
        detections: list[Detection],
        mean: npt.NDArray[np.float32],
    ) -> None:
        """The last look: each die still unsure (not background) is cropped once more,
        on the box of its body where that stands out from its surroundings
        (:func:`body_box`); ``mean`` takes that crop's probabilities where it is sure."""
        bodies = [(i, body_box(image, detections[i].box)) for i in np.flatnonzero(_unsure(mean))]
        found = [(i, box) for i, box in bodies if box is not None]
        if not found:
            return
        crops = _crops_around(image, [(box_centre(box), box_side(box)) for _, box in found])
        body = self._mean_over_views_where_sure_may_be(crops)
        for (i, _), probabilities, is_sure in zip(found, body, _sure(body), strict=True):
            if is_sure:
                mean[i] = probabilities

    def _mean_over_views_where_sure_may_be(
        self, crops: npt.NDArray[np.uint8]
    ) -> npt.NDArray[np.float32]:
        """The classifier's probabilities for each crop over :data:`FIRST_VIEWS`, and
        over all :data:`SECOND_LOOK_VIEWS` views where a value could still reach the bar
        (:data:`SURE_FLOOR`)."""
        mean = self._mean_over_views(crops, FIRST_VIEWS)
        self._add_other_views(crops, mean, mean[:, 1:7].max(axis=1) >= SURE_FLOOR)
        return mean

    def _add_other_views(
        self,
        crops: npt.NDArray[np.uint8],
        mean: npt.NDArray[np.float32],
        rows: npt.NDArray[np.bool_],
    ) -> None:
        """Turn ``mean``'s ``rows``, over :data:`FIRST_VIEWS` of ``crops``, into the
        mean over all :data:`SECOND_LOOK_VIEWS` views (in place)."""
        if rows.any():
            mean[rows] = (
                len(FIRST_VIEWS) * mean[rows]
                + len(OTHER_VIEWS) * self._mean_over_views(crops[rows], OTHER_VIEWS)
            ) / SECOND_LOOK_VIEWS

    def _mean_over_views(
        self, crops: npt.NDArray[np.uint8], which: range
    ) -> npt.NDArray[np.float32]:
        """The classifier's probabilities for each crop, averaged over its views
        ``which`` (see :func:`views`)."""
        blob = normalised(views(crops, which)).transpose(0, 3, 1, 2)
        probabilities = _softmax(self.classifier(np.ascontiguousarray(blob)))
        return np.asarray(probabilities.reshape(len(which), len(crops), CLASSES).mean(axis=0))

    def read_scored(
        self,
        image: npt.NDArray[np.uint8],
        *,
        min_confidence: float,
        detection_threshold: float = DETECTION_THRESHOLD,
        min_die_px: float = 0.0,
        max_die_px: float = 1e9,
    ) -> LearnedFrame:
        """Every die in the frame, read where the classifier is sure, each with the
        detector's score for it (0..1); and the regions where a die might be."""
        found, regions, heat = self.detect(
            image, detection_threshold, weakest=WEAK_DETECTION_THRESHOLD
        )
        sized = [d for d in found if min_die_px <= max(d.size) <= max_die_px]
        detections = [d for d in sized if d.score >= detection_threshold]
        # A weak find near a stronger one is more likely a part of that die (a side
        # face seen on a slant, a few of its pips) than another die.
        weak: list[Detection] = []
        near: list[Detection] = []
        for d in sized:
            if d.score < detection_threshold:
                (weak if _apart(d, detections, WEAK_FIND_REACH) else near).append(d)
        # ... unless it is a touching neighbour of another colour.
        weak += neighbours_of_another_colour(
            image,
            [*near, *detections],
            detections,
            threshold=WEAK_DETECTION_THRESHOLD,
            same_die_reach=WEAK_FIND_REACH,
        )
        probabilities = self.classify(image, detections)
        weak_probabilities = self.classify_weak(image, weak)
        height, width = image.shape[:2]
        found_dice: list[tuple[DieReading, float, FaceColours]] = []
        for detection, p in zip(
            detections + weak, [*probabilities, *weak_probabilities], strict=True
        ):
            if p[BACKGROUND] > BACKGROUND_BAR:
                continue
            value = int(np.argmax(p[1:7])) + 1
            if detection.score < detection_threshold and p[value] < CERTAIN_PROBABILITY:
                continue  # a weak find whose value is not all but certain: no die
            confidence = confidence_of(float(p[value]))
            box = _clipped(detection.box, width, height)
            ibox = (int(box[0]), int(box[1]), int(np.ceil(box[2])), int(np.ceil(box[3])))
            face = face_colours(image, ibox)
            reading = DieReading(
                box=box,
                value=value if confidence >= min_confidence else None,
                confidence=round(confidence, 3),
                color=face.body,
            )
            found_dice.append((reading, detection.score, face))
        found_dice.sort(key=lambda found: (found[0].box[0], found[0].box[1]))
        return LearnedFrame(
            tuple((die, score) for die, score, _ in found_dice),
            regions,
            tuple(face for _, _, face in found_dice),
            heat,
        )

    def read(self, image: npt.NDArray[np.uint8], *, min_confidence: float) -> FrameReading:
        """Every die in the frame, read where the classifier is sure."""
        scored = self.read_scored(image, min_confidence=min_confidence)
        return FrameReading(tuple(die for die, _ in scored.dice))


def _crops_around(
    image: npt.NDArray[np.uint8], dice: list[tuple[tuple[float, float], float]]
) -> npt.NDArray[np.uint8]:
    """The classifier's crops (n, CROP, CROP, 3) of dice given by centre and side: each
    :data:`CROP_MARGIN` times the die's side."""
    return np.stack([crop_square(image, centre, CROP_MARGIN * side) for centre, side in dice])


def _clipped(
    box: tuple[float, float, float, float], width: int, height: int
) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    return (max(0.0, x0), max(0.0, y0), min(float(width), x1), min(float(height), y1))


def learned_reader(model_dir: Path = MODEL_DIR, detector: str = DETECTOR_FILE) -> LearnedReader:
    """The reader for these models (``detector``: which detector's file), loaded on
    first use and kept, however the arguments are passed. The small-dice detector's
    reader shares the usual reader's classifier, which is loaded once."""
    return _kept_reader(model_dir, detector)


@lru_cache(maxsize=8)
def _kept_reader(model_dir: Path, detector: str) -> LearnedReader:
    if detector == DETECTOR_FILE:
        return LearnedReader(model_dir)
    shared = _kept_reader(model_dir, DETECTOR_FILE).classifier
    return LearnedReader(model_dir, detector=detector, classifier=shared)


def models_present(model_dir: Path = MODEL_DIR) -> bool:
    """Whether both model files are there."""
    return (model_dir / DETECTOR_FILE).is_file() and (model_dir / CLASSIFIER_FILE).is_file()


def small_dice_detector_present(model_dir: Path = MODEL_DIR) -> bool:
    """Whether the detector for small dice is there (the reader does without it)."""
    return (model_dir / SMALL_DICE_DETECTOR_FILE).is_file()


def read_frame_learned(
    image: npt.NDArray[np.uint8],
    profile: ReaderProfile,
    model_dir: Path = MODEL_DIR,
    detector: str = DETECTOR_FILE,
) -> LearnedFrame:
    """The learned reader on a BGR frame, within the profile's frame and die sizes:
    each die with the detector's score for it, and where dice might be."""
    image, scale = shrunk(image, profile.read_side(*image.shape[:2]))
    smallest, largest = profile.die_px_range(scale)
    scored = learned_reader(model_dir, detector).read_scored(
        image,
        min_confidence=profile.min_confidence,
        min_die_px=0.7 * smallest,
        max_die_px=1.3 * largest,
    )
    return scored if scale == 1.0 else scored.scaled(1.0 / scale)
