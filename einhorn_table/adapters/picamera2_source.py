"""``picamera2``: the Raspberry Pi camera through picamera2 (libcamera).

Two streams come from every request: the main stream (BGR) the dice are read
from, and a small "lores" stream for motion detection. The lores stream can
only be YUV420 on a Pi 4; it is turned into a small BGR picture, since motion
is easier to see in colour (a blue die on slate felt is as bright as the felt,
and vanishes in grey). Both are copied out of the camera's buffers by
``capture_arrays`` (one request, so they show the same moment), and the buffer
goes straight back to the camera.

Every capture waits a bounded time (where picamera2's ``wait`` takes a timeout, as in
the picamera2 of current Raspberry Pi OS; :func:`capture_timeouts`, longer at a low
frame rate and for the first frame after a start): a camera whose cable came
loose, or whose pipeline stalled ("Camera frontend has timed out!"), stops sending
frames without an error, and an endless wait would freeze the table's screen and
buttons. Then the waiting capture is cancelled, so that the camera can be closed,
and the source says the camera stopped (the table reopens it every few seconds).
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.source_base import (
    BaseSource,
    CameraLibraryMissing,
    CameraView,
    SourceError,
)
from einhorn_table.ports import Clock, Frame

#: libcamera's ``controls.AfModeEnum.Manual`` (control_ids: AfModeManual = 0).
AF_MODE_MANUAL = 0

#: Seconds to wait for the next frame (or its metadata) before the camera counts as
#: stopped, at least; at a low frame rate (a long exposure: frame_rate down to 1)
#: :data:`STALL_FRAMES` frames' time.
FRAME_TIMEOUT_S = 2.0
STALL_FRAMES = 3
#: Frames' time the first frame after a start may take: libcamera hides the first
#: frames while exposure and white balance converge (under a second at 30 frames a
#: second, several seconds at 1 or 2).
START_FRAMES = 12
#: Seconds an autofocus sweep may take, at least (about one second, some 30 frames, on a
#: Camera Module 3), or :data:`AUTOFOCUS_FRAMES` frames' time at a low frame rate.
AUTOFOCUS_TIMEOUT_S = 10.0
AUTOFOCUS_FRAMES = 90


@dataclass(frozen=True, slots=True)
class CaptureTimeouts:
    """Seconds to wait for a frame, for the first frame after a start, and for an
    autofocus sweep, before the camera counts as stopped."""

    frame: float
    first: float
    autofocus: float


def capture_timeouts(frame_rate: float) -> CaptureTimeouts:
    """How long to wait for the camera's captures at ``frame_rate`` frames a second."""
    frame = 1.0 / frame_rate
    return CaptureTimeouts(
        frame=max(FRAME_TIMEOUT_S, STALL_FRAMES * frame),
        first=max(FRAME_TIMEOUT_S, START_FRAMES * frame),
        autofocus=max(AUTOFOCUS_TIMEOUT_S, AUTOFOCUS_FRAMES * frame),
    )

#: How many frames in a row must agree before automatic values count as settled.
SETTLED_RUN = 5
#: Frames skipped after the automatics are switched back on, before they are watched
#: settling: the first ones still show the locked values, which look settled.
RELOCK_SKIP_FRAMES = 8
#: How the note on values that never settled begins.
UNSETTLED = "Exposure and white balance had not settled"
#: The note where the autofocus found no sharp picture.
NOT_FOCUSED = ("The autofocus did not find a sharp picture: put dice in the tray, check "
               "the light, or set lens_position in the calibration profile.")

INSTALL_PICAMERA2 = (
    "The camera library picamera2 is not installed in this Python. On the "
    "Raspberry Pi run: sudo apt install -y python3-picamera2 ; then make the venv "
    "so that it sees the system's libraries: delete .venv and run ./start again "
    "(it uses python3 -m venv --system-site-packages). On a desktop computer use a "
    "webcam or the synthetic table instead: camera = \"opencv:0\" or \"synth:\" in "
    "table.toml (--source opencv:0 for the doctor and calibrate)."
)

CameraFactory = Callable[[int], Any]


#: What to do when the system's picamera2 cannot load with the venv's numpy.
NUMPY_MISMATCH = (
    "The camera library picamera2 cannot load with this Python's numpy: Raspberry Pi "
    "OS builds the libraries it uses (simplejpeg) for numpy 1, and the venv has numpy "
    "2. Run ./start again: on a Pi it installs simplejpeg for numpy 2 into the venv "
    "(or run: .venv/bin/pip install --no-deps --ignore-installed simplejpeg)."
)


