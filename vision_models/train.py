"""Train the learned dice reader's three models and export them to ONNX.

    python vision_models/train.py                     # all three, all development photos
    python vision_models/train.py --only small-dice-detector   # one of them
    python vision_models/train.py --train-fold 0 --out /tmp/fold0   # hold fold 1 out
    python vision_models/train.py --refresh-faces     # classical_faces.json anew

Needs PyTorch (CPU build) for training only: ``pip install -e .[train]``. At run
time the ONNX files load through onnxruntime or ``cv2.dnn``
(``einhorn_table.vision.learned``).

Data: every set in ``../shared/datasets`` (their development halves) and frames of
the synthetic table (``einhorn_table.vision.synth``), drawn from a fixed seed. With
``--train-fold K`` only the photos of fold K (``einhorn_table.vision.labelled.fold_of``)
are used, so the other fold measures the models on photos they never saw. The
faces of dice labelled without a whole-face box come from ``classical_faces.json``
(:mod:`classical_faces`), so that the training data stays put when the classical
reader changes.

The classifier trains on the photos and the synthetic frames together, then on the
photos alone (:data:`PHOTOS_EPOCHS`). The detector and the small-dice detector are
the same network trained the same way, the second on crops whose dice may be
smaller (:data:`SMALL_DICE_FLOOR`). Everything is seeded; on this machine's two CPU
cores the classifier and the detector took 46.6 minutes before the classifier's
last phase was added, which adds about two; the small-dice detector adds about 25
(each model alone is under the hour; see the model card, ``vision_models/README.md``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from classical_faces import FACES_FILE, PIP_AREA_BOXES, FaceBook, needs_faces, refresh
from torch import nn

from einhorn_table.vision.labelled import find_sets, fold_of, load_set
from einhorn_table.vision.learned import (
    ALIGN,
    BACKGROUND,
    CLASSES,
    CLASSIFIER_FILE,
    CROP,
    CROP_MARGIN,
    DETECTOR_FILE,
    SMALL_DICE_DETECTOR_FILE,
    STRIDE,
    UNREADABLE,
    crop_square,
    normalised,
)
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable, pip_color_for

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parent.parent / "shared" / "datasets"

#: How often each source is drawn for a detector training crop.
DETECTOR_MIX = {
    "byler_d6": 0.27,
    "epanemu_dice3": 0.2,
    "matteop65_d6": 0.23,
    "tomitomi3_crops": 0.05,
    "synthetic": 0.25,
}


@dataclass
class Die:
    box: tuple[float, float, float, float]
    #: 1..6, or None for a die with no readable face (synthetic cocked dice).
    value: int | None


@dataclass
class Photo:
    source: str
    image: np.ndarray
    dice: list[Die]


# ---------------------------------------------------------------- data


def load_photos(root: Path, fold: int | None, faces: FaceBook | None = None) -> list[Photo]:
    """The labelled photos (of one fold, or all), every box around a whole face or die.

    Labelled dice without a whole-face box take the classical reader's face kept in
    ``faces`` (:mod:`classical_faces`; by default the file beside this script). A
    crop's die with no face there is left out; a pip-area box with none is grown by
    the median face-to-pip-box ratio of that value in the set.
    """
    book = faces if faces is not None else FaceBook.load()
    photos = []
    for folder in find_sets(root):
        pip_boxes = folder.name in PIP_AREA_BOXES
        found: list[tuple[Photo, list[int]]] = []
        ratios: dict[int, list[float]] = {}
        for labelled in load_set(folder):
            if fold is not None and fold_of(folder.name, labelled.path.name) != fold:
                continue
            image = cv2.imread(str(labelled.path), cv2.IMREAD_COLOR)
            if image is None:
                continue
            kept = (
                book.faces_of(folder.name, labelled, image)
                if needs_faces(folder.name, labelled.dice)
                else [None] * len(labelled.dice)
            )
            dice, unsure = [], []
            for die, face in zip(labelled.dice, kept, strict=True):
                if die.box is None:
                    if face is not None:
                        dice.append(Die(face, die.value))
                    continue
                if not pip_boxes:
                    dice.append(Die(die.box, die.value))
                    continue
                x0, y0, x1, y1 = die.box
                if face is not None:
                    ratio = max(face[2] - face[0], face[3] - face[1]) / max(x1 - x0, y1 - y0, 1.0)
                    ratios.setdefault(die.value, []).append(ratio)
                    dice.append(Die(face, die.value))
                else:
                    unsure.append(len(dice))
                    dice.append(Die(die.box, die.value))
            if dice:
                found.append((Photo(folder.name, image, dice), unsure))
        for photo, unsure in found:
            for index in unsure:
                die = photo.dice[index]
                x0, y0, x1, y1 = die.box
                grow = float(np.median(ratios.get(die.value or 0, [1.3]))) / 2
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                half_w, half_h = (x1 - x0) * grow, (y1 - y0) * grow
                die.box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
            photos.append(photo)
    if book.found_now:
        print(
            f"{len(book.found_now)} photos have no faces in {FACES_FILE.name}: found them "
            "with today's classical reader (--refresh-faces keeps them)",
            flush=True,
        )
    return photos


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """Frames of the synthetic table: many colours, sizes, lights, cocked and blurred dice."""
    rng = random.Random(seed)
    photos = []
    table: SynthTable | None = None
    for i in range(count):
        if i % 6 == 0:
            die_size = rng.choice([16, 20, 24, 30, 36, 44, 56, 70, 90])
            width, height = rng.choice([(640, 480), (480, 480), (640, 640), (320, 240)])
            die_size = min(die_size, height // 5)
            felt = tuple(rng.randrange(20, 235) for _ in range(3))
            table = SynthTable(
                seed=seed * 1000 + i,
                size=(width, height),
                lighting=rng.uniform(0.6, 1.4),
                noise=rng.uniform(1.0, 6.0),
                die_size=max(16, die_size),
                tray_color=(int(felt[0]), int(felt[1]), int(felt[2])),
                camera_height=rng.choice([None, 1.5, 2.5, 4.0]),
            )
        assert table is not None
        n = rng.randint(1, 7)
        values: list[int | None] = [rng.randint(1, 6) for _ in range(n)]
        cocked = [k for k in range(n) if rng.random() < 0.08]
        colors = [_random_die_colour(rng) for _ in range(n)]
        pips = [_random_pip_colour(rng, body) for body in colors]
        try:
            frame = table.still(
                values,
                colors=colors,
                pips=pips,
                cocked=cocked,
                blur=rng.choice([0, 0, 0, 0.8, 1.5]),
            )
        except Exception:  # no room for these dice in this tray: draw another scene
            continue
        dice = [Die(tuple(float(v) for v in d.box), d.value) for d in frame.dice]  # type: ignore[misc]
        photos.append(Photo("synthetic", frame.image, dice))
    return photos


def _random_die_colour(rng: random.Random) -> tuple[int, int, int]:
    if rng.random() < 0.2:  # dark bodies, as many players' dice are
        return (rng.randrange(15, 70), rng.randrange(15, 70), rng.randrange(15, 80))
    if rng.random() < 0.5:
        r, g, b = DICE_PALETTE[rng.randrange(len(DICE_PALETTE))]
        return (int(r), int(g), int(b))
    return (rng.randrange(256), rng.randrange(256), rng.randrange(256))


#: Pip colours of real dice besides black and white (RGB): red, yellow, gold, blue, green.
PIP_COLOURS = ((200, 30, 35), (235, 210, 40), (190, 150, 60), (40, 80, 200), (40, 160, 70))


def _random_pip_colour(rng: random.Random, body: tuple[int, int, int]) -> tuple[int, int, int]:
    """Mostly the usual pips (dark on light, light on dark); sometimes coloured pips,
    as on the dark and marbled dice with red or yellow pips that players own."""
    if rng.random() < 0.6:
        return pip_color_for(body)
    choices = [
        c
        for c in (*PIP_COLOURS, (20, 20, 20), (240, 240, 240))
        if sum((a - b) ** 2 for a, b in zip(c, body, strict=True)) > 110**2
    ]
    return choices[rng.randrange(len(choices))] if choices else pip_color_for(body)


@dataclass(frozen=True)
class ColourChanges:
    """How often an augmented crop loses its own colours: channels swapped, the
    image inverted, made grey."""

    swap: float
    invert: float
    grey: float


#: The detector learns where dice are whatever their colours.
DETECTOR_COLOURS = ColourChanges(swap=0.3, invert=0.15, grey=0.2)
#: The classifier keeps dice's own colours more often: which of a face's two
#: colours is pip and which is body is much of what it reads (marbled dice, red
#: pips on dark dice).
CLASSIFIER_COLOURS = ColourChanges(swap=0.1, invert=0.05, grey=0.05)
#: Real dice are shown this many times an epoch, byler_d6's coloured and marbled
#: dice (the hardest to read) more often; synthetic ones once.
REAL_REPEATS = 3
MORE_REPEATS = {"byler_d6": 5}
#: After its epochs on photos and synthetic frames together, the classifier trains
#: this many epochs on the photos alone, at this steady learning rate.
PHOTOS_EPOCHS = 8
PHOTOS_LEARNING_RATE = 2e-4
#: Crops a classifier training step.
BATCH = 128


def colour_jitter(
    image: np.ndarray, rng: np.random.Generator, changes: ColourChanges = DETECTOR_COLOURS
) -> np.ndarray:
    """Lamp, white balance, contrast, channel order, sometimes inverted, blur and noise."""
    out = image.astype(np.float32)
    if rng.random() < changes.swap:
        out = out[:, :, rng.permutation(3)]
    if rng.random() < changes.invert:
        out = 255.0 - out
    if rng.random() < changes.grey:
        grey = out.mean(axis=2, keepdims=True)
        out = np.repeat(grey, 3, axis=2)
    gain = rng.uniform(0.6, 1.4) * rng.uniform(0.85, 1.15, size=3)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.7, 1.3) + mean
    out = out * gain + rng.uniform(-25, 25)
    if rng.random() < 0.25:
        sigma = rng.uniform(0.5, 1.6)
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < 0.4:
        out = out + rng.normal(0, rng.uniform(2, 8), size=out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- detector


def _dw(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Detector(nn.Module):
    """Die centres at stride 4: one heat channel (logit) and four geometry channels."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True)
        )
        self.s4 = nn.Sequential(_dw(16, 24, 2), _dw(24, 24))
        self.s8 = nn.Sequential(_dw(24, 48, 2), _dw(48, 48))
        self.s16 = nn.Sequential(_dw(48, 64, 2), _dw(64, 64), _dw(64, 64))
        self.s32 = nn.Sequential(_dw(64, 96, 2), _dw(96, 96), _dw(96, 96))
        self.top = nn.Conv2d(96, 48, 1)
        self.lat16 = nn.Conv2d(64, 48, 1)
        self.lat8 = nn.Conv2d(48, 48, 1)
        self.lat4 = nn.Conv2d(24, 48, 1)
        self.head = nn.Sequential(_dw(48, 48), nn.Conv2d(48, 5, 1))
        self.head[-1].bias.data[0] = -4.0  # type: ignore[index,union-attr]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        c4 = self.s4(x)
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        p = self.top(c32)
        p = F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lat16(c16)
        p = F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lat8(c8)
        p = F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lat4(c4)
        out: torch.Tensor = self.head(F.relu(p))
        return out


