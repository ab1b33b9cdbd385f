"""The hand-run commands (read, record, replay, simulate) on a user's wrong or odd input:
each says what went wrong, without a traceback, and keeps what it could do."""

from __future__ import annotations

import argparse
import os
import signal
import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from conftest import REPO
from vision_helpers import FIXTURES

from einhorn_table.adapters.source_base import SourceError
from einhorn_table.adapters.source_spec import parse_source
from einhorn_table.adapters.sources import create_source
from einhorn_table.cli import main
from einhorn_table.cli import read as read_command
from einhorn_table.cli import record as record_command
from einhorn_table.errors import EinhornError
from einhorn_table.ports import Frame

ROLL = "matteop65_d6__train_five_25.jpg"
EXAMPLE = REPO / "einhorn_table" / "examples" / "family-evening.jsonl"


def run_command(module: Any, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="einhorn-table")
    module.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args([argv[0], *argv[1:]])
    status: int = args.handler(args)
    return status


def giant_png(path: Path, side: int = 40_000) -> Path:
    """A small PNG file whose header claims ``side`` x ``side`` pixels (over OpenCV's
    gigapixel), as a panorama stitched too far would."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return path


# read ----------------------------------------------------------------------------


def test_read_says_a_giant_picture_is_too_large_and_reads_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    giant = giant_png(tmp_path / "panorama.png")
    status = run_command(read_command, "read", "--json", str(giant), str(FIXTURES / ROLL))
    assert status == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1 and ROLL in captured.out
    assert f"{giant}: a picture too large to decode" in captured.err


def test_read_reports_a_picture_the_reader_cannot_cope_with_and_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A strip of 2 x 20,000 pixels (its short side shrinks to under a pixel) reads as
    # no dice; a picture OpenCV fails on inside the reader is said, and the rest read.
    strip = tmp_path / "strip.png"
    cv2.imwrite(str(strip), np.full((2, 20_000, 3), 200, np.uint8))
    assert run_command(read_command, "read", str(strip)) == 0
    assert capsys.readouterr().out == f"{strip}: no dice found\n"
    from einhorn_table.vision import reader

    real = reader.read_frame

    def fails_on_strips(image: np.ndarray, *args: object, **kwargs: object) -> object:
        if image.shape[0] < 10:
            raise cv2.error("OpenCV(4.10.0) resize.cpp:4152: error: (-215:Assertion "
                            "failed) !dsize.empty() in function 'resize'")
        return real(image, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "read_frame", fails_on_strips)
    status = run_command(read_command, "read", str(strip), str(FIXTURES / ROLL))
    assert status == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [f"{FIXTURES / ROLL}: 3 dice: 5 5 5  -> Dreifaltigkeit"]
    assert f"{strip}: the dice reader could not read this 20000 x 2 picture" in captured.err
    assert "!dsize.empty()" in captured.err and "resize.cpp" not in captured.err


def test_debug_drawings_of_photos_of_the_same_name_do_not_overwrite_each_other(
        tmp_path: Path) -> None:
    first, second = tmp_path / "monday", tmp_path / "tuesday"
    first.mkdir()
    second.mkdir()
    roll = cv2.imread(str(FIXTURES / ROLL))
    assert roll is not None
    cv2.imwrite(str(first / "roll.jpg"), roll)
    cv2.imwrite(str(second / "roll.jpg"), np.full((480, 640, 3), 90, np.uint8))  # no dice
    drawings = tmp_path / "drawings"
    assert run_command(read_command, "read", str(first / "roll.jpg"),
                       str(second / "roll.jpg"), "--debug", str(drawings)) == 0
    assert sorted(p.name for p in drawings.iterdir()) == ["roll-2.png", "roll.png"]
    monday, tuesday = cv2.imread(str(drawings / "roll.png")), cv2.imread(
        str(drawings / "roll-2.png"))
    assert monday is not None and tuesday is not None
    assert monday.std() > 10 > tuesday.std()  # the dice photo, then the plain one


# record --------------------------------------------------------------------------


class _Camera:
    """A small synthetic camera that runs ``at`` after it gave ``after`` frames."""

    def __init__(self, after: int, at: Any) -> None:
        self._inner = create_source("synth:width=96,height=72")
        self.description = "the test camera"
        self._after, self._at = after, at

    def __enter__(self) -> _Camera:
        self._inner.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self._inner.close()

    def read(self) -> Frame | None:
        frame = self._inner.read()
        if self._inner.frames_read == self._after:
            self._at()
        return frame


def _record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, camera: _Camera) -> int:
    import einhorn_table.adapters.sources as sources

    monkeypatch.setattr(sources, "create_source", lambda *a, **k: camera)
    return run_command(record_command, "record", str(tmp_path / "rec"), "--source", "synth",
                       "--seconds", "30")


def test_ctrl_c_ends_a_recording_and_says_how_to_replay_the_frames_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    camera = _Camera(3, lambda: os.kill(os.getpid(), signal.SIGINT))
    terminal = signal.getsignal(signal.SIGINT)  # (ignored where started in the background)
    try:
        status = _record(tmp_path, monkeypatch, camera)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C went past the recording: nothing said of the frames saved")
    assert status == 0
    said = capsys.readouterr().out
    saved = sorted(p.name for p in (tmp_path / "rec").iterdir())
    assert saved == ["000000.png", "000001.png", "000002.png"]
    assert said.startswith(f"Saved 3 frames from the test camera in {tmp_path / 'rec'}.")
    assert f'camera = "dir:{tmp_path / "rec"},fps=' in said
    # Ctrl-C is the terminal's own again afterwards.
    assert signal.getsignal(signal.SIGINT) is terminal


def test_a_disk_that_fills_keeps_the_frames_saved_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.adapters.recorder import FrameRecorder

    write = FrameRecorder.write

    def fill_up(self: FrameRecorder, frame: Frame) -> Path:
        if self.written == 2:
            raise SourceError(f"Could not write {self.folder}/000002.png: is the disk full "
                              "or the folder read-only?")
        return write(self, frame)

    monkeypatch.setattr(FrameRecorder, "write", fill_up)
    assert _record(tmp_path, monkeypatch, _Camera(10_000, lambda: None)) == 1
    captured = capsys.readouterr()
    assert "is the disk full" in captured.err
    assert captured.out.startswith("Saved 2 frames from the test camera")
    assert len(list((tmp_path / "rec").iterdir())) == 2


def test_a_camera_that_gives_no_frame_is_not_offered_for_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    class Silent(_Camera):
        def read(self) -> Frame | None:
            return None

    assert _record(tmp_path, monkeypatch, Silent(0, lambda: None)) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # no "Saved 0 frames ... replay them"
    assert "nothing was saved in" in captured.err


def test_a_misspelt_source_makes_no_recording_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "rec"
    assert main(["record", str(folder), "--source", "synht:seed=1"]) == 1
    assert "is neither a camera source" in capsys.readouterr().err
    assert not folder.exists()


def test_record_help_is_plain_words() -> None:
    assert "``" not in record_command.DESCRIPTION


# sources -------------------------------------------------------------------------


def test_a_wrong_option_value_is_said_in_plain_words() -> None:
    for text, words in (("synth:seed=x", "must be a whole number"),
                        ("dir:frames,fps=fast", "must be a number")):
        with pytest.raises(SourceError) as refused:
            parse_source(text)
        assert words in str(refused.value)
        assert "literal" not in str(refused.value) and "convert" not in str(refused.value)


def test_a_size_of_0_is_refused_not_taken_for_the_default() -> None:
    with pytest.raises(EinhornError, match=r"\(0, 480\) is too small"):
        create_source("synth:width=0").open()


def test_a_folder_source_says_a_giant_picture_cannot_be_read(tmp_path: Path) -> None:
    giant_png(tmp_path / "000000.png")
    with create_source(f"dir:{tmp_path}") as source, pytest.raises(
            SourceError, match="could not be read as a picture"):
        source.read()


# replay --------------------------------------------------------------------------


def test_replay_prints_no_blank_line_above_the_first_ledger_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    assert main(["replay", str(broken), str(EXAMPLE)]) == 1
    assert capsys.readouterr().out.startswith(f"{EXAMPLE}  (einhorn,")


def test_replay_says_a_file_in_another_encoding_must_be_saved_as_utf8(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(EXAMPLE.read_bytes().replace(b"Lena", "Léna".encode("latin-1")))
    assert main(["replay", str(latin)]) == 1
    assert "save it with the encoding UTF-8" in capsys.readouterr().err


# simulate ------------------------------------------------------------------------


def test_a_house_variant_whose_games_never_end_is_said_not_crashed_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.simulation import simulate

    monkeypatch.setattr(simulate, "MAX_INPUTS", 5_000)  # the same, sooner
    # Silent rolls pay nothing, and the bots never call (a variant where every roll
    # pays 0 is refused as it loads).
    rows = "".join(f"[payouts.{name}]\nsilent = 0\n"
                   for name in ("unvermeidlich", "wunsch", "einhorn", "dreifaltigkeit"))
    still = tmp_path / "still.toml"
    still.write_text(f'name = "still"\nbase = "einhorn"\n{rows}', encoding="utf-8")
    status = main(["simulate", "--variant", str(still), "--matches", "2",
                   "--strategies", "silent"])
    assert status == 1
    err = capsys.readouterr().err
    assert "a simulated match of still did not end" in err
    assert "[payouts]" in err


def test_one_simulated_match_is_said_in_the_singular(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--matches", "1", "--games", "1", "--strategies", "silent"]) == 0
    assert capsys.readouterr().out.startswith("1 simulated match of einhorn: 4 players, 1 game,")
