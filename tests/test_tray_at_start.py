"""The tray as the table (re)starts: four faults of the start, on synthetic scenes.

- After a power cut, a hand held still a moment (3 frames) over the dice lying in the
  tray, then taken away, was taken for the tray at start: the dice under it were read
  wrong, and the watcher, its empty tray showing the hand, waited for good (the next
  throw was never read). A picture lying still for seconds is the tray at start now.
- At a new match, a hand in the first picture taken away and a throw within the
  3 seconds the tray waits before it takes the still picture for the empty tray: the
  dice lay there, and the tray waited for good. They are the roll now.
- At a new match, dice left lying in the tray under a hand in the first picture, bared
  as it went (nobody threw): they were taken for the first player's roll.
- A lamp flickering (on mains) as the table starts again: the tray waited for the
  picture to lie still, and each frame's flicker was a change: it never looked at the
  dice lying there, and the next throw was never read.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_table_review6 import rolls, setup_line, table
from test_table_review7 import after_anas_roll
from tray_rig import replayed_tray

from einhorn_table.adapters.vision_tray import STALE_START_SECONDS
from einhorn_table.rules import StartRoll
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import LyingAtStart, MotionStarted, TrayEvent
from einhorn_table.vision.arm_side import arm_in_first
from einhorn_table.vision.synth import SynthFrame, SynthTable, mount_guide_view
from einhorn_table.vision.synth.room_light import flickering
from einhorn_table.vision.watcher import shrink


def _played(c: TableController, frames: list[SynthFrame], synth: SynthTable
            ) -> tuple[list[TrayEvent], list[str]]:
    """``frames`` through a vision tray into the table ``c``: the tray's news, and the
    table's notice after each."""
    tray, clock, times = replayed_tray(frames, synth)
    tray.dice_at_start = c.looks_at_start
    told: list[TrayEvent] = []
    noted: list[str] = []
    for t in times:
        clock.now = t
        for event in tray.poll():
            c.on_tray(event)
            told.append(event)
            noted.append(c.notice_at(t))
    return told, noted


def _hand_held_still(synth: SynthTable, player: int, lying: tuple[object, ...]
                     ) -> list[SynthFrame]:
    """The player's hand over the tray, held still for 3 frames, then taken away."""
    frames = [synth.render(lying, hand=synth._hand_pose(player, 0.8, fist=False))
              for _ in range(3)]
    return frames + [synth.render(lying, hand=synth._hand_pose(
        player, 0.8 * (1 - k / 6) - 0.05, fist=False)) for k in range(1, 7)]


@pytest.mark.parametrize("lying", [[5, 2, 2], [4, 4, 6]])
def test_a_hand_held_still_over_the_dice_at_a_restart_is_not_the_tray_at_start(
        lying: list[int]) -> None:
    """Ana rolled 2 2 5; the table starts again with Ben's hand still over the dice."""
    c, r = after_anas_roll()
    again = TableController(c.match, r, [Seat("Ana"), Seat("Ben")])
    synth = SynthTable(seed=5, **mount_guide_view())
    synth.still(lying)
    frames = _hand_held_still(synth, 1, synth.layout)
    frames += synth.settled_frames(round((STALE_START_SECONDS + 0.5) * synth.fps))
    told, noted = _played(again, frames, synth)
    seen = [sorted(v or 0 for v in e.reading.values) for e in told if isinstance(e, LyingAtStart)]
    assert seen == [sorted(lying)]
    assert not again.tray_busy
    if lying == [5, 2, 2]:  # (Ana's dice, left lying as ever)
        assert all(text == "" for text in noted) and again.unread_at_start is None
    else:
        assert again.unread_at_start == 1
        assert noted[-1].startswith("The table started again with dice in the tray that it "
                                    "did not read. Ben:")


def test_after_a_hand_held_still_at_a_restart_the_next_throw_is_read() -> None:
    c, r = after_anas_roll()
    again = TableController(c.match, r, [Seat("Ana"), Seat("Ben")])
    synth = SynthTable(seed=5, **mount_guide_view())
    synth.still([5, 2, 2])
    frames = _hand_held_still(synth, 1, synth.layout)
    frames += synth.settled_frames(round((STALE_START_SECONDS + 0.5) * synth.fps))
    frames += synth.clear_sequence(player=1)
    frames += synth.roll_sequence([6, 4, 1], player=1, settle_frames=30)
    _played(again, frames, synth)
    assert rolls(r) == [("Ana", [2, 2, 5]), ("Ben", [1, 4, 6])]
    assert not again.tray_busy


@pytest.mark.parametrize("empty_frames", [0, 15])
def test_a_throw_soon_after_a_hand_at_a_new_match_is_read(empty_frames: int) -> None:
    """Ana's hand lay still over the tray as the table started, then she threw at once
    (or half a second later): her starting roll lay there, and the tray waited for good.
    Ben's throw after is read."""
    c, r = table([setup_line(["Ana", "Ben"])])
    synth = SynthTable(seed=5, **mount_guide_view())
    frames = _hand_held_still(synth, 0, ())
    frames += [synth.empty() for _ in range(empty_frames)]
    frames += synth.roll_sequence([3, 3, 1], settle_frames=round(
        (STALE_START_SECONDS + 0.5) * synth.fps))
    frames += synth.clear_sequence(player=0)
    frames += synth.roll_sequence([6, 5, 2], player=1, settle_frames=30)
    assert not c.looks_at_start()
    _, noted = _played(c, frames, synth)
    assert [(i.player, sorted(i.dice)) for i in r.items] == [("Ana", [1, 3, 3]),
                                                            ("Ben", [2, 5, 6])]
    assert all(isinstance(i, StartRoll) for i in r.items)
    assert not c.tray_busy and "Waiting for the tray" not in noted[-1]