#: How far the detector's training crops may shrink a photo's dice: to this share
#: of their size, but never under this many pixels (so its smallest training dice,
#: from photos whose dice are about 40 px, are about 20 px).
DETECTOR_FLOOR = (0.5, 14.0)
#: The small-dice detector's floor: dice down to 12 px, the smallest the reader looks
#: for on a table it has not measured.
SMALL_DICE_FLOOR = (0.3, 12.0)


def detector_sample(
    photo: Photo,
    rng: np.random.Generator,
    side: int,
    floor: tuple[float, float] = DETECTOR_FLOOR,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A random ``side`` x ``side`` training crop and its targets: heat (h, w),
    geometry (4, h, w) and a mask (h, w) of the centre cells. The photo is scaled
    at random, its dice no smaller than ``floor`` (a share of their size, pixels)."""
    image = photo.image
    sizes = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in photo.dice]
    typical = float(np.median(sizes))
    low, high = max(floor[0], floor[1] / typical), min(2.0, 180 / typical)
    scale = math.exp(rng.uniform(math.log(low), math.log(high))) if low < high else 1.0
    angle = rng.choice([0, 90, 180, 270]) + (rng.uniform(-20, 20) if rng.random() < 0.3 else 0.0)
    # Centre the crop on a die most of the time, anywhere otherwise.
    if rng.random() < 0.7:
        die = photo.dice[rng.integers(len(photo.dice))]
        cx = (die.box[0] + die.box[2]) / 2 + rng.uniform(-0.4, 0.4) * side / scale
        cy = (die.box[1] + die.box[3]) / 2 + rng.uniform(-0.4, 0.4) * side / scale
    else:
        cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    to_crop = matrix.copy()
    source = image
    if scale < 0.7:  # shrink first so the warp does not alias
        source = cv2.resize(
            image, None, fx=scale * 1.2, fy=scale * 1.2, interpolation=cv2.INTER_AREA
        )
        matrix[:, :2] /= scale * 1.2
    fill = [float(v) for v in image.reshape(-1, 3).mean(axis=0)]
    crop = cv2.warpAffine(
        source,
        matrix,
        (side, side),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=fill,
    )
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
        flip = True
    else:
        flip = False
    crop = colour_jitter(np.ascontiguousarray(crop), rng)
    cells = side // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    geometry = np.zeros((4, cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for die in photo.dice:
        x0, y0, x1, y1 = die.box
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        warped = corners @ to_crop[:, :2].T + to_crop[:, 2]
        if flip:
            warped[:, 0] = side - warped[:, 0]
        centre = warped.mean(axis=0)
        # The box of an axis-aligned die turned by the angle: keep the die's own size
        # (a turned square is not larger), from the original width and height.
        w = (x1 - x0) * scale
        h = (y1 - y0) * scale
        if round(angle / 90) % 2 == 1:
            w, h = h, w
        gx, gy = centre[0] / STRIDE, centre[1] / STRIDE
        if not (0 <= gx < cells and 0 <= gy < cells):
            continue
        sigma = max(0.6, max(w, h) / STRIDE / 6)
        blob = np.exp(-((xs - gx + 0.5) ** 2 + (ys - gy + 0.5) ** 2) / (2 * sigma * sigma))
        np.maximum(heat, blob, out=heat)
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = 1.0
        geometry[:, iy, ix] = (
            gx - ix,
            gy - iy,
            math.log(max(w, 2) / STRIDE),
            math.log(max(h, 2) / STRIDE),
        )
        mask[iy, ix] = 1.0
    return crop, heat, geometry, mask


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per object."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1).float()
    negative = 1 - positive
    pos_loss = torch.log(p) * (1 - p) ** 2 * positive
    neg_loss = torch.log(1 - p) * p**2 * (1 - target) ** 4 * negative
    count = positive.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / count


def train_detector(
    sources: dict[str, list[Photo]],
    steps: int,
    seed: int,
    log: bool = True,
    floor: tuple[float, float] = DETECTOR_FLOOR,
) -> Detector:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = Detector()
    optimiser = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=4e-3, total_steps=steps)
    names = [n for n in DETECTOR_MIX if sources.get(n)]
    weights = np.array([DETECTOR_MIX[n] for n in names])
    weights /= weights.sum()
    start = time.time()
    model.train()
    for step in range(steps):
        side = 256
        batch = []
        for _ in range(16):
            name = names[rng.choice(len(names), p=weights)]
            photos = sources[name]
            batch.append(detector_sample(photos[rng.integers(len(photos))], rng, side, floor))
        x = torch.from_numpy(np.stack([normalised(b[0]).transpose(2, 0, 1) for b in batch]))
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        geometry = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = model(x)
        loss_heat = focal_loss(out[:, 0], heat)
        count = mask.sum().clamp(min=1)
        loss_geo = (
            F.l1_loss(out[:, 1:5], geometry, reduction="none") * mask[:, None]
        ).sum() / count
        loss = loss_heat + loss_geo
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if log and (step % 100 == 0 or step == steps - 1):
            print(
                f"detector step {step:5d}/{steps}  heat {loss_heat.item():.3f}  "
                f"geometry {loss_geo.item():.3f}  {time.time() - start:6.0f} s",
                flush=True,
            )
    model.eval()
    return model


# ---------------------------------------------------------------- classifier


def _conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class FaceClassifier(nn.Module):
    """A CROP x CROP die crop to CLASSES logits."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _conv(3, 24),
            nn.MaxPool2d(2),  # 20
            _conv(24, 32),
            _conv(32, 32),
            nn.MaxPool2d(2),  # 10
            _conv(32, 64),
            _conv(64, 64),
            nn.MaxPool2d(2),  # 5
            _conv(64, 96),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(96, CLASSES),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.body(x)
        return out


def _patch(
    image: np.ndarray, centre: tuple[float, float], side: float, rng: np.random.Generator
) -> np.ndarray:
    """A CROP x CROP crop as the reader takes it (``side`` pixels around ``centre``),
    with the detector's likely errors (centre and size a little off) and any turn."""
    wide = crop_square(image, centre, side * 1.6, size=64)
    # Output pixels per pixel of ``wide``: CROP / (side * s) over 64 / (side * 1.6).
    s = rng.uniform(0.85, 1.15)
    matrix = cv2.getRotationMatrix2D((32, 32), rng.uniform(0, 360), CROP * 1.6 / (64 * s))
    matrix[:, 2] += CROP / 2 - 32 + rng.uniform(-0.08, 0.08, size=2) * CROP
    out = cv2.warpAffine(
        wide, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if rng.random() < 0.5:
        out = out[:, ::-1]
    return np.ascontiguousarray(out)


def spoiled(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same die made unreadable, as at a real table: half hidden by a hand or the
    tray's rim, cocked against the wall (its top face seen edge-on), or badly blurred."""
    die = CROP / CROP_MARGIN  # the die's side within the crop
    start = (CROP - die) / 2
    kind = rng.integers(3)
    out = crop.copy()
    if kind == 0:
        cut = int(start + die * rng.uniform(0.3, 0.7))
        cover = (
            np.median(crop[:3].reshape(-1, 3), axis=0)
            if rng.random() < 0.5
            else rng.integers(0, 256, 3)
        )
        out[:, cut:] = cover
        out = np.ascontiguousarray(np.rot90(out, int(rng.integers(4))))
    elif kind == 1:
        squash = rng.uniform(0.3, 0.55)
        tilt = rng.uniform(-3, 3)
        h = CROP
        source = np.array([[0, 0], [h, 0], [h, h], [0, h]], np.float32)
        top, bottom = h * (1 - squash) / 2, h * (1 + squash) / 2
        target = np.array(
            [[0, top + tilt], [h, top - tilt], [h, bottom - tilt], [0, bottom + tilt]], np.float32
        )
        warp = cv2.getPerspectiveTransform(source, target)
        out = cv2.warpPerspective(crop, warp, (h, h), borderMode=cv2.BORDER_REPLICATE)
        out = np.ascontiguousarray(np.rot90(out, int(rng.integers(4))))
    else:
        out = cv2.GaussianBlur(crop, (0, 0), die * rng.uniform(0.1, 0.16))
    return out


def classifier_samples(
    photos: list[Photo], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """One epoch of crops: every die once (real ones :data:`REAL_REPEATS` times, some
    sets' :data:`MORE_REPEATS` times), and background."""
    crops, labels = [], []

    def add(crop: np.ndarray, label: int) -> None:
        crops.append(colour_jitter(crop, rng, CLASSIFIER_COLOURS))
        labels.append(label)

    for photo in photos:
        image = photo.image
        height, width = image.shape[:2]
        repeats = 1 if photo.source == "synthetic" else REAL_REPEATS
        boxes = [d.box for d in photo.dice]
        for die in photo.dice:
            centre, side = _crop_square_of(die)
            for _ in range(repeats):
                add(_patch(image, centre, side, rng), _label_of(die))
            if rng.random() < 0.15:
                add(spoiled(_patch(image, centre, side, rng), rng), UNREADABLE)
            # Far off-centre: mostly not this die.
            if rng.random() < 0.3:
                away = rng.uniform(0.8, 1.1) * side
                turn = rng.uniform(0, 2 * math.pi)
                c = (centre[0] + away * math.cos(turn), centre[1] + away * math.sin(turn))
                if not _near_any(c, side * 0.6, boxes):
                    add(_patch(image, c, side, rng), BACKGROUND)
        typical = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in boxes]))
        for _ in range(len(photo.dice) if photo.source != "tomitomi3_crops" else 0):
            side = CROP_MARGIN * typical * rng.uniform(0.6, 1.6)
            c = (rng.uniform(0, width), rng.uniform(0, height))
            if not _near_any(c, side * 0.6, boxes):
                add(_patch(image, c, side, rng), BACKGROUND)
    # The sets shown more often: their dice again, after the rest.
    for source, times in sorted(MORE_REPEATS.items()):
        again = [photo for photo in photos if photo.source == source]
        for _ in range(times - REAL_REPEATS):
            for photo in again:
                for die in photo.dice:
                    add(_patch(photo.image, *_crop_square_of(die), rng), _label_of(die))
    return np.stack(crops), np.array(labels, np.int64)


def _crop_square_of(die: Die) -> tuple[tuple[float, float], float]:
    """The centre and side of the square the classifier sees around a die."""
    x0, y0, x1, y1 = die.box
    return ((x0 + x1) / 2, (y0 + y1) / 2), CROP_MARGIN * max(x1 - x0, y1 - y0)


def _label_of(die: Die) -> int:
    return UNREADABLE if die.value is None else die.value


def _near_any(
    centre: tuple[float, float], reach: float, boxes: list[tuple[float, float, float, float]]
) -> bool:
    for x0, y0, x1, y1 in boxes:
        dx = max(x0 - centre[0], 0.0, centre[0] - x1)
        dy = max(y0 - centre[1], 0.0, centre[1] - y1)
        if math.hypot(dx, dy) < reach:
            return True
    return False


def train_classifier(
    photos: list[Photo], epochs: int, seed: int, photos_epochs: int = PHOTOS_EPOCHS
) -> FaceClassifier:
    """The face classifier: ``epochs`` on the photos and the synthetic frames, then
    ``photos_epochs`` on the photos alone (:data:`PHOTOS_LEARNING_RATE`)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = FaceClassifier()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    start = time.time()
    schedule = None
    for epoch in range(epochs):
        crops, labels = classifier_samples(photos, rng)
        if schedule is None:
            total = epochs * -(-len(labels) // BATCH) + 10
            schedule = torch.optim.lr_scheduler.OneCycleLR(
                optimiser, max_lr=3e-3, total_steps=total
            )
        right = _classifier_epoch(model, optimiser, crops, labels, rng, schedule)
        print(
            f"classifier epoch {epoch + 1:3d}/{epochs}  {len(labels)} crops  "
            f"train accuracy {right / len(labels):.3f}  {time.time() - start:6.0f} s",
            flush=True,
        )
    _train_on_photos(model, [p for p in photos if p.source != "synthetic"], photos_epochs, seed)
    model.eval()
    return model


def _train_on_photos(model: FaceClassifier, photos: list[Photo], epochs: int, seed: int) -> None:
    """The last phase: the real dice alone at a small, steady learning rate, so that
    the classifier ends on the faces it will read rather than on drawn ones."""
    rng = np.random.default_rng(seed + 1000)
    optimiser = torch.optim.AdamW(model.parameters(), lr=PHOTOS_LEARNING_RATE, weight_decay=5e-4)
    start = time.time()
    for epoch in range(epochs):
        crops, labels = classifier_samples(photos, rng)
        right = _classifier_epoch(model, optimiser, crops, labels, rng)
        print(
            f"photos-only epoch {epoch + 1:2d}/{epochs}  {len(labels)} crops  "
            f"train accuracy {right / len(labels):.3f}  {time.time() - start:6.0f} s",
            flush=True,
        )


def _classifier_epoch(
    model: FaceClassifier,
    optimiser: torch.optim.Optimizer,
    crops: np.ndarray,
    labels: np.ndarray,
    rng: np.random.Generator,
    schedule: torch.optim.lr_scheduler.OneCycleLR | None = None,
) -> int:
    """One pass over ``crops`` in random batches of :data:`BATCH`; how many it got right."""
    order = rng.permutation(len(labels))
    model.train()
    right = 0
    for i in range(0, len(order), BATCH):
        index = order[i : i + BATCH]
        x = torch.from_numpy(normalised(crops[index]).transpose(0, 3, 1, 2).copy())
        y = torch.from_numpy(labels[index])
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        # Epochs differ by a batch or two (the crops are drawn at random): past the
        # planned steps, the learning rate stays at its last value.
        if schedule is not None and schedule.last_epoch + 1 < schedule.total_steps:
            schedule.step()
        right += int((out.argmax(1) == y).sum())
    return right


# ---------------------------------------------------------------- export


def export(model: nn.Module, example: torch.Tensor, path: Path, dynamic: dict[int, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (example,),
        str(path),
        input_names=["image"],
        output_names=["out"],
        dynamic_axes={"image": dynamic, "out": {0: "batch"} if 0 in dynamic else {}},
        opset_version=13,
        dynamo=False,
    )
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--train-fold", type=int, choices=(0, 1), default=None)
    parser.add_argument("--detector-steps", type=int, default=4000)
    parser.add_argument("--classifier-epochs", type=int, default=60)
    parser.add_argument(
        "--photos-epochs",
        type=int,
        default=PHOTOS_EPOCHS,
        help="last classifier epochs on the photos alone (0: none)",
    )
    parser.add_argument("--synthetic", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="CPU threads for PyTorch"
    )
    parser.add_argument(
        "--only",
        choices=("detector", "classifier", "small-dice-detector"),
        default=None,
        help="train one of the three models (default: all three)",
    )
    parser.add_argument(
        "--refresh-faces",
        action="store_true",
        help=f"find the classical reader's faces again, keep them in {FACES_FILE.name}, stop",
    )
    args = parser.parse_args(argv)
    if args.refresh_faces:
        book = refresh(args.datasets)
        count = sum(len(photos) for photos in book.faces.values())
        print(f"{count} photos' faces written to {FACES_FILE}")
        return 0
    torch.set_num_threads(args.threads)
    start = time.time()
    photos = load_photos(args.datasets, args.train_fold)
    synthetic = synthetic_photos(args.synthetic, args.seed)
    sources: dict[str, list[Photo]] = {}
    for photo in photos + synthetic:
        sources.setdefault(photo.source, []).append(photo)
    for name, items in sorted(sources.items()):
        print(f"{name:18s} {len(items):4d} photos  {sum(len(p.dice) for p in items):5d} dice")
    print(f"data ready in {time.time() - start:.0f} s", flush=True)
    if args.only in (None, "classifier"):
        classifier = train_classifier(
            photos + synthetic, args.classifier_epochs, args.seed, args.photos_epochs
        )
        export(classifier, torch.zeros(2, 3, CROP, CROP), args.out / CLASSIFIER_FILE, {0: "batch"})
    if args.only in (None, "detector"):
        detector = train_detector(sources, args.detector_steps, args.seed)
        export(
            detector,
            torch.zeros(1, 3, 2 * ALIGN, 2 * ALIGN),
            args.out / DETECTOR_FILE,
            {2: "height", 3: "width"},
        )
    if args.only in (None, "small-dice-detector"):
        small_dice = train_detector(
            sources, args.detector_steps, args.seed, floor=SMALL_DICE_FLOOR
        )
        export(
            small_dice,
            torch.zeros(1, 3, 2 * ALIGN, 2 * ALIGN),
            args.out / SMALL_DICE_DETECTOR_FILE,
            {2: "height", 3: "width"},
        )
    print(f"done in {(time.time() - start) / 60:.1f} minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
