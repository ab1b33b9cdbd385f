"""A vision tray fed recorded synthetic frames, as ``play`` builds it: the tests of the
tray and the table at a (re)start read the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.replay_source import ReplaySource
from einhorn_table.adapters.vision_tray import VisionTray, make_watcher
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.calibration.tray_reading import TrayReader
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.synth import SynthFrame, SynthTable


def replayed_tray(frames: Sequence[SynthFrame], synth: SynthTable, **options: Any
                  ) -> tuple[VisionTray, FakeClock, list[float]]:
    """A vision tray reading ``frames`` of ``synth`` in the tray's outline as found in its
    empty picture (``options``: the tray's own, as ``hold_seconds``), its clock, and the
    frames' times to set the clock to before each poll."""
    calibrated = find_tray(synth.empty().image)
    reader = TrayReader(ReaderProfile(), calibrated, 40.0, anchor=calibrated)
    times = list(synth.frame_times(len(frames)))
    clock = FakeClock(0.0)
    tray = VisionTray(ReplaySource([f.image for f in frames], times), make_watcher(), reader,
                      clock, follower=reader, **options)
    return tray, clock, times
