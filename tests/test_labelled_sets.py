"""Labelled photo sets (labels.jsonl): wrong lines refused by file and line, boxes past
the photo refused by photo, every shared set still loading; and calibrating from
labelled photos telling how far it has got."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from conftest import DATASETS
from vision_helpers import FIXTURES, labels

from einhorn_table.calibration.from_labelled import calibrate_from_labelled
from einhorn_table.cli import main
from einhorn_table.errors import EinhornError
from einhorn_table.vision.labelled import LabelledPhoto, LabelsError, find_sets, load_set
from einhorn_table.vision.scoring import LabelledDie

GOOD = '{"image": "images/a.jpg", "dice": [{"value": 3, "box": [10, 20, 50, 60]}]}'


def write_labels(folder: Path, *lines: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("this is not json", "is not a JSON line"),
        ('{"image": "images/b.jpg", "dice": [', "is not a JSON line"),
        ("[1, 2, 3]", "must give one photo's labels in { }, not [1, 2, 3]"),
        ('{"dice": []}', 'has no "image"'),
        ('{"image": "", "dice": []}', 'the photo\'s file name as "image"'),
        ('{"image": "images/b.jpg"}', 'has no "dice"'),
        ('{"image": "images/b.jpg", "dice": 3}', 'the list of its dice as "dice", not 3'),
        ('{"image": "images/b.jpg", "dice": [4]}', "die 1 must give {"),
        ('{"image": "images/b.jpg", "dice": [{"box": null}]}', 'die 1 has no "value"'),
        ('{"image": "images/b.jpg", "dice": [{"value": 9, "box": null}]}',
         'die 1 must give the number of pips on top, 1 to 6, as "value", not 9'),
        ('{"image": "images/b.jpg", "dice": [{"value": 1}, {"value": 0, "box": null}]}',
         "die 2 must give the number of pips on top, 1 to 6"),
        ('{"image": "images/b.jpg", "dice": [{"value": 2.5, "box": null}]}', "not 2.5"),
        ('{"image": "images/b.jpg", "dice": [{"value": "6", "box": null}]}', 'not "6"'),
        ('{"image": "images/b.jpg", "dice": [{"value": true, "box": null}]}', "not true"),
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": [1, 2, 3]}]}',
         "die 1 must give its box as [x0, y0, x1, y1]: 4 numbers of 0 or more"),
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": [50, 20, 10, 60]}]}',
         "not [50, 20, 10, 60]"),  # x0 after x1
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": [10, 60, 50, 60]}]}',
         "not [10, 60, 50, 60]"),  # no height
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": [-4, 20, 50, 60]}]}',
         "not [-4, 20, 50, 60]"),
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": [1, 2, 3, NaN]}]}',
         "not [1, 2, 3, NaN]"),
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": [1, 2, "3", 4]}]}',
         'not [1, 2, "3", 4]'),
        ('{"image": "images/b.jpg", "dice": [{"value": 2, "box": "10 20 50 60"}]}',
         'not "10 20 50 60"'),
    ],
)
def test_a_wrong_line_is_refused_naming_the_file_and_line(
    tmp_path: Path, line: str, said: str
) -> None:
    path = write_labels(tmp_path / "set", GOOD, "", line, GOOD)
    with pytest.raises(LabelsError) as caught:
        load_set(tmp_path / "set", strict=True)
    message = str(caught.value)
    assert f"{path}, line 3" in message
    assert said in message
    assert "fix" in message  # and says what to do
    assert isinstance(caught.value, EinhornError)


def test_good_lines_load_as_before(tmp_path: Path) -> None:
    write_labels(
        tmp_path / "set",
        GOOD,
        "",
        '{"image": "images/c.png", "dice": [{"value": 6, "box": null}], "source": "x"}',
        '{"image": "images/d.png", "dice": [{"value": 1.0}, {"value": 5, "box": [0, 0, 1, 1]}]}',
        '{"image": "images/e.png", "dice": []}',
    )
    photos = load_set(tmp_path / "set")
    folder = tmp_path / "set"
    assert photos == [
        LabelledPhoto(folder / "images/a.jpg", (LabelledDie(3, (10.0, 20.0, 50.0, 60.0)),)),
        LabelledPhoto(folder / "images/c.png", (LabelledDie(6, None),)),
        LabelledPhoto(folder / "images/d.png",
                      (LabelledDie(1, None), LabelledDie(5, (0.0, 0.0, 1.0, 1.0)))),
        LabelledPhoto(folder / "images/e.png", ()),
    ]
    assert all(type(d.value) is int for p in photos for d in p.dice)


def test_the_benchmarks_score_labels_as_other_tools_write_them(tmp_path: Path) -> None:
    """A box a pixel past the edge, a value written as text: the benchmarks must score
    such a set (sets never seen measure the reader), not stop on it; a line that is
    no JSON still names its line."""
    write_labels(tmp_path / "set", GOOD,
                 '{"image": "images/f.jpg", "dice": [{"value": "4", "box": [-1.5, 2, 30, 40]}]}')
    photos = load_set(tmp_path / "set")
    assert photos[1].dice == (LabelledDie(4, (-1.5, 2.0, 30.0, 40.0)),)
    with pytest.raises(LabelsError, match="line 2"):
        load_set(tmp_path / "set", strict=True)
    write_labels(tmp_path / "bad", GOOD, "{oops")
    with pytest.raises(LabelsError, match="line 2 is not a JSON line"):
        load_set(tmp_path / "bad")


def test_a_labels_file_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    (tmp_path / "labels.jsonl").write_text(GOOD + "\r\n" + GOOD + "\r\n", encoding="utf-8-sig")
    assert len(load_set(tmp_path)) == 2


def test_a_folder_without_labels_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(LabelsError, match=r"holds no labels\.jsonl: pass a folder"):
        load_set(tmp_path)


def test_calibrate_from_labelled_names_the_wrong_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_labels(tmp_path / "set", GOOD, "{oops")
    assert main(["calibrate", "--from-labelled", str(tmp_path / "set"), "--out",
                 str(tmp_path / "p.toml")]) == 1
    err = capsys.readouterr().err
    assert "labels.jsonl, line 2 is not a JSON line" in err
    assert "Traceback" not in err
    assert not (tmp_path / "p.toml").exists()


def blank(photo: LabelledPhoto) -> npt.NDArray[np.uint8]:
    return np.full((100, 200, 3), 128, np.uint8)  # 200 wide, 100 high


@pytest.mark.parametrize(
    "box", [(150.0, 20.0, 210.0, 60.0), (10.0, 50.0, 40.0, 140.0), (300.0, 300.0, 310.0, 310.0)]
)
def test_a_box_past_the_photos_edge_is_refused_naming_the_photo(
    tmp_path: Path, box: tuple[float, float, float, float]
) -> None:
    photo = tmp_path / "images" / "photo_7.jpg"
    photos = [
        LabelledPhoto(tmp_path / "images" / "photo_6.jpg", (LabelledDie(2, (5, 5, 30, 30)),)),
        LabelledPhoto(photo, (LabelledDie(4, (5, 5, 30, 30)), LabelledDie(1, box))),
    ]
    with pytest.raises(LabelsError) as caught:
        calibrate_from_labelled(photos, blank)
    message = str(caught.value)
    assert str(photo) in message and "die 2" in message
    assert "reaches outside the photo, which is 200x100 pixels" in message


def test_a_box_at_the_photos_very_edge_is_kept(tmp_path: Path) -> None:
    photos = [LabelledPhoto(tmp_path / "a.jpg", (LabelledDie(4, (150.0, 50.0, 200.5, 100.5)),))]
    try:
        calibrate_from_labelled(photos, blank)
    except LabelsError as error:
        pytest.fail(f"a box on the photo's edge was refused: {error}")
    except EinhornError:
        pass  # a grey photo has no dice to measure: refused for that, not for its box


# ------------------------------------------------------------------ the shared sets

needs_datasets = pytest.mark.skipif(
    not DATASETS.is_dir() or not find_sets(DATASETS),
    reason=f"labelled photo sets not found at {DATASETS}",
)


@needs_datasets
def test_every_shared_set_still_loads() -> None:
    sets = find_sets(DATASETS)
    assert len(sets) >= 4
    for folder in sets:
        photos = load_set(folder)
        lines = [line for line in (folder / "labels.jsonl").read_text().splitlines()
                 if line.strip()]
        assert len(photos) == len(lines), folder
        assert all(p.path.is_file() for p in photos), folder
        assert all(1 <= d.value <= 6 for p in photos for d in p.dice), folder


# ------------------------------------------------------------------ progress

#: Two photos of matteop65's webcam (three dice each), kept as test fixtures.
TINY = ("matteop65_d6__train_dice_30.jpg", "matteop65_d6__train_five_25.jpg")


def tiny_set(folder: Path) -> list[LabelledPhoto]:
    (folder / "images").mkdir(parents=True)
    lines = []
    for name in TINY:
        shutil.copy(FIXTURES / name, folder / "images" / name)
        dice = [{"value": d.value, "box": d.box and list(d.box)} for d in labels(name)]
        lines.append(json.dumps({"image": f"images/{name}", "dice": dice}))
    write_labels(folder, *lines)
    return load_set(folder)


def load(photo: LabelledPhoto) -> npt.NDArray[np.uint8] | None:
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    return None if image is None else np.asarray(image, dtype=np.uint8)


def test_calibrating_tells_how_far_it_has_got_and_computes_the_same(tmp_path: Path) -> None:
    photos = tiny_set(tmp_path / "set")
    heard: list[tuple[int, int]] = []
    told = calibrate_from_labelled(photos, load, made_by="test",
                                   progress=lambda done, total: heard.append((done, total)))
    assert told == calibrate_from_labelled(photos, load, made_by="test")
    totals = {total for _, total in heard}
    assert len(totals) == 1  # the total is known from the first call and stays
    (total,) = totals
    # Every photo is read at each confidence bar by each candidate reader.
    assert total >= len(photos) * 9 and total % len(photos) == 0
    assert [done for done, _ in heard] == list(range(total + 1))  # from 0, one read at a time
    assert heard[-1] == (total, total)
