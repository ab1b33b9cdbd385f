"""The picamera2 adapter against a fake with picamera2's documented methods."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from einhorn_table.adapters.camera_settings import CameraSettings, CameraSettingsError
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.picamera2_source import AF_MODE_MANUAL, Picamera2Source
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.adapters.sources import create_source


class FakePicamera2:
    """Behaves like picamera2.Picamera2 as its manual describes, without a camera.

    Automatic exposure and white balance drift towards a target and then stay;
    ``capture_arrays`` returns copies of a main (BGR) and a lores (YUV420, with a
    padded stride) picture and the metadata of the same request.
    """

    def __init__(self, camera_num: int = 0, *, autofocus: bool = True) -> None:
        self.camera_num = camera_num
        self.camera_properties = {"Model": "imx708"}
        self.sensor_resolution = (4608, 2592)  # the Camera Module 3's full sensor
        self.camera_controls: dict[str, Any] = {"ExposureTime": (1, 100000, 10000)}
        if autofocus:
            self.camera_controls["AfMode"] = (0, 2, 0)
            self.camera_controls["LensPosition"] = (0.0, 15.0, 1.0)
        self.calls: list[str] = []
        self.set: list[dict[str, Any]] = []
        self.config: dict[str, Any] = {}
        self.exposure, self.gain, self.gains = 30000.0, 4.0, (1.0, 1.0)
        self.lens = 0.0
        #: The exposure the automatics settle to: the room's light (a dimmer room, more).
        self.light_exposure = 8000.0
        self.frame = 0
        self.started = False

    def create_preview_configuration(self, **kwargs: Any) -> dict[str, Any]:
        raise AssertionError("the companion asks for a video configuration")

    def create_video_configuration(
        self, main: dict[str, Any], lores: dict[str, Any], controls: dict[str, Any],
        raw: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        self.calls.append("create_video_configuration")
        config = {"main": dict(main), "lores": dict(lores), "controls": dict(controls)}
        if raw is not None:
            config["raw"] = dict(raw)
        return config

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append("configure")
        self.config = config

    def start(self) -> None:
        self.calls.append("start")
        self.started = True

    def _step(self) -> dict[str, Any]:
        assert self.started, "capture before start"
        self.frame += 1
        auto_e = self._enabled("AeEnable")
        auto_w = self._enabled("AwbEnable")
        if auto_e:
            self.exposure += (self.light_exposure - self.exposure) * 0.5
            self.gain += (2.0 - self.gain) * 0.5
        if auto_w:
            targets = (1.8, 1.4)
            self.gains = tuple(g + (t - g) * 0.5 for g, t in zip(self.gains, targets, strict=True))
        return {
            "ExposureTime": int(self.exposure),
            "AnalogueGain": self.gain,
            "ColourGains": self.gains,
            "LensPosition": self.lens,
            "SensorTimestamp": 1_000_000_000 + self.frame * 33_333_333,
        }

    def capture_metadata(self) -> dict[str, Any]:
        return self._step()

    def _enabled(self, control: str) -> bool:
        """The automatic ``control`` as last set (on until set off)."""
        return next((bool(c[control]) for c in reversed(self.set) if control in c), True)

    def autofocus_cycle(self) -> bool:
        self.calls.append("autofocus_cycle")
        self.lens = 2.5
        return True

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.set.append(dict(controls))

    def capture_arrays(self, names: list[str]) -> tuple[list[np.ndarray], dict[str, Any]]:
        metadata = self._step()
        width, height = self.config["main"]["size"]
        lw, lh = self.config["lores"]["size"]
        colour = (self.frame % 256, 120, 255 - self.frame % 256)  # BGR, changes per frame
        main = np.empty((height, width, 3), np.uint8)
        main[:] = colour
        small = np.empty((lh, lw, 3), np.uint8)
        small[:] = colour
        arrays = {"main": main, "lores": padded_yuv420(small, stride=lw + 64)}
        return [arrays[n] for n in names], metadata

    def stop(self) -> None:
        self.calls.append("stop")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")


def padded_yuv420(bgr: np.ndarray, stride: int) -> np.ndarray:
    """A BGR picture as picamera2 returns a YUV420 stream: (h * 3 / 2, stride), rows padded."""
    height, width = bgr.shape[:2]
    i420 = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)
    half = (height // 2, width // 2)
    quarter = height * width // 4
    y_plane = i420[:height]
    u_plane = i420[height:].ravel()[:quarter].reshape(half)
    v_plane = i420[height:].ravel()[quarter:].reshape(half)
    out = []
    for plane, row_length in ((y_plane, stride), (u_plane, stride // 2), (v_plane, stride // 2)):
        padded = np.full((plane.shape[0], row_length), 77, np.uint8)  # 77: the padding
        padded[:, : plane.shape[1]] = plane
        out.append(padded.ravel())
    return np.concatenate(out).reshape(height * 3 // 2, stride)


SMALL = CameraSettings(size=(64, 48), lores_size=(32, 24), frame_rate=30.0)


def test_frames_come_from_both_streams_of_one_request_copied_out() -> None:
    cameras: list[FakePicamera2] = []

    def factory(number: int) -> FakePicamera2:
        cameras.append(FakePicamera2(number))
        return cameras[-1]

    source = Picamera2Source(FakeClock(), SMALL, camera_number=1, camera_factory=factory)
    with source:
        frame = source.read()
        assert frame is not None
        camera = cameras[0]
        assert camera.camera_num == 1
        assert camera.config["main"] == {"size": (64, 48), "format": "RGB888"}
        assert camera.config["lores"] == {"size": (32, 24), "format": "YUV420"}
        assert frame.image.shape == (48, 64, 3)
        assert frame.small is not None and frame.small.shape == (24, 32, 3)
        # The small picture is in colour and shows the same moment as the main one.
        difference = np.abs(frame.small.astype(int) - frame.image[:24, :32].astype(int))
        assert difference.max() <= 3
        assert frame.small.base is None  # its own memory, not a view of the buffer
        assert frame.timestamp == pytest.approx(1.0 + camera.frame * 0.033333333)
        assert "imx708" in source.description
    assert camera.calls[-2:] == ["stop", "close"]


def test_automatic_values_are_locked_once_settled() -> None:
    camera = FakePicamera2()
    source = Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera)
    with source:
        assert camera.calls[:4] == [
            "create_video_configuration",
            "configure",
            "start",
            "autofocus_cycle",
        ]
        focus, lock = camera.set
        assert focus == {"AfMode": AF_MODE_MANUAL, "LensPosition": 2.5}
        assert lock["AeEnable"] is False and lock["AwbEnable"] is False
        assert lock["ExposureTime"] == pytest.approx(8000, rel=0.03)
        assert lock["AnalogueGain"] == pytest.approx(2.0, rel=0.03)
        assert lock["ColourGains"] == pytest.approx((1.8, 1.4), rel=0.03)
        assert source.locked["ExposureTime"] == lock["ExposureTime"]
        assert source.notes == []
        # Locked: the exposure no longer drifts.
        before = camera.capture_metadata()["ExposureTime"]
        source.read()
        assert camera.capture_metadata()["ExposureTime"] == before


def test_fixed_settings_go_into_the_configuration_and_are_not_relocked() -> None:
    camera = FakePicamera2(autofocus=False)
    settings = CameraSettings(
        size=(64, 48),
        lores_size=(32, 24),
        exposure_time_us=10000,
        analogue_gain=1.5,
        colour_gains=(1.7, 1.3),
        lens_position=3.0,
    )
    with Picamera2Source(FakeClock(), settings, camera_factory=lambda n: camera) as source:
        controls = camera.config["controls"]
        assert controls["AeEnable"] is False and controls["ExposureTime"] == 10000
        assert controls["AnalogueGain"] == 1.5 and controls["ColourGains"] == (1.7, 1.3)
        assert camera.set == []  # nothing automatic to lock
        assert "autofocus_cycle" not in camera.calls
        assert any("fixed focus" in note for note in source.notes)


def test_values_that_never_settle_are_locked_anyway_with_a_note() -> None:
    class Flicker(FakePicamera2):
        def capture_metadata(self) -> dict[str, Any]:
            data = self._step()
            data["ExposureTime"] = 8000 if self.frame % 2 else 12000
            return data

    camera = Flicker()
    settings = CameraSettings(size=(64, 48), lores_size=(32, 24), settle_max_frames=10)
    with Picamera2Source(FakeClock(), settings, camera_factory=lambda n: camera) as source:
        assert any("had not settled" in note for note in source.notes)
        assert camera.set[-1]["AeEnable"] is False


def test_a_missing_camera_says_to_check_the_ribbon_cable() -> None:
    def no_camera(number: int) -> Any:
        raise IndexError("list index out of range")

    source = Picamera2Source(FakeClock(), SMALL, camera_factory=no_camera)
    with pytest.raises(SourceError, match=r"No Raspberry Pi camera found.*ribbon cable"):
        source.open()


def test_a_camera_another_program_holds_says_to_stop_it_not_to_check_the_cable() -> None:
    def busy(number: int) -> Any:
        # picamera2's own chain: libcamera's acquire() gives EBUSY, then its __init__ error.
        try:
            raise RuntimeError("camera.acquire() returned unexpected code: -16")
        except RuntimeError:
            raise RuntimeError("Camera __init__ sequence did not complete.")  # noqa: B904

    def not_there(number: int) -> Any:
        raise RuntimeError("Camera __init__ sequence did not complete.")

    with pytest.raises(SourceError, match="in use by another program") as caught:
        Picamera2Source(FakeClock(), SMALL, camera_factory=busy).open()
    assert "systemctl stop einhorn-table" in str(caught.value)
    assert "ribbon" not in str(caught.value)
    with pytest.raises(SourceError, match="ribbon cable"):
        Picamera2Source(FakeClock(), SMALL, camera_factory=not_there).open()


def test_a_camera_that_stops_sending_says_so() -> None:
    class Dying(FakePicamera2):
        def capture_arrays(self, names: list[str]) -> Any:
            raise RuntimeError("Camera frontend has timed out!")

    camera = Dying()
    source = Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera)
    with source, pytest.raises(SourceError, match="stopped sending pictures"):
        source.read()
    assert camera.calls[-1] == "close"


def test_without_picamera2_the_message_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as if not installed
    source = create_source("picamera2", clock=FakeClock())
    with pytest.raises(SourceError) as error:
        source.open()
    message = str(error.value)
    assert "sudo apt install -y python3-picamera2" in message
    assert "--system-site-packages" in message


def test_a_picamera2_built_for_another_numpy_says_to_run_start_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    # What Raspberry Pi OS's picamera2 (its simplejpeg) does under numpy 2.
    fake = tmp_path / "picamera2"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        'raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")\n',
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    source = create_source("picamera2", clock=FakeClock())
    with pytest.raises(SourceError) as error:
        source.open()
    assert "numpy" in str(error.value) and "Run ./start again" in str(error.value)
    assert "pip install --no-deps --ignore-installed simplejpeg" in str(error.value)


def test_source_options_override_the_settings_size_and_rate() -> None:
    source = create_source("picamera2:width=640,height=480,fps=15", clock=FakeClock())
    assert isinstance(source, Picamera2Source)
    assert source.settings.size == (640, 480) and source.settings.frame_rate == 15.0


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"size": (1280, 961)}, "even numbers"),
        ({"lores_size": (2000, 2000)}, "must not be larger"),
        ({"exposure_time_us": 50000}, "longer than one frame"),
        ({"colour_gains": (0.0, 1.0)}, "colour_gains"),
        ({"shutter": 3}, "unknown camera setting"),
    ],
)
def test_bad_camera_settings_are_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(CameraSettingsError, match=message):
        CameraSettings.from_mapping(values)


def test_the_small_frame_follows_the_size_libcamera_applied() -> None:
    class Adjusting(FakePicamera2):
        def configure(self, config: dict[str, Any]) -> None:
            super().configure(config)
            applied = {**config, "lores": {**config["lores"], "size": (32, 24)}}
            self.camera_config = applied  # picamera2 keeps what was applied here
            self.config = applied

    camera = Adjusting()
    settings = CameraSettings(size=(64, 48), lores_size=(36, 26))
    with Picamera2Source(FakeClock(), settings, camera_factory=lambda n: camera) as source:
        frame = source.read()
    assert frame is not None and frame.small is not None
    assert frame.small.shape == (24, 32, 3)


def test_source_options_are_checked_like_profile_settings() -> None:
    with pytest.raises(CameraSettingsError, match="even numbers"):
        create_source("picamera2:width=641", clock=FakeClock())


def test_measuring_the_light_again_locks_the_exposure_for_the_light_as_it_is_now() -> None:
    """Calibration's light step: too dark, the parent turns the lamp up and presses
    measure again; the exposure locked at opening must not stay."""
    from einhorn_table.calibration.camera_lock import lock_for

    camera = FakePicamera2()
    with Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera) as source:
        assert source.locked["ExposureTime"] == pytest.approx(8000, abs=100)
        camera.light_exposure = 20000.0  # the room as it is at the light step
        lock = lock_for(source)()
        assert source.locked["ExposureTime"] == pytest.approx(20000, abs=300)
        assert lock.settings.exposure_time_us == source.locked["ExposureTime"]
        assert camera.set[-1]["AeEnable"] is False
        camera.light_exposure = 5000.0  # the lamp turned up: measure again
        lock_for(source)()
        assert source.locked["ExposureTime"] == pytest.approx(5000, abs=100)


def test_the_camera_s_notes_are_shown_with_the_lock() -> None:
    from einhorn_table.calibration.camera_lock import lock_for

    class Unfocused(FakePicamera2):
        def autofocus_cycle(self) -> bool:
            return False

    camera = Unfocused()
    with Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera) as source:
        message = lock_for(source)().message
    assert message.startswith("The camera's ") and "locked now." in message
    assert "The autofocus did not find a sharp picture" in message
