"""The state folder as play, the demo, the doctor and calibrate use it: one program at a
time in it, the calibration kept there checked against the table's players, and a
folder calibrate cannot save in said before anybody rolls."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml

from einhorn_table.cli import main
from einhorn_table.folders import cannot_write_in
from einhorn_table.history.state_lock import (
    DEMO,
    PLAY,
    STATE_LOCK,
    Holder,
    held_by,
    holding,
)
from einhorn_table.table.loop import TableLoop


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


# ------------------------------------------------- calibrate: where it saves, tried first


def test_a_folder_that_can_be_made_and_written_is_left_as_it_was(tmp_path: Path) -> None:
    assert cannot_write_in(tmp_path / "new" / "state") is None
    assert list(tmp_path.iterdir()) == []  # (the folders it made are gone again)
    (tmp_path / "kept").mkdir()
    assert cannot_write_in(tmp_path / "kept") is None
    assert list((tmp_path / "kept").iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux's /proc")
def test_a_folder_nobody_can_make_is_named_with_why() -> None:
    """Root passes every permission check, yet makes no folder in /proc."""
    assert cannot_write_in(Path("/proc/einhorn-table/state")) == (
        "the folder /proc/einhorn-table cannot be made (No such file or directory)")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux's /proc")
def test_calibrate_says_at_once_where_it_cannot_save_even_as_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Run as root (as this test may be: root passes the permission check), the
    calibration used to run to its end and then fail to save."""
    import einhorn_table.cli.calibrate as calibrate

    def calibrating(args: argparse.Namespace, out: Path) -> int:
        raise AssertionError(f"the family calibrates, to save in {out}")

    monkeypatch.setattr(calibrate, "_guided", calibrating)
    monkeypatch.chdir(tmp_path)  # no table.toml here: it saves in the state directory
    monkeypatch.setenv("EINHORN_STATE_DIR", "/proc/einhorn-table/state")
    assert main(["calibrate", "--source", "synth:seed=5", "--autopilot"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("einhorn-table: cannot save the calibration as "
                          "/proc/einhorn-table/state/calibration.toml: ")
    assert "--out FILE" in err and "Traceback" not in err


# ----------------------------------------------- one program at a time in a state folder

TABLE = """
games = 3
camera = "synth:seed=3,players=3"
state = "kept"
[screen]
width = 400
height = 240
fullscreen = false
"""

SINCE = datetime(2026, 5, 1, 16, 5, tzinfo=UTC)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory) -> Path:
    """A table's file keeping its matches in ``kept`` beside it; play plays a few frames
    of the match, then stops as when its window is closed."""
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "from-env"))

    def a_few_frames(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        for _ in range(3):
            self.step()

    monkeypatch.setattr(TableLoop, "run", a_few_frames)
    path = tmp_path / "table.toml"
    path.write_text(TABLE + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")),
                    encoding="utf-8")
    return path


def since_words() -> str:
    return SINCE.astimezone().strftime("%H:%M")


def test_play_does_not_start_while_a_demo_plays_in_its_state_directory(
        table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = table.parent / "kept"
    with holding(state, DEMO, lambda: SINCE) as playing:
        playing("4")
        assert main(["play", str(table)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"einhorn-table: a demo is playing in {state} (process {os.getpid()}, since "
        f"{since_words()}, match 4), and the table cannot share its state directory: it "
        "would take the demo's match for one left unfinished. Finish the demo or press ESC "
        "in its window first, or give the table a state directory of its own (with "
        "--state-dir, or `state` in the table file, or EINHORN_STATE_DIR)\n")
    assert not (state / "history.sqlite3").exists()  # (no match begun beside the demo's)


def test_play_started_twice_says_to_stop_the_one_running(
        table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = table.parent / "kept"
    with holding(state, PLAY, lambda: SINCE) as playing:
        playing("7")
        assert main(["play", str(table), "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"einhorn-table: the table is already playing in {state} (process "
                          f"{os.getpid()}, since {since_words()}, match 7), and two tables "
                          "cannot keep one match history. ")
    assert "sudo systemctl stop einhorn-table" in err and "Traceback" not in err


def test_the_table_holds_its_state_directory_while_it_plays_and_lets_go_after(
        table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = table.parent / "kept"
    seen: list[Holder | None] = []

    def looking(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        self.step()
        seen.append(held_by(state))

    monkeypatch.setattr(TableLoop, "run", looking)
    assert main(["play", str(table)]) == 0
    assert len(seen) == 1 and seen[0] is not None
    assert (seen[0].program, seen[0].process, seen[0].match) == ("play", str(os.getpid()), "1")
    assert held_by(state) is None


def test_a_demo_does_not_start_in_the_table_s_state_directory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "kept"
    with holding(state, PLAY, lambda: SINCE) as playing:
        playing("3")
        assert main(["demo", "--players", "2", "--bots", "all", "--games", "1", "--size",
                     "400x240", "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"einhorn-table: the table (einhorn-table play) is playing in {state} (process "
        f"{os.getpid()}, since {since_words()}, match 3), and a demo cannot share its state "
        "directory: it would take the table's match for one left unfinished. Give the demo "
        f"a state directory of its own: add --state-dir {tmp_path / 'kept-2'}\n")


HOLD_AND_WAIT = """
import sys, time
from datetime import datetime, UTC
from pathlib import Path
from einhorn_table.history.state_lock import PLAY, holding
with holding(Path(sys.argv[1]), PLAY, lambda: datetime.now(UTC)) as playing:
    playing("1")
    print("holding", flush=True)
    time.sleep(120)
"""


def test_a_table_killed_or_cut_off_does_not_keep_the_next_one_out(
        table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The lock goes with the process (a crash, kill -9, a power cut): the lock file
    left behind, still naming it, keeps nobody out when systemd starts the table again."""
    state = table.parent / "kept"
    other = subprocess.Popen([sys.executable, "-c", HOLD_AND_WAIT, str(state)],
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    try:
        assert other.stdout is not None and other.stdout.readline() == "holding\n"
        assert main(["play", str(table)]) == 1  # (while it runs)
        assert f"the table is already playing in {state} (process {other.pid}, " in \
            capsys.readouterr().err
    finally:
        other.kill()
        other.wait()
    assert (state / STATE_LOCK).read_text(encoding="utf-8").startswith(f"play {other.pid} ")
    assert main(["play", str(table)]) == 0
    assert "match 1 started" in capsys.readouterr().err


# --------------------------------------- the doctor: a calibration without every player


def test_the_doctor_names_the_players_the_state_directory_s_calibration_never_saw(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Cem was added to table.toml after calibrating: play reads Cem's dice by the
    colour name alone. The doctor said ok."""
    from einhorn_table.cli import doctor as doctor_cli
    from einhorn_table.doctor import system_checks

    monkeypatch.setattr(system_checks, "service_state", lambda: None)
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "state"
    monkeypatch.setenv("EINHORN_STATE_DIR", str(state))
    state.mkdir()
    (state / "calibration.toml").write_text(
        'version = 1\n[players]\nAna = [230, 230, 225]\nBen = [200, 30, 40]\n',
        encoding="utf-8")
    Path("table.toml").write_text(
        'camera = "synth:width=160,height=120,fps=60,players=3"\n'
        + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"), ("Cem", 3, "blue")),
        encoding="utf-8")
    assert doctor_cli.main(["--frames", "3"]) == 0  # (the table still plays)
    words = "".join(capsys.readouterr().out.split())  # (the report wraps long paths too)
    assert unspaced(f"warn profile {state / 'calibration.toml'}: version 1; it measured no dice "
            "colour for Cem, who sits at the table in table.toml (added since it was made, "
            "or skipped then): the table tells Cem's dice only by the colour table.toml "
            "names what to do: Calibrate again with everyone at the table (Ana, Ben and "
            "Cem), each rolling their own dice when the screen names them: einhorn-table "
            f"calibrate --fullscreen --out {state / 'calibration.toml'}.") in words
    # Calibrated with everyone: ok again.
    (state / "calibration.toml").write_text(
        'version = 1\n[players]\nAna = [230, 230, 225]\nBen = [200, 30, 40]\n'
        'Cem = [40, 60, 200]\n', encoding="utf-8")
    assert doctor_cli.main(["--frames", "3"]) == 0
    words = "".join(capsys.readouterr().out.split())
    assert unspaced(f"ok profile {state / 'calibration.toml'}: version 1 skip") in words


def unspaced(text: str) -> str:
    return "".join(text.split())
