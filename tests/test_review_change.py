"""The review of the session's change: what the smoke test tells an installer whose
camera opened but gave no picture fits the camera named."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from test_hardware_files import load_smoke

import einhorn_table.adapters.sources as sources


class _Silent:
    """A camera that opens but gives no picture (a USB webcam another program holds)."""

    description = "the test camera"

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def read(self) -> None:
        return None


@pytest.mark.parametrize(
    ("source", "says", "not_said"),
    [
        ("opencv:0", "USB camera", "ribbon"),
        ("file:roll.mp4", "recording holds no picture", "ribbon"),
        ("dir:frames/", "recording holds no picture", "ribbon"),
        ("picamera2", "ribbon cable", "USB"),
    ],
)
def test_a_camera_without_a_picture_is_told_what_to_check_for_its_kind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, says: str,
        not_said: str) -> None:
    smoke = load_smoke()
    monkeypatch.setattr(sources, "create_source", lambda *a, **k: _Silent())
    args = argparse.Namespace(source=source, seconds=0.1, snapshot=tmp_path / "tray.png")
    result = smoke.camera_step(args)
    assert result.status.name == "FAIL" and "no picture at all" in result.detail
    assert says in result.todo and not_said not in result.todo


def test_the_command_named_in_a_message_never_fails_the_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command run is gone (its .venv made anew while the companion ran), and one
    is on the PATH: the message that names the command is still said."""
    from einhorn_table.words import command_name

    installed = tmp_path / "bin" / "einhorn-table"
    installed.parent.mkdir()
    installed.write_text("#!/bin/sh\n", encoding="utf-8")
    installed.chmod(0o755)
    monkeypatch.setenv("PATH", f"{installed.parent}:/usr/bin:/bin")
    gone = str(tmp_path / "old" / ".venv" / "bin" / "einhorn-table")
    assert command_name({}, gone) == gone
    assert command_name({}, str(installed)) == "einhorn-table"
