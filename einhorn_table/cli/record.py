"""``einhorn-table record FOLDER``: save camera frames as pictures, to replay with ``dir:FOLDER``.

For reproducing a problem seen at the table: record a few seconds of rolls,
then replay them anywhere with ``--source dir:FOLDER,fps=30``. Ctrl-C, a full
disk or a camera that stops end the recording early; the frames saved so far
are kept, and the command says how to replay them.
"""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from einhorn_table.cli.arguments import existing_file, more_than_zero
from einhorn_table.words import counted

if TYPE_CHECKING:
    from einhorn_table.adapters.camera_settings import CameraSettings

DESCRIPTION = """\
Save camera frames as pictures (000000.png, 000001.png...) into a new or empty
folder, to reproduce a problem seen at the table: record a few seconds of rolls,
then replay them anywhere as the camera with --source dir:FOLDER,fps=30 (or
camera = "dir:FOLDER" in table.toml). Ctrl-C stops the recording early and keeps
the frames saved so far. On the table's Raspberry Pi, stop the table's service
first (sudo systemctl stop einhorn-table): while it runs it holds the camera."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "record",
        help="save camera frames into a folder (replay it with --source dir:FOLDER)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, help="a new or empty folder for the pictures")
    parser.add_argument(
        "--source",
        default=None,
        help="the camera (default: the table file's camera, else picamera2 on a Pi and "
        "synth:seed=0 elsewhere); e.g. opencv:0",
    )
    parser.add_argument(
        "--table", type=existing_file, default=Path("table.toml"), metavar="FILE",
        help="the table's file whose camera to record (default ./table.toml, where there is one)",
    )
    parser.add_argument(
        "--seconds", type=more_than_zero, default=10.0,
        help="how long to record (default 10), in the recording's own time: of a video "
        "file or a folder of pictures, that many seconds of it, however fast it is read",
    )


class CtrlC:
    """While in its ``with``, Ctrl-C ends the recording after the frame in hand (so that
    every picture saved is counted and told); a second Ctrl-C stops at once."""

    def __init__(self) -> None:
        self.pressed = False
        self._before: Any = None

    def __enter__(self) -> CtrlC:
        # Python's handlers can be set only from its main thread, and put back only if
        # Python set the one there before (getsignal says None for one set elsewhere).
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is not None):
            self._before = signal.signal(signal.SIGINT, self._press)
        return self

    def _press(self, number: int, frame: FrameType | None) -> None:
        self.pressed = True
        signal.signal(signal.SIGINT, self._before)

    def __exit__(self, *exc: object) -> None:
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)


def run(args: argparse.Namespace) -> int:
    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.adapters.recorder import FrameRecorder
    from einhorn_table.adapters.source_base import SourceError
    from einhorn_table.adapters.source_spec import parse_source
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.doctor.checks import default_source
    from einhorn_table.doctor.machine import detect_machine

    clock = SystemClock()
    # (The table's file is read for its camera, or for the Pi camera's settings.)
    wanted = args.source is None or parse_source(args.source).kind == "picamera2"
    camera = table_camera(args.table) if wanted else TableCamera(None, None)
    source_text = args.source or camera.source or default_source(detect_machine())
    if camera.note is not None and parse_source(source_text).kind == "picamera2":
        print(camera.note, file=sys.stderr)
    # A misspelt source is refused before any folder is made. The Pi camera is set as
    # the table sets it (size, frame rate, exposure, focus), for frames like its own.
    # A misspelt camera in the table's file is told with the file's line, to fix there.
    line = f'{args.table}: camera = "{camera.source}": ' \
        if args.source is None and camera.source is not None else ""
    try:
        source = create_source(source_text, clock=clock, camera_settings=camera.settings)
    except SourceError as error:
        raise SourceError(f"{line}{error}") from None
    made = missing_folders(args.folder)
    recorder = FrameRecorder(args.folder)  # (refuses a folder of pictures before the camera)
    stopped: SourceError | None = None
    times: list[float] = []  # the frames' timestamps
    try:
        with source, CtrlC() as ctrl_c:
            start = clock.monotonic()
            first: float | None = None  # when a live camera's first frame came
            simulated = getattr(source, "simulated", False)  # (a stand-in may not say)
            try:
                while not ctrl_c.pressed:
                    frame = source.read()
                    now = clock.monotonic()
                    if frame is None or not within(frame.timestamp, times, args.seconds) \
                            or overdue(simulated, first, now, args.seconds):
                        break
                    first = now if first is None else first
                    recorder.write(frame)
                    times.append(frame.timestamp)
            except SourceError as error:
                if not recorder.written:
                    raise
                stopped = error  # the disk filled or the camera stopped: keep what came
            took = clock.monotonic() - start
    finally:
        if not recorder.written:  # a camera that never opened or gave nothing
            remove_empty(made)
    if stopped is not None:
        print(f"einhorn-table: {stopped}", file=sys.stderr)
    if not recorder.written:
        print(f"einhorn-table: nothing was saved in {args.folder}: no frame came from "
              f"{source.description} before the recording ended", file=sys.stderr)
        return 1
    fps = frame_rate(times, took)
    print(
        f"Saved {counted(recorder.written, 'frame')} from {source.description} in {args.folder}. "
        f"{replay_words(args.folder, fps)}"
    )
    return 1 if stopped is not None else 0


def within(timestamp: float, times: list[float], seconds: float) -> bool:
    """Whether a frame taken at ``timestamp`` belongs to a recording of ``seconds`` whose
    frames so far were taken at ``times``: counted by the frames' own timestamps, the
    recording's time (a video file's, which plays faster or slower than the clock on
    the wall; a camera's, from its first frame on)."""
    return not times or timestamp - times[0] < seconds


