"""``einhorn-table record FOLDER``: save camera frames as pictures, to replay with ``dir:FOLDER``.

For reproducing a problem seen at the table: record a few seconds of rolls,
then replay them anywhere with ``--source dir:FOLDER,fps=30``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from einhorn_table.cli.arguments import more_than_zero
from einhorn_table.words import counted


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "record",
        help="save camera frames into a folder (replay it with --source dir:FOLDER)",
        description=__doc__,
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


def run(args: argparse.Namespace) -> int:
    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.adapters.recorder import FrameRecorder
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.doctor.checks import default_source
    from einhorn_table.doctor.machine import detect_machine

    clock = SystemClock()
    source_text = args.source or default_source(detect_machine())
    recorder = FrameRecorder(args.folder)
    with create_source(source_text, clock=clock) as source:
        start = clock.monotonic()
        end = start + args.seconds
        while clock.monotonic() < end:
            frame = source.read()
            if frame is None:
                break
            recorder.write(frame)
        took = clock.monotonic() - start
    # Replayed at the rate they came, the frames keep the roll's timing (the watcher's).
    fps = max(1, round(recorder.written / took)) if took > 0 else 30
    replay = f"dir:{args.folder},fps={fps}"
    print(
        f"Saved {counted(recorder.written, 'frame')} from {source.description} in {args.folder}. "
        f"Replay them as the table's camera: camera = \"{replay}\" in table.toml "
        f"(or --source {replay} for the doctor and calibrate)."
    )
    return 0 if recorder.written else 1
