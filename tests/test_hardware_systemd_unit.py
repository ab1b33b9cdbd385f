"""The unit file: systemd-analyze verifies it unchanged, and it says what the brief needs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from einhorn_table.cli import build_parser

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "einhorn-table.service"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def directives(text: str) -> dict[str, list[str]]:
    """``Section.Key`` to its values, in order (a key may repeat)."""
    found: dict[str, list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return found


def verify(unit_text: str, root: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of ``unit_text`` in a root that has the binary it starts.

    The file is verified as written: a stand-in executable is put where its
    ExecStart points (inside ``root``), beside copies of the system's own units
    (targets it is ordered against).
    """
    exec_start = directives(unit_text)["Service.ExecStart"][0].split()[0]
    binary = root / exec_start.lstrip("/")
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    units = root / "usr/lib/systemd/system"
    if not units.exists():
        shutil.copytree(SYSTEM_UNITS, units, symlinks=True)
    target = root / "etc/systemd/system" / UNIT.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(unit_text)
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", f"--root={root}", UNIT.name],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or not SYSTEM_UNITS.is_dir(),
    reason="systemd-analyze (and the system's units) are not on this machine",
)


@needs_systemd
def test_systemd_analyze_verify_passes_the_unit_as_written(tmp_path: Path) -> None:
    result = verify(UNIT.read_text(), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""  # not even a warning


@needs_systemd
def test_verify_would_catch_a_misspelt_directive(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("WatchdogSec=", "WatchdogSecs=")
    result = verify(broken, tmp_path)
    assert "Unknown key" in result.stdout + result.stderr


def test_the_unit_starts_play_as_einhorn_on_the_console_with_a_frame_watchdog() -> None:
    d = directives(UNIT.read_text())
    assert d["Service.Type"] == ["notify"]
    assert int(d["Service.WatchdogSec"][0]) >= 10
    assert d["Service.Restart"] == ["always"]  # Esc on a plugged-in keyboard ends it cleanly
    assert d["Service.User"] == ["einhorn"]
    assert set(d["Service.SupplementaryGroups"][0].split()) == {"video", "render", "input", "gpio"}
    assert "SDL_VIDEODRIVER=kmsdrm" in d["Service.Environment"]
    command = d["Service.ExecStart"][0].split()
    assert command[0].endswith("/.venv/bin/einhorn-table") and command[1] == "play"
    # A restart after a crash goes on with the match; after a longer break, the screen asks.
    args = build_parser().parse_args(command[1:])
    assert args.continue_recent is not None and 0 < args.continue_recent <= 60
    assert d["Service.StateDirectory"] == ["einhorn-table"]
    assert d["Install.WantedBy"] == ["multi-user.target"]


def test_the_unit_is_hardened_like_a_kiosk() -> None:
    d = directives(UNIT.read_text())
    for key, value in {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "NoNewPrivileges": "yes",
        "PrivateTmp": "yes",
        "ProtectKernelTunables": "yes",
        "LockPersonality": "yes",
        "DevicePolicy": "closed",
    }.items():
        assert d[f"Service.{key}"] == [value], key
    assert "AF_UNIX" in d["Service.RestrictAddressFamilies"][0].split()
    assert "AF_INET" not in d["Service.RestrictAddressFamilies"][0]
    allowed = {entry.split()[0] for entry in d["Service.DeviceAllow"]}
    assert {"char-drm", "char-video4linux", "char-gpiochip", "char-input"} <= allowed
