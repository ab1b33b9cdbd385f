"""The roll watcher with something lying still at the picture's edge: a forearm
resting across a corner, a cup, a phone, a shadow (synthetic scenes). Before, the
watcher took whatever differed from the empty tray in the frame's border band for an
arm reaching in, and waited for ever while it lay there."""

from __future__ import annotations

import math

import pytest

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.replay_source import ReplaySource
from einhorn_table.adapters.vision_tray import Reader, VisionTray, make_reader, make_watcher
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.calibration.tray_reading import TrayReader
from einhorn_table.table.events import NotRolled, Settled
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.synth import (
    EdgeThing,
    HandPose,
    SynthFrame,
    SynthTable,
    mount_guide_view,
)
from einhorn_table.vision.watcher import (
    EventKind,
    RollWatcher,
    WatcherConfig,
    WatcherError,
    WatchEvent,
)

FPS = 30.0
SIZE = (320, 240)
SCENE_SECONDS = WatcherConfig().scene_seconds


def _told(frames: list[SynthFrame]) -> list[tuple[int, WatchEvent]]:
    """The watcher's events (motion starts left out) with their frame numbers."""
    watcher = RollWatcher()
    return [(i, e) for i, frame in enumerate(frames) for e in watcher.feed(frame.image, i / FPS)
            if e.kind is not EventKind.MOTION_STARTED]


def _kinds(told: list[tuple[int, WatchEvent]]) -> list[EventKind]:
    return [e.kind for _, e in told]


def _things(table: SynthTable) -> dict[str, HandPose | EdgeThing]:
    width, height = table.size
    return {
        "forearm": table.resting_arm(1),
        "cup": EdgeThing("cup", (0.04 * width, 0.92 * height), 0.22 * height),
        "phone": EdgeThing("phone", (0.96 * width, -0.02 * height), 0.4 * height,
                           angle=-20.0, colour=(24, 24, 28)),
    }


@pytest.mark.parametrize("thing", ["forearm", "cup", "phone"])
def test_dice_thrown_while_something_comes_to_lie_at_the_edge_are_told_once(thing: str) -> None:
    """The player leans on the table with their arm in the picture's corner (or sets a
    cup down) as the dice are thrown: the roll is told once all has lain still a while,
    not never."""
    table = SynthTable(seed=3, size=SIZE)
    frames = [table.empty() for _ in range(5)]
    table.at_edge = (_things(table)[thing],)  # (drawn in every frame from here on)
    frames += table.roll_sequence([2, 3, 5], settle_frames=int(1.5 * SCENE_SECONDS * FPS),
                                  empty_frames=0)
    told = _told(frames)
    assert _kinds(told) == [EventKind.SETTLED]
    index, settled = told[0]
    still_from = next(i for i, f in enumerate(frames) if f.phase == "settled")
    assert frames[index].phase == "settled"
    assert (index - still_from) / FPS <= SCENE_SECONDS + 0.1
    assert settled.frame is frames[index].image


@pytest.mark.parametrize("thing", ["forearm", "cup"])
def test_something_set_down_at_the_edge_of_the_empty_tray_is_no_roll(thing: str) -> None:
    """A cup set down by the empty tray, or an arm leant on the table: the tray is
    told empty (no roll), and the next roll beside it is told."""
    table = SynthTable(seed=4, size=SIZE)
    frames = [table.empty() for _ in range(5)]
    table.at_edge = (_things(table)[thing],)
    frames += [table.empty() for _ in range(int(1.5 * SCENE_SECONDS * FPS))]
    frames += table.roll_sequence([6, 6, 1], settle_frames=20, empty_frames=0)
    assert _kinds(_told(frames)) == [EventKind.EMPTIED, EventKind.SETTLED]


def test_a_forearm_coming_to_rest_by_dice_lying_is_no_roll_nor_is_its_going() -> None:
    """An arm leant on the table's corner by dice lying, then taken away: both times
    the dice lie as they lay (no roll), and the arm's going is told without waiting
    for it to lie still a while."""
    table = SynthTable(seed=5, size=SIZE)
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence([2, 2, 5], settle_frames=20)
    table.at_edge = (table.resting_arm(0),)
    frames += table.settled_frames(int(1.5 * SCENE_SECONDS * FPS))
    table.at_edge = ()
    gone = len(frames)
    frames += table.settled_frames(30)
    told = _told(frames)
    assert _kinds(told) == [EventKind.SETTLED] * 3
    assert [e.same_as_last for _, e in told] == [False, True, True]
    assert (told[2][0] - gone) / FPS <= WatcherConfig().still_seconds + 0.1