def _import_picamera2() -> CameraFactory:
    try:
        from picamera2 import Picamera2
    except ImportError as error:
        raise CameraLibraryMissing(f"{INSTALL_PICAMERA2} (Python said: {error})") from None
    except ValueError as error:  # "numpy.dtype size changed": built for another numpy
        raise CameraLibraryMissing(f"{NUMPY_MISMATCH} (Python said: {error})") from None
    factory: CameraFactory = Picamera2
    return factory


class Picamera2Source(BaseSource):
    """The Pi camera; ``camera_factory`` (default: ``picamera2.Picamera2``) is for tests."""

    def __init__(
        self,
        clock: Clock,
        settings: CameraSettings | None = None,
        *,
        camera_number: int = 0,
        camera_factory: CameraFactory | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or CameraSettings()
        self.camera_number = camera_number
        self.description = f"Raspberry Pi camera {camera_number} (picamera2)"
        self._clock = clock
        self._factory = camera_factory
        self._camera: Any = None
        #: Whether this picamera2 can wait for a capture with a timeout.
        self._timed = False
        self._timeouts = capture_timeouts(self.settings.frame_rate)
        #: Whether the camera has sent no frame since it was started.
        self._starting = False
        self._lores_size = self.settings.lores_size
        #: What was locked after settling (control name to value), for reports.
        self.locked: dict[str, Any] = {}
        #: Remarks for the installer (e.g. values that never settled).
        self.notes: list[str] = []

    # --------------------------------------------------------------------- open
    def _open(self) -> None:
        factory = self._factory or _import_picamera2()
        try:
            camera = factory(self.camera_number)
        except Exception as error:  # picamera2 raises IndexError or RuntimeError here
            if _held_elsewhere(error):
                raise SourceError(
                    f"The Raspberry Pi camera {self.camera_number} is in use by another "
                    f"program ({error}). Is the table's service running? Stop it first: "
                    "sudo systemctl stop einhorn-table (start it again afterwards); close "
                    "rpicam-hello or any other camera program, then try again."
                ) from None
            raise SourceError(
                f"No Raspberry Pi camera found as camera {self.camera_number} ({error}). "
                "Check the ribbon cable (contacts facing the right way, both latches "
                "closed), then run 'rpicam-hello --list-cameras': it must list the "
                "camera. Power the Pi off before touching the cable."
            ) from None
        self._camera = camera
        self._timed = _waits_with_timeout(camera)
        try:
            self._start(camera)
        except SourceError:
            self._close()
            raise
        except Exception as error:
            self._close()
            raise SourceError(
                f"The Raspberry Pi camera would not start ({error}). Is another program "
                "using it (the companion's service, rpicam-hello)? Stop it and try again."
            ) from None
        model = getattr(camera, "camera_properties", {}).get("Model")
        if model:
            self.description = f"Raspberry Pi camera {self.camera_number} ({model}, picamera2)"

    def _start(self, camera: Any) -> None:
        settings = self.settings
        # The raw stream's size picks the sensor mode: one that sees the whole sensor.
        raw_size = full_view_raw_size(getattr(camera, "sensor_resolution", None), settings.size)
        raw: dict[str, Any] = {} if raw_size is None else {"raw": {"size": raw_size}}
        config = camera.create_video_configuration(
            main={"size": settings.size, "format": "RGB888"},
            lores={"size": settings.lores_size, "format": "YUV420"},
            controls=settings.fixed_controls,
            **raw,
        )
        camera.configure(config)
        # libcamera may adjust the sizes; picamera2 keeps what it applied in camera_config.
        applied = getattr(camera, "camera_config", None) or config
        width, height = applied["lores"]["size"]
        self._lores_size = (int(width), int(height))
        self.view = camera_view(getattr(camera, "camera_properties", {}), applied)
        camera.start()
        self._starting = True
        self._focus(camera)
        if settings.lock_when_settled:
            self._lock_when_settled(camera)

    def _has_focus_motor(self, camera: Any) -> bool:
        return "AfMode" in getattr(camera, "camera_controls", {})

    def _focus(self, camera: Any) -> None:
        position = self.settings.lens_position
        if not self._has_focus_motor(camera):
            if position is not None:
                self.notes.append(
                    "lens_position is set but this camera has a fixed focus: it was ignored."
                )
            return
        if position is None:
            if not self._capture(camera, "autofocus_cycle",
                                 timeout=self._timeouts.autofocus):
                self.notes.append(NOT_FOCUSED)
            position = self._capture(camera, "capture_metadata").get("LensPosition")
        if position is not None:
            camera.set_controls({"AfMode": AF_MODE_MANUAL, "LensPosition": float(position)})
            self.locked["LensPosition"] = float(position)

    def relock(self) -> None:
        """Let exposure and white balance follow the light as it is now, then lock them
        again, the focus found anew first: calibration's light step, after the lamp was
        put right ("measure again") or the camera moved (calibrating again from step 1
        after a poor result, the camera lowered). Values the settings fix stay fixed."""
        camera = self._camera
        settings = self.settings
        if camera is not None and settings.lens_position is None \
                and self._has_focus_motor(camera):
            self.notes = [n for n in self.notes if n != NOT_FOCUSED]
            self._focus(camera)
        auto = {}
        if settings.exposure_time_us is None:
            auto["AeEnable"] = True
        if settings.colour_gains is None:
            auto["AwbEnable"] = True
        if camera is None or not settings.lock_when_settled or not auto:
            return
        camera.set_controls(auto)
        for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
            self.locked.pop(name, None)
        self.notes = [n for n in self.notes if not n.startswith(UNSETTLED)]
        for _ in range(RELOCK_SKIP_FRAMES):  # the old values until the automatics move
            self._capture(camera, "capture_metadata")
        self._lock_when_settled(camera)

    def _lock_when_settled(self, camera: Any) -> None:
        settings = self.settings
        auto_exposure = settings.exposure_time_us is None
        auto_white = settings.colour_gains is None
        if not (auto_exposure or auto_white):
            return
        previous: Mapping[str, Any] | None = None
        run = 0
        metadata: Mapping[str, Any] = {}
        for _ in range(settings.settle_max_frames):
            metadata = self._capture(camera, "capture_metadata")
            if previous is not None and _close(previous, metadata, settings.settle_tolerance):
                run += 1
                if run >= SETTLED_RUN:
                    break
            else:
                run = 0
            previous = metadata
        else:
            self.notes.append(
                f"{UNSETTLED} after "
                f"{settings.settle_max_frames} frames (flickering light?); the last "
                "values were locked. Steady light over the tray helps."
            )
        controls: dict[str, Any] = {}
        if auto_exposure and "ExposureTime" in metadata:
            controls.update(
                AeEnable=False,
                ExposureTime=int(metadata["ExposureTime"]),
                AnalogueGain=float(metadata.get("AnalogueGain", 1.0)),
            )
        if auto_white and "ColourGains" in metadata:
            red, blue = metadata["ColourGains"]
            controls.update(AwbEnable=False, ColourGains=(float(red), float(blue)))
        if controls:
            camera.set_controls(controls)
            self.locked.update({k: v for k, v in controls.items() if not k.endswith("Enable")})

    # --------------------------------------------------------------------- read
    def _read(self) -> Frame | None:
        import cv2

        try:
            (main, lores), metadata = self._capture(self._camera, "capture_arrays",
                                                    ["main", "lores"])
        except SourceError:
            raise
        except Exception as error:
            raise SourceError(
                f"The Raspberry Pi camera stopped sending pictures ({error}). Check the "
                "ribbon cable and the power supply (use the official 5 V supply)."
            ) from None
        width, height = self._lores_size
        image = main if main.base is None else main.copy()
        # YUV420 arrives as (height * 3 / 2, stride): planes Y, U, V with rows padded
        # to the stride; converting at the stride's width and cropping undoes that.
        small = cv2.cvtColor(lores, cv2.COLOR_YUV2BGR_I420)[:height, :width].copy()
        stamp = metadata.get("SensorTimestamp")
        timestamp = stamp / 1e9 if isinstance(stamp, int) else self._clock.monotonic()
        return Frame(image=image, timestamp=timestamp, index=self.frames_read, small=small)

    def _capture(self, camera: Any, method: str, *args: Any,
                 timeout: float | None = None) -> Any:
        """``camera.method(*args)``, waiting at most ``timeout`` seconds (default: a
        frame's timeout, see :func:`capture_timeouts`) for its result where this
        picamera2 can (see the module's description)."""
        if not self._timed:
            return getattr(camera, method)(*args)
        timeout = self._timeouts.frame if timeout is None else timeout
        if self._starting:
            timeout = max(timeout, self._timeouts.first)
        job = getattr(camera, method)(*args, wait=False)
        try:
            result = camera.wait(job, timeout=timeout)
            self._starting = False
            return result
        except TimeoutError:
            # The waiting job would hold up every later one, stop() too: cancel it.
            with contextlib.suppress(Exception):
                camera.cancel_all_and_flush()
            raise SourceError(
                f"The Raspberry Pi camera stopped sending pictures (none came in "
                f"{timeout:g} s). Power the Pi off, check the ribbon cable (contacts "
                "facing the right way, both latches closed) and use the official 5 V "
                "supply; then start again."
            ) from None

    # -------------------------------------------------------------------- close
    def _close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        try:
            camera.stop()
        finally:
            camera.close()


def camera_view(properties: Mapping[str, Any], applied: Mapping[str, Any]) -> CameraView | None:
    """The view the camera was configured for: its sensor's name and the sensor mode
    libcamera chose (the raw stream's size in the configuration applied); None where
    either is not known."""
    model = properties.get("Model") if isinstance(properties, Mapping) else None
    raw = applied.get("raw") if isinstance(applied, Mapping) else None
    size = raw.get("size") if isinstance(raw, Mapping) else None
    if not isinstance(model, str) or not model or not isinstance(size, tuple | list):
        return None
    try:
        width, height = (int(n) for n in size)
    except (TypeError, ValueError):
        return None
    return CameraView(model, (width, height))


def full_view_raw_size(sensor: Any, main: tuple[int, int]) -> tuple[int, int] | None:
    """The raw stream size that makes libcamera read the whole sensor, binned 2x2.

    Asked for a main stream of 1280x960 alone, libcamera picks the sensor mode nearest
    that size: on a Camera Module 3 its 1536x864 mode, which reads only the middle
    two thirds of the sensor (about 36 x 28 degrees instead of the 52 x 41 degrees the
    mount guide counts on), so the tray does not fit at the guide's height. The
    Raspberry Pi cameras with several modes have a 2x2 binned one of half the full
    resolution that sees all of the sensor, fast enough for 30 frames a second
    (Camera Module 3: 2304x1296; Camera Module 2: 1640x1232; HQ Camera: 2028x1520).
    None: leave the choice to libcamera (no sensor size known, or a main stream
    larger than that mode, as on the one-mode Global Shutter Camera)."""
    if not isinstance(sensor, tuple | list) or len(sensor) != 2:
        return None
    try:
        width, height = (int(n) // 2 for n in sensor)
    except (TypeError, ValueError):
        return None
    width, height = width - width % 2, height - height % 2
    if width < main[0] or height < main[1]:
        return None
    return width, height


def _close(a: Mapping[str, Any], b: Mapping[str, Any], tolerance: float) -> bool:
    """Whether the automatic values of two frames' metadata agree within ``tolerance``."""
    for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
        if key not in a or key not in b:
            continue
        left = a[key] if isinstance(a[key], tuple | list) else (a[key],)
        right = b[key] if isinstance(b[key], tuple | list) else (b[key],)
        for x, y in zip(left, right, strict=True):
            if abs(float(x) - float(y)) > tolerance * max(abs(float(x)), 1e-9):
                return False
    return True


def _waits_with_timeout(camera: Any) -> bool:
    """Whether ``camera`` (a Picamera2) can wait for a capture with a timeout:
    ``wait(job, timeout=...)`` (older picamera2 versions wait without end)."""
    try:
        parameters = inspect.signature(camera.wait).parameters
    except (AttributeError, TypeError, ValueError):
        return False
    return "timeout" in parameters


def _held_elsewhere(error: BaseException) -> bool:
    """Whether opening the camera failed because another process holds it: picamera2
    says "Camera __init__ sequence did not complete" after libcamera's acquire()
    returned -16 (EBUSY), which it raised first (the error's context)."""
    seen: BaseException | None = error
    while seen is not None:
        text = str(seen)
        if "acquire()" in text and ("-16" in text or "busy" in text.lower()):
            return True
        if "Device or resource busy" in text:
            return True
        seen = seen.__cause__ or seen.__context__
    return False
