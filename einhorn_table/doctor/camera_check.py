"""The camera check: open the frame source, read frames, report size, frame rate, locks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.source_base import CameraView
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.errors import EinhornError
from einhorn_table.ports import Clock
from einhorn_table.words import counted

if TYPE_CHECKING:
    from einhorn_table.ports import Image

#: Below this the camera is too slow to see the dice come to rest.
MIN_FPS = 10.0
#: Below this it works, but rolls are seen late.
GOOD_FPS = 20.0


def check_camera(
    source_text: str,
    clock: Clock,
    *,
    frames: int = 30,
    settings: CameraSettings | None = None,
    seen: Callable[[Image], None] | None = None,
    viewed: Callable[[CameraView], None] | None = None,
) -> CheckResult:
    """Open the frame source, read ``frames`` frames, and report size and frame rate;
    ``seen`` is handed the last picture read, ``viewed`` the camera's view where it
    tells one (the Pi camera's sensor and sensor mode)."""
    from einhorn_table.adapters.sources import create_source

    try:
        source = create_source(source_text, clock=clock, camera_settings=settings)
        with source:
            first = source.read()
            started = clock.monotonic()
            count = 1 if first is not None else 0
            last = first
            while count < frames and (frame := source.read()) is not None:
                last = frame
                count += 1
            elapsed = clock.monotonic() - started
            notes = list(getattr(source, "notes", []))
            view = source.view
            locked = dict(getattr(source, "locked", {}))
    except EinhornError as error:
        return CheckResult("camera", Status.FAIL, f"{source_text}: {error}")
    except Exception as error:  # an unforeseen library error: report it, check the rest
        return CheckResult(
            "camera",
            Status.FAIL,
            f"{source_text}: unexpected {type(error).__name__}: {error}",
            "Run the doctor again; if this stays, report this line to the project.",
        )
    if first is None or last is None:
        return CheckResult(
            "camera",
            Status.FAIL,
            f"{source.description} gave no picture at all",
            "Point --source at a recording that holds pictures, or check the camera.",
        )
    if seen is not None:
        seen(last.image)
    if viewed is not None and view is not None:
        viewed(view)
    width, height = first.size
    rate = (count - 1) / elapsed if count > 1 and elapsed > 0 else None
    shown = (f" at {rate:.1f} frames/s" if rate is not None
             else f", {counted(count, 'picture')} only (too few to measure the frame rate)")
    detail = f"{source.description}: {width}x{height}{shown}"
    if locked:
        detail += "; locked " + _describe_locked(locked)
    brightness = float(last.image.mean())
    todo: list[str] = list(notes)
    status = Status.WARN if notes else Status.OK
    if rate is not None and not source.simulated and rate < MIN_FPS:
        return CheckResult(
            "camera",
            Status.FAIL,
            detail + f" (too slow: {MIN_FPS:g} frames/s at least)",
            "Lower the resolution (--source picamera2:width=1280,height=960), close other "
            "programs using the camera, and use a 5 V 3 A (Pi 4) or 5 A (Pi 5) supply.",
        )
    if rate is not None and not source.simulated and rate < GOOD_FPS:
        status = Status.WARN
        todo.append("Rolls will be seen late; a smaller picture size is faster.")
    if brightness < 12:
        status = Status.WARN
        todo.append("The picture is nearly black: lens cap on? Light over the tray?")
    return CheckResult(
        "camera", status, detail, " ".join(todo), simulated=source.simulated
    )


def _describe_locked(locked: Mapping[str, Any]) -> str:
    parts = []
    if "ExposureTime" in locked:
        parts.append(f"exposure {locked['ExposureTime'] / 1000:.1f} ms")
    if "AnalogueGain" in locked:
        parts.append(f"gain {locked['AnalogueGain']:.2f}")
    if "ColourGains" in locked:
        red, blue = locked["ColourGains"]
        parts.append(f"white balance (red {red:.2f}, blue {blue:.2f})")
    if "LensPosition" in locked:
        parts.append(f"focus {locked['LensPosition']:.2f} dioptres")
    return ", ".join(parts)