def _reaching(table: SynthTable, tip: tuple[float, float]) -> HandPose:
    """A hand from the picture's bottom edge with its fingertips at ``tip``."""
    width, height = table.size
    dx, dy = tip[0] - width / 2, tip[1] - height
    norm = math.hypot(dx, dy)
    return HandPose(tip=tip, direction=(dx / norm, dy / norm), width=0.2 * min(width, height),
                    skin=table.skin)


def test_a_hand_held_still_over_the_middle_is_waited_for_however_long() -> None:
    table = SynthTable(seed=6, size=SIZE)
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence([2, 3, 5], settle_frames=20)
    pose = _reaching(table, (SIZE[0] / 2, SIZE[1] / 2))
    came = len(frames)
    frames += [table.render(table.layout, hand=pose) for _ in range(int(2.5 * SCENE_SECONDS * FPS))]
    left = len(frames)
    frames += table.settled_frames(20)
    told = _told(frames)
    assert all(not came <= i < left for i, _ in told)
    assert _kinds(told) == [EventKind.SETTLED, EventKind.SETTLED]
    assert told[1][1].same_as_last


def test_a_hand_held_still_at_the_dice_for_a_moment_is_waited_for() -> None:
    """Fingertips resting on a die for a second: nothing is told till the hand has
    gone (a thing lies still at the edge for longer before it is part of the scene)."""
    table = SynthTable(seed=7, size=SIZE)
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence([2, 3, 5], settle_frames=20)
    die = max(table.layout, key=lambda d: d.y)  # the one nearest the hand's edge
    came = len(frames)
    hold = int(0.75 * SCENE_SECONDS * FPS)
    frames += [table.render(table.layout, hand=_reaching(table, (die.x, die.y)))
               for _ in range(hold)]
    frames += table.settled_frames(20)
    told = _told(frames)
    assert all(not came <= i < came + hold for i, _ in told)
    assert _kinds(told) == [EventKind.SETTLED, EventKind.SETTLED]


def test_how_long_a_thing_at_the_edge_lies_still_is_checked() -> None:
    with pytest.raises(WatcherError, match="scene_seconds must be 0 or more"):
        WatcherConfig(scene_seconds=-1.0)
    WatcherConfig(still_seconds=3.0)  # dice lying still longer than things at the edge


def test_the_tray_reads_rolls_beside_an_arm_leant_in_the_corner() -> None:
    """Told by the tray as the companion runs it (watcher and reader, full-size frames
    in the mount guide's view): an arm leant across the corner as the roll is thrown,
    lying on while the dice are taken out and the next player throws, then taken away:
    both rolls read, the arm's going no roll."""
    table = SynthTable(seed=8, players=2, **mount_guide_view())
    frames = [table.empty() for _ in range(5)]
    table.at_edge = (table.resting_arm(0),)
    frames += table.roll_sequence([2, 3, 5], settle_frames=75, empty_frames=0)
    frames += table.clear_sequence(empty_frames=20)
    frames += table.roll_sequence([6, 4, 4], player=1, settle_frames=75, empty_frames=0)
    table.at_edge = ()
    frames += table.settled_frames(20)
    assert _told_by_the_tray(table, frames, make_reader()) == [
        [2, 3, 5], [], [4, 4, 6], "no roll"]


# A hand or forearm taken in as part of the scene must never let a die lying partly
# under its fingertips be read: a die half covered is read wrong (a 6 as a 3), and
# paid silently. Before, dice thrown against an arm resting at the picture's edge were
# told as soon as they lay still, the arm over one of them.


def _under_fingertips(table: SynthTable, pose: HandPose, cover: float = 0.5
                      ) -> tuple[float, float]:
    """Where a die lies with ``cover`` of it (along the hand) under ``pose``'s fingertips."""
    along = (0.5 - cover) * table.die_size
    return pose.tip[0] + pose.direction[0] * along, pose.tip[1] + pose.direction[1] * along


def _thrown_against(table: SynthTable, rest: HandPose, values: list[int],
                    places: list[tuple[float, float]]) -> tuple[list[SynthFrame], int]:
    """The empty tray; ``rest`` comes to lie at the picture's edge (long enough to be
    part of the scene); dice are thrown and come to lie at ``places``, the first one
    partly under its fingertips; then it goes. Also the frame from which on it has gone."""
    frames = [table.empty() for _ in range(5)]
    table.at_edge = (rest,)
    frames += [table.empty() for _ in range(int(1.5 * SCENE_SECONDS * FPS))]
    frames += table.roll_sequence(values, settle_frames=0, empty_frames=0)
    table.still(values, positions=places)
    frames += table.settled_frames(int(1.5 * SCENE_SECONDS * FPS))
    table.at_edge = ()
    return frames + table.settled_frames(20), len(frames)


