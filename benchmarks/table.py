"""How fast the table companion's screen runs, and how soon a roll's result shows.

Run: PYTHONPATH=. SDL_VIDEODRIVER=dummy python benchmarks/table.py [--rolls 40]

Bots play on the synthetic table at 800x480, every frame going through the
roll watcher, the reader (when the dice come to rest), the controller, the
view model and the renderer. Time is a fake clock (the camera's frames are
due at once), while the work of each frame is measured on the real clock:

* frames per second = 1 / the real time one loop step takes (aim: 30 or more);
* settle-to-screen = from the frame in which the dice come to rest (the
  synthetic table's truth) to the step whose screen shows the result (or asks
  about a doubtful reading), counted in camera time, plus the real time that
  step took; the watcher's stillness time is subtracted (aim: 300 ms at most).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.photo_files import PngPhotoStore
from einhorn_table.adapters.pygame_screen import PygameScreen
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.adapters.vision_tray import VisionTray, make_reader, make_watcher
from einhorn_table.cli.table_app import NoControls, direct_performer, throw_into
from einhorn_table.rules import EINHORN, Match, Setup
from einhorn_table.screen.view_model import ScreenKind
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.table.bots import BotDriver
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.loop import TableLoop
from einhorn_table.table.recorder import JsonLinesRecorder
from einhorn_table.vision.watcher import WatcherConfig

SHOWN = (ScreenKind.RESULT, ScreenKind.DOUBT, ScreenKind.COUNTERPARTY)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=40, help="rolls to time (default 40)")
    parser.add_argument("--camera", default="320x240", help="camera frame size")
    parser.add_argument("--screen", default="800x480", help="screen size")
    args = parser.parse_args()
    camera_size = tuple(int(v) for v in args.camera.split("x"))
    screen_size = tuple(int(v) for v in args.screen.split("x"))
    clock = FakeClock(0.0)
    names = ["Ana", "Ben", "Cem", "Dora"]
    camera = SynthSource(clock, seed=5, players=4, size=(camera_size[0], camera_size[1]))
    camera.open()
    still = WatcherConfig().still_seconds
    tray = VisionTray(camera, make_watcher(), make_reader(), clock)
    setup = Setup.for_variant(EINHORN, names, games=10)
    work = Path(tempfile.mkdtemp(prefix="einhorn-bench-"))
    controller = TableController(
        Match(setup), JsonLinesRecorder(work / "m.jsonl", setup),
        [Seat(n, camera.table.player_colors[i]) for i, n in enumerate(names)],
        PngPhotoStore(work / "photos"))
    screen = PygameScreen((screen_size[0], screen_size[1]))
    screen.open()
    bots = BotDriver(frozenset(range(4)), [make_strategy("odds")] * 4, random.Random(5))
    loop = TableLoop(controller, tray, NoControls(), clock, screen, bots,
                     direct_performer(controller, throw_into(camera), clock),
                     tray_idle=lambda: not camera.frames_queued)
    step_ms: list[float] = []
    settle_ms: list[float] = []
    read_step_ms: list[float] = []
    rest_at: float | None = None
    previous_phase = "empty"
    settles = controller.settles
    while len(settle_ms) < args.rolls and not controller.match.over:
        started = time.perf_counter()
        view = loop.step()
        spent = time.perf_counter() - started
        step_ms.append(1000 * spent)
        truth = camera.last
        phase = truth.phase if truth is not None else "empty"
        if phase == "settled" and previous_phase == "moving":
            rest_at = clock.now - loop.frame_seconds  # the frame read in this step
        previous_phase = phase
        if controller.settles != settles:
            settles = controller.settles
            read_step_ms.append(1000 * spent)
            if rest_at is not None and view.kind in SHOWN:
                camera_time = clock.now - loop.frame_seconds - rest_at
                settle_ms.append(1000 * (camera_time + spent - still))
                rest_at = None
    screen.close()
    fps = [1000 / ms for ms in step_ms]
    print(f"table benchmark: screen {args.screen}, camera {args.camera}, "
          f"{len(step_ms)} frames, {len(settle_ms)} rolls, watcher stillness {still * 1000:.0f} ms")
    print()
    print("| measure | median | p10 / p90 | aim |")
    print("|---|---|---|---|")
    print(f"| frames per second (whole loop step) | {statistics.median(fps):.0f} | "
          f"{_pct(fps, 10):.0f} / {_pct(fps, 90):.0f} | >= 30 |")
    print(f"| loop step, ms | {statistics.median(step_ms):.1f} | "
          f"{_pct(step_ms, 10):.1f} / {_pct(step_ms, 90):.1f} | <= 33 |")
    print(f"| step that reads the dice, ms | {statistics.median(read_step_ms):.0f} | "
          f"{_pct(read_step_ms, 10):.0f} / {_pct(read_step_ms, 90):.0f} | |")
    print(f"| settle to result on screen beyond stillness, ms | "
          f"{statistics.median(settle_ms):.0f} | {_pct(settle_ms, 10):.0f} / "
          f"{_pct(settle_ms, 90):.0f} | <= 300 |")


def _pct(values: list[float], pct: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))]


if __name__ == "__main__":
    main()
