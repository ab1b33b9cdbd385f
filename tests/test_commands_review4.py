"""The hand-run commands read, record, replay and calibrate's options, against what a
person typing them expects: read's ``ms`` is the reading, not the models' loading; its
lines name each photo by the path typed, in JSON that every reader takes; record counts
the recording's own seconds; replay says why it showed nothing; one name, --table, for
the table's file; a synthetic table's options say what they allow."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_vision_reader_cli import ROLL, run_read
from vision_helpers import FIXTURES

from einhorn_table.adapters.clock import SystemClock
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.adapters.source_spec import SYNTH_PLAYERS, parse_source
from einhorn_table.cli import build_parser, main
from einhorn_table.cli.calibrate import calibrate_command
from einhorn_table.rules import replay_file
from einhorn_table.vision import learned, reader
from einhorn_table.vision.results import FrameReading

# read ----------------------------------------------------------------------------


@pytest.fixture
def loading_reader(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The dice reader as it is met in a fresh process: its first reading loads the
    models (here 0.4 s, and counted as the real reader counts it), the others take no
    time. Each call's moment is kept."""
    image = cv2.imread(str(FIXTURES / ROLL))
    assert image is not None
    real = reader.read_frame(image)
    calls: list[float] = []

    def read_frame(frame: np.ndarray, *args: object, **kwargs: object) -> FrameReading:
        if not calls:
            time.sleep(0.4)
            learned.note_model_readied()
        calls.append(time.perf_counter())
        return real

    monkeypatch.setattr(reader, "read_frame", read_frame)
    return calls


def test_the_first_photo_s_ms_is_its_reading_not_the_loading_of_the_models(
        loading_reader: list[float], capsys: pytest.CaptureFixture[str]) -> None:
    # Before, the first photo's ms held the 400 ms of loading (864 ms for a photo
    # read in 205 ms by the real reader), which misled anyone measuring.
    assert run_read(str(FIXTURES / ROLL), str(FIXTURES / ROLL), "--json") == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["ms"] < 100 and second["ms"] < 100
    assert [d["value"] for d in first["dice"]] == [5, 5, 5]  # what is read stays


def test_without_json_no_reading_is_timed_so_none_is_made_twice(
        loading_reader: list[float], capsys: pytest.CaptureFixture[str]) -> None:
    assert run_read(str(FIXTURES / ROLL), str(FIXTURES / ROLL)) == 0
    assert len(loading_reader) == 2


def test_with_json_only_a_reading_that_loaded_a_model_is_made_again(
        loading_reader: list[float], capsys: pytest.CaptureFixture[str]) -> None:
    # Before, every photo was read twice (once untimed, then timed), so read --json
    # took twice as long as read: 38.6 s against 21.1 s for 198 photos.
    photos = [str(FIXTURES / ROLL)] * 4
    assert run_read(*photos, "--json") == 0
    assert len(loading_reader) == 1 + 4  # the first loaded the models
    ms = [json.loads(line)["ms"] for line in capsys.readouterr().out.splitlines()]
    assert len(ms) == 4 and max(ms) < 100, ms


def test_photos_of_one_name_in_two_folders_are_told_apart(
        tmp_path: Path, loading_reader: list[float],
        capsys: pytest.CaptureFixture[str]) -> None:
    for day in ("monday", "tuesday"):
        (tmp_path / day).mkdir()
        (tmp_path / day / "roll.jpg").write_bytes((FIXTURES / ROLL).read_bytes())
    monday, tuesday = tmp_path / "monday" / "roll.jpg", tmp_path / "tuesday" / "roll.jpg"
    assert run_read(str(monday), str(tuesday)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.partition(": ")[0] for line in lines] == [str(monday), str(tuesday)]


def test_a_name_that_is_not_utf8_comes_out_as_json_every_reader_takes(
        tmp_path: Path, loading_reader: list[float],
        capsys: pytest.CaptureFixture[str]) -> None:
    # Before: "w\udcfcrfel.jpg", a lone surrogate that strict JSON readers refuse
    # (and jq turns into a replacement character, naming no file).
    odd = tmp_path / os.fsdecode(b"w\xfcrfel.jpg")
    odd.write_bytes((FIXTURES / ROLL).read_bytes())
    assert run_read(str(odd), "--json") == 0
    line = capsys.readouterr().out.strip()
    assert "\\ud" not in line
    image = json.loads(line)["image"]
    assert image == f"{tmp_path}/w\\xfcrfel.jpg"
    # The \xNN form names the file: its bytes back, it is the file's own name.
    named = image.encode("ascii").decode("unicode_escape").encode("latin-1")
    assert Path(os.fsdecode(named)) == odd and odd.is_file()


# record --------------------------------------------------------------------------


def _pictures(folder: Path, count: int) -> Path:
    folder.mkdir()
    for index in range(count):
        cv2.imwrite(str(folder / f"{index}.png"), np.full((48, 64, 3), index * 20, np.uint8))
    return folder


