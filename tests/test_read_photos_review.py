"""``einhorn-table read`` with the photos a parent has: a phone's upright photo, an
iPhone's HEIC, a pattern the shell passed on unmatched, names in other capitals, the
drawings folder named as the photos' own, and many dice drawn close together."""

from __future__ import annotations

import argparse
import json
import shutil
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_helpers import FIXTURES

from einhorn_table.cli import read as read_command
from einhorn_table.folders import FolderError
from einhorn_table.vision.drawing import draw_reading
from einhorn_table.vision.results import DieReading, FrameReading

ROLL = "matteop65_d6__train_five_25.jpg"


def run_read(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="einhorn-table")
    read_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["read", *argv])
    status: int = args.handler(args)
    return status


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF block whose one tag is its orientation, as a phone writes
    it (6: the pixels lie on their side, to be turned clockwise to be shown)."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + b"\x00" * 4
    body = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + app1 + jpeg[2:]


def test_a_phone_s_upright_photo_is_read_and_drawn_as_it_is_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stored = (FIXTURES / ROLL).read_bytes()  # 640 x 480, as the sensor took it
    (tmp_path / "upright.jpg").write_bytes(with_orientation(stored, 6))
    shown = cv2.rotate(cv2.imread(str(FIXTURES / ROLL)), cv2.ROTATE_90_CLOCKWISE)
    cv2.imwrite(str(tmp_path / "as_shown.png"), shown)
    drawings = tmp_path / "drawings"
    assert run_read(str(tmp_path / "upright.jpg"), str(tmp_path / "as_shown.png"), "--json",
                    "--debug", str(drawings)) == 0
    upright, as_shown = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    # The boxes are those of the picture as a phone or a viewer shows it: portrait.
    assert [d["box"] for d in upright["dice"]] == [d["box"] for d in as_shown["dice"]]
    assert [d["value"] for d in upright["dice"]] == [5, 5, 5]
    assert all(x1 <= 480 and y1 <= 640 for _, _, x1, y1 in
               (d["box"] for d in upright["dice"]))
    drawn = cv2.imread(upright["drawing"])
    assert drawn is not None and drawn.shape[:2] == (640, 480)


def test_an_iphone_s_heic_photo_says_how_to_make_a_jpeg_and_the_rest_are_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # How an iPhone's photo begins: the box "ftyp" naming the brands heic and mif1.
    heic = (struct.pack(">I", 24) + b"ftypheic" + b"\x00" * 4 + b"mif1heic"
            + bytes(range(256)) * 8)
    (tmp_path / "IMG_0001.HEIC").write_bytes(heic)
    # One whose main brand is mif1, saved (or renamed by a sharing app) as .jpg.
    (tmp_path / "IMG_0002.jpg").write_bytes(
        struct.pack(">I", 28) + b"ftypmif1" + b"\x00" * 4 + b"mif1heicmiaf" + heic[24:])
    status = run_read(str(tmp_path / "IMG_0001.HEIC"), str(tmp_path / "IMG_0002.jpg"),
                      str(FIXTURES / ROLL))
    captured = capsys.readouterr()
    assert status == 1
    told = captured.err.splitlines()
    assert len(told) == 2
    for line in told:
        assert "an HEIC photo (an iPhone's own format)" in line
        assert "JPEG" in line and "Settings > Camera > Formats" in line
    assert "3 dice: 5 5 5" in captured.out