def _inside(table: SynthTable, *shares: tuple[float, float]) -> list[tuple[float, float]]:
    """Points of the tray's floor, given as shares of its width and height."""
    x0, y0, x1, y1 = table.geometry.floor
    return [(x0 + a * (x1 - x0), y0 + b * (y1 - y0)) for a, b in shares]


def test_a_die_thrown_half_under_a_resting_forearm_is_told_once_the_arm_has_gone() -> None:
    table = SynthTable(seed=11, size=SIZE)
    arm = table.resting_arm(1)
    places = [_under_fingertips(table, arm), *_inside(table, (0.3, 0.3), (0.55, 0.5))]
    frames, gone = _thrown_against(table, arm, [6, 2, 3], places)
    told = _told(frames)
    assert _kinds(told) == [EventKind.EMPTIED, EventKind.SETTLED]
    assert told[1][0] >= gone


def _tray_told(table: SynthTable, frames: list[SynthFrame]) -> list[object]:
    """What the tray tells as ``play`` runs it (watcher and reader, the reader in the
    tray's outline found in the calibration's picture of the empty tray): each roll's
    values, sorted, and "no roll"."""
    calibrated = find_tray(table.empty().image)
    reader = TrayReader(ReaderProfile(), calibrated, 40.0, anchor=calibrated)
    return _told_by_the_tray(table, frames, reader, follower=reader)


def _told_by_the_tray(table: SynthTable, frames: list[SynthFrame], reader: Reader,
                      follower: TrayReader | None = None) -> list[object]:
    """What a VisionTray with ``reader`` tells of ``frames``: each roll's values,
    sorted, and "no roll"."""
    times = table.frame_times(len(frames))
    clock = FakeClock(0.0)
    tray = VisionTray(ReplaySource([f.image for f in frames], times), make_watcher(), reader,
                      clock, follower=follower)
    told: list[object] = []
    for t in times:
        clock.now = t
        for event in tray.poll():
            if isinstance(event, Settled):
                told.append(sorted(v or 0 for v in event.reading.values))
            elif isinstance(event, NotRolled):
                told.append("no roll")
    return told


@pytest.mark.parametrize("corner", [0, 2])
def test_the_tray_reads_a_die_thrown_under_a_resting_arm_right_once_it_has_gone(
        corner: int) -> None:
    """In the mount guide's view, read as ``play`` reads: a 6 lying two thirds under the
    fingertips of an arm leant in the corner was read as a 3 and paid."""
    table = SynthTable(seed=950, **mount_guide_view())
    arm = table.resting_arm(corner)
    places = [_under_fingertips(table, arm, 0.65), *_inside(table, (0.35, 0.6), (0.65, 0.4))]
    frames, _ = _thrown_against(table, arm, [6, 4, 4], places)
    assert _tray_told(table, frames) == [[], [4, 4, 6]]


@pytest.mark.parametrize("along", [0.3, 0.6])
def test_a_hand_held_still_over_a_die_by_the_rim_after_the_throw_is_never_paid(
        along: float) -> None:
    """The thrower's fingertips rest on a die against the tray's wall for 4 s after the
    throw (mount guide's view, read as ``play`` reads): the hand may be taken for part
    of the scene, and the die under it with it into the empty tray's picture; never
    are three dice read wrong and paid (the tray holds the roll back until the hand
    has gone and reads it right then: tests/test_watcher_resting_hand.py)."""
    table = SynthTable(seed=21, **mount_guide_view())
    values = [6, 4, 4]
    places = [*table.against_walls([("bottom", along)]), *_inside(table, (0.3, 0.35),
                                                                  (0.7, 0.4))]
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence(values, settle_frames=0, empty_frames=0)
    table.still(values, positions=places)
    hand = _reaching(table, places[0])
    frames += [table.render(table.layout, hand=hand) for _ in range(int(4 * FPS))]
    frames += table.settled_frames(20)
    read = [t for t in _tray_told(table, frames) if isinstance(t, list)]
    assert read
    assert read[0] == [4, 4, 6] or len(read[0]) != 3 or 0 in read[0]
