"""Scoring a reader against labelled photos: matching labels to dice, counting outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from einhorn_table.vision.results import Box, DieReading, box_centre

#: A label box and a read box are the same die at this overlap (or centre inside).
MIN_IOU = 0.3


@dataclass(frozen=True)
class LabelledDie:
    value: int
    #: None for a crop that holds one die.
    box: Box | None


@dataclass(frozen=True)
class ImageScore:
    """The outcome for one photo."""

    labelled: int
    read: int
    #: Labelled dice that some read die matched.
    found: int
    #: Matched dice read with the labelled value.
    right: int
    #: Matched dice the reader gave no value.
    abstained: int
    #: Matched dice read with a value that is not the labelled one.
    wrong: int
    #: For photos of exactly three labelled dice: "right", "flagged" or "wrong".
    roll: str | None


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def boxes_overlap(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` share some area (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def centre_inside(a: Box, b: Box) -> bool:
    """Whether box ``a``'s centre lies inside box ``b``."""
    cx, cy = box_centre(a)
    return b[0] <= cx <= b[2] and b[1] <= cy <= b[3]


def same_die(label: Box, read: Box) -> bool:
    return iou(label, read) >= MIN_IOU or centre_inside(label, read) or centre_inside(read, label)


def match(labels: Sequence[LabelledDie], dice: Sequence[DieReading]) -> list[tuple[int, int]]:
    """Pairs (label index, die index), each label and die used at most once.

    Boxed labels take the die they overlap most (greedy, best overlap first); a
    crop's label (box None) takes the most confident die, the larger on a tie.
    """
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    options: list[tuple[float, int, int]] = []
    for li, label in enumerate(labels):
        if label.box is None:
            continue
        for di, die in enumerate(dice):
            if same_die(label.box, die.box):
                options.append((iou(label.box, die.box), li, di))
    taken: set[int] = set()
    for _, li, di in sorted(options, key=lambda o: -o[0]):
        if li in taken or di in used:
            continue
        pairs.append((li, di))
        taken.add(li)
        used.add(di)
    for li, label in enumerate(labels):
        if label.box is not None:
            continue
        free = [di for di in range(len(dice)) if di not in used]
        if not free:
            continue
        best = max(free, key=lambda di: (dice[di].confidence, dice[di].area))
        pairs.append((li, best))
        used.add(best)
    return sorted(pairs)


def score_image(labels: Sequence[LabelledDie], dice: Sequence[DieReading]) -> ImageScore:
    pairs = match(labels, dice)
    right = abstained = wrong = 0
    for li, di in pairs:
        value = dice[di].value
        if value is None:
            abstained += 1
        elif value == labels[li].value:
            right += 1
        else:
            wrong += 1
    roll: str | None = None
    if len(labels) == 3:
        values = [die.value for die in dice]
        if len(values) != 3 or any(v is None for v in values):
            roll = "flagged"
        elif sorted(v for v in values if v is not None) == sorted(lab.value for lab in labels):
            roll = "right"
        else:
            roll = "wrong"
    return ImageScore(len(labels), len(dice), len(pairs), right, abstained, wrong, roll)


@dataclass
class SetScore:
    """Totals over a set of photos."""

    images: int = 0
    labelled: int = 0
    read: int = 0
    found: int = 0
    right: int = 0
    abstained: int = 0
    wrong: int = 0
    rolls: dict[str, int] = field(default_factory=lambda: {"right": 0, "flagged": 0, "wrong": 0})

    def add(self, image: ImageScore) -> None:
        self.images += 1
        self.labelled += image.labelled
        self.read += image.read
        self.found += image.found
        self.right += image.right
        self.abstained += image.abstained
        self.wrong += image.wrong
        if image.roll is not None:
            self.rolls[image.roll] += 1

    @property
    def recall(self) -> float:
        return self.found / self.labelled if self.labelled else 0.0

    @property
    def precision(self) -> float:
        return self.found / self.read if self.read else 0.0

    @property
    def accuracy(self) -> float:
        return self.right / self.labelled if self.labelled else 0.0

    @property
    def abstention_rate(self) -> float:
        return self.abstained / self.labelled if self.labelled else 0.0

    @property
    def silent_error_rate(self) -> float:
        return self.wrong / self.labelled if self.labelled else 0.0
