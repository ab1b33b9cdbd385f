"""The synthetic table: truthful boxes, readable pips, seeded scenes, phases, speed."""

from __future__ import annotations

import itertools
import statistics
import time
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from einhorn_table.errors import EinhornError
from einhorn_table.vision.synth import (
    DICE_PALETTE,
    PHASES,
    PlacedDie,
    SynthError,
    SynthFrame,
    SynthTable,
)


def _lab(rgb: tuple[int, int, int]) -> np.ndarray:
    pixel = np.array([[rgb[::-1]]], dtype=np.uint8)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(float)


def _pip_count(image: np.ndarray, box: tuple[int, int, int, int]) -> int:
    """Dark blobs inside a white die's box (the die's pips)."""
    x0, y0, x1, y1 = box
    crop = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    die = (crop > 150).astype(np.uint8)
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    filled = np.zeros_like(die)
    cv2.fillConvexPoly(filled, hull, 1)
    inside = cv2.erode(filled, np.ones((5, 5), np.uint8))
    dark = ((crop < 90) & (inside > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 12)


def test_frame_is_bgr_uint8_of_the_requested_size() -> None:
    frame = SynthTable(seed=1, size=(320, 240)).empty()
    assert frame.image.shape == (240, 320, 3)
    assert frame.image.dtype == np.uint8
    assert frame.dice == ()
    assert frame.phase == "empty"
    assert not frame.hand


@pytest.mark.parametrize("camera_height", [None, 2.5, 1.0])
def test_boxes_are_tight_around_each_die(camera_height: float | None) -> None:
    # Dark felt, so that even the shaded sides of white dice stand out.
    table = SynthTable(seed=4, noise=0.0, tray_color=(24, 24, 26), camera_height=camera_height)
    empty = cv2.cvtColor(table.empty().image, cv2.COLOR_BGR2GRAY).astype(int)
    frame = table.still([1, 2, 3, 4, 5, 6])
    # White dice are much brighter than the felt, even at their shaded edges and sides
    # (their shadows are darker: they do not count).
    grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(int)
    mask = grey - empty > 25
    for die in frame.dice:
        x0, y0, x1, y1 = die.box
        inside = mask[y0:y1, x0:x1]
        # A white die covers at least half its box (a tilted square covers half or more).
        assert inside.mean() > 0.45, die
        # Every edge of the box touches the die (within a pixel of antialiasing): not loose.
        assert inside[:2].any() and inside[-2:].any()
        assert inside[:, :2].any() and inside[:, -2:].any()
        # Just outside the box there is (almost) no die.
        ring = mask[max(y0 - 3, 0) : y1 + 3, max(x0 - 3, 0) : x1 + 3].sum() - inside.sum()
        assert ring < 0.03 * inside.sum(), die


def test_a_low_camera_sees_the_sides_facing_the_middle() -> None:
    above = SynthTable(seed=1, camera_height=None)
    low = SynthTable(seed=1, camera_height=1.0)
    look = above.layout_dice([5])[0].look
    die = PlacedDie(replace(look, angle=0.0), 120.0, 110.0)  # up and left of the middle
    flat = above.render([die]).dice[0].box
    seen = low.render([die]).dice[0].box
    # The top stays put; the base, and the sides between, show towards the middle.
    assert abs(seen[0] - flat[0]) <= 1 and abs(seen[1] - flat[1]) <= 1
    assert seen[2] - flat[2] >= 4 and seen[3] - flat[3] >= 4


def test_each_die_shows_its_value_in_pips() -> None:
    table = SynthTable(seed=7, noise=1.0, die_size=64)
    values = [1, 2, 3, 4, 5, 6]
    frame = table.still(values)
    assert [d.value for d in frame.dice] == values
    assert [_pip_count(frame.image, d.box) for d in frame.dice] == values


def test_dice_side_by_side_touch_along_their_edges() -> None:
    table = SynthTable(seed=3, noise=1.0, die_size=50, camera_height=None)
    frame = table.side_by_side([2, 5, 6], [(0, 0), (1, 0), (0, 1)], centre=(300.0, 220.0))
    assert [d.value for d in frame.dice] == [2, 5, 6]
    first, right, below = (d.box for d in frame.dice)
    # Unturned, each die's box ends where its neighbour's begins (within antialiasing).
    assert abs(right[0] - first[2]) <= 2 and abs(right[1] - first[1]) <= 1
    assert abs(below[1] - first[3]) <= 2 and abs(below[0] - first[0]) <= 1
    assert [_pip_count(frame.image, d.box) for d in frame.dice] == [2, 5, 6]
    # A gap of a fifth of a side moves the neighbours that far apart.
    apart = table.side_by_side([2, 5], [(0, 0), (1, 0)], centre=(300.0, 220.0), gap=0.2)
    assert abs(apart.dice[1].box[0] - apart.dice[0].box[2] - 10) <= 2
    with pytest.raises(EinhornError, match="cells"):
        table.side_by_side([2, 5], [(0, 0)], centre=(300.0, 220.0))
    with pytest.raises(EinhornError, match="share a cell"):
        table.side_by_side([2, 5], [(0, 0), (0, 0)], centre=(300.0, 220.0))
    with pytest.raises(EinhornError, match="straight above"):
        SynthTable(seed=3).side_by_side([2], [(0, 0)], centre=(300.0, 220.0))


def test_each_players_colour_dominates_its_dice_boxes() -> None:
    table = SynthTable(seed=5, players=6, die_size=40)
    colours = [table.player_colors[i // 3] for i in range(18)]
    frame = table.still([(i % 6) + 1 for i in range(18)], colors=colours)
    assert len(frame.dice) == 18
    palette = [_lab(c) for c in table.player_colors]
    for die, colour in zip(frame.dice, colours, strict=True):
        assert die.color == colour
        x0, y0, x1, y1 = die.box
        cx, cy, q = (x0 + x1) // 2, (y0 + y1) // 2, (x1 - x0) // 5
        centre = frame.image[cy - q : cy + q, cx - q : cx + q].reshape(-1, 3)
        median = np.median(centre, axis=0).astype(np.uint8)
        seen = _lab((int(median[2]), int(median[1]), int(median[0])))
        nearest = min(range(6), key=lambda k: float(np.linalg.norm(seen - palette[k])))
        assert table.player_colors[nearest] == colour


def test_same_seed_same_frames_other_seed_other_frames() -> None:
    size = (320, 240)
    first = SynthTable(seed=11, size=size).roll_sequence([2, 4, 6], settle_frames=3)
    again = SynthTable(seed=11, size=size).roll_sequence([2, 4, 6], settle_frames=3)
    other = SynthTable(seed=12, size=size).roll_sequence([2, 4, 6], settle_frames=3)
    assert len(first) == len(again)
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a.image, b.image)
        assert a.dice == b.dice and a.phase == b.phase
    assert [d.box for d in first[-1].dice] != [d.box for d in other[-1].dice]


def test_cocked_dice_have_no_value_and_lean_on_a_wall() -> None:
    table = SynthTable(seed=3)
    frame = table.still([6, None, 2], cocked=[2])
    assert [d.value for d in frame.dice] == [6, None, None]
    fx0, fy0, fx1, fy1 = table.geometry.floor
    for die in frame.dice[1:]:
        x0, y0, x1, y1 = die.box
        gap = min(x0 - fx0, y0 - fy0, fx1 - x1, fy1 - y1)
        assert gap < 4, die  # against (or over) a wall of the tray


def _phases(frames: list[SynthFrame]) -> list[str]:
    runs: list[str] = []
    for f in frames:
        if not runs or runs[-1] != f.phase:
            runs.append(f.phase)
    return runs


def test_roll_goes_empty_hand_moving_settled() -> None:
    table = SynthTable(seed=2)
    frames = table.roll_sequence([5, 1, 3], settle_frames=15)
    assert _phases(frames) == ["empty", "hand", "moving", "settled"]
    assert all(f.phase in PHASES for f in frames)
    assert sum(f.phase == "settled" for f in frames) == 15
    assert all(f.hand for f in frames if f.phase == "hand")
    assert not any(f.hand for f in frames if f.phase in ("empty", "settled"))
    for f in frames:
        if f.phase == "moving":
            assert len(f.dice) == 3 and all(d.value is None for d in f.dice)
        if f.phase == "settled":
            assert [d.value for d in f.dice] == [5, 1, 3]
    # While the hand is in, the frame really changes (it is not just a label).
    empty = frames[0].image.astype(int)
    hand = next(f for f in frames if f.phase == "hand")
    assert (np.abs(hand.image.astype(int) - empty).max(axis=2) > 40).mean() > 0.01


def test_roll_without_hand_and_random_values() -> None:
    table = SynthTable(seed=8, size=(320, 240))
    frames = table.roll_sequence(settle_frames=5, hand=False)
    assert _phases(frames) == ["empty", "moving", "settled"]
    assert not any(f.hand for f in frames)
    values = [d.value for d in frames[-1].dice]
    assert len(values) == 3 and all(v in range(1, 7) for v in values)


def test_players_roll_with_their_own_colour() -> None:
    table = SynthTable(seed=9, players=3, size=(320, 240))
    frames = table.roll_sequence([1, 2, 3], player=2, settle_frames=2)
    assert all(d.color == DICE_PALETTE[2] for d in frames[-1].dice)


def test_nudge_moves_one_die_only() -> None:
    table = SynthTable(seed=6)
    before = table.roll_sequence([3, 3, 4], settle_frames=2)[-1]
    after = table.nudge_sequence(1, settle_frames=2)
    assert any(f.phase == "moving" for f in after)
    end = after[-1]
    assert end.phase == "settled"
    assert end.dice[0] == before.dice[0] and end.dice[2] == before.dice[2]
    assert end.dice[1].box != before.dice[1].box
    assert end.dice[1].value == before.dice[1].value


def test_hand_pass_leaves_dice_where_they_were() -> None:
    table = SynthTable(seed=6, size=(320, 240))
    before = table.roll_sequence([3, 5, 6], settle_frames=2)[-1]
    passing = table.hand_pass_sequence(settle_frames=3)
    assert _phases(passing) == ["hand", "settled"]
    assert passing[-1].dice == before.dice


def test_clear_empties_the_tray() -> None:
    table = SynthTable(seed=6, size=(320, 240))
    table.roll_sequence([3, 5, 6], settle_frames=2)
    frames = table.clear_sequence(empty_frames=4)
    assert _phases(frames) == ["hand", "empty"]
    assert frames[-1].dice == () and table.layout == ()


@pytest.mark.parametrize("size", [15, 200])
def test_smallest_and_largest_dice(size: int) -> None:
    table = SynthTable(seed=1, die_size=size, camera_height=None)
    frame = table.still([4, 6] if size == 200 else [1, 2, 3])
    for die in frame.dice:
        x0, y0, x1, y1 = die.box
        assert size * 0.9 <= x1 - x0 <= size * 1.5 + 2
        assert size * 0.9 <= y1 - y0 <= size * 1.5 + 2


def test_impossible_requests_are_refused_with_advice() -> None:
    with pytest.raises(EinhornError, match="size"):
        SynthTable(seed=1, die_size=14)
    with pytest.raises(EinhornError, match="dice_colors"):
        SynthTable(seed=1, players=9)
    with pytest.raises(EinhornError, match="1 to 6"):
        SynthTable(seed=1).still([7])
    with pytest.raises(EinhornError, match="fewer"):
        SynthTable(seed=1, die_size=150).still([1] * 12)
    with pytest.raises(EinhornError, match="empty"):
        SynthTable(seed=1).nudge_sequence()


def test_blur_softens_the_frame() -> None:
    sharp = SynthTable(seed=3, noise=0.0).still([6, 6, 6])
    soft = SynthTable(seed=3, noise=0.0).still([6, 6, 6], blur=2.0)
    assert sharp.dice == soft.dice

    def edges(img: np.ndarray) -> float:
        return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())

    assert edges(soft.image) < 0.5 * edges(sharp.image)


def test_a_frame_takes_a_few_milliseconds() -> None:
    cv2.setNumThreads(1)
    table = SynthTable(seed=5)
    table.roll_sequence(settle_frames=1)  # warm caches
    per_frame = []
    for _ in range(2):
        start = time.perf_counter()
        frames = table.roll_sequence(settle_frames=10)
        per_frame.append((time.perf_counter() - start) / len(frames))
    # Generous for a shared CI machine; typically about 2-4 ms.
    assert statistics.median(per_frame) < 0.02


def test_endless_game_stream_takes_turns_and_tells_the_truth() -> None:
    table = SynthTable(seed=4, players=2, size=(320, 240))
    frames = list(itertools.islice(table.game(settle_seconds=0.5), 400))
    assert {f.phase for f in frames} == set(PHASES)
    colours = {d.color for f in frames if f.phase == "settled" for d in f.dice}
    assert colours == set(table.player_colors)  # both players rolled their own dice
    assert all(f.image.shape == (240, 320, 3) for f in frames)


def test_a_roll_can_end_with_a_cocked_die() -> None:
    table = SynthTable(seed=12)
    frames = table.roll_sequence([4, None, 2], settle_frames=3)
    assert [d.value for d in frames[-1].dice] == [4, None, 2]


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    values=st.lists(st.one_of(st.none(), st.integers(1, 6)), min_size=1, max_size=6),
    die_size=st.integers(15, 40),
    camera_height=st.one_of(st.none(), st.floats(0.8, 4.0)),
)
def test_any_still_scene_keeps_dice_apart_inside_the_frame(
    seed: int, values: list[int | None], die_size: int, camera_height: float | None
) -> None:
    table = SynthTable(seed=seed, size=(320, 240), die_size=die_size, camera_height=camera_height)
    frame = table.still(values)
    assert [d.value for d in frame.dice] == values
    for i, a in enumerate(frame.dice):
        x0, y0, x1, y1 = a.box
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240
        for b in frame.dice[i + 1 :]:
            bx0, by0, bx1, by1 = b.box
            assert x1 <= bx0 or bx1 <= x0 or y1 <= by0 or by1 <= y0, (a, b)


