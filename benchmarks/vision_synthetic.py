"""The dice reader on the synthetic table: over the die sizes the issue names (15 to
200 px), camera noise, blur, the lamp's brightness, and dice touching.

Run: ``PYTHONPATH=. python benchmarks/vision_synthetic.py [--frames N] [--first-seed S]
[--method M] [--models DIR] [--tables size known noise blur lamp gap]`` (``--models``:
other models, such as the fold models ``vision_models/train.py --train-fold`` writes;
``--first-seed``: other frames of the same kinds, never read before).

The labelled photos hold dice of about 20 to 120 pixels, from cameras with little
noise. A camera mounted low over a small tray sees the dice larger; a camera in dim
light adds noise; one out of focus blurs the frame; an evening lamp dims it. Each
row reads ``--frames`` seeded 640x480 frames of three dice
(two from 110 px, one from 150 px, as fewer fit the tray), each of a random palette
colour and value:

* by die size (the die's body, in pixels): with a random lamp, camera height
  (straight above, or 1.5 or 2.5 frame widths up, so that dice away from the middle
  show their sides) and blur, and the synthetic camera's usual noise;
* the same frames with the die size known ("known"), as a calibration measures it
  (the median side of the dice's boxes over the row, ``typical_die_px``), so that
  large dice are read in a frame shrunk to their best scale;
* by camera noise (its standard deviation in grey levels, each colour channel on
  its own), by blur (a Gaussian's standard deviation in pixels, as of a lens out of
  focus) and by the lamp (1 is the synthetic table's usual light, 0.25 a quarter of
  it), with dice of the table's usual size (48 px), each row's other two as usual;
* by the gap between dice (in die sides: 0.02 is touching), three dice of 48 px in
  a row or an L, turned alike, seen from straight above; half the frames with one
  player's dice (one colour), half with three colours.

It prints the dice read right, asked about (no value) and silently wrong, as shares
of the dice on the table; the dice read where there is none (stray); the frames
read right (every die right and nothing else, so the table takes the roll); and the
median milliseconds per frame (one core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
from one_core import pin_to_one_core
from vision import models_refused

from einhorn_table.vision.learned import MODEL_DIR
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import LabelledDie, SetScore, score_image
from einhorn_table.vision.synth import SynthFrame, SynthTable
from einhorn_table.vision.synth.palette import DICE_PALETTE

SIZES = (15, 20, 30, 45, 70, 100, 110, 130, 160, 200)
NOISES = (2.5, 4.0, 6.0, 8.0, 12.0)
BLURS = (0.0, 2.0, 4.0, 6.0)
LAMPS = (0.25, 0.4, 0.6, 1.0, 1.4, 1.8)
GAPS = (0.3, 0.1, 0.02)
#: Where three dice lie in a row and in an L, in die sides along their own axes.
ROW = ((0, 0), (1, 0), (2, 0))
ELL = ((0, 0), (1, 0), (0, 1))


def dice_for(size: int) -> int:
    """How many dice of this size fit the synthetic tray apart: three, two, or one."""
    return 3 if size < 110 else 2 if size < 150 else 1


def sized_frame(size: int, seed: int) -> SynthFrame:
    """One seeded frame of dice of ``size`` px."""
    rng = random.Random(seed)
    table = SynthTable(
        seed,
        die_size=size,
        lighting=rng.uniform(0.7, 1.3),
        camera_height=rng.choice([None, 1.5, 2.5]),
    )
    count = dice_for(size)
    return table.still(
        [rng.randint(1, 6) for _ in range(count)],
        colors=[DICE_PALETTE[rng.randrange(len(DICE_PALETTE))] for _ in range(count)],
        blur=rng.choice([0.0, 0.0, 1.0]),
    )


def usual_frame(
    seed: int, *, noise: float = 2.5, blur: float = 0.0, lamp: float = 1.0
) -> SynthFrame:
    """One seeded frame of three dice of the usual size, with this much camera noise,
    blur and light."""
    rng = random.Random(seed)
    table = SynthTable(seed, noise=noise, lighting=lamp)
    return table.still(
        [rng.randint(1, 6) for _ in range(3)],
        colors=[DICE_PALETTE[rng.randrange(len(DICE_PALETTE))] for _ in range(3)],
        blur=blur,
    )


def touching_frame(gap: float, seed: int, size: int = 48) -> SynthFrame:
    """One seeded frame of three dice ``gap`` die sides apart, in a row or an L."""
    rng = random.Random(seed)
    table = SynthTable(seed, die_size=size, camera_height=None)
    width, height = table.size
    centre = (rng.uniform(0.35, 0.65) * width, rng.uniform(0.35, 0.65) * height)
    angle = rng.uniform(0, 90)
    cells = ROW if rng.random() < 0.5 else ELL
    colours = [DICE_PALETTE[rng.randrange(len(DICE_PALETTE))] for _ in cells]
    if seed % 2 == 0:
        colours = [colours[0]] * len(cells)
    values = [rng.randint(1, 6) for _ in cells]
    return table.side_by_side(values, cells, centre=centre, gap=gap, angle=angle, colors=colours)


def typical_die_px(frames: Iterable[SynthFrame]) -> float:
    """The table's typical die as a calibration measures it: the median longer side of
    the dice's boxes."""
    return statistics.median(
        max(x1 - x0, y1 - y0)
        for shown in frames
        for die in shown.dice
        if die.value is not None
        for x0, y0, x1, y1 in [die.box]
    )


