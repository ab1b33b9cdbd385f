"""Locking exposure, white balance and focus: what the camera locked, as profile settings.

The Pi camera source (``adapters.picamera2_source``) lets the automatic
exposure, white balance and focus settle when it opens and then locks them
(``lock_when_settled``); at the light step it focuses again and lets exposure and
white balance follow the light again, and locks them anew (``relock``), so that
"measure again" after the lamp was put right measures the new light, and a camera
lowered before calibrating again from step 1 is sharp. Its ``locked`` controls
become the profile's ``[camera]`` values here, and its notes (values that never
settled, a focus not found) are shown on the light screen. Other sources
(synthetic table, recordings, webcams) have nothing to lock; the screen says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.flow_state import CameraLock

#: libcamera's control names in words.
_PLAIN = {
    "ExposureTime": "exposure",
    "AnalogueGain": "exposure",
    "ColourGains": "colour balance",
    "LensPosition": "focus",
}


def settings_from_locked(
    locked: Mapping[str, Any], base: CameraSettings | None = None
) -> CameraSettings:
    """libcamera's locked controls as fixed :class:`CameraSettings` values."""
    settings = base or CameraSettings()
    changes: dict[str, Any] = {}
    if "ExposureTime" in locked:
        changes["exposure_time_us"] = int(locked["ExposureTime"])
        changes["analogue_gain"] = round(float(locked.get("AnalogueGain", 1.0)), 3)
    if "ColourGains" in locked:
        red, blue = locked["ColourGains"]
        changes["colour_gains"] = (round(float(red), 3), round(float(blue), 3))
    if "LensPosition" in locked:
        changes["lens_position"] = round(float(locked["LensPosition"]), 3)
    return replace(settings, **changes)


def lock_for(source: object) -> Callable[[], CameraLock]:
    """What locking means for this frame source (called once the picture has settled)."""

    def lock() -> CameraLock:
        relock = getattr(source, "relock", None)
        if callable(relock):
            relock()  # to the light as it is now, also when measured again
        locked = getattr(source, "locked", None)
        if isinstance(locked, Mapping):
            base = getattr(source, "settings", None)
            settings = settings_from_locked(
                locked, base if isinstance(base, CameraSettings) else None
            )
            if not locked:
                return CameraLock(settings, "The camera reported nothing to lock.")
            what = sorted({_PLAIN.get(str(name), str(name)) for name in locked})
            listed = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " and " + what[-1]
            verb = "is" if len(what) == 1 else "are"
            notes = [str(n) for n in getattr(source, "notes", ())]
            return CameraLock(settings, " ".join([f"The camera's {listed} {verb} locked now.",
                                                  *notes]))
        description = getattr(source, "description", "this source")
        return CameraLock(
            CameraSettings(),
            f"Nothing to lock on {description}: a Pi camera locks exposure, "
            "colour balance and focus here.",
        )

    return lock