def test_a_finger_nudge_shows_the_hand_before_during_and_after() -> None:
    table = SynthTable(seed=6, size=(320, 240))
    before = table.roll_sequence([3, 3, 4], settle_frames=2)[-1]
    frames = table.nudge_sequence(2, settle_frames=3, hand=True)
    assert _phases(frames) == ["hand", "moving", "hand", "settled"]
    assert all(f.hand for f in frames if f.phase in ("hand", "moving"))
    assert frames[-1].dice[:2] == before.dice[:2]
    assert frames[-1].dice[2].box != before.dice[2].box


def test_dice_where_and_how_the_caller_says() -> None:
    table = SynthTable(seed=2, camera_height=None, noise=0.0)
    frame = table.still(
        [6, 1],
        colors=[(240, 240, 240), (30, 30, 30)],
        pips=[(200, 20, 20), (230, 200, 40)],  # red pips on white, yellow on black
        sizes=[60, 40],
        positions=[(200.0, 150.0), (400.0, 300.0)],
        angles=[0.0, 45.0],
    )
    white, black = frame.dice
    assert white.box == pytest.approx((170, 120, 230, 180), abs=1)  # upright: 60 px square
    x0, y0, x1, y1 = black.box
    # Turned 45 degrees: corner to corner, less what the rounded corners take off.
    corner = 0.26 * 20
    assert x1 - x0 == pytest.approx(2 * ((20 - corner) * 2**0.5 + corner), abs=2)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((400, 300), abs=1)
    crop = frame.image[120:180, 170:230].reshape(-1, 3).astype(int)
    red = (crop[:, 2] > 150) & (crop[:, 1] < 80) & (crop[:, 0] < 80)
    assert 0.08 < red.mean() < 0.4  # six red pips, nothing else red


