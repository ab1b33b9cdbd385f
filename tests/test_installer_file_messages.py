"""Three messages an installer meets: a house variant's file with a typo shows the line
and how to write values (as the table's file does), and a folder given for it is
called a folder; a state directory the table may not write says why (a disk mounted
read-only, another user's folder); a text file given as a video is told so without
FFmpeg's own lines first."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import REPO
from table_helpers import players_toml
from test_history_review3 import _as_a_user

import einhorn_table.folders as folders
from einhorn_table.cli import main
from einhorn_table.history import MatchStore
from einhorn_table.history.errors import StoreReadOnly
from einhorn_table.history.paths import CHOOSE_TABLE_STATE
from einhorn_table.rules import VariantError, find_variant, load_variant

HOUSE = """name = "grandma"
base = "einhorn"
games = 8

[payouts.einhorn]
correct = 6
wrong = -4
silent = 1
"""


# ------------------------------------------------------- a house variant's file


@pytest.mark.parametrize(("written", "why"), [
    ("silent = one", "Invalid value"),
    ("wrong = \u22124", "Invalid value"),  # (a minus sign of a word processor)
    ("base = einhorn", "Invalid value"),
    ('name = "grandma', "a closing double quote is missing"),
])
def test_a_mistyped_value_in_a_house_variant_is_shown_with_how_to_write_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, why: str) -> None:
    # Before: "is not valid TOML: Invalid value (at line 8, column 10)", which names
    # neither the line as written nor how to write it.
    key = written.partition(" =")[0]
    lines = [written if line.startswith(f"{key} =") else line for line in HOUSE.splitlines()]
    path = tmp_path / "grandma.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    number = lines.index(written) + 1
    told = (f"{path} is not valid TOML at line {number}: {written} ({why}). Write text in "
            'double quotes (name = "grandma", correct = "win") and numbers as they are '
            "(games = 8, wrong = -4).")
    with pytest.raises(VariantError) as refused:
        load_variant(path)
    assert str(refused.value) == told
    assert main(["simulate", "--variant", str(path), "--matches", "1"]) == 1
    assert capsys.readouterr().err == f"einhorn-table: {told}\n"


def test_the_table_s_file_and_a_house_variant_share_the_words_for_values() -> None:
    from einhorn_table.table.config import TOML_SHAPES

    assert TOML_SHAPES == ('Write text in double quotes (name = "Ana"), yes and no as true '
                           "or false in small letters (fullscreen = true), and numbers as "
                           "they are (games = 10).")


def test_a_folder_given_as_the_variant_is_called_a_folder_naming_its_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: "there is no variant called '<folder>'", as if a name were misspelt.
    (tmp_path / "grandma.toml").write_text(HOUSE, encoding="utf-8")
    told = (f"{tmp_path} is a folder, not a house variant: name the house variant's TOML "
            "file itself (this folder holds grandma.toml), or a shipped variant: einhorn, "
            "wuerfeln")
    with pytest.raises(VariantError) as refused:
        find_variant(str(tmp_path))
    assert str(refused.value) == told
    assert main(["simulate", "--variant", str(tmp_path), "--matches", "1"]) == 1
    assert capsys.readouterr().err == f"einhorn-table: {told}\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(VariantError, match=r"is a folder, not a house variant: name the "
                       r"house variant's TOML file itself, or a shipped variant"):
        find_variant(str(empty))


# ------------------------------------------------------- a state directory not writable


def _cannot_open(path: str) -> sqlite3.Connection:
    raise sqlite3.OperationalError("unable to open database file")


def test_a_history_on_a_disk_mounted_read_only_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: "... cannot be opened. Check that the state directory exists and is
    # writable", which it does not say of a folder that exists on a read-only card.
    def read_only_disk(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only_disk)
    with pytest.raises(StoreReadOnly) as refused:
        MatchStore(tmp_path, now=lambda: datetime.now(UTC), connect=_cannot_open,
                   choose=CHOOSE_TABLE_STATE)
    assert str(refused.value) == (
        f"could not open the match history in {tmp_path}: the disk is read-only: "
        f"{tmp_path} lies on a disk (an SD card, a USB stick) mounted so that nothing can "
        "be written on it. Make it writable, or choose another state directory with "
        "--state-dir, or `state` in the table file, or EINHORN_STATE_DIR.")


def test_a_history_that_cannot_be_opened_in_a_folder_that_takes_files_keeps_its_words(
        tmp_path: Path) -> None:
    with pytest.raises(StoreReadOnly, match=r"cannot be opened\. Check that the state"):
        MatchStore(tmp_path, now=lambda: datetime.now(UTC), connect=_cannot_open)
    assert folders.why_not_writable(tmp_path) is None
    assert list(tmp_path.iterdir()) == []  # (the trial left nothing behind)


def test_play_in_another_user_s_state_directory_says_whose_it_is(tmp_path: Path) -> None:
    # Before: "... cannot be opened. Check that the state directory exists and is
    # writable", without the reason.
    state = tmp_path / "state"
    state.mkdir()
    table = tmp_path / "table.toml"
    table.write_text('games = 3\ncamera = "synth:seed=3,players=2"\n[screen]\nwidth = 400\n'
                     "height = 240\nfullscreen = false\n"
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    if os.geteuid() == 0:
        os.chown(state, 65534, 65534)  # (nobody's)
    else:
        state.chmod(0o555)
    try:
        probe = subprocess.run(_as_a_user(["test", "-w", str(state)]), check=False)
        if probe.returncode != 1:
            pytest.skip("cannot run a command here that may not write a folder")
        env = {**os.environ, "PYTHONPATH": str(REPO), "EINHORN_COMMAND": "einhorn-table",
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "GPIOZERO_PIN_FACTORY": "mock"}
        done = subprocess.run(
            _as_a_user([sys.executable, "-m", "einhorn_table", "play", str(table),
                        "--state-dir", str(state)]),
            capture_output=True, text=True, env=env, timeout=120, check=False)
    finally:
        state.chmod(0o755)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith(f"einhorn-table: could not open the match history in {state}: ")
    if os.geteuid() == 0:
        assert f"it belongs to another user: {state} is " in said
    else:
        assert f"this user may not write in {state}: its permissions forbid it" in said
    assert said.endswith("choose another state directory with --state-dir, or `state` in "
                         "the table file, or EINHORN_STATE_DIR.")


# ------------------------------------------------------- a text file given as a video


@pytest.mark.parametrize("asked", [None, "8"])
def test_a_text_file_given_as_a_video_is_told_without_ffmpeg_s_own_lines(
        tmp_path: Path, asked: str | None) -> None:
    # Before, FFmpeg printed "[mjpeg @ 0x...] No JPEG data found in image" twice first.
    # (Run apart: OpenCV reads FFmpeg's level once, at the first video it opens.)
    pytest.importorskip("cv2")
    notes = tmp_path / "notes.jpg"
    notes.write_text("the scores of last Sunday\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items()
           if key not in ("OPENCV_FFMPEG_LOGLEVEL", "OPENCV_FFMPEG_DEBUG")}
    if asked is not None:  # (a developer looking into a video: FFmpeg's words come)
        env["OPENCV_FFMPEG_LOGLEVEL"] = asked
    env.update(PYTHONPATH=str(REPO), EINHORN_COMMAND="einhorn-table")
    done = subprocess.run([sys.executable, "-m", "einhorn_table", "record",
                           str(tmp_path / "rec"), "--source", f"file:{notes}"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    said = (f"einhorn-table: nothing was saved in {tmp_path / 'rec'}: no frame came "
            f"from video file {notes} before the recording ended\n")
    assert done.returncode == 1 and done.stderr.endswith(said)
    if asked is None:
        assert done.stdout == "" and done.stderr == said
    else:
        assert "No JPEG data found" in done.stdout + done.stderr
