"""The learned reader's parts: crops, decoding, confidence, models, folds, fallback."""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2
import numpy as np
import pytest

from einhorn_table.doctor.report import Status
from einhorn_table.doctor.system_checks import check_reader
from einhorn_table.vision import reader as reader_module
from einhorn_table.vision.labelled import fold_of
from einhorn_table.vision.learned import (
    ALIGN,
    CERTAIN_PROBABILITY,
    CLASSIFIER_FILE,
    CROP,
    DETECTOR_FILE,
    LOOK_AROUND_AGREE,
    MAX_SIZED_SESSIONS,
    MODEL_DIR,
    PROBABILITY_BAR,
    QUARTER_TURNS,
    SECOND_LOOK_VIEWS,
    SMALL_DICE_DETECTOR_FILE,
    STRIDE,
    WEAK_DETECTION_THRESHOLD,
    Detection,
    LearnedReader,
    ModelError,
    confidence_of,
    crop_square,
    decode_detections,
    distinct,
    frame_blob,
    has_onnxruntime,
    load_net,
    models_present,
    normalised,
    padded_to_grid,
    views,
)
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.reader import read_frame, read_frame_classical
from einhorn_table.vision.regions import DieMap
from einhorn_table.vision.synth import SynthTable


def test_crop_square_scales_the_square_around_the_centre() -> None:
    image = np.zeros((100, 200, 3), np.uint8)
    image[40:60, 90:110] = 255  # a white square of 20 px centred on (100, 50)
    crop = crop_square(image, (100.0, 50.0), 40.0)
    assert crop.shape == (CROP, CROP, 3)
    # The square fills the middle half of the crop and nothing else.
    assert crop[CROP // 4 + 2 : 3 * CROP // 4 - 2, CROP // 4 + 2 : 3 * CROP // 4 - 2].min() == 255
    assert crop[: CROP // 4 - 2].max() == 0 and crop[3 * CROP // 4 + 2 :].max() == 0


def test_crop_square_beyond_the_frame_repeats_the_edge() -> None:
    image = np.full((50, 50, 3), 7, np.uint8)
    image[:, 0] = 200  # the left edge column
    crop = crop_square(image, (0.0, 25.0), 40.0)
    assert crop.shape == (CROP, CROP, 3)
    assert crop[:, : CROP // 2 - 2].min() == 200  # left half: the edge repeated
    assert crop[:, -5:].max() == 7


def test_the_frame_blob_is_the_normalised_frame_channels_first() -> None:
    frame = np.random.default_rng(3).integers(0, 256, (48, 64, 3), dtype=np.uint8)
    expected = normalised(frame).transpose(2, 0, 1)[np.newaxis]
    np.testing.assert_array_equal(frame_blob(frame), expected)


def test_frames_are_padded_to_the_detector_grid() -> None:
    padded = padded_to_grid(np.zeros((480, 630, 3), np.uint8))
    assert padded.shape[0] % ALIGN == 0 and padded.shape[1] % ALIGN == 0
    assert padded.shape[:2] == (480, 640)


def test_decoding_finds_each_peak_with_its_size() -> None:
    heat = np.zeros((30, 40), np.float32)
    geometry = np.zeros((4, 30, 40), np.float32)
    heat[10, 5], heat[11, 5] = 0.9, 0.6  # one peak; its neighbour is no second die
    geometry[:, 10, 5] = (0.5, 0.25, np.log(10.0), np.log(12.0))
    heat[20, 30] = 0.4
    geometry[:, 20, 30] = (0.0, 0.0, np.log(5.0), np.log(5.0))
    heat[2, 2] = 0.1  # below the threshold
    found = decode_detections(heat, geometry, threshold=0.3)
    assert len(found) == 2
    first, second = found
    assert first.score == pytest.approx(0.9)
    assert first.centre == pytest.approx((5.5 * STRIDE, 10.25 * STRIDE))
    assert first.size == pytest.approx((10 * STRIDE, 12 * STRIDE), rel=1e-5)
    assert second.centre == pytest.approx((30 * STRIDE, 20 * STRIDE))
    x0, y0, x1, y1 = first.box
    assert (x1 - x0, y1 - y0) == pytest.approx((40.0, 48.0), rel=1e-5)


def test_a_crop_has_eight_views_each_turn_and_its_mirror_image() -> None:
    crops = np.zeros((2, 6, 6, 3), np.uint8)
    crops[0, 0, 1] = 255  # a mark beside the top left corner: no turn or mirror keeps it
    crops[1, 5, 4] = 255
    eight = views(crops, range(8))
    assert eight.shape == (16, 6, 6, 3)
    marks = [tuple(np.argwhere(eight[k * 2, :, :, 0] == 255)[0]) for k in range(8)]
    assert len(set(marks)) == 8  # every view of the crop differs
    assert marks[0] == (0, 1)
    assert marks[4] == (0, 4)  # the mirror image
    for k in range(8):  # view-major: view k of crop i is at k * n + i
        assert np.array_equal(eight[k * 2 + 1], views(crops[1:], range(8))[k])
    assert np.array_equal(views(crops, range(2)), eight[:4])
    assert np.array_equal(views(crops, range(2, 8)), eight[4:])
    with pytest.raises(ValueError, match="views 0 to 7"):
        views(crops, range(9))


def test_only_a_die_the_first_views_leave_unsure_gets_a_second_look() -> None:
    reader = LearnedReader(MODEL_DIR)
    batches: list[int] = []

    def classifier(blob: np.ndarray) -> np.ndarray:
        # Bright crops are a sure 3; dark ones a 4 or a 5, surely a 4 in views whose
        # top left quarter is bright; grey ones anything.
        batches.append(len(blob))
        logits = np.zeros((len(blob), 8), np.float32)
        for row, crop in enumerate(blob):
            if crop.mean() > 0.2:
                logits[row, 3] = 10.0
            elif crop.mean() < 0:
                logits[row, 4] = 5.0 if crop[:, :20, :20].mean() > 0 else 2.0
                logits[row, 5] = 2.0
        return logits

    reader.classifier = classifier
    frame = np.full((100, 300, 3), 230, np.uint8)
    frame[30:70, 130:170] = 20
    frame[30:50, 130:150] = 180  # the dark die's top left corner is bright
    frame[:, 200:] = 150
    dice = [Detection((x, 50.0), (40.0, 40.0), 0.9) for x in (50.0, 150.0, 250.0)]
    probabilities = reader.classify(frame, dice)
    # The dark die is 64 % sure of its 4 over the first two views: it is looked at
    # again. The grey one, 12.5 % sure of anything, cannot reach the bar: it is not.
    # Last, the dark die, still unsure, is cropped on its body (the same crop here,
    # looked at in the same views); the grey one has no body that stands out.
    second_look = [QUARTER_TURNS, SECOND_LOOK_VIEWS - QUARTER_TURNS]
    assert batches == [3 * QUARTER_TURNS, SECOND_LOOK_VIEWS - QUARTER_TURNS, *second_look]
    assert probabilities[0, 3] > 0.99  # the sure die keeps its first reading
    crop = crop_square(frame, (150.0, 50.0), 1.25 * 40.0)
    by_view = [
        classifier(normalised(v)[None].transpose(0, 3, 1, 2)) for v in views(crop[None], range(8))
    ]
    expected = np.mean([np.exp(v[0]) / np.exp(v[0]).sum() for v in by_view], axis=0)
    np.testing.assert_allclose(probabilities[1], expected, rtol=1e-5)
    assert probabilities[1, 4] < PROBABILITY_BAR  # two of eight views see the bright corner
    np.testing.assert_allclose(probabilities[2], np.full(8, 1 / 8), rtol=1e-5)


def test_a_die_still_unsure_is_read_from_crops_around_its_rough_box() -> None:
    reader = LearnedReader(MODEL_DIR)
    # The blue channel brightens to the right; the red channel marks the second die.
    frame = np.zeros((100, 300, 3), np.uint8)
    frame[:, :, 0] = (np.arange(300) * 0.8).astype(np.uint8)[None, :]
    frame[:, 150:, 2] = 255
    dice = [Detection((x, 50.0), (40.0, 40.0), 0.9) for x in (75.0, 225.0)]
    centres = [float(normalised(crop_square(frame, d.centre, 50.0))[:, :, 0].mean()) for d in dice]
    batches: list[int] = []

    def classifier(blob: np.ndarray) -> np.ndarray:
        # The first die leans to a 4 (70 %) on its own crop and is sure of it on crops
        # further right, where it lies; the second leans to a 2 (82 %) on its own crop,
        # and the crops further left are sure of a 2, but those further right of a 5.
        batches.append(len(blob))
        logits = np.zeros((len(blob), 8), np.float32)
        for row, crop in enumerate(blob):
            second = crop[2].mean() > 0
            moved = 300.0 * (float(crop[0].mean()) - centres[int(second)])
            if second:
                logits[row, 2] = 3.5 - moved
                logits[row, 5] = moved
            else:
                logits[row, 4] = 2.8 + moved
        return logits

    reader.classifier = classifier
    probabilities = reader.classify(frame, dice)
    # Both lean to a value without reaching the bar: both are looked at again, then
    # around, in 26 crops each: two views of every crop, then the other six of those
    # that could still be sure (not the first die's crops to its left, far from a 4).
    more = SECOND_LOOK_VIEWS - QUARTER_TURNS
    assert batches[:3] == [2 * QUARTER_TURNS, 2 * more, 2 * 26 * QUARTER_TURNS]
    assert len(batches) == 4
    assert batches[3] == (2 * 26 - 9) * more
    assert int(np.argmax(probabilities[0])) == 4
    assert probabilities[0, 4] >= PROBABILITY_BAR  # the crops to its right agree
    # Some of the second die's crops are sure of another value: it stays unsure.
    assert int(np.argmax(probabilities[1])) == 2
    assert probabilities[1, 2] == pytest.approx(np.exp(3.5) / (np.exp(3.5) + 7), rel=1e-4)



def test_a_look_around_needs_enough_crops_to_agree() -> None:
    reader = LearnedReader(MODEL_DIR)
    # Blue brightens to the right and green downwards, so a crop's colour says where it
    # was taken, and the spread of its blue how large it was (in every view).
    frame = np.zeros((100, 150, 3), np.uint8)
    frame[:, :, 0] = (np.arange(150) * 1.6).astype(np.uint8)[None, :]
    frame[:, :, 1] = (np.arange(100) * 2.4).astype(np.uint8)[:, None]
    die = Detection((75.0, 50.0), (40.0, 40.0), 0.9)
    own = normalised(crop_square(frame, die.centre, 50.0))
    blue, green = float(own[:, :, 0].mean()), float(own[:, :, 1].mean())
    spread = float(own[:, :, 0].std())

    def sure_where(large_only: bool) -> np.ndarray:
        def classifier(blob: np.ndarray) -> np.ndarray:
            # A 4 at 70 % on the die's own crop; sure of it on crops moved right and
            # down (of all three sizes, or only of the own size and the larger one).
            logits = np.zeros((len(blob), 8), np.float32)
            logits[:, 4] = 2.8
            for row, crop in enumerate(blob):
                right = crop[0].mean() > blue + 0.005 and crop[1].mean() > green + 0.01
                large = crop[0].std() > 0.95 * spread
                if right and (large or not large_only):
                    logits[row, 4] = 6.0
            return logits

        reader.classifier = classifier
        return reader.classify(frame, [die])[0]

    assert LOOK_AROUND_AGREE == 3  # as many as the crop sizes at one place
    assert sure_where(large_only=False)[4] >= PROBABILITY_BAR
    alone = sure_where(large_only=True)  # two sure crops are one too few
    assert alone[4] < PROBABILITY_BAR
    assert int(np.argmax(alone)) == 4


def test_a_die_still_unsure_is_read_on_the_box_of_its_body() -> None:
    """The detector's box of the left die is off-centre and a fifth too small, so no
    crop the earlier looks take holds the whole die; the crop on its body does. The
    right die's body is found too, but it reads no better there."""
    reader = LearnedReader(MODEL_DIR)

    def classifier(blob: np.ndarray) -> np.ndarray:
        # Sure of a 6 where the crop holds a whole dark die (tray all round its rim,
        # a dark middle); otherwise unsure, by how bright the crop is.
        logits = np.zeros((len(blob), 8), np.float32)
        for row, crop in enumerate(blob):
            rim = (crop[:, :4], crop[:, -4:], crop[:, :, :4], crop[:, :, -4:])
            whole = all(part.mean() > 0.3 for part in rim) and crop[:, 14:26, 14:26].mean() < -0.3
            logits[row, 6] = 10.0 if whole else 1.0 + crop.mean()
        return logits

    reader.classifier = classifier
    frame = np.full((100, 240, 3), 230, np.uint8)
    frame[30:70, 80:120] = 20
    frame[30:70, 170:210] = 20
    frame[44:56, 184:196] = 128  # the right die's middle is not dark
    dice = [
        Detection((106.0, 53.0), (32.0, 32.0), 0.9),
        Detection((193.0, 52.0), (36.0, 36.0), 0.9),
    ]
    probabilities = reader.classify(frame, dice)
    assert probabilities[0, 6] > 0.99
    # The right die keeps what its first crop gave.
    crop = normalised(crop_square(frame, (193.0, 52.0), 1.25 * 36.0))
    first = np.exp(classifier(crop[None].transpose(0, 3, 1, 2))[0])
    np.testing.assert_allclose(probabilities[1], first / first.sum(), rtol=1e-5)
    assert probabilities[1, 6] < PROBABILITY_BAR


def test_confidence_scale_puts_the_bar_at_one_half() -> None:
    assert confidence_of(0.0) == 0.0
    assert confidence_of(1.0) == pytest.approx(1.0)
    assert confidence_of(PROBABILITY_BAR) == pytest.approx(0.5)
    probabilities = np.linspace(0, 1, 101)
    scaled = [confidence_of(float(p)) for p in probabilities]
    assert all(a < b for a, b in itertools.pairwise(scaled))


def test_missing_models_are_reported_with_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"missing.*train"):
        LearnedReader(tmp_path)
    assert not models_present(tmp_path)
    (tmp_path / "dice_detector.onnx").write_bytes(b"not a model")
    (tmp_path / "dice_faces.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot be loaded"):
        LearnedReader(tmp_path)


def test_broken_models_are_reported_by_either_backend(tmp_path: Path) -> None:
    (tmp_path / DETECTOR_FILE).write_bytes(b"\x08\x07 not a model")
    for backend in ("opencv", "onnxruntime"):
        if backend == "onnxruntime":
            pytest.importorskip("onnxruntime")
        with pytest.raises(ModelError, match="cannot be loaded"):
            load_net(tmp_path / DETECTOR_FILE, backend)
    with pytest.raises(ValueError, match="backend"):
        load_net(MODEL_DIR / DETECTOR_FILE, "torch")


def test_the_detector_gives_the_same_outputs_in_a_session_per_frame_size() -> None:
    """Frames of more sizes than there are kept sessions, some again after their
    session went: each is run as the general session runs it."""
    pytest.importorskip("onnxruntime")
    general = load_net(MODEL_DIR / DETECTOR_FILE, "onnxruntime")
    sized = load_net(MODEL_DIR / DETECTOR_FILE, "onnxruntime", per_shape=True)
    table = SynthTable(seed=8)
    sizes = [(480, 640), (256, 320), (480, 640), (320, 416), (224, 288), (160, 192), (256, 320)]
    assert len(set(sizes)) > MAX_SIZED_SESSIONS
    for height, width in sizes:
        frame = np.asarray(cv2.resize(table.still([1, 4, 6]).image, (width, height)), np.uint8)
        blob = frame_blob(padded_to_grid(frame))
        expected = general(blob)
        assert expected.shape == (1, 5, height // STRIDE, width // STRIDE)
        np.testing.assert_allclose(sized(blob), expected, atol=1e-4)


def test_onnxruntime_and_opencv_run_the_models_alike() -> None:
    pytest.importorskip("onnxruntime")
    frame = SynthTable(seed=5).still([2, 5, 6]).image
    blob = frame_blob(padded_to_grid(frame))
    crops = np.ascontiguousarray(blob[:, :, :CROP, :CROP].repeat(3, axis=0))
    for name, example in ((DETECTOR_FILE, blob), (CLASSIFIER_FILE, crops)):
        fast = load_net(MODEL_DIR / name, "onnxruntime")(example)
        plain = load_net(MODEL_DIR / name, "opencv")(example)
        assert fast.shape == plain.shape
        np.testing.assert_allclose(fast, plain, atol=1e-3)
    by_backend = [
        LearnedReader(MODEL_DIR, backend).read(frame, min_confidence=0.5)
        for backend in ("onnxruntime", "opencv")
    ]
    assert [d.value for d in by_backend[0].dice] == [d.value for d in by_backend[1].dice]
    assert len(by_backend[0].dice) == 3


def test_the_shipped_models_are_small_enough_for_a_pi() -> None:
    assert models_present()
    total = sum(p.stat().st_size for p in MODEL_DIR.glob("*.onnx"))
    assert total < 10_000_000


def test_doctor_checks_the_models(tmp_path: Path) -> None:
    found = check_reader()
    assert found.status is Status.OK
    assert ("run by onnxruntime" in found.detail) == has_onnxruntime()
    missing = check_reader(tmp_path)
    assert missing.status is Status.WARN
    assert "classical reader stands in" in missing.detail
    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        (tmp_path / name).write_bytes((MODEL_DIR / name).read_bytes())
    without_small = check_reader(tmp_path)
    assert without_small.status is Status.WARN
    assert SMALL_DICE_DETECTOR_FILE in without_small.detail
    assert "often not found" in without_small.detail


def test_without_models_the_classical_reader_stands_in(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = SynthTable(seed=5).still([2, 4, 6])
    classical = read_frame_classical(frame.image)
    monkeypatch.setattr(reader_module, "models_present", lambda *_: False)
    assert read_frame(frame.image) == classical


def test_the_profile_picks_the_reader() -> None:
    frame = SynthTable(seed=6).still([1, 3, 5])
    classical = read_frame(frame.image, ReaderProfile(method="classical"))
    assert classical == read_frame_classical(frame.image)
    learned = read_frame(frame.image, ReaderProfile(method="learned"))
    assert len(learned.dice) == 3
    assert set(learned.values) - {None} <= {1, 3, 5}  # unsure maybe, never wrong


def test_big_frames_keep_their_own_coordinates() -> None:
    frame = SynthTable(seed=8).still([2, 5, 6])
    big = cv2.resize(frame.image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    small = read_frame(frame.image)
    large = read_frame(big)
    assert len(small.dice) == len(large.dice) == 3
    for a, b in zip(small.dice, large.dice, strict=True):
        assert b.value == a.value
        assert np.allclose(np.array(b.box) / 2, a.box, atol=4)


def test_photos_moments_apart_share_a_fold() -> None:
    assert fold_of("matteop65_d6", "train_two_36.jpg") == fold_of(
        "matteop65_d6", "train_two_38.jpg"
    )
    assert fold_of("byler_d6", "IMG_20191208_111228.jpg") == fold_of(
        "byler_d6", "IMG_20191208_111246.jpg"
    )
    folds = {fold_of("epanemu_dice3", f"test_dice_{i}.jpg") for i in range(40)}
    assert folds == {0, 1}
    assert fold_of("x", "a.jpg") == fold_of("x", "a.jpg")


def test_a_die_found_twice_is_kept_once_and_touching_dice_both() -> None:
    die = Detection((100.0, 100.0), (40.0, 40.0), 0.9)
    again = Detection((110.0, 95.0), (36.0, 36.0), 0.5)  # the same die, weaker
    touching = Detection((141.0, 100.0), (40.0, 40.0), 0.6)  # the next die, side by side
    kept = distinct([again, touching, die])
    assert kept == [die, touching]


def test_the_classical_reader_looks_only_where_dice_may_lie() -> None:
    frame = SynthTable(seed=9).still([2, 4, 6])
    everywhere = read_frame_classical(frame.image)
    assert sorted(v or 0 for v in everywhere.values) == [2, 4, 6]
    height, width = frame.image.shape[:2]
    nowhere = DieMap(np.zeros((height // 8, width // 8), bool), 8.0)
    assert read_frame_classical(frame.image, regions=nowhere).dice == ()
    anywhere = DieMap(np.ones((height // 8 + 1, width // 8 + 1), bool), 8.0)
    assert read_frame_classical(frame.image, regions=anywhere) == everywhere
    first = frame.dice[0]
    x0, y0, x1, y1 = (int(v) // 8 for v in first.box)
    cells = np.zeros_like(nowhere.cells)
    cells[y0 - 2 : y1 + 3, x0 - 2 : x1 + 3] = True
    assert read_frame_classical(frame.image, regions=DieMap(cells, 8.0)).values == (first.value,)
    # The same map over a frame twice the size.
    big = cv2.resize(frame.image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    assert DieMap(cells, 8.0).scaled(2.0).mask(big.shape)[2 * 8 * y0 + 20, 2 * 8 * x0 + 20] == 255
    # Shrunk back by a half, it is the first frame's map again.
    assert np.array_equal(
        DieMap(cells, 8.0).scaled(2.0).mask(frame.image.shape, 0.5),
        DieMap(cells, 8.0).mask(frame.image.shape),
    )


def test_the_detector_maps_where_dice_may_lie() -> None:
    frame = SynthTable(seed=10).still([1, 3, 5, 6])
    seen = LearnedReader().read_scored(frame.image, min_confidence=0.5)
    assert seen.regions is not None
    mask = seen.regions.mask(frame.image.shape)
    for die in frame.dice:
        x0, y0, x1, y1 = (int(v) for v in die.box)
        assert mask[y0:y1, x0:x1].min() == 255  # every die wholly inside
    assert 0.05 < seen.regions.share < 0.5  # and most of the tray left out
    doubled = seen.scaled(2.0)
    assert doubled.regions is not None and doubled.regions.cell_px == 2 * seen.regions.cell_px
    assert doubled.dice[0][0].box == pytest.approx(tuple(2 * v for v in seen.dice[0][0].box))
    # With no die found there is nothing to size the map by: dice may lie anywhere.
    empty = LearnedReader().read_scored(np.full_like(frame.image, 90), min_confidence=0.5)
    assert empty.dice == () and empty.regions is None


def test_a_weak_find_is_a_die_only_where_its_first_look_is_certain() -> None:
    """The detector scores a die (A) surely and four places weakly: B, C and E above
    WEAK_DETECTION_THRESHOLD, D below it. B is all but certainly a 2; C only likely a
    5; E would be certain, but lies within a die's side of A; so A and B are dice,
    C, D and E not."""
    frame = np.full((96, 128, 3), 128, np.uint8)
    places = {  # centre (x, y), side in pixels, heat logit, grey level
        "A": ((18, 18), 16, 3.0, 230),
        "B": ((66, 18), 32, -1.0, 230),
        "C": ((18, 66), 32, -1.2, 20),
        "D": ((66, 66), 16, -2.2, 230),
        "E": ((30, 18), 16, -1.1, 230),
    }

    def detector(blob: np.ndarray) -> np.ndarray:
        out = np.full((1, 5, blob.shape[2] // STRIDE, blob.shape[3] // STRIDE), -9.0, np.float32)
        for (x, y), side, logit, _ in places.values():
            cell = (y // STRIDE, x // STRIDE)
            out[0, 0][cell] = logit
            out[0, 1:5, cell[0], cell[1]] = (0.5, 0.5, np.log(side / STRIDE), np.log(side / STRIDE))
        return out

    batches: list[int] = []

    def classifier(blob: np.ndarray) -> np.ndarray:
        # Bright crops are all but certainly a 2; dark ones likely (74 %) a 5.
        batches.append(len(blob))
        logits = np.zeros((len(blob), 8), np.float32)
        for row, crop in enumerate(blob):
            if crop.mean() > 0.1:
                logits[row, 2] = 10.0
            elif crop.mean() < -0.1:
                logits[row, 5] = 3.0
        return logits

    for (x, y), side, _, grey in places.values():
        frame[y - side // 2 : y + side // 2, x - side // 2 : x + side // 2] = grey
    reader = LearnedReader()
    reader.detector, reader.classifier = detector, classifier
    seen = reader.read_scored(frame, min_confidence=0.5)
    assert [(die.value, round(score, 2)) for die, score in seen.dice] == [(2, 0.95), (2, 0.27)]
    assert 1 - 7 / (np.exp(10) + 7) >= CERTAIN_PROBABILITY  # B's value is certain
    # A gets its two views; of B and C one view each (E is not looked at), and only B,
    # which could still be certain, its second.
    assert batches == [QUARTER_TURNS, 2, 1]
    # Weak finds do not size the map of where dice may lie (the strong find does).
    found, regions, _ = reader.detect(frame, 0.3, weakest=WEAK_DETECTION_THRESHOLD)
    strong, strong_regions, _ = reader.detect(frame, 0.3)
    assert len(found) == 4 and len(strong) == 1
    assert regions is not None and strong_regions is not None
    assert np.array_equal(regions.mask(frame.shape), strong_regions.mask(frame.shape))


def test_the_grid_step_is_the_detectors_own() -> None:
    """A detector whose output grid is coarser than STRIDE (one cell per 8 pixels)
    places its dice and its map of where dice may lie by its own grid."""
    step = 2 * STRIDE
    frame = np.full((96, 128, 3), 90, np.uint8)

    def coarse_detector(blob: np.ndarray) -> np.ndarray:
        height, width = blob.shape[2] // step, blob.shape[3] // step
        out = np.full((1, 5, height, width), -9.0, np.float32)
        out[0, 0, 5, 7] = 3.0  # a sure die in cell (7, 5), 2 cells across
        out[0, 1:5, 5, 7] = (0.5, 0.5, np.log(2.0), np.log(2.0))
        return out

    reader = LearnedReader()
    reader.detector = coarse_detector
    dice, regions, _ = reader.detect(frame, threshold=0.3)
    assert len(dice) == 1
    assert dice[0].centre == pytest.approx((7.5 * step, 5.5 * step))
    assert dice[0].size == pytest.approx((2.0 * step, 2.0 * step))
    assert regions is not None and regions.cell_px == step
    mask = regions.mask(frame.shape)
    assert mask[int(5.5 * step), int(7.5 * step)] == 255 and mask[0, 0] == 0
