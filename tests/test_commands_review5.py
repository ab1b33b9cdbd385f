"""The hand-run commands as a parent meets them with the wrong thing at hand: a disk
that fills during a recording, a misspelt table file, a state folder that takes no
file, Ctrl-C. Each says what to do, in words, and exits non-zero where it failed."""

from __future__ import annotations

import errno
import os
import signal
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import REPO
from table_rig import open_store
from test_commands_review import _Camera, _record
from test_table_play_cli import CONFIG, roll_to_start, table_toml  # noqa: F401
from test_vision_reader_cli import ROLL
from vision_helpers import FIXTURES

from einhorn_table.adapters import image_files
from einhorn_table.adapters.dir_source import list_pictures
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.cli import main
from einhorn_table.table.config import ConfigError, load_config
from einhorn_table.vision import learned

# read --json: what counts as readying a model ---------------------------------------


@pytest.mark.parametrize("backend", ["opencv", "onnxruntime"])
def test_a_model_counts_as_readied_when_loaded_and_when_first_run_at_a_size(
        backend: str) -> None:
    # read --json reads a photo again only where its reading readied a model: OpenCV
    # plans its net again for each new input size, onnxruntime (per_shape) makes a
    # session for it.
    if backend == "onnxruntime":
        pytest.importorskip("onnxruntime")
    path = learned.MODEL_DIR / learned.CLASSIFIER_FILE
    before = learned.models_readied()
    net = learned.load_net(path, backend, per_shape=True)
    loaded = learned.models_readied()
    assert loaded > before
    one, three = (np.zeros((n, 3, learned.CROP, learned.CROP), np.float32) for n in (1, 3))
    net(one)
    after_one = learned.models_readied()
    net(one)
    assert learned.models_readied() == after_one  # the same size again readies nothing
    net(three)
    assert learned.models_readied() == after_one + 1  # a new size does


# record: a disk that fills ---------------------------------------------------------


def _disk_fills_at(monkeypatch: pytest.MonkeyPatch, frame_number: int) -> None:
    """The disk takes ``frame_number`` pictures whole, then half of the next one."""
    write = image_files.write_picture
    written = [0]

    def write_picture(path: Path, image: object, options: object = ()) -> None:
        if written[0] == frame_number:
            path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 100)  # cut short
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        written[0] += 1
        write(path, image)  # type: ignore[arg-type]

    monkeypatch.setattr(image_files, "write_picture", write_picture)