def test_record_counts_a_recording_s_own_seconds_when_it_plays_fast(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A folder of pictures (or a video file) is read flat out: 1 s of wall time took
    # however many frames came, not the second of the recording (30 at 30 fps).
    played = _pictures(tmp_path / "played", 3)
    out = tmp_path / "out"
    assert main(["record", str(out), "--source", f"dir:{played},loop=1",
                 "--seconds", "1"]) == 0
    assert len(list(out.iterdir())) == 30
    assert "fps=30" in capsys.readouterr().out


def test_record_counts_a_recording_s_own_seconds_when_it_plays_slowly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A large video read on a Pi takes longer than it lasts: here each frame costs a
    # second of the wall's time. Before, 2 s recorded 2 frames, not 2 s of the video.
    class SlowReading(SystemClock):
        now = 0.0

        def monotonic(self) -> float:
            SlowReading.now += 1.0
            return SlowReading.now

    monkeypatch.setattr("einhorn_table.adapters.clock.SystemClock", SlowReading)
    played = _pictures(tmp_path / "played", 4)
    out = tmp_path / "out"
    assert main(["record", str(out), "--source", f"dir:{played},loop=1",
                 "--seconds", "2"]) == 0
    assert len(list(out.iterdir())) == 60


def test_record_s_help_says_whose_seconds_it_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["record", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "in the recording's own time" in said and "however fast it is read" in said


# replay --------------------------------------------------------------------------

SETUP = '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"]}\n'


def _golden_pair(folder: Path) -> tuple[Path, Path]:
    match = folder / "short.jsonl"
    match.write_text(SETUP, encoding="utf-8")
    ledgers = folder / "short.expected.jsonl"
    ledgers.write_text(json.dumps(replay_file(str(match)).ledger().to_json()) + "\n",
                       encoding="utf-8")
    return match, ledgers


def test_replay_of_only_ledgers_says_nothing_was_replayed_and_what_to_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: nothing on stdout, exit status 0, as if all had gone well.
    match, ledgers = _golden_pair(tmp_path)
    assert main(["replay", str(ledgers)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{ledgers}: skipped: a file of ledgers" in captured.err
    assert f"replay its match, {match}" in captured.err
    assert "nothing replayed: the file named is a file of ledgers, not a match" in captured.err


def test_replay_of_a_match_with_its_ledgers_shows_the_match_and_succeeds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match, ledgers = _golden_pair(tmp_path)
    assert main(["replay", str(match), str(ledgers), "--json"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1
    assert "replay its match" not in captured.err  # it was replayed
    assert "nothing replayed" not in captured.err


# the table's file: --table for every command ----------------------------------------


@pytest.mark.parametrize("option", ["--table", "--config"])
def test_calibrate_names_the_table_s_file_with_table_and_still_takes_config(
        option: str, tmp_path: Path) -> None:
    table = tmp_path / "table.toml"
    table.write_text("", encoding="utf-8")
    args = build_parser("calibrate").parse_args(["calibrate", option, str(table)])
    assert args.table == table
    assert build_parser("calibrate").parse_args(["calibrate"]).table == Path("table.toml")


def test_every_command_s_help_names_the_table_s_file_alike(
        capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("calibrate", "doctor", "record"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        said = capsys.readouterr().out
        assert "--table " in said and "--config" not in said, command


def test_the_command_that_calibrates_again_names_the_table_s_file_with_table(
        tmp_path: Path) -> None:
    table = tmp_path / "my table.toml"
    table.write_text("", encoding="utf-8")
    said = calibrate_command(table, tmp_path / "calibration.toml")
    assert f"--table '{table}'" in said and "--config" not in said


# the synthetic table's options ---------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    ("synth:players=9", "must be 1 to 8: the synthetic table has dice of 8 colours"),
    ("synth:players=0", "must be 1 to 8"),
    ("synth:seed=-3", "must be 0 or more"),
])
def test_a_synthetic_table_s_option_out_of_range_says_what_is_allowed(
        text: str, words: str) -> None:
    # Before: "pass dice_colors with one colour per player" (no such option), a
    # traceback from numpy for a negative seed.
    with pytest.raises(SourceError) as refused:
        parse_source(text)
    assert words in str(refused.value)
    assert "dice_colors" not in str(refused.value)


def test_the_synthetic_table_takes_as_many_players_as_its_palette_has_colours() -> None:
    from einhorn_table.vision.synth import DICE_PALETTE

    assert len(DICE_PALETTE) == SYNTH_PLAYERS
    spec = parse_source(f"synth:players={SYNTH_PLAYERS},seed=0,width=64,height=48")
    assert spec.options["players"] == SYNTH_PLAYERS


def test_a_negative_seed_is_refused_by_the_command_not_with_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["record", str(tmp_path / "out"), "--source", "synth:seed=-3",
                   "--seconds", "0.1"])
    assert status == 1
    said = capsys.readouterr().err
    assert said.startswith('einhorn-table: The option seed="-3" in "synth:seed=-3"')
    assert not (tmp_path / "out").exists()


def test_replay_of_a_folder_says_to_name_the_match_files_in_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: "cannot read this file (Is a directory)".
    assert main(["replay", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"{tmp_path}: is a folder; name the match files in it (e.g. {tmp_path}/*.jsonl)\n")