def measure_row(
    name: str, frames: Iterable[SynthFrame], profile: ReaderProfile, models: Path = MODEL_DIR
) -> None:
    """Read each frame and print one row of the table."""
    score = SetScore()
    times = []
    frames_right = 0
    count = 0
    for shown in frames:
        count += 1
        labels = tuple(
            LabelledDie(die.value, (float(x0), float(y0), float(x1), float(y1)))
            for die in shown.dice
            if die.value is not None
            for x0, y0, x1, y1 in [die.box]
        )
        start = time.process_time()
        reading = read_frame(shown.image, profile, model_dir=models)
        times.append(1000 * (time.process_time() - start))
        result = score_image(labels, reading.dice)
        score.add(result)
        frames_right += result.right == len(labels) == len(reading.dice)
    whole = score.labelled
    print(
        f"{name:>7} {whole:>5} {100 * score.right / whole:>7.1f}% "
        f"{100 * score.abstained / whole:>7.1f}% {100 * score.wrong / whole:>7.1f}% "
        f"{score.read - score.found:>6} {100 * frames_right / count:>7.1f}% "
        f"{statistics.median(times):>7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40, help="frames a row")
    parser.add_argument(
        "--first-seed", type=int, default=0, help="each row's first frame (seeds follow on)"
    )
    parser.add_argument(
        "--method", choices=("combined", "learned", "classical"), default="combined"
    )
    parser.add_argument(
        "--models", type=Path, default=MODEL_DIR, help="the learned reader's models (a folder)"
    )
    def of_size(size: float, seed: int) -> SynthFrame:
        return sized_frame(int(size), 1000 * int(size) + seed)

    # "known" reads the same frames as "size", with the typical die given.
    tables: dict[str, tuple[str, Sequence[float], Callable[[float, int], SynthFrame]]] = {
        "size": ("die px", SIZES, of_size),
        "known": ("die px", SIZES, of_size),
        "noise": ("noise", NOISES, lambda noise, seed: usual_frame(seed, noise=noise)),
        "blur": ("blur", BLURS, lambda blur, seed: usual_frame(seed, blur=blur)),
        "lamp": ("lamp", LAMPS, lambda lamp, seed: usual_frame(seed, lamp=lamp)),
        "gap": ("gap", GAPS, touching_frame),
    }
    parser.add_argument(
        "--tables", nargs="+", choices=tables, default=list(tables), help="which tables"
    )
    args = parser.parse_args()
    # One thread, set before any model is loaded (the learned reader sizes its
    # sessions' thread pools from OpenCV's thread count when it loads them).
    cv2.setNumThreads(1)
    print(f"reader: {pin_to_one_core()}")
    refused = models_refused([args.models], args.method)
    if refused:
        sys.exit(refused)
    profile = ReaderProfile(method=args.method)
    columns = (
        f"{'dice':>5} {'right':>8} {'asked':>8} {'silent':>8} {'stray':>6} {'frames':>8} {'ms':>7}"
    )
    print(f"reader: {args.method}, {args.frames} frames a row")
    if args.models != MODEL_DIR:
        print(f"models: {args.models}")
    for number, key in enumerate(args.tables):
        title, settings, frame_for = tables[key]
        if number:
            print()
        if key == "known":
            print("(read with the typical die known, as calibrated)")
        print(f"{title:>7} {columns}")
        seeds = range(args.first_seed, args.first_seed + args.frames)
        for value in settings:
            frames = [frame_for(value, seed) for seed in seeds]
            row_profile = profile
            if key == "known":
                row_profile = replace(profile, typical_die_px=typical_die_px(frames))
            measure_row(f"{value:g}", frames, row_profile, args.models)


if __name__ == "__main__":
    main()