def test_a_disk_that_fills_leaves_no_picture_cut_short(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Before, the third picture stayed, cut short: replaying the folder stopped at it
    # ("could not be read as a picture. Delete it...").
    _disk_fills_at(monkeypatch, 2)
    assert _record(tmp_path, monkeypatch, _Camera(10_000, lambda: None)) == 1
    pictures = list_pictures(tmp_path / "rec")
    assert [p.name for p in pictures] == ["000000.png", "000001.png"]
    assert all(cv2.imread(str(p)) is not None for p in pictures)
    err = capsys.readouterr().err
    assert "the disk is full; free some space" in err


def test_a_disk_full_from_the_start_leaves_no_folder_so_the_same_command_works_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before, the folder kept a broken 000000.png, and recording again into it once
    # there was space was refused: "already holds pictures".
    _disk_fills_at(monkeypatch, 0)
    with pytest.raises(SourceError, match="the disk is full; free some space"):
        _record(tmp_path, monkeypatch, _Camera(10_000, lambda: None))
    assert not (tmp_path / "rec").exists()


# play: a table's file that names a recording not there, or is mistyped -------------


def test_a_recording_named_as_the_camera_that_is_not_there_stops_play_before_a_match(
        table_toml: Path, tmp_path: Path,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    # Before, a mistyped folder started a match, said "camera lost" in the journal and
    # then waited for ever for a camera that nothing could plug back in.
    for camera, words in (("dir:frames-of-tusday", "does not exist"),
                          ("file:roll.mp4", "does not exist")):
        table_toml.write_text(CONFIG.replace('"synth:seed=3,players=3"', f'"{camera}"')
                              .format(state=""), encoding="utf-8")
        state = tmp_path / "s"
        assert main(["play", str(table_toml), "--state-dir", str(state)]) == 1
        err = capsys.readouterr().err
        kind, _, name = camera.partition(":")
        assert f'{table_toml}: camera = "{kind}:{tmp_path / name}"' in err
        assert words in err and "match 1 started" not in err
        assert not (state / "history.sqlite3").exists() or open_store(state).matches() == []


def test_a_webcam_that_does_not_answer_at_the_start_is_still_waited_for(
        table_toml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (A live camera may be plugged in again: the table starts and says it is lost.)
    import einhorn_table.adapters.opencv_source as opencv_source

    def no_webcam(self: object) -> None:
        raise SourceError("No webcam answered as number 7.")

    monkeypatch.setattr(opencv_source.WebcamSource, "_open", no_webcam)
    table_toml.write_text(CONFIG.replace('"synth:seed=3,players=3"', '"opencv:7"')
                          .format(state=""), encoding="utf-8")
    assert main(["play", str(table_toml), "--state-dir", str(tmp_path / "s")]) == 0
    assert "match 1 started" in capsys.readouterr().err


@pytest.mark.parametrize(("written", "line", "why"), [
    ("fullscreen = ture", "fullscreen = ture", "Invalid value"),
    ("fullscreen = True", "fullscreen = True", "Invalid value"),
    ('camera = "synth', 'camera = "synth', "a closing double quote is missing"),
])
def test_a_mistyped_value_in_the_table_s_file_is_shown_with_how_to_write_it(
        tmp_path: Path, written: str, line: str, why: str) -> None:
    # Before: "is not valid TOML: Invalid value (at line 7, column 14)", which names
    # neither what is wrong nor how to write it.
    path = tmp_path / "table.toml"
    text = CONFIG.format(state="").replace("fullscreen = false", "fullscreen = false\n# x")
    text = text.replace('camera = "synth:seed=3,players=3"', "camera = \"synth\"")
    key = written.partition(" =")[0]
    lines = [written if ln.startswith(f"{key} =") else ln for ln in text.splitlines()]
    path.write_text("\n".join(lines), encoding="utf-8")
    number = lines.index(written) + 1
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    said = str(refused.value)
    assert f"{path} is not valid TOML at line {number}: {line} ({why})." in said
    assert 'double quotes (name = "Ana")' in said and "fullscreen = true" in said


def test_ctrl_c_stops_play_as_its_window_closing_does_and_says_the_match_is_kept(
        table_toml: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Before, Ctrl-C stopped play with status 130 and not a word: the installer was not
    # told that the match was kept, nor how to go on with it (the demo says so).
    from einhorn_table.table.loop import TableLoop

    def ctrl_c_while_playing(self: TableLoop, done: object,
                             max_steps: int | None = None) -> None:
        roll_to_start(self)  # (a match nobody rolled in is not kept: see below)
        for step in range(50):
            if self.screen is not None and self.screen.quit_requested:
                return
            if step == 2:
                signal.raise_signal(signal.SIGINT)
            self.step()
        pytest.fail("the table went on after Ctrl-C")

    monkeypatch.setattr(TableLoop, "run", ctrl_c_while_playing)
    # (Python's own Ctrl-C, as in a terminal: a runner in the background ignores it)
    runner = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        terminal = signal.getsignal(signal.SIGINT)
        assert main(["play", str(table_toml)]) == 0
        assert signal.getsignal(signal.SIGINT) is terminal  # the terminal's own again
    finally:
        signal.signal(signal.SIGINT, runner)
    out = capsys.readouterr().out
    assert "Match not finished (game 1 of 3); it is kept." in out
    assert "The table offers to go on with it when it starts again." in out


# a photo given where a settings file was meant ------------------------------------


def test_a_photo_given_as_the_table_s_file_is_called_a_picture_not_text_to_re_save(
        tmp_path: Path) -> None:
    # Before: "is not saved as UTF-8 text: open it in a text editor and save it with
    # the encoding UTF-8", advice that ruins a photo and fixes nothing.
    photo = tmp_path / "roll.jpg"
    photo.write_bytes((FIXTURES / ROLL).read_bytes())
    with pytest.raises(ConfigError) as refused:
        load_config(photo)
    assert str(refused.value) == (f"{photo} is a picture, not the table's file (a text "
                                  "file): name the table's file instead")
    text = tmp_path / "table.toml"  # (a text in another encoding is still told so)
    text.write_bytes('name = "Zoë"\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="not saved as UTF-8 text"):
        load_config(text)


def test_a_misspelt_camera_in_the_table_s_file_is_told_with_its_line(
        table_toml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Before, play and record said only '"synht:seed=1" is neither a camera source...':
    # not that it came from the table's file, nor which file to fix.
    table_toml.write_text(CONFIG.replace('"synth:seed=3,players=3"', '"synht:seed=1"')
                          .format(state=""), encoding="utf-8")
    line = f'{table_toml}: camera = "synht:seed=1": "synht:seed=1" is neither a camera'
    assert main(["play", str(table_toml), "--state-dir", str(tmp_path / "s")]) == 1
    assert line in capsys.readouterr().err
    assert main(["record", str(tmp_path / "rec"), "--table", str(table_toml)]) == 1
    assert line in capsys.readouterr().err
    assert not (tmp_path / "rec").exists()


# replay: a match file cut short ----------------------------------------------------


def test_a_match_file_cut_off_in_its_last_line_is_told_so_with_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: "line 26: refused: this line is not JSON (Unterminated string starting
    # at)", which says nothing of a copy cut short nor what to do about it.
    whole = (REPO / "einhorn_table" / "examples" / "family-evening.jsonl").read_bytes()
    cut = tmp_path / "match.jsonl"
    cut.write_bytes(whole[:1500])
    assert main(["replay", str(cut)]) == 1
    err = capsys.readouterr().err
    assert "the file ends in the middle of this line: it was cut short" in err
    assert "delete this last line to replay the moves before it" in err
    whole_lines = whole.decode().splitlines()
    refused = tmp_path / "refused.jsonl"  # a whole last line, refused for what it says
    refused.write_text("\n".join([*whole_lines[:3], whole_lines[3].replace("6, 6, 1", "6, 6, 9")]),
                       encoding="utf-8")
    assert main(["replay", str(refused)]) == 1
    assert "cut short" not in capsys.readouterr().err


def test_the_doctor_names_the_table_s_file_where_the_camera_it_names_fails(
        table_toml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Before, the camera line said only '"synht:seed=1" is neither a camera source...',
    # not where that camera was named.
    monkeypatch.chdir(table_toml.parent)
    table_toml.write_text(CONFIG.replace('"synth:seed=3,players=3"', '"synht:seed=1"')
                          .format(state=""), encoding="utf-8")
    assert main(["doctor", "--table", "table.toml", "--frames", "2",
                 "--state-dir", str(tmp_path / "s")]) == 1
    said = " ".join(capsys.readouterr().out.split())
    assert '(the camera table.toml names: camera = "synht:seed=1")' in said