def test_the_table_around_the_tray_and_dice_against_its_walls() -> None:
    table = SynthTable(2, camera_height=1.0, tray_margin=0.08, die_size=40)
    assert table.geometry.outer[:2] == (38, 38)  # 8 % of 480 px of table around the tray
    x0, _, _, y1 = table.geometry.floor
    frame = table.still([3, 5], positions=table.against_walls([("left", 0.5), ("bottom", 0.3)]))
    left, bottom = sorted(frame.dice, key=lambda d: d.box[0])
    assert left.box[0] < x0 < left.box[2]  # its top face shows out over the wall
    assert bottom.box[1] < y1 < bottom.box[3]
    with pytest.raises(SynthError, match="no wall called 'middle'"):
        table.against_walls([("middle", 0.5)])
    with pytest.raises(SynthError, match=r"tray_margin 0\.5"):
        SynthTable(2, tray_margin=0.5)
    cloth = SynthTable(2, tray_margin=0.08, tablecloth=True).tray.table[:30, :200]
    light = cloth.reshape(-1, 3).mean(axis=1) > 150
    assert 0.3 < light.mean() < 0.7  # a checked cloth: half light squares, half dark


def test_a_tray_pushed_along_the_table_moves_with_its_dice_and_leaves_the_table() -> None:
    table = SynthTable(2, tray_margin=0.08)
    image = table.still([4]).image
    pushed = table.slid(image, 20, 0)
    x0, y0, _, _ = table.geometry.outer
    row = y0 + 100
    assert (pushed[row, 20 + x0 + 5 : 20 + x0 + 60] == image[row, x0 + 5 : x0 + 60]).all()
    table_only = table.tray.table[row, x0 + 2 : x0 + 18].astype(int)
    assert abs(pushed[row, x0 + 2 : x0 + 18].astype(int) - table_only).max() == 0
