"""The dice reader over the die sizes the issue names (15 to 200 px), on the synthetic table.

Run: ``PYTHONPATH=. python benchmarks/vision_sizes.py [--frames N] [--method M]``.

The labelled photos hold dice of about 20 to 120 pixels; a camera mounted low over
a small tray sees them larger. For each die size (the die's body, in pixels of a
640x480 frame) this reads ``--frames`` seeded frames of three dice (two from 110 px,
one from 150 px, as fewer fit the tray), each of a random palette colour, value,
lamp, camera height (straight above, or 1.5 or 2.5 frame widths up, so that dice
away from the middle show their sides) and blur, and prints the dice read right,
asked about (no value) and silently wrong, as shares of the dice on the table, the
dice read where there is none (stray), and the median milliseconds per frame (one
core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import cv2

from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame
from einhorn_table.vision.scoring import LabelledDie, SetScore, score_image
from einhorn_table.vision.synth import SynthFrame, SynthTable
from einhorn_table.vision.synth.palette import DICE_PALETTE

SIZES = (15, 20, 30, 45, 70, 100, 110, 130, 160, 200)


def dice_for(size: int) -> int:
    """How many dice of this size fit the synthetic tray apart: three, two, or one."""
    return 3 if size < 110 else 2 if size < 150 else 1


def frame(size: int, seed: int) -> SynthFrame:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40, help="frames per die size")
    parser.add_argument(
        "--method", choices=("combined", "learned", "classical"), default="combined"
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = ReaderProfile(method=args.method)
    print(f"reader: {args.method}, {args.frames} frames a size")
    print(
        f"{'die px':>7} {'dice':>5} {'right':>8} {'asked':>8} {'silent':>8} {'stray':>6} {'ms':>7}"
    )
    for size in SIZES:
        score = SetScore()
        times = []
        for seed in range(args.frames):
            shown = frame(size, 1000 * size + seed)
            labels = tuple(
                LabelledDie(die.value, tuple(float(v) for v in die.box))  # type: ignore[arg-type]
                for die in shown.dice
                if die.value is not None
            )
            start = time.process_time()
            reading = read_frame(shown.image, profile)
            times.append(1000 * (time.process_time() - start))
            score.add(score_image(labels, reading.dice))
        whole = score.labelled
        print(
            f"{size:>7} {whole:>5} {100 * score.right / whole:>7.1f}% "
            f"{100 * score.abstained / whole:>7.1f}% {100 * score.wrong / whole:>7.1f}% "
            f"{score.read - score.found:>6} {statistics.median(times):>7.1f}"
        )


if __name__ == "__main__":
    main()
