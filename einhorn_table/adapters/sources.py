"""One factory for every frame source: ``create_source("dir:frames/")``.

See :mod:`einhorn_table.adapters.source_spec` for the source strings.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.clock import SystemClock
from einhorn_table.adapters.source_base import BaseSource
from einhorn_table.adapters.source_spec import OptionValue, SourceSpec, parse_source
from einhorn_table.ports import Clock


def create_source(
    source: str | SourceSpec,
    *,
    clock: Clock | None = None,
    camera_settings: CameraSettings | None = None,
) -> BaseSource:
    """The frame source a source string names, not yet opened (use it in a ``with``).

    ``camera_settings`` (from the calibration profile) set the Pi camera; its
    ``width``/``height``/``fps`` options override the sizes and frame rate.
    """
    spec = parse_source(source) if isinstance(source, str) else source
    clock = clock or SystemClock()
    fps = spec.options.get("fps")
    width, height = spec.options.get("width"), spec.options.get("height")
    if spec.kind == "picamera2":
        from einhorn_table.adapters.picamera2_source import Picamera2Source

        settings = camera_settings or CameraSettings()
        settings = replace(  # checked again, like the profile's own values
            settings,
            size=(_given(width, settings.size[0]), _given(height, settings.size[1])),
            frame_rate=settings.frame_rate if fps is None else float(fps),
        )
        return Picamera2Source(clock, settings, camera_number=int(spec.argument or 0))
    if spec.kind == "opencv":
        from einhorn_table.adapters.opencv_source import WebcamSource

        size = (int(width), int(height)) if width is not None and height is not None else None
        return WebcamSource(
            int(spec.argument or 0), clock, size=size, fps=None if fps is None else float(fps)
        )
    if spec.kind == "file":
        from einhorn_table.adapters.opencv_source import VideoFileSource

        return VideoFileSource(
            Path(spec.argument or ""),
            clock,
            fps=None if fps is None else float(fps),
            loop=bool(spec.options.get("loop", False)),
        )
    if spec.kind == "dir":
        from einhorn_table.adapters.dir_source import DirSource

        return DirSource(
            Path(spec.argument or ""),
            clock,
            fps=None if fps is None else float(fps),
            loop=bool(spec.options.get("loop", False)),
        )
    if spec.kind == "synth":
        from einhorn_table.adapters.synth_source import SynthSource

        return SynthSource(
            clock,
            seed=int(spec.options.get("seed", 0)),
            players=int(spec.options.get("players", 1)),
            size=(_given(width, 640), _given(height, 480)),
            fps=30.0 if fps is None else float(fps),
            mount=bool(spec.options.get("mount", False)),
        )
    raise AssertionError(f"parse_source let through an unknown kind: {spec.kind}")


def _given(option: OptionValue | None, default: int) -> int:
    """A size option as given (a 0 too, which the source then refuses), else ``default``."""
    return default if option is None else int(option)
