"""The roll watcher on synthetic scenes, with explicit timestamps."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from einhorn_table.vision.synth import (
    LIGHT_CHANGES,
    HandPose,
    SynthFrame,
    SynthTable,
    knocked,
    relit,
)
from einhorn_table.vision.watcher import (
    EventKind,
    RollWatcher,
    TrayState,
    WatcherConfig,
    WatcherError,
    WatchEvent,
    shrink,
    shrink_grey,
)

FPS = 30.0
#: Most scenes are drawn at 320x240 to keep the tests quick; the watcher shrinks every
#: frame to 160x120 anyway (the first test uses the full 640x480).
SIZE = (320, 240)


def _table(seed: int, **options: Any) -> SynthTable:
    return SynthTable(seed=seed, size=SIZE, **options)


def _feed(
    watcher: RollWatcher, frames: list[SynthFrame], start: int = 0, fps: float = FPS
) -> list[tuple[int, WatchEvent]]:
    """Feed frames numbered from ``start`` at ``fps``; the events with their frame numbers."""
    seen = []
    for i, frame in enumerate(frames, start):
        for event in watcher.feed(frame.image, i / fps):
            seen.append((i, event))
    return seen


def _kinds(events: list[tuple[int, WatchEvent]]) -> list[EventKind]:
    return [e.kind for _, e in events]


def _first(frames: list[SynthFrame], phase: str) -> int:
    return next(i for i, f in enumerate(frames) if f.phase == phase)


@pytest.mark.parametrize("seed", [0, 2])
def test_one_settled_event_per_roll_and_none_while_moving(seed: int) -> None:
    table = SynthTable(seed=seed, players=4)
    frames = table.roll_sequence(player=seed, settle_frames=30)
    events = _feed(RollWatcher(), frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED, EventKind.SETTLED]
    index, settled = events[1]
    assert frames[index].phase == "settled"
    assert all(f.phase == "settled" for f in frames[index:])  # nothing moved after it
    assert settled.frame is frames[index].image  # the full-size frame to read
    assert not settled.same_as_last
    assert settled.from_state == TrayState.EMPTY


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_motion_start_within_a_frame_of_truth(seed: int) -> None:
    table = _table(seed=seed)
    for hand in (True, False):
        frames = table.roll_sequence(settle_frames=20, hand=hand)
        truth = next(i for i, f in enumerate(frames) if f.phase != "empty") / FPS
        events = _feed(RollWatcher(), frames)
        started = events[0][1]
        assert started.kind == EventKind.MOTION_STARTED
        assert abs(started.t - truth) <= 1.0 / FPS + 1e-9
        assert events[1][1].motion_started_at == started.t


@pytest.mark.parametrize("seed", [7, 8])
def test_a_hand_in_and_out_is_no_roll(seed: int) -> None:
    table = _table(seed=seed)
    frames = [table.empty()] * 3 + table.hand_only_sequence(empty_frames=20)
    events = _feed(RollWatcher(), frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED, EventKind.EMPTIED]
    assert all(e.frame is None for _, e in events)


def test_a_hand_held_still_over_the_tray_never_settles() -> None:
    table = _table(seed=9)
    pose = HandPose(tip=(165.0, 125.0), direction=(0.0, -1.0), width=48.0, skin=table.skin)
    held = [table.render((), hand=pose) for _ in range(60)]  # two seconds, not moving
    frames = [table.empty()] * 3 + held
    watcher = RollWatcher()
    events = _feed(watcher, frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED]
    assert watcher.state == TrayState.MOVING


@pytest.mark.parametrize("finger", [False, True])
def test_a_nudged_die_is_reported_and_is_not_a_new_roll(finger: bool) -> None:
    table = _table(seed=10)
    watcher = RollWatcher()
    roll = table.roll_sequence(settle_frames=20)
    nudge = table.nudge_sequence(0, settle_frames=20, hand=finger)
    events = _feed(watcher, roll + nudge)
    assert _kinds(events) == [
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
        EventKind.MOTION_STARTED,
        EventKind.NUDGED,
    ]
    index, nudged = events[3]
    assert nudged.frame is (roll + nudge)[index].image
    assert not nudged.same_as_last
    assert nudged.hand_seen == finger
    assert events[2][1].from_state == TrayState.SETTLED
    truth = (len(roll) + next(i for i, f in enumerate(nudge) if f.phase != "settled")) / FPS
    assert abs(events[2][1].t - truth) <= 1.0 / FPS + 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_dice_thrown_beside_dice_left_lying_are_a_new_roll_not_a_nudge(seed: int) -> None:
    """The next player throws their three dice while the last roll's still lie there:
    the dice left lying have not moved, so they overlap what lies now by about half,
    yet more lies in the tray than before: a roll to read (6 dice), not a nudge."""
    table = _table(seed=20 + seed, players=2)
    watcher = RollWatcher()
    roll = table.roll_sequence(player=0, settle_frames=20)
    left = table.layout
    new: tuple[Any, ...] = ()
    for _ in range(200):
        new = table.layout_dice([1, 4, 6], colors=[(200, 40, 40)] * 3)
        if all(table.placer.apart(d.look, d.x, d.y, left) for d in new):
            break
    else:
        pytest.fail("no room beside the dice left lying")
    pose = HandPose(tip=(160.0, 120.0), direction=(0.0, -1.0), width=48.0, skin=table.skin)
    throw = [table.render(left, hand=pose) for _ in range(6)]
    rest = [table.render(left + new) for _ in range(20)]
    events = _feed(watcher, roll + throw + rest)
    assert _kinds(events) == [
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
    ]
    assert events[3][1].from_state == TrayState.SETTLED


@pytest.mark.parametrize("seed", [11, 12])
def test_same_dice_in_same_places_is_flagged(seed: int) -> None:
    table = _table(seed=seed)
    watcher = RollWatcher()
    roll = table.roll_sequence(settle_frames=20)
    passing = table.hand_pass_sequence(settle_frames=20)
    events = _feed(watcher, roll + passing)
    assert _kinds(events) == [
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
    ]
    assert not events[1][1].same_as_last
    assert events[3][1].same_as_last


def test_a_real_new_roll_is_not_the_same_as_the_last() -> None:
    table = _table(seed=14)
    watcher = RollWatcher()
    frames = table.roll_sequence(settle_frames=20)
    frames += table.clear_sequence(empty_frames=20)
    frames += table.roll_sequence(settle_frames=20)
    # ... and one picked up and thrown again straight away, the tray never empty.
    frames += table.roll_sequence(settle_frames=20, empty_frames=0)
    events = _feed(watcher, frames)
    assert _kinds(events) == [
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
        EventKind.MOTION_STARTED,
        EventKind.EMPTIED,
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
        EventKind.MOTION_STARTED,
        EventKind.SETTLED,
    ]
    assert not any(e.same_as_last for _, e in events)


@pytest.mark.parametrize("still_seconds", [0.25, 0.5, 1.0])
def test_stillness_time_is_respected(still_seconds: float) -> None:
    table = _table(seed=15)
    frames = table.roll_sequence(settle_frames=40)
    rested = _first(frames, "settled") / FPS
    watcher = RollWatcher(WatcherConfig(still_seconds=still_seconds))
    events = _feed(watcher, frames)
    settled = [e for _, e in events if e.kind == EventKind.SETTLED]
    assert len(settled) == 1
    assert rested + still_seconds - 1e-9 <= settled[0].t <= rested + still_seconds + 1.0 / FPS


def test_no_settled_event_before_the_stillness_time_has_passed() -> None:
    table = _table(seed=16)
    frames = table.roll_sequence(settle_frames=20)  # two thirds of a second still
    events = _feed(RollWatcher(WatcherConfig(still_seconds=1.0)), frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED]


def test_uneven_timestamps_are_what_counts_not_frame_numbers() -> None:
    table = _table(seed=17)
    frames = table.roll_sequence(settle_frames=12)
    first_still = _first(frames, "settled")
    # A camera that stalls: after the dice land, frames come 0.1 s apart.
    times = [i / FPS for i in range(first_still + 1)]
    times += [times[-1] + 0.1 * k for k in range(1, len(frames) - first_still)]
    watcher = RollWatcher(WatcherConfig(still_seconds=0.45))
    events = []
    for frame, t in zip(frames, times, strict=True):
        events += watcher.feed(frame.image, t)
    settled = [e for e in events if e.kind == EventKind.SETTLED]
    assert len(settled) == 1
    assert settled[0].t == pytest.approx(times[first_still] + 0.5)


def test_eighteen_dice_of_six_players_settle_once() -> None:
    table = _table(seed=18, players=6, die_size=20)
    colours = [table.player_colors[i // 3] for i in range(18)]
    frames = table.roll_sequence([(i % 6) + 1 for i in range(18)], colors=colours)
    events = _feed(RollWatcher(), frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED, EventKind.SETTLED]


def test_blue_dice_as_bright_as_the_felt_are_still_seen() -> None:
    table = _table(seed=19, players=3)
    frames = table.roll_sequence([2, 5, 6], player=2, settle_frames=20)  # blue dice
    events = _feed(RollWatcher(), frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED, EventKind.SETTLED]
    # After the dice are taken away, the tray is seen to be empty again.
    more = _feed(RollWatcher(), frames + table.clear_sequence(empty_frames=20))
    assert _kinds(more)[-1] == EventKind.EMPTIED


def test_grey_small_frames_work_for_white_dice() -> None:
    table = _table(seed=20)
    frames = table.roll_sequence(settle_frames=20)
    watcher = RollWatcher()
    kinds = []
    for i, frame in enumerate(frames):
        kinds += [e.kind for e in watcher.update(shrink_grey(frame.image), i / FPS)]
    assert kinds == [EventKind.MOTION_STARTED, EventKind.SETTLED]


def test_dice_already_in_the_tray_at_start_are_reported_once_still() -> None:
    table = _table(seed=21)
    reference = shrink(table.empty().image)
    table.still([1, 2, 3])
    frames = table.settled_frames(20)
    events = _feed(RollWatcher(reference=reference), frames)
    assert _kinds(events) == [EventKind.SETTLED]
    assert events[0][0] == 12  # 0.4 s after the first frame


def test_camera_noise_alone_is_no_motion() -> None:
    table = _table(seed=22, noise=6.0)
    frames = [table.empty() for _ in range(60)]
    table.still([4, 4, 4])
    frames += table.settled_frames(60)
    watcher = RollWatcher()
    events = _feed(watcher, frames)
    assert _kinds(events) == [EventKind.MOTION_STARTED, EventKind.SETTLED]


def test_bad_input_is_refused() -> None:
    watcher = RollWatcher()
    small = np.zeros((120, 160, 3), np.uint8)
    watcher.update(small, 1.0)
    with pytest.raises(WatcherError, match="before the previous"):
        watcher.update(small, 0.5)
    with pytest.raises(WatcherError, match="shrink"):
        watcher.update(np.zeros((120, 160), np.float32), 2.0)  # type: ignore[arg-type]
    with pytest.raises(WatcherError, match="same way"):
        watcher.update(np.zeros((60, 80, 3), np.uint8), 2.0)
    with pytest.raises(WatcherError):
        WatcherConfig(still_seconds=-1)


def test_light_slowly_drifting_over_the_empty_tray_is_no_motion() -> None:
    table = _table(23)
    empty = table.empty().image
    # Five seconds of the lamp brightening by a fifth, then a real roll.
    frames = [cv2.convertScaleAbs(empty, alpha=1.0 + 0.2 * k / 150) for k in range(150)]
    watcher = RollWatcher()
    events = []
    for i, image in enumerate(frames):
        events += watcher.feed(image, i / FPS)
    assert events == []
    assert watcher.state == TrayState.EMPTY


def _in_light(frame: SynthFrame, light: str) -> np.ndarray:
    """The frame under other light: the Pi camera's exposure and colour are locked, so a
    lamp switched on changes every pixel."""
    return relit(frame.image, light)


LIGHTS = list(LIGHT_CHANGES)


def _feed_images(watcher: RollWatcher, images: list[np.ndarray]) -> list[EventKind]:
    kinds = []
    for i, image in enumerate(images):
        kinds += [e.kind for e in watcher.feed(image, i / FPS)]
    return kinds


@pytest.mark.parametrize("light", LIGHTS)
def test_a_lamp_switched_on_over_the_empty_tray_is_no_roll_and_rolls_are_seen_after(
    light: str,
) -> None:
    """Before, the changed light looked like an arm at the tray's edge for good: the
    watcher waited for it to leave and never reported a roll again."""
    table = _table(seed=24)
    images = [table.empty().image for _ in range(20)]
    images += [_in_light(table.empty(), light) for _ in range(30)]
    watcher = RollWatcher()
    assert _feed_images(watcher, images) == [EventKind.MOTION_STARTED, EventKind.UNCHANGED]
    assert watcher.state == TrayState.EMPTY
    roll = [_in_light(f, light) for f in table.roll_sequence([6, 6, 1], settle_frames=20)]
    clear = [_in_light(f, light) for f in table.clear_sequence(empty_frames=20)]
    kinds = []
    for i, image in enumerate(roll + clear, len(images)):
        kinds += [e.kind for e in watcher.feed(image, i / FPS)]
    assert kinds == [EventKind.MOTION_STARTED, EventKind.SETTLED,
                     EventKind.MOTION_STARTED, EventKind.EMPTIED]


@pytest.mark.parametrize("light", LIGHTS)
def test_a_lamp_switched_on_over_dice_lying_is_no_new_roll(light: str) -> None:
    table = _table(seed=25)
    roll = [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=20)]
    lit = [_in_light(f, light) for f in table.settled_frames(30)]
    nudge = [_in_light(f, light) for f in table.nudge_sequence(0, settle_frames=20)]
    watcher = RollWatcher()
    assert _feed_images(watcher, roll + lit + nudge) == [
        EventKind.MOTION_STARTED, EventKind.SETTLED,
        EventKind.MOTION_STARTED, EventKind.UNCHANGED,
        EventKind.MOTION_STARTED, EventKind.NUDGED,
    ]
    assert watcher.state == TrayState.SETTLED


@pytest.mark.parametrize("light", ["dimmed by a fifth", "brighter by 15 %", "warmer lamp"])
def test_a_lamp_switched_on_while_the_dice_tumble_is_a_roll(light: str) -> None:
    table = _table(seed=26)
    images = [table.empty().image for _ in range(10)]
    roll = table.roll_sequence([2, 3, 5], settle_frames=20)
    images += [f.image for f in roll[:8]] + [_in_light(f, light) for f in roll[8:]]
    images += [_in_light(f, light) for f in table.clear_sequence(empty_frames=20)]
    watcher = RollWatcher()
    assert _feed_images(watcher, images) == [
        EventKind.MOTION_STARTED, EventKind.SETTLED,
        EventKind.MOTION_STARTED, EventKind.EMPTIED,
    ]


def test_a_die_moved_under_other_light_is_not_taken_for_the_light() -> None:
    """The light explains smooth changes only: a die taken away stays a change."""
    table = _table(seed=27)
    roll = [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=20)]
    table.layout = table.layout[1:]
    hand = HandPose(tip=(160.0, 120.0), direction=(0.0, -1.0), width=48.0, skin=table.skin)
    dimmed = "dimmed by a fifth"
    taken = [_in_light(table.render(table.layout, hand=hand), dimmed) for _ in range(6)]
    taken += [_in_light(f, dimmed) for f in table.settled_frames(20)]
    watcher = RollWatcher()
    kinds = _feed_images(watcher, roll + taken)
    assert kinds[-1] in (EventKind.SETTLED, EventKind.NUDGED), kinds


@pytest.mark.parametrize(("dx", "dy", "turn"),
                         [(2, 1, 0.0), (8, -4, 0.0), (16, 8, 0.0), (0, 0, 1.0)])
def test_a_camera_knocked_over_dice_lying_is_no_roll_and_rolls_go_on(
    dx: float, dy: float, turn: float,
) -> None:
    """Before, even a knock of 2 camera pixels looked like an arm at the tray's edge for
    good: the watcher never reported a roll again."""
    table = SynthTable(seed=28)  # full size: the knock in the camera's own pixels
    images = [table.empty().image for _ in range(10)]
    images += [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=20)]
    images += [knocked(f.image, dx, dy, turn) for f in table.settled_frames(30)]
    images += [knocked(f.image, dx, dy, turn) for f in table.clear_sequence(empty_frames=20)]
    images += [knocked(f.image, dx, dy, turn)
               for f in table.roll_sequence([6, 6, 1], settle_frames=20)]
    watcher = RollWatcher()
    events = []
    for i, image in enumerate(images):
        events += watcher.feed(image, i / FPS)
    kinds = [e.kind for e in events]
    # The dice taken out: the tray is empty, or a still tray the reader will find empty
    # (the table then takes it for the empty tray: VisionTray and mark_empty).
    assert kinds[5] in (EventKind.EMPTIED, EventKind.SETTLED)
    kinds[5] = EventKind.EMPTIED
    assert kinds == [
        EventKind.MOTION_STARTED, EventKind.SETTLED,
        EventKind.MOTION_STARTED, EventKind.UNCHANGED,
        EventKind.MOTION_STARTED, EventKind.EMPTIED,
        EventKind.MOTION_STARTED, EventKind.SETTLED,
    ]
    if max(abs(dx), abs(dy)) >= 8 or turn:  # a knock of two pixels passes for the light
        assert events[3].camera_moved >= 1.0


def test_a_camera_knocked_over_the_empty_tray_is_no_roll() -> None:
    table = SynthTable(seed=29)
    images = [table.empty().image for _ in range(20)]
    images += [knocked(table.empty().image, -6, 3) for _ in range(30)]
    watcher = RollWatcher()
    assert _feed_images(watcher, images) == [EventKind.MOTION_STARTED, EventKind.UNCHANGED]
    assert watcher.state == TrayState.EMPTY


@pytest.mark.parametrize(("colour", "size", "tray"), [
    ("white", 24, (200, 200, 190)), ("white", 40, (200, 200, 190)),
    ("green", 15, None), ("black", 15, None), ("blue", 15, None)])
def test_faint_dice_are_a_roll_not_a_change_of_light(
    colour: str, size: int, tray: tuple[int, int, int] | None,
) -> None:
    """Small or pale dice change only a few pixels a little, which a change of light
    could explain too; but light changes most of the picture, and dice do not."""
    from einhorn_table.vision.synth import DICE_PALETTE, DICE_PALETTE_NAMES

    body = DICE_PALETTE[DICE_PALETTE_NAMES.index(colour)]
    options: dict[str, Any] = {} if tray is None else {"tray_color": tray}
    for seed in (0, 1):
        table = SynthTable(seed, dice_colors=[body], die_size=size, **options)
        images = [table.empty().image for _ in range(5)]
        images += [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=20)]
        images += [f.image for f in table.clear_sequence(empty_frames=20)]
        kinds = [k for k in _feed_images(RollWatcher(), images)
                 if k is not EventKind.MOTION_STARTED]
        assert kinds == [EventKind.SETTLED, EventKind.EMPTIED], (seed, kinds)