def test_a_pattern_the_shell_passed_on_unmatched_says_how_the_photos_are_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # A phone names its photos IMG_0001.JPG: "read *.jpg" in their folder matches none,
    # and the shell (bash) passes the pattern on as it is.
    for name in ("IMG_0001.JPG", "IMG_0002.JPG"):
        shutil.copy(FIXTURES / ROLL, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert run_read("*.jpg", "*.png") == 1
    capitals, nothing = capsys.readouterr().err.splitlines()
    assert capitals == (
        "einhorn-table read: *.jpg: no file in this folder matched the pattern *.jpg; "
        "2 files match it if capitals are not told apart, e.g. IMG_0001.JPG: type the "
        "pattern as the names are written (e.g. *.JPG)")
    assert nothing.startswith(
        "einhorn-table read: *.png: no file in this folder matched the pattern *.png "
        "(the shell passes a pattern that matches nothing on as it is)")


def test_a_name_typed_in_other_capitals_or_in_a_missing_folder_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(FIXTURES / ROLL, tmp_path / "IMG_0001.JPG")
    assert run_read(str(tmp_path / "img_0001.jpg"), str(tmp_path / "gone" / "x.jpg")) == 1
    capitals, folder = capsys.readouterr().err.splitlines()
    assert capitals.endswith("img_0001.jpg: no such file, but there is IMG_0001.JPG (the "
                             "capitals differ): type the name as it is written")
    assert folder.endswith(f"x.jpg: no such file: there is no folder {tmp_path / 'gone'}; "
                           "check the path")


def test_drawings_are_not_written_over_the_photos_in_their_own_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # roll.png's drawing is named roll.png: in the photos' folder it would replace it,
    # and roll.jpg's drawing would replace the other photo roll.png too.
    photo = FIXTURES / "tomitomi3_crops__5_00006.png"
    shutil.copy(photo, tmp_path / "roll.png")
    shutil.copy(FIXTURES / ROLL, tmp_path / "roll.jpg")
    for named in ("roll.png", "roll.jpg"):
        with pytest.raises(FolderError, match=r"is the folder of the photo .*roll\.(png|jpg)"
                           r": its drawings, named as the photos with \.png, would be "
                           r"written over photos there; name a folder of their own, "
                           r"e.g\. --debug .*drawings"):
            run_read(str(tmp_path / named), "--debug", str(tmp_path))
    assert (tmp_path / "roll.png").read_bytes() == photo.read_bytes()
    assert capsys.readouterr().out == ""  # refused before any photo was read
    # A folder of their own, inside the photos' folder, is fine.
    assert run_read(str(tmp_path / "roll.png"), "--debug", str(tmp_path / "drawings")) == 0
    assert (tmp_path / "drawings" / "roll.png").is_file()


def text_columns(drawn: np.ndarray, rows: slice) -> np.ndarray:
    """Which columns of ``rows`` (a band with text only) hold any drawn pixel."""
    return np.asarray((drawn[rows] != 128).any(axis=2).any(axis=0))


def test_neighbouring_dice_s_texts_do_not_run_together() -> None:
    # Dice in a row, each just right of where the previous one's text ends: drawn
    # edge to edge, "3 0.98" and "1 1.00" read as "3 0.981 1.00".
    frame = np.full((400, 600, 3), 128, np.uint8)
    first = DieReading(box=(100.0, 200.0, 130.0, 230.0), value=3, confidence=0.98,
                       color=(0, 0, 0))
    alone = draw_reading(frame, FrameReading((first,)))
    band = slice(150, 198)  # above the boxes: the texts only
    columns = np.flatnonzero(text_columns(alone, band))
    assert columns.size, "the first die's text is drawn above it"
    end = int(columns.max())  # where the first die's text ends
    second = DieReading(box=(end + 1.0, 200.0, end + 31.0, 230.0), value=1, confidence=1.0,
                        color=(0, 0, 0))
    both = draw_reading(frame, FrameReading((first, second)))
    drawn_columns = text_columns(both, band)
    # Some columns right after the first text are left clear in the band above.
    assert not drawn_columns[end + 1: end + 4].any()
    # And the second die's value is drawn all the same (below it, where it is clear).
    assert (both[232:280, end + 1: end + 80] != 128).any()


def test_a_die_s_value_is_drawn_larger_than_its_confidence() -> None:
    # "1 1.00" in one size reads as one number; the value is what a player checks.
    frame = np.full((400, 400, 3), 128, np.uint8)
    die = DieReading(box=(150.0, 200.0, 200.0, 250.0), value=1, confidence=1.0,
                     color=(0, 0, 0))
    drawn = draw_reading(frame, FrameReading((die,)))
    ink = (drawn[100:199] != 128).any(axis=2)  # the text, above the box
    columns = np.flatnonzero(ink.any(axis=0))
    # The pieces: runs of columns with ink, split where a few columns are clear.
    breaks = np.flatnonzero(np.diff(columns) > 3)
    value_columns = columns[: breaks[0] + 1]
    rest_columns = columns[breaks[0] + 1:]
    value_rows = np.flatnonzero(ink[:, value_columns].any(axis=1))
    rest_rows = np.flatnonzero(ink[:, rest_columns].any(axis=1))
    # On one baseline, the value's digit stands taller than the confidence's digits.
    assert value_rows.min() < rest_rows.min() - 2


def test_a_pattern_in_quotes_that_matches_photos_says_to_leave_out_the_quotes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # 'read "*.jpg"' (or 'IMG_*'): the shell leaves a quoted pattern as it is, though it
    # matches photos named exactly so; "capitals differ" would send the parent astray.
    for name in ("roll.jpg", "IMG_0001.JPG"):
        shutil.copy(FIXTURES / ROLL, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert run_read("*.jpg", "IMG_*") == 1
    lower, upper = capsys.readouterr().err.splitlines()
    assert lower == (
        "einhorn-table read: *.jpg: a pattern, which this command does not expand itself; "
        "1 file matches it in this folder, e.g. roll.jpg: type the pattern without "
        "quotes, so that the shell names each photo")
    assert upper.endswith("1 file matches it in this folder, e.g. IMG_0001.JPG: type the "
                          "pattern without quotes, so that the shell names each photo")



#: The dice read in epanemu_dice3__valid_dice_433.jpg (640 x 640), twenty lying close.
CROWDED = ((2, (72, 260, 99, 287)), (5, (79, 401, 98, 428)), (None, (128, 15, 149, 36)),
           (None, (164, 155, 187, 177)), (None, (197, 227, 226, 256)),
           (6, (209, 176, 229, 199)), (None, (219, 298, 234, 312)),
           (None, (224, 109, 237, 130)), (6, (234, 245, 257, 270)),
           (None, (243, 300, 265, 322)), (None, (244, 199, 273, 228)),
           (4, (269, 274, 291, 304)), (5, (278, 143, 295, 160)), (1, (283, 88, 303, 107)),
           (2, (303, 292, 325, 314)), (None, (349, 83, 366, 99)), (5, (375, 442, 400, 477)),
           (None, (380, 100, 394, 114)), (3, (452, 368, 466, 383)),
           (3, (490, 509, 507, 525)))


def test_a_crowded_die_s_text_is_not_drawn_over_a_neighbour_s_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Boxed in all round, the 4 had its text drawn above it all the same, over the text
    # of the 6 beside it: "6 0.98" and "4 0.99" read as "640.99".
    from einhorn_table.vision import drawing

    areas: list[tuple[int, int, int, int]] = []
    place = drawing._text_place

    def noted(*args: object, **kwargs: object) -> object:
        origin, area = place(*args, **kwargs)  # type: ignore[arg-type]
        areas.append(area)
        return origin, area

    monkeypatch.setattr(drawing, "_text_place", noted)
    dice = tuple(DieReading(box=tuple(map(float, box)),  # type: ignore[arg-type]
                            value=value, confidence=0.98 if value else 0.0,
                            color=(0, 0, 0)) for value, box in CROWDED)
    draw_reading(np.full((640, 640, 3), 128, np.uint8), FrameReading(dice))
    assert len(areas) == len(CROWDED)
    for k, (x0, y0, x1, y1) in enumerate(areas):
        for a0, b0, a1, b1 in areas[k + 1:]:
            assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, \
                f"two dice's texts drawn over each other at {(x0, y0, x1, y1)}"
