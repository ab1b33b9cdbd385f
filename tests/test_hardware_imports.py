"""Adapters import their third-party library only when used; the pure parts need none."""

from __future__ import annotations

import subprocess
import sys
import textwrap

BLOCKED = ("cv2", "picamera2", "pygame", "gpiozero", "libcamera", "numpy")


def test_ports_stations_and_adapters_import_with_the_heavy_libraries_missing() -> None:
    code = textwrap.dedent(
        f"""
        import sys
        for name in {BLOCKED!r}:
            sys.modules[name] = None  # any import of it now fails
        import einhorn_table.ports
        import einhorn_table.stations.gestures
        import einhorn_table.stations.gesture_table
        import einhorn_table.stations.pin_map
        import einhorn_table.adapters.sources
        import einhorn_table.adapters.picamera2_source
        import einhorn_table.adapters.opencv_source
        import einhorn_table.adapters.dir_source
        import einhorn_table.adapters.synth_source
        import einhorn_table.adapters.recorder
        import einhorn_table.adapters.gpio_buttons
        import einhorn_table.adapters.keyboard_controls
        import einhorn_table.adapters.controls
        import einhorn_table.adapters.systemd_notify
        import einhorn_table.doctor.checks
        import einhorn_table.cli.doctor
        import einhorn_table.cli.record
        from einhorn_table.adapters.source_base import SourceError
        from einhorn_table.adapters.sources import create_source
        try:
            create_source("picamera2").open()
        except SourceError as error:
            assert "python3-picamera2" in str(error), error
        else:
            raise AssertionError("opened a camera without picamera2")
        print("ok")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
