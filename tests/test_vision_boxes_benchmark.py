"""The benchmark of the classifier alone on the labelled boxes: a die is counted right
only where the classifier is sure of its labelled value, and a box with no die on it
is not counted as read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from calibration_helpers import write_labelled_set
from vision_boxes import BoxScore, box_readings, detection_at, main, read_boxes, scored

from einhorn_table.vision.labelled import fold_of
from einhorn_table.vision.learned import MODEL_DIR
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable

PHOTOS = 6


def probabilities(background: float, faces: list[float]) -> np.ndarray:
    out = np.zeros(8, np.float32)
    out[0] = background
    out[1:7] = faces
    return out


def test_each_outcome_is_counted_where_it_belongs() -> None:
    score = BoxScore()
    score.add(3, probabilities(0.0, [0, 0, 0.95, 0.05, 0, 0]))  # sure, right
    score.add(3, probabilities(0.0, [0, 0, 0.05, 0.95, 0, 0]))  # sure of a 4
    score.add(3, probabilities(0.0, [0, 0, 0.6, 0.4, 0, 0]))  # leaning, not sure
    score.add(3, probabilities(0.7, [0, 0, 0.3, 0, 0, 0]))  # no die
    assert (score.labelled, score.right, score.wrong, score.unsure, score.no_die) == (
        4, 1, 1, 1, 1
    )


def test_a_lower_bar_counts_a_leaning_reading_as_sure() -> None:
    leaning_right = (3, probabilities(0.0, [0, 0, 0.6, 0.4, 0, 0]))
    leaning_wrong = (3, probabilities(0.0, [0, 0, 0.3, 0.7, 0, 0]))
    no_die = (3, probabilities(0.7, [0, 0, 0.3, 0, 0, 0]))
    readings = [leaning_right, leaning_wrong, no_die]
    at_reader_bar = scored(readings, 0.9)
    assert (at_reader_bar.right, at_reader_bar.wrong, at_reader_bar.unsure) == (0, 0, 2)
    at_half = scored(readings, 0.5)
    assert (at_half.right, at_half.wrong, at_half.unsure, at_half.no_die) == (1, 1, 0, 1)
    at_two_thirds = scored(readings, 0.65)
    assert (at_two_thirds.right, at_two_thirds.wrong, at_two_thirds.unsure) == (0, 1, 1)


def test_a_box_is_a_find_in_the_frame_as_read() -> None:
    find = detection_at((100.0, 40.0, 160.0, 80.0), 0.5)
    assert find.centre == (65.0, 30.0)
    assert find.size == (30.0, 20.0)


@pytest.fixture(scope="module")
def labelled_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sets") / "synthetic_set"
    write_labelled_set(folder, SynthTable(3, die_size=40, dice_colors=[DICE_PALETTE[0]]), PHOTOS)
    return folder


def relabelled(folder: Path, target: Path, change: str) -> Path:
    """A copy of the set's labels beside its images, each die's label changed."""
    target.mkdir()
    (target / "images").symlink_to(folder / "images")
    lines = []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        entry = json.loads(line)
        for die in entry["dice"]:
            if change == "value":
                die["value"] = die["value"] % 6 + 1
            else:  # the box moved onto the bare tray in the frame's top-left corner
                die["box"] = [2, 2, 32, 32]
        lines.append(json.dumps(entry))
    (target / "labels.jsonl").write_text("\n".join(lines) + "\n")
    return target


def test_the_labelled_dice_of_a_clear_table_are_read_right(labelled_set: Path) -> None:
    score = read_boxes(labelled_set, lambda _fold: MODEL_DIR)
    assert score.labelled == 3 * PHOTOS
    assert score.right >= score.labelled - 1
    assert score.wrong == 0


def test_labels_of_other_values_are_counted_wrong(labelled_set: Path, tmp_path: Path) -> None:
    score = read_boxes(relabelled(labelled_set, tmp_path / "other", "value"), lambda _: MODEL_DIR)
    assert score.right == 0
    assert score.wrong >= score.labelled - 1


def test_a_box_on_the_bare_tray_is_not_read_right(labelled_set: Path, tmp_path: Path) -> None:
    score = read_boxes(relabelled(labelled_set, tmp_path / "bare", "box"), lambda _: MODEL_DIR)
    assert score.right == 0 and score.wrong == 0
    assert score.no_die + score.unsure == score.labelled


def test_a_fold_reads_only_its_photos_with_the_models_that_never_saw_them(
    labelled_set: Path,
) -> None:
    asked: list[int] = []

    def models_for_fold(fold: int) -> Path:
        asked.append(fold)
        return MODEL_DIR

    folds = [fold_of(labelled_set.name, f"p{k:02d}.png") for k in range(PHOTOS)]
    score = read_boxes(labelled_set, models_for_fold, fold=1)
    assert score.labelled == 3 * folds.count(1)
    assert set(asked) <= {1}


def test_the_command_prints_a_row_per_set_with_boxes(
    labelled_set: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--datasets", str(labelled_set.parent)]) == 0
    out = capsys.readouterr().out
    assert f"| synthetic_set | {3 * PHOTOS} |" in out
    assert main(["--datasets", str(labelled_set.parent), "--models", "/nonexistent"]) == 1


def test_the_command_counts_each_set_at_each_bar_asked_for(
    labelled_set: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readings = box_readings(labelled_set, lambda _fold: MODEL_DIR)
    assert main(["--datasets", str(labelled_set.parent), "--bars", "0.5", "0.9"]) == 0
    out = capsys.readouterr().out
    assert "| set | sure from 0.5 | sure from 0.9 |" in out
    half, sure = scored(readings, 0.5), scored(readings, 0.9)
    row = f"| synthetic_set | {half.right} / {half.wrong} | {sure.right} / {sure.wrong} |"
    assert row in out
    assert half.right >= sure.right


def test_a_bar_that_is_no_probability_is_refused(
    labelled_set: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--datasets", str(labelled_set.parent), "--bars", "0"]) == 1
    assert "probability" in capsys.readouterr().err
