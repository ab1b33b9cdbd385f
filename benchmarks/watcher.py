"""How long the roll watcher takes per frame, on one core, over synthetic scenes.

Run: ``PYTHONPATH=. python benchmarks/watcher.py [--seeds N] [--clock cpu]``. Prints
the median and 95th percentile milliseconds per frame of the watcher alone (small
frames made beforehand), of shrinking a camera frame, and of drawing a synthetic
frame. ``--clock cpu`` times with the process's CPU time instead of the wall clock,
which other work on a shared machine disturbs less.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import cv2
from one_core import pin_to_one_core

from einhorn_table.vision.synth import SynthFrame, SynthTable
from einhorn_table.vision.watcher import RollWatcher, SmallImage, shrink, shrink_grey

Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.process_time}


def _scenes(seed: int, timings: list[float], clock: Clock) -> list[SynthFrame]:
    """Roll, hand passing, nudge, clearing, a hand without dice, a roll without hand."""
    table = SynthTable(seed=seed, players=4)
    original = table.render

    def timed_render(*args: object, **kwargs: object) -> SynthFrame:
        start = clock()
        frame = original(*args, **kwargs)  # type: ignore[arg-type]
        timings.append(clock() - start)
        return frame

    table.render = timed_render  # type: ignore[method-assign]
    player = seed % 4
    frames = table.roll_sequence(player=player)
    frames += table.hand_pass_sequence(player=player)
    frames += table.nudge_sequence()
    frames += table.clear_sequence(player=player)
    frames += table.hand_only_sequence(player=player)
    frames += table.roll_sequence(player=player, hand=False)
    return frames


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {1000 * statistics.median(ordered):.3f} ms, p95 {1000 * p95:.3f} ms"


def _time_watcher(smalls: list[SmallImage], fps: float, clock: Clock) -> list[float]:
    watcher = RollWatcher()
    per_frame = []
    for i, small in enumerate(smalls):
        start = clock()
        watcher.update(small, i / fps)
        per_frame.append(clock() - start)
    return per_frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=8, help="how many seeded scene sets")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    cv2.setNumThreads(1)
    print(f"watcher: {pin_to_one_core()}")

    render_times: list[float] = []
    frames: list[SynthFrame] = []
    for seed in range(args.seeds):
        frames += _scenes(seed, render_times, clock)
    fps = 30.0

    shrink_times = []
    smalls = []
    greys = []
    for frame in frames:
        start = clock()
        smalls.append(shrink(frame.image))
        shrink_times.append(clock() - start)
        greys.append(shrink_grey(frame.image))

    watch_colour = _time_watcher(smalls, fps, clock)
    watch_grey = _time_watcher(greys, fps, clock)
    print(
        f"frames: {len(frames)} (640x480 synthetic, {args.seeds} scene sets), one core, "
        f"{args.clock} clock"
    )
    print(f"watcher, small colour 160x120: {_ms(watch_colour)} per frame")
    print(f"watcher, small grey 160x120:   {_ms(watch_grey)} per frame")
    print(f"shrink 640x480 -> 160x120:     {_ms(shrink_times)} per frame")
    print(f"synth render 640x480:          {_ms(render_times)} per frame")


if __name__ == "__main__":
    main()
