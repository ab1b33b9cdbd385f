"""The benchmark of the reader under other cameras' conditions: its changes do what
their names say, and held out means read by the models that never saw the photo."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from calibration_helpers import write_labelled_set
from vision_conditions import CHANGES, held_out_models, measure

from einhorn_table.vision.learned import MODEL_DIR
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    return SynthTable(1).still([2, 5, 6]).image


def test_each_fold_is_read_by_the_models_trained_on_the_other() -> None:
    models_for_fold = held_out_models(Path("trained_on_0"), Path("trained_on_1"))
    assert models_for_fold(1) == Path("trained_on_0")
    assert models_for_fold(0) == Path("trained_on_1")


MOVING = ("shrunk x0.5", "enlarged x2", "enlarged x6.3 (phone size)", "turned a quarter",
          "turned a half", "turned three quarters")


def test_the_changes_keep_the_frame_and_change_it_as_named(frame: np.ndarray) -> None:
    def changed(name: str, seed: int = 0) -> np.ndarray:
        return CHANGES[name](frame, np.random.default_rng(seed)).image

    for name in CHANGES:
        out = changed(name)
        assert out.dtype == np.uint8 and out.shape[2] == 3, name
        if name not in MOVING:
            assert out.shape == frame.shape, name
            box = (10.0, 20.0, 50.0, 70.0)
            assert CHANGES[name](frame, np.random.default_rng(0)).move_box(box) == box
    assert np.array_equal(changed("as taken"), frame)
    mean = float(frame.mean())
    assert float(changed("dim (x0.55)").mean()) == pytest.approx(0.55 * mean, rel=0.02)
    assert float(changed("bright (x1.4)").mean()) > 1.2 * mean
    assert float(changed("dark midtones (gamma 1.8)").mean()) < mean
    assert float(changed("light midtones (gamma 0.6)").mean()) > mean
    flat = changed("flat (contrast x0.5)")
    assert float(flat.std()) == pytest.approx(0.5 * float(frame.std()), rel=0.05)
    blue, red = frame[..., 0].mean(), frame[..., 2].mean()
    warm, cool = changed("warm light"), changed("cool light")
    assert warm[..., 2].mean() / warm[..., 0].mean() > red / blue
    assert cool[..., 2].mean() / cool[..., 0].mean() < red / blue
    # Noise is seeded per photo: the same photo gets the same noise on every run.
    assert np.array_equal(changed("noise 8", 3), changed("noise 8", 3))
    assert not np.array_equal(changed("noise 8", 3), changed("noise 8", 4))
    assert float(np.abs(changed("noise 8").astype(int) - frame).mean()) > 4.0
    sharpness = float(np.abs(np.diff(frame.astype(int), axis=1)).mean())
    assert float(np.abs(np.diff(changed("blur 1.2 px").astype(int), axis=1)).mean()) < sharpness
    assert not np.array_equal(changed("JPEG quality 35"), frame)


def test_the_changes_that_move_pixels_move_the_labelled_boxes_with_them() -> None:
    still = SynthTable(2).still([1, 4, 6])
    height, width = still.image.shape[:2]
    assert height != width  # so a turn that forgot to move a box would be seen

    def crop(image: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
        x0, y0, x1, y1 = (round(v) for v in box)
        return image[y0:y1, x0:x1]

    for quarters, name in enumerate(MOVING[3:], start=1):
        out = CHANGES[name](still.image, np.random.default_rng(0))
        assert out.image.shape[:2] == ((width, height) if quarters % 2 else (height, width))
        for die in still.dice:
            box = tuple(float(round(v)) for v in die.box)
            turned = np.rot90(crop(still.image, box), -quarters)
            assert np.array_equal(crop(out.image, out.move_box(box)), turned), name

    for name, factor in (("shrunk x0.5", 0.5), ("enlarged x2", 2.0),
                         ("enlarged x6.3 (phone size)", 6.3)):
        out = CHANGES[name](still.image, np.random.default_rng(0))
        assert out.image.shape[:2] == (round(height * factor), round(width * factor)), name
        for die in still.dice:
            moved = out.move_box(die.box)
            assert moved == pytest.approx(tuple(v * factor for v in die.box), rel=1e-3)
            # The same die, at its new size: its colour and its pips' share of it.
            before, after = crop(still.image, die.box), crop(out.image, moved)
            assert after.mean() == pytest.approx(before.mean(), abs=6.0), name


def test_a_labelled_set_turned_or_enlarged_is_scored_against_moved_labels(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "set"
    write_labelled_set(folder, SynthTable(5, die_size=40, dice_colors=[DICE_PALETTE[0]]), 3)
    for name in ("turned a quarter", "enlarged x2"):
        score = measure(folder, CHANGES[name], lambda _fold: MODEL_DIR, ReaderProfile())
        assert score.labelled == 9 and score.found == 9, name
        assert score.right >= 8 and score.wrong == 0, name


def test_a_labelled_set_is_read_and_scored_as_taken(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    write_labelled_set(folder, SynthTable(4, die_size=40, dice_colors=[DICE_PALETTE[0]]), 4)
    score = measure(folder, CHANGES["as taken"], lambda _fold: MODEL_DIR, ReaderProfile())
    assert score.images == 4 and score.labelled == 12
    assert score.right >= 11 and score.wrong == 0


def test_the_benchmarks_refuse_a_models_folder_without_the_models(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without its models the reader stands in the classical reader alone; a table
    # headed "models from DIR" must not quietly measure that instead.
    from vision import main as benchmark_main
    from vision import models_refused

    assert models_refused([MODEL_DIR]) is None
    assert models_refused([tmp_path], "classical") is None
    refused = models_refused([MODEL_DIR, tmp_path])
    assert refused is not None and str(tmp_path) in refused
    (tmp_path / "dice_detector.onnx").write_bytes((MODEL_DIR / "dice_detector.onnx").read_bytes())
    (tmp_path / "dice_faces.onnx").write_bytes(b"not a model")
    assert "cannot be loaded" in (models_refused([tmp_path]) or "")

    empty = tmp_path / "empty"
    empty.mkdir()
    assert benchmark_main(["--models", str(empty), "--no-calibrated"]) == 1
    out, err = capsys.readouterr()
    assert "missing" in err and str(empty) in err
    assert "read right" not in out
