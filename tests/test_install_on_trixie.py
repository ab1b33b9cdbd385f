"""The install on today's Raspberry Pi OS (Trixie, Python 3.13) as on Bookworm: what
``./start`` installs with apt on a Pi, and what the guide and the doctor tell a parent
whose Raspberry Pi Imager and raspi-config are the ones of Trixie's time."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_installer_review6 import (
    EINHORN_TABLE,
    FAKE_PYTHON,
    SUDO,
    VENV_PYTHON,
    _checkout,
    _script,
    needs_sh,
)

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "docs" / "install.md"

# Package tools of a fresh Raspberry Pi OS Lite: nothing of ours installed (nor Python's
# venv module); apt logs what it is asked to install, and installs it.
APT_GET_LOGGED = """#!/bin/sh
echo "$*" >> "$FAKE_BIN/apt.log"
exit 0
"""


def _start_on_a_fresh_pi(tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    repo = _checkout(tmp_path)
    fake = tmp_path / "bin"
    fake.mkdir()
    _script(fake / "python3", FAKE_PYTHON)
    _script(fake / "venv-python", VENV_PYTHON)
    _script(fake / "einhorn-table", EINHORN_TABLE)
    _script(fake / "dpkg", "#!/bin/sh\nexit 1\n")
    _script(fake / "sudo", SUDO)
    _script(fake / "apt-get", APT_GET_LOGGED)
    (tmp_path / "model").write_text("Raspberry Pi 5 Model B Rev 1.1\0")
    env = {"PATH": f"{fake}:/usr/bin:/bin", "HOME": str(tmp_path), "FAKE_BIN": str(fake),
           "FAKE_VENV": "ok", "FAKE_PIP": "ok", "PYTHON": str(fake / "python3"),
           "EINHORN_DEVICE_MODEL": str(tmp_path / "model")}
    done = subprocess.run(["sh", str(repo / "start"), "--version"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    return done, fake


@needs_sh
def test_start_on_a_pi_installs_python_s_venv_module_with_the_other_packages(
    tmp_path: Path,
) -> None:
    """Debian keeps Python's venv module in its own package, which Raspberry Pi OS Lite
    images have lacked (raspberrypi/bookworm-feedback#90): the first ./start then
    stopped at the Python environment, asking the parent to install it and start again.
    It comes with the camera's and the screen's packages, before the environment."""
    done, fake = _start_on_a_fresh_pi(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    installs = [line.split() for line in (fake / "apt.log").read_text().splitlines()
                if line.startswith("install")]
    assert len(installs) == 1, installs
    for package in ("python3-venv", "python3-picamera2", "python3-lgpio", "libgbm1"):
        assert package in installs[0], installs[0]
    assert "ran einhorn-table --version" in done.stdout


# ------------------------------------------------------------------ the guide and the doctor


def _step(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + 1)
    return " ".join(text[start:end].split())


def test_the_guide_follows_the_imager_of_today_and_names_trixie() -> None:
    """Raspberry Pi Imager 2 (November 2025) asks for the settings in steps of its own
    (Customisation > Hostname, User, Wi-Fi, Remote Access), with no "Edit settings"
    button nor "Services" tab, which the guide sent the parent to look for; and the
    Raspberry Pi OS it writes is Trixie, which the guide did not name."""
    step = _step(INSTALL.read_text(encoding="utf-8"), "## 1. Write the SD card")
    assert "Trixie" in step and "Bookworm" in step
    for tab in ("Hostname", "User", "Wi-Fi", "Remote Access", "Enable SSH"):
        assert tab in step, tab


@pytest.mark.parametrize("text", ["guide", "doctor"])
def test_boot_to_the_console_is_found_in_raspi_config_of_trixie_and_bookworm(
    text: str,
) -> None:
    """raspi-config on Trixie has System Options > Boot > Console; "Boot / Auto Login",
    the only way the guide and the doctor's screen line named, is Bookworm's."""
    if text == "guide":
        said = _step(INSTALL.read_text(encoding="utf-8"), "## 4. Camera, console")
    else:
        from einhorn_table.doctor.machine import Machine
        from einhorn_table.doctor.screen_check import check_screen

        pi = Machine(True, "Raspberry Pi 5 Model B Rev 1.1")
        line = check_screen(pi, {"SDL_VIDEODRIVER": "no-such-driver"})
        said = line.todo or ""
    assert "System Options > Boot > Console" in said.replace("**", ""), said
    assert "Boot / Auto Login" in said, said  # (Bookworm's, still named)
