"""``einhorn-table record FOLDER``: save camera frames as pictures, to replay with ``dir:FOLDER``.

For reproducing a problem seen at the table: record a few seconds of rolls,
then replay them anywhere with ``--source dir:FOLDER,fps=30``. Ctrl-C, a full
disk or a camera that stops end the recording early; the frames saved so far
are kept, and the command says how to replay them.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from einhorn_table.cli.arguments import more_than_zero
from einhorn_table.words import counted

DESCRIPTION = """\
Save camera frames as pictures (000000.png, 000001.png...) into a new or empty
folder, to reproduce a problem seen at the table: record a few seconds of rolls,
then replay them anywhere as the camera with --source dir:FOLDER,fps=30 (or
camera = "dir:FOLDER" in table.toml). Ctrl-C stops the recording early and keeps
the frames saved so far."""


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
        help="the camera (default: picamera2 on a Pi, synth:seed=0 elsewhere)",
    )
    parser.add_argument(
        "--seconds", type=more_than_zero, default=10.0, help="how long to record (default 10)"
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
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.doctor.checks import default_source
    from einhorn_table.doctor.machine import detect_machine

    clock = SystemClock()
    source_text = args.source or default_source(detect_machine())
    # A misspelt source is refused before any folder is made.
    source = create_source(source_text, clock=clock)
    made = missing_folders(args.folder)
    recorder = FrameRecorder(args.folder)  # (refuses a folder of pictures before the camera)
    stopped: SourceError | None = None
    try:
        with source, CtrlC() as ctrl_c:
            start = clock.monotonic()
            end = start + args.seconds
            try:
                while clock.monotonic() < end and not ctrl_c.pressed:
                    frame = source.read()
                    if frame is None:
                        break
                    recorder.write(frame)
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
    # Replayed at the rate they came, the frames keep the roll's timing (the watcher's).
    fps = max(1, round(recorder.written / took)) if took > 0 else 30
    replay = f"dir:{args.folder},fps={fps}"
    print(
        f"Saved {counted(recorder.written, 'frame')} from {source.description} in {args.folder}. "
        f"Replay them as the table's camera: camera = \"{replay}\" in table.toml "
        f"(or --source {replay} for the doctor and calibrate)."
    )
    return 1 if stopped is not None else 0


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
