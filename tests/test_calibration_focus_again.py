"""Calibrating again from step 1 after a poor result (the camera lowered, as the advice
says): the light step focuses the Pi camera anew, so that the saved profile's
``lens_position`` is the camera's focus where it hangs now, not where it hung when the
calibration opened."""

from __future__ import annotations

import pytest
from test_hardware_picamera2 import SMALL, FakePicamera2

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.picamera2_source import NOT_FOCUSED, Picamera2Source
from einhorn_table.calibration.camera_lock import lock_for


class MovableCamera(FakePicamera2):
    """A camera whose autofocus finds the tray at ``sharp_at`` (moved between calls)."""

    sharp_at = 2.5
    focuses = True

    def autofocus_cycle(self) -> bool:
        self.calls.append("autofocus_cycle")
        self.lens = self.sharp_at
        return self.focuses


def test_the_light_step_focuses_anew_for_a_camera_moved_since_it_opened() -> None:
    # Before, the focus found at opening stayed locked for good: after "lower the
    # camera closer to the tray" and − (calibrate again from step 1), the dice were
    # blurred and the profile kept the old lens_position for play too.
    camera = MovableCamera()
    with Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera) as source:
        assert source.locked["LensPosition"] == 2.5
        camera.sharp_at = 4.0  # the camera lowered 10 cm
        lock = lock_for(source)()
        assert source.locked["LensPosition"] == 4.0
        assert lock.settings.lens_position == 4.0
        focus = [c for c in camera.set if "LensPosition" in c]
        assert focus[-1] == focus[0] | {"LensPosition": 4.0}  # manual again, moved


def test_a_focus_not_found_again_is_noted_once_and_forgotten_once_found() -> None:
    camera = MovableCamera()
    camera.focuses = False
    with Picamera2Source(FakeClock(), SMALL, camera_factory=lambda n: camera) as source:
        lock_for(source)()
        assert source.notes.count(NOT_FOCUSED) == 1
        camera.focuses = True
        assert NOT_FOCUSED not in lock_for(source)().message
        assert source.notes == []


@pytest.mark.parametrize("autofocus", [True, False])
def test_a_focus_the_settings_fix_or_a_fixed_lens_is_not_focused_again(
        autofocus: bool) -> None:
    camera = MovableCamera(autofocus=autofocus)
    settings = CameraSettings(size=SMALL.size, lores_size=SMALL.lores_size,
                              lens_position=3.0 if autofocus else None)
    with Picamera2Source(FakeClock(), settings, camera_factory=lambda n: camera) as source:
        lock_for(source)()
        lock_for(source)()
        assert "autofocus_cycle" not in camera.calls