#: How much longer than ``--seconds`` on the wall clock a live camera may record: its
#: own timestamps end the recording first, unless they stand still or go back.
LIVE_SLACK_SECONDS = 2.0


def overdue(simulated: bool, first: float | None, now: float, seconds: float) -> bool:
    """Whether a live camera's recording, whose first frame came at ``first`` (on the
    wall clock), has run well past ``seconds`` by ``now``: a camera whose timestamps
    stand still or jump back (restarted, or a driver's bad clock) would otherwise be
    recorded until the disk is full. A recording (a file, a folder) plays as fast as it
    is read, so only its own time counts."""
    return not simulated and first is not None and now - first >= seconds + LIVE_SLACK_SECONDS


def frame_rate(times: list[float], took: float) -> int:
    """The frames a second to replay a recording at, so that it keeps the roll's timing
    (the watcher's): by the frames' own timestamps, the real time between exposures (a
    video file's frame rate, however fast it was read; a camera's, from its first frame
    on, not from the moment it was asked to start); else by the time the recording took."""
    if len(times) > 1 and times[-1] > times[0]:
        return max(1, round((len(times) - 1) / (times[-1] - times[0])))
    return max(1, round(len(times) / took)) if took > 0 else 30


def replay_words(folder: Path, fps: int) -> str:
    """How to replay a recording, to copy as it stands: the folder by its whole path (the
    table runs from its own folder, the service from /opt/einhorn-table), written as a
    TOML string for table.toml and quoted for the shell (a folder "Tuesday evening")."""
    replay = f"dir:{folder.absolute()},fps={fps}"
    return (f"Replay them as the table's camera: camera = {json.dumps(replay, ensure_ascii=False)}"
            f" in table.toml (or --source {shlex.quote(replay)} for the doctor and calibrate).")


@dataclass(frozen=True, slots=True)
class TableCamera:
    """The camera ``play`` reads the dice with, by the table's file: its source (None
    where there is no table's file) and the settings of the table's calibration (its
    ``calibration``, else the one in its state directory, else calibrate's own; None
    where there is none)."""

    source: str | None
    settings: CameraSettings | None
    #: Where the calibration could not be looked for, what the terminal is told.
    note: str | None = None


def table_camera(table: Path) -> TableCamera:
    """The table's camera by its file ``table`` (see :class:`TableCamera`). A table's
    file or a calibration that does not load is refused with what to fix; a state
    directory this user may not look into (the service's) leaves the camera's own
    settings, with a note."""
    from einhorn_table.calibration.paths import state_profile, unreadable_state_words
    from einhorn_table.calibration.profile import load_profile
    from einhorn_table.table.config import load_config
    from einhorn_table.words import command_name

    config = load_config(table) if table.is_file() else None
    source = None if config is None else config.camera
    try:
        profile = (config.calibration if config is not None else None) or state_profile(
            config.state if config is not None else None)
    except PermissionError as error:
        why, todo = unreadable_state_words(error, "record ...")
        return TableCamera(source, None, (
            f"{command_name()} record: {why}, so a Pi camera records with its own "
            f"settings, not the calibrated ones. To record with them: {todo[0].lower()}"
            f"{todo[1:]}"))
    return TableCamera(source, None if profile is None else load_profile(profile).camera)


def missing_folders(folder: Path) -> list[Path]:
    """The folders the recording would make for ``folder``, deepest first."""
    missing = []
    for path in (folder, *folder.parents):
        if path.exists():
            break
        missing.append(path)
    return missing


def remove_empty(folders: list[Path]) -> None:
    """Take away the folders a recording made where it saved nothing (only empty ones,
    deepest first: nothing that holds a file is touched)."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return
