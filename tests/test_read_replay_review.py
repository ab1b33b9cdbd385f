"""``read`` and ``replay`` as their users meet them, and Ctrl-C while the command starts:
each ms a reading, the drawings' names, a table's file given for a profile (and the
reverse), a photo given to replay."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from conftest import REPO
from test_vision_reader_cli import ROLL, run_read
from vision_helpers import FIXTURES

from einhorn_table.calibration.profile import CalibrationProfile, ProfileError, save_profile
from einhorn_table.cli import main
from einhorn_table.cli import read as read_command
from einhorn_table.table.config import ConfigError, load_config
from einhorn_table.vision import learned, reader
from einhorn_table.vision.results import FrameReading

#: A photo whose dice are small: the reader looks again with the small dice's detector.
SMALL_DICE = "byler_d6__IMG_20191208_111246.jpg"
CROP = "tomitomi3_crops__3_00010.png"


# read: every ms a reading --------------------------------------------------------


def test_no_model_is_loaded_while_a_photo_s_reading_is_timed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Before, only the first photo was read untimed: a later photo whose dice are small
    # loaded the small dice's detector, and one of another size readied the detector for
    # it, within its ms (here 3 of the 6 models made were made while timed).
    onnxruntime = pytest.importorskip("onnxruntime")
    made: list[str] = []  # each model made

    def perf_counter() -> float:
        return len(made)  # so that ms is 1000 times the models made while timed

    session = onnxruntime.InferenceSession

    class Watched(session):  # type: ignore[misc, valid-type]
        def __init__(self, path: str, *args: object, **kwargs: object) -> None:
            made.append(Path(path).name)
            super().__init__(path, *args, **kwargs)

    monkeypatch.setattr(onnxruntime, "InferenceSession", Watched)
    monkeypatch.setattr(read_command, "time", SimpleNamespace(perf_counter=perf_counter))
    learned._kept_reader.cache_clear()  # (as in a fresh process: nothing loaded yet)
    try:
        assert run_read(str(FIXTURES / ROLL), str(FIXTURES / SMALL_DICE), "--json") == 0
    finally:
        learned._kept_reader.cache_clear()  # (the next test's models made as usual)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2 and all(line["dice"] for line in lines)
    assert set(made) >= {learned.DETECTOR_FILE, learned.CLASSIFIER_FILE,
                         learned.SMALL_DICE_DETECTOR_FILE}
    assert [line["ms"] for line in lines] == [0, 0]


def test_a_photo_that_needs_what_no_photo_before_it_did_is_timed_without_loading_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The reader as it is met: a picture size it has not read before costs a model
    # readied for it (here 0.4 s), each further reading of that size nothing.
    image = cv2.imread(str(FIXTURES / ROLL))
    assert image is not None
    real = reader.read_frame(image)
    sizes: set[tuple[int, ...]] = set()

    def read_frame(frame: np.ndarray, *args: object, **kwargs: object) -> FrameReading:
        if frame.shape not in sizes:
            sizes.add(frame.shape)
            import time

            time.sleep(0.4)
            learned.note_model_readied()  # as the real reader counts it
        return real

    monkeypatch.setattr(reader, "read_frame", read_frame)
    assert run_read(str(FIXTURES / ROLL), str(FIXTURES / CROP), str(FIXTURES / ROLL),
                    "--json") == 0
    ms = [json.loads(line)["ms"] for line in capsys.readouterr().out.splitlines()]
    assert len(ms) == 3 and max(ms) < 100, ms


# read --debug: which drawing is whose -------------------------------------------


def test_each_photo_s_line_names_its_drawing_and_no_two_drawings_share_a_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dice = (FIXTURES / CROP).read_bytes()
    plain = cv2.imencode(".png", np.full((128, 128, 3), 90, np.uint8))[1].tobytes()
    photos = {  # each photo, and whether it shows a die
        tmp_path / "monday" / "roll.png": True,
        tmp_path / "tuesday" / "roll.png": False,
        tmp_path / "tuesday" / "ROLL.png": True,  # one file with roll.png on a Mac
        tmp_path / "tuesday" / os.fsdecode(b"w\xfcrfel.png"): False,  # not UTF-8
        tmp_path / "tuesday" / "w rfel.png": True,  # written the same, w_rfel
        tmp_path / "tuesday" / "two\nlines.png": False,
    }
    for photo, shows_a_die in photos.items():
        photo.parent.mkdir(exist_ok=True)
        photo.write_bytes(dice if shows_a_die else plain)
    drawings = tmp_path / "drawings"
    assert run_read(*map(str, photos), "--debug", str(drawings)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(photos)  # a line per photo, the line break in a name too
    named = [Path(line.rpartition("  drawing: ")[2]) for line in lines]
    assert len({path.name.casefold() for path in named}) == len(photos)
    assert sorted(os.listdir(drawings)) == sorted(path.name for path in named)
    for (photo, shows_a_die), drawing in zip(photos.items(), named, strict=True):
        assert drawing.parent == drawings and drawing.name.isprintable()
        picture = cv2.imread(str(drawing))
        assert picture is not None
        assert (picture.std() > 10) == shows_a_die, (photo, drawing)
    assert [path.name for path in named] == [
        "roll.png", "roll-2.png", "ROLL-3.png", "w_rfel.png", "w_rfel-2.png",
        "two_lines.png"]
    assert lines[5].startswith(f"{tmp_path}/tuesday/two\\nlines.png: ")


def test_a_json_line_names_its_photo_s_drawing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drawings = tmp_path / "drawings"
    assert run_read(str(FIXTURES / CROP), "--json", "--debug", str(drawings)) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["drawing"] == str(drawings / "tomitomi3_crops__3_00010.png")
    assert Path(line["drawing"]).is_file()


# a table's file for a profile, a profile for a table's file ---------------------


def _table_file(folder: Path, extra: str = "") -> Path:
    table = folder / "table.toml"
    table.write_text(f'{extra}[[player]]\nname = "Ana"\n\n[[player]]\nname = "Ben"\n',
                     encoding="utf-8")
    return table


def test_read_with_a_table_s_file_for_its_profile_names_the_profile_to_give(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: "version: missing; the first line must be 'version = 1'; correct it in
    # table.toml", which had the installer write a version line into the table's file.
    table = _table_file(tmp_path, 'calibration = "kitchen.toml"\n')
    assert main(["read", "--profile", str(table), str(FIXTURES / CROP)]) == 1
    said = capsys.readouterr().err
    assert f"{table} is a table's file" in said and "not a calibration profile" in said
    assert f"give the profile this table's file names instead: {tmp_path / 'kitchen.toml'}" \
        in said
    assert "version = 1'; correct it" not in said


def test_a_table_s_file_naming_no_profile_points_to_the_one_beside_it_or_to_calibrate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from einhorn_table.calibration.profile import load_profile

    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "state"))
    table = _table_file(tmp_path)
    with pytest.raises(ProfileError, match=r"no profile is saved yet: make one with '.*"
                                           r"calibrate'"):
        load_profile(table)
    beside = save_profile(CalibrationProfile(), tmp_path / "calibration.toml")
    with pytest.raises(ProfileError, match=f"give the profile beside it instead: {beside}"):
        load_profile(table)
    assert load_profile(beside) == CalibrationProfile()  # a profile loads as before


def test_a_profile_given_for_the_table_s_file_says_to_name_it_in_the_table_s_file(
        tmp_path: Path) -> None:
    # Before: "unknown keys check, dice, players, reader, tray, version, view in the top
    # level", as if the table's file were to be corrected.
    profile = save_profile(CalibrationProfile(), tmp_path / "calibration.toml")
    with pytest.raises(ConfigError) as raised:
        load_config(profile)
    said = str(raised.value)
    assert f"{profile} is a calibration profile" in said and "not a table's file" in said
    assert f'calibration = "{profile}"' in said and "table.example.toml" in said
    assert "unknown keys" not in said


# replay: a photo, a folder of pictures -------------------------------------------


def test_replay_of_a_photo_says_read_reads_photos_and_what_replay_takes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: "not UTF-8 text ...: open it in a text editor and save it with the
    # encoding UTF-8", for a JPEG.
    photo = tmp_path / "last roll.jpg"
    photo.write_bytes((FIXTURES / ROLL).read_bytes())
    match = REPO / "einhorn_table" / "examples" / "family-evening.jsonl"
    assert main(["replay", str(photo), str(match)]) == 1
    captured = capsys.readouterr()
    assert f"{photo}: a photo, not a match file" in captured.err
    assert f"read '{photo}'" in captured.err and ".jsonl" in captured.err
    assert "UTF-8" not in captured.err
    assert "Papa wins" in captured.out  # the match named beside it is replayed


def test_replay_of_a_folder_of_camera_frames_says_how_frames_are_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(2):
        cv2.imwrite(str(frames / f"{index:06d}.png"), np.full((48, 64, 3), 90, np.uint8))
    assert main(["replay", str(frames)]) == 1
    said = capsys.readouterr().err
    assert f"{frames}: a folder of pictures, not match files" in said
    assert f'camera = "dir:{frames}"' in said and f"read {frames}/*.png" in said
    matches = tmp_path / "matches"
    matches.mkdir()
    assert main(["replay", str(matches)]) == 1  # any other folder: as before
    assert "is a folder; name the match files in it" in capsys.readouterr().err


def test_a_match_file_that_happens_to_begin_like_a_bitmap_is_still_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "BM.jsonl"
    text.write_text("BM is no JSON\n", encoding="utf-8")
    assert main(["replay", str(text)]) == 1
    said = capsys.readouterr().err
    assert "line 1: refused" in said and "photo" not in said


# Ctrl-C while the command starts ------------------------------------------------

_STARTS_LIKE_THE_CONSOLE_SCRIPT = """
import os, sys, time
module, _, name = sys.argv[1].partition(":")
trigger = sys.argv[2]
if trigger in sys.modules:
    sys.exit(3)  # (imported already: it cannot be waited in)


class WaitAtImport:
    def find_spec(self, fullname, path=None, target=None):
        if fullname == trigger:
            os.write(1, b"importing\\n")
            time.sleep(60)  # Ctrl-C comes here
        return None


sys.meta_path.insert(0, WaitAtImport())
entry = getattr(__import__(module, fromlist=[name]), name)
sys.argv[:] = ["einhorn-table", *sys.argv[3:]]
sys.exit(entry())
"""


@pytest.mark.parametrize("trigger", ["einhorn_table.cli", "argparse", "cv2"])
def test_ctrl_c_while_the_command_is_still_imported_stops_it_quietly(
        tmp_path: Path, trigger: str) -> None:
    # The console script imports pyproject.toml's entry point, then calls it. Before,
    # Ctrl-C while that import ran (einhorn_table.cli, argparse) printed a traceback.
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    entry = scripts["project"]["scripts"]["einhorn-table"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", _STARTS_LIKE_THE_CONSOLE_SCRIPT, entry, trigger, "read",
         str(FIXTURES / CROP)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
        # (as a terminal starts it: a runner in the background leaves Ctrl-C ignored)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"importing\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
    assert (child.returncode, err.decode()) == (130, "")
    assert out == b""