def test_a_flickering_lamp_at_a_restart_lets_the_tray_look_at_the_dice() -> None:
    """A lamp on mains makes every frame a few percent lighter or darker: the tray
    waited for the picture to lie still, for good."""
    c, r = after_anas_roll()
    again = TableController(c.match, r, [Seat("Ana"), Seat("Ben")])
    synth = SynthTable(seed=5, **mount_guide_view())
    synth.still([4, 4, 6])
    frames = synth.settled_frames(30)
    frames += synth.clear_sequence(player=1)
    frames += synth.roll_sequence([6, 4, 1], player=1, settle_frames=30)
    images = flickering([f.image for f in frames], 0.05)
    told, _ = _played(again, [replace(f, image=i) for f, i in zip(frames, images, strict=True)],
                      synth)
    seen = [sorted(v or 0 for v in e.reading.values) for e in told if isinstance(e, LyingAtStart)]
    assert seen == [[4, 4, 6]]
    assert told.index(next(e for e in told if isinstance(e, LyingAtStart))) == 0
    assert rolls(r) == [("Ana", [2, 2, 5]), ("Ben", [1, 4, 6])]
    assert not again.tray_busy and again.unread_at_start is None


def test_a_hand_held_still_over_the_dice_of_the_first_roll_is_waited_for() -> None:
    """Ana throws the first roll and holds her hand still over the tray for 4 s: the
    tray, its first picture (empty) no hand, waits for it to go and reads the dice
    then; it does not take the picture with the hand for the tray as it lies."""
    c, r = table([setup_line(["Ana", "Ben"])])
    synth = SynthTable(seed=5, **mount_guide_view())
    frames = synth.roll_sequence([3, 3, 1], settle_frames=3)
    width, height = synth.size
    pose = replace(synth._hand_pose(0, 0.8, fist=False), tip=(width / 2, height / 2))
    came, held = len(frames), round(4 * synth.fps)
    frames += [synth.render(synth.layout, hand=pose) for _ in range(held)]
    frames += synth.settled_frames(30)
    told, _ = _played(c, frames, synth)
    assert [(i.player, sorted(i.dice)) for i in r.items] == [("Ana", [1, 3, 3])]
    assert not c.tray_busy
    times = synth.frame_times(len(frames))
    settled = [e.time for e in told if not isinstance(e, MotionStarted)]
    assert settled and all(t >= times[came + held] for t in settled)


@pytest.mark.parametrize("view", ["tray", "mount guide"])
def test_which_picture_holds_the_arm(view: str) -> None:
    synth = SynthTable(seed=3, **(mount_guide_view() if view == "mount guide" else {}))
    bare = shrink(synth.empty().image)
    arm = shrink(synth.render((), hand=synth._hand_pose(1, 0.7, fist=False)).image)
    assert arm_in_first(arm, bare, 12) is True
    assert arm_in_first(bare, arm, 12) is False
    assert arm_in_first(bare, shrink(synth.empty().image), 12) is None


@pytest.mark.parametrize("player", [0, 1])
def test_dice_left_lying_under_a_hand_at_a_new_match_are_no_roll(player: int) -> None:
    """Last evening's dice lie in the tray as a new match starts, a hand over them in
    the first picture; the hand goes and nobody throws. The dice it bared were taken for
    Ana's starting roll ("1 die seen, not 3", or all three taken as her roll): they lie
    there, as dice seen lying at start do, and her throw after is read."""
    c, r = table([setup_line(["Ana", "Ben"])])
    synth = SynthTable(seed=5, **mount_guide_view())
    synth.still([3, 3, 1])
    middle = (sum(d.x for d in synth.layout) / 3, sum(d.y for d in synth.layout) / 3)
    over = replace(synth._hand_pose(player, 0.8, fist=False), tip=middle)
    frames = [synth.render(synth.layout, hand=over) for _ in range(3)]
    frames += [synth.render(synth.layout, hand=synth._hand_pose(
        player, 0.8 * (1 - k / 6) - 0.05, fist=False)) for k in range(1, 7)]
    frames += synth.settled_frames(round((STALE_START_SECONDS + 1.5) * synth.fps))
    frames += synth.clear_sequence(player=0)
    frames += synth.roll_sequence([6, 5, 2], player=0, settle_frames=30)
    asked: list[bool] = []  # (after each of the tray's news: is a roll asked about?)
    on_tray = c.on_tray

    def watched(event: TrayEvent) -> None:
        on_tray(event)
        asked.append(c.pending is not None)

    c.on_tray = watched  # type: ignore[method-assign]
    _played(c, frames, synth)
    assert not any(asked)
    assert [(i.player, sorted(i.dice)) for i in r.items] == [("Ana", [2, 5, 6])]
    assert not c.tray_busy
