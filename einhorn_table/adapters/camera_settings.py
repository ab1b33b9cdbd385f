"""How the Pi camera is set: sizes, frame rate, and exposure, white balance and focus.

For each of exposure, white balance and focus a calibration profile either
gives a fixed value, or leaves it out: then the camera finds it automatically
once at start-up and, with ``lock_when_settled``, keeps it from then on, so the
dice look the same in every roll (a hand over the tray does not change the
exposure of the next picture).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.words import plural


class CameraSettingsError(EinhornError):
    """The camera settings (of a calibration profile) are not usable."""


@dataclass(frozen=True)
class CameraSettings:
    #: The main stream the dice are read from, (width, height).
    size: tuple[int, int] = (1280, 960)
    #: The small stream for motion detection (BGR), (width, height); the roll
    #: watcher (``einhorn_table.vision.watcher``) works at 160x120.
    lores_size: tuple[int, int] = (160, 120)
    frame_rate: float = 30.0
    #: Fixed exposure in microseconds; ``None``: automatic, then locked.
    exposure_time_us: int | None = None
    #: Fixed analogue gain (1.0 and up); used with a fixed exposure.
    analogue_gain: float | None = None
    #: Fixed white balance as (red gain, blue gain); ``None``: automatic, then locked.
    colour_gains: tuple[float, float] | None = None
    #: Fixed focus in dioptres (1 / metres; 2.5 is 40 cm) for cameras with a focus
    #: motor (Camera Module 3); ``None``: one autofocus sweep, then locked.
    lens_position: float | None = None
    #: Lock what was found automatically once it has settled.
    lock_when_settled: bool = True
    #: How many frames to wait at most for the automatic values to settle.
    settle_max_frames: int = 90
    #: Settled: exposure, gain and colour gains change by less than this fraction.
    settle_tolerance: float = 0.03

    def __post_init__(self) -> None:
        for name in ("size", "lores_size"):
            width, height = getattr(self, name)
            if width < 16 or height < 16 or width % 2 or height % 2:
                raise CameraSettingsError(
                    f"camera {name} {width}x{height} is not usable: use even numbers "
                    "of 16 or more, e.g. 1280x960 and 160x120."
                )
        lw, lh = self.lores_size
        mw, mh = self.size
        if lw > mw or lh > mh:
            raise CameraSettingsError(
                f"the small motion stream ({lw}x{lh}) must not be larger than the main "
                f"stream ({mw}x{mh})."
            )
        if not 1 <= self.frame_rate <= 120:
            raise CameraSettingsError(
                f"frame_rate {self.frame_rate} is out of range: use 1 to 120 (30 is usual)."
            )
        if self.exposure_time_us is not None and not 50 <= self.exposure_time_us <= 1_000_000:
            raise CameraSettingsError(
                f"exposure_time_us {self.exposure_time_us} is out of range: use 50 to "
                "1000000 microseconds, or leave it out to let the camera find it."
            )
        if self.exposure_time_us is not None and self.exposure_time_us > 1e6 / self.frame_rate:
            raise CameraSettingsError(
                f"exposure_time_us {self.exposure_time_us} is longer than one frame at "
                f"{self.frame_rate} frames a second: shorten it or lower frame_rate."
            )
        if self.analogue_gain is not None and not 1.0 <= self.analogue_gain <= 64.0:
            raise CameraSettingsError(
                f"analogue_gain {self.analogue_gain} is out of range: use 1.0 to 64.0."
            )
        if self.colour_gains is not None and not all(0 < g <= 32 for g in self.colour_gains):
            raise CameraSettingsError(
                f"colour_gains {self.colour_gains} are out of range: two numbers "
                "(red, blue) above 0 and up to 32, e.g. (1.8, 1.5)."
            )
        if self.lens_position is not None and not 0.0 <= self.lens_position <= 32.0:
            raise CameraSettingsError(
                f"lens_position {self.lens_position} is out of range: use 0 (far) to "
                "32 dioptres; 1 / distance in metres, e.g. 2.5 for 40 cm."
            )
        if self.settle_max_frames < 1 or not 0 < self.settle_tolerance < 1:
            raise CameraSettingsError(
                "settle_max_frames must be 1 or more and settle_tolerance between 0 and 1."
            )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CameraSettings:
        """Build from a profile's ``[camera]`` table, refusing keys it does not know."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise CameraSettingsError(
                f"unknown camera {plural(len(unknown), 'setting')}: {', '.join(unknown)}. "
                f"Known settings: {', '.join(sorted(known))}."
            )
        values = dict(data)
        for key in ("size", "lores_size", "colour_gains"):
            if key in values and values[key] is not None:
                values[key] = tuple(values[key])
        try:
            return cls(**values)
        except TypeError as error:
            raise CameraSettingsError(f"camera settings are malformed: {error}") from None

    @property
    def fixed_controls(self) -> dict[str, Any]:
        """libcamera controls for what the settings fix (applied from the first frame)."""
        controls: dict[str, Any] = {"FrameRate": self.frame_rate}
        if self.exposure_time_us is not None:
            controls["AeEnable"] = False
            controls["ExposureTime"] = self.exposure_time_us
            controls["AnalogueGain"] = self.analogue_gain or 1.0
        if self.colour_gains is not None:
            controls["AwbEnable"] = False
            controls["ColourGains"] = self.colour_gains
        return controls
