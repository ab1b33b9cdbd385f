"""The table at play through odd moments at a real table (review 6).

- A hand or cup left by a die at the tray's rim past the tray's limit for waiting:
  the table asks about the roll (a die hidden: two dice seen). Before, when the hand
  or cup then went, the dice lying just as they lay, the question stood, with three
  dice plainly in the tray; now they are read again and the roll is taken, and the
  question says what to do.
- An input taken while a hand moves in the tray (the auction's last bid, another
  player's top-up) left the next roller's call locked, as if the dice had been thrown:
  the unicorn owner could not call, and was told the dice had been thrown.
- The notices that name a button say the control the player has ("hold OK" on the
  stations, the key on the desktop demo's keyboard).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from table_helpers import MemoryRecorder, reading, tap
from test_watcher_edge import _reaching
from test_watcher_resting_hand import (
    FPS,
    SCENE_SECONDS,
    _die,
    _Source,
    _Watcher,
)
from tray_rig import replayed_tray

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.vision_tray import VisionTray
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import Roll, replay
from einhorn_table.stations.gesture_table import NEXT_MATCH_AFTER_SECONDS, Context
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import (
    MotionStarted,
    NotRolled,
    SeenWhole,
    Settled,
    TrayEvent,
)
from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.synth import EdgeThing, SynthFrame, SynthTable, mount_guide_view
from einhorn_table.vision.watcher import EventKind, WatchEvent

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
#: The tray's limit for waiting in these tests (short, to keep them quick).
HOLD = 2.0


def setup_line(names: list[str], **more: object) -> str:
    return json.dumps({"v": 1, "type": "setup", "variant": "einhorn", "players": names,
                       "games": 10, **more})


START = ['{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
         '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}']


def table(lines: list[str] | None = None) -> tuple[TableController, MemoryRecorder]:
    """Ana and Ben, Ana to roll; no dice colours (any dice are anyone's)."""
    match = replay(lines or [setup_line(["Ana", "Ben"]), *START])
    recorder = MemoryRecorder()
    return TableController(match, recorder, [Seat(n) for n in match.names]), recorder


def rolls(recorder: MemoryRecorder) -> list[tuple[str, list[int]]]:
    return [(i.player, sorted(i.dice)) for i in recorder.items if isinstance(i, Roll)]


# ---------------------------------------------------------------- something by a die


def _thrown_by_the_rim(thing: str, seconds: float, seed: int = 21
                       ) -> tuple[list[SynthFrame], int, SynthTable]:
    """Dice 6, 4, 4 thrown (the mount guide's view), the 6 against the tray's bottom
    wall; then a cup set down touching it from outside the tray, or the thrower's
    fingertips resting on it, for ``seconds``; then it goes. Also the frame where it
    went."""
    table = SynthTable(seed=seed, **mount_guide_view())
    values = [6, 4, 4]
    x0, y0, x1, y1 = table.geometry.floor
    places = [*table.against_walls([("bottom", 0.6)]),
              (x0 + 0.3 * (x1 - x0), y0 + 0.35 * (y1 - y0)),
              (x0 + 0.7 * (x1 - x0), y0 + 0.4 * (y1 - y0))]
    frames = [table.empty() for _ in range(5)]
    frames += table.roll_sequence(values, settle_frames=0, empty_frames=0)
    table.still(values, positions=places)
    die = places[0]
    height = table.size[1]
    if thing == "cup":
        table.at_edge = (EdgeThing("cup", (die[0], 1.02 * height), 0.3 * height),)
        frames += [table.render(table.layout) for _ in range(round(seconds * FPS))]
        table.at_edge = ()
    else:
        hand = _reaching(table, die)
        frames += [table.render(table.layout, hand=hand) for _ in range(round(seconds * FPS))]
    gone = len(frames)
    frames += table.settled_frames(30)
    return frames, gone, table


def _play(frames: list[SynthFrame], synth: SynthTable, c: TableController
          ) -> list[tuple[int, TrayEvent]]:
    """The frames through the tray (as ``play`` runs it) to the controller."""
    tray, clock, times = replayed_tray(frames, synth, hold_seconds=HOLD)
    told: list[tuple[int, TrayEvent]] = []
    for i, t in enumerate(times):
        clock.now = t
        for event in tray.poll():
            told.append((i, event))
            c.on_tray(event)
            if isinstance(event, Settled) and event.held_too_long:
                asked = c.pending
                assert asked is not None and len(asked.reading.dice) == 2
                assert asked.doubt.message + asked.doubt.again == (
                    "2 dice seen, not 3: a hand or cup may hide one. Take it away, or "
                    "roll again")
    return told


@pytest.mark.parametrize("thing", ["cup", "hand"])
def test_dice_asked_about_past_the_limit_are_read_once_what_lay_by_them_goes(
        thing: str) -> None:
    """Before, the question (two dice seen) stood after the cup was lifted or the hand
    taken away, and Ana had to enter three dice the camera saw plainly."""
    frames, gone, synth = _thrown_by_the_rim(thing, SCENE_SECONDS + HOLD + 2.0)
    c, r = table()
    c.on_gesture(tap(0, W, 0.0))  # Ana calls Wunsch before she throws
    told = _play(frames, synth, c)
    asked = [i for i, e in told if isinstance(e, Settled) and e.held_too_long]
    assert len(asked) == 1 and asked[0] < gone  # (asked while it still lay there)
    assert [e.reading.values.count(4) for i, e in told if isinstance(e, SeenWhole)] == [2]
    assert c.pending is None
    assert rolls(r) == [("Ana", [4, 4, 6])]
    assert c.match.ledger().player("Ana").game_stones == 7 + 2  # her Wunsch called


def test_dice_lying_as_they_lay_are_read_again_only_where_more_are_seen() -> None:
    """Scripted: a roll told at the limit (two dice: one under the hand); the hand goes
    and the dice lie as they lay: three seen now are told; the same two, as ever (no
    roll); a die pushed (a nudge) is no roll either, whatever is seen."""
    taken = np.zeros((120, 160), np.uint8)
    taken[95:120, 0:35] = 255  # the hand over the first die

    def run(after: EventKind, again: FrameReading) -> list[TrayEvent]:
        script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
                  1.0: [WatchEvent(EventKind.SETTLED, 1.0, taken_in=taken)],
                  5.0: [WatchEvent(EventKind.MOTION_STARTED, 5.0)],
                  5.5: [WatchEvent(after, 5.5, same_as_last=after is EventKind.SETTLED)]}
        two = FrameReading((_die(60.0), _die(110.0, 6)))
        reads = iter([two, again])
        times = [k / 10 for k in range(61)]
        clock = FakeClock(0.0)
        tray = VisionTray(_Source(times), _Watcher(script), lambda image: next(reads), clock,
                          hold_seconds=HOLD)
        told: list[TrayEvent] = []
        for t in times:
            clock.now = t
            told += tray.poll()
        return told

    three = FrameReading((_die(10.0), _die(60.0), _die(110.0, 6)))
    told = run(EventKind.SETTLED, three)
    assert [type(e) for e in told] == [MotionStarted, Settled, MotionStarted, SeenWhole]
    first, whole = told[1], told[3]
    assert isinstance(first, Settled) and first.held_too_long
    assert isinstance(whole, SeenWhole) and sorted(whole.reading.values) == [4, 4, 6]
    two = FrameReading((_die(60.0), _die(110.0, 6)))
    assert [type(e) for e in run(EventKind.SETTLED, two)][-1] is NotRolled
    assert [type(e) for e in run(EventKind.NUDGED, three)][-1] is NotRolled


def test_dice_seen_whole_after_the_question_was_answered_are_no_roll() -> None:
    """Ana entered her dice by hand before taking her hand away: the dice seen whole
    then are not read again (nor for Ben)."""
    c, r = table()
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(9.0, reading([4, 4]), held_too_long=True))
    assert c.entry is not None
    c.entry.values = [4, 4, 6]
    for k in range(3):
        c.on_gesture(tap(0, E, 10.0 + k))
    assert rolls(r) == [("Ana", [4, 4, 6])]
    c.on_tray(MotionStarted(14.0))
    c.on_tray(SeenWhole(14.5, reading([4, 4, 6])))
    assert rolls(r) == [("Ana", [4, 4, 6])] and c.pending is None
    assert not c.call_locked  # Ben may call


def test_a_roll_seen_whole_is_still_asked_about_where_a_die_is_unclear() -> None:
    c, r = table()
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(9.0, reading([4, 4]), held_too_long=True))
    c.on_tray(MotionStarted(14.0))
    c.on_tray(SeenWhole(14.5, reading([4, 4, None])))
    assert rolls(r) == []
    assert c.pending is not None and c.pending.reading.values == (4, 4, None)


# ---------------------------------------------------------------- undo while a hand moves


def test_the_last_bid_sealed_while_a_hand_moves_leaves_the_owners_call_free() -> None:
    """The auction ends (Ana's bid is the highest) while a hand passes over the tray:
    nobody threw, so Ana, the unicorn owner now, may call; before, her call was locked
    and the screen said the dice had been thrown this turn."""
    lines = [setup_line(["Ana", "Ben"]), *START,
             '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
             '{"type": "roll", "player": "Ana", "dice": [6, 6, 6]}',
             '{"type": "bid", "player": "Ana", "stones": 1}']
    c, _ = table(lines)
    c.on_tray(MotionStarted(1.0))  # a hand over the tray
    c.on_gesture(tap(1, E, 1.5))  # Ben seals his bid of 0: the auction is over
    c.on_tray(NotRolled(2.0, hand_seen=True))
    assert c.match.state.unicorn == 0 and c.context(0) is Context.TOPUP
    assert not c.call_locked
    c.on_gesture(tap(0, E, 3.0))  # Ana's top-up of 0; Ben still tops up
    assert c.context(0) is Context.CALL
    c.on_gesture(tap(0, E, 4.0))
    assert c.call_draft is not None and c.call_draft.value == "einhorn"
    assert c.notice_at(4.0) == ""


def test_a_top_up_sealed_while_a_hand_moves_leaves_the_owners_call_free() -> None:
    """Ana owns the unicorn and calls while Ben still tops up; a hand passes over the
    tray as Ben seals his: nobody threw, so Ana's call is still hers to change."""
    lines = [setup_line(["Ana", "Ben"]), *START,
             '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
             '{"type": "roll", "player": "Ana", "dice": [6, 6, 6]}',
             '{"type": "bid", "player": "Ana", "stones": 1}',
             '{"type": "bid", "player": "Ben", "stones": 0}',
             '{"type": "topup", "player": "Ana", "stones": 0}']
    c, _ = table(lines)
    assert c.match.state.unicorn == 0 and c.context(0) is Context.CALL
    assert c.context(1) is Context.TOPUP
    c.on_gesture(tap(0, W, 1.0))
    c.on_tray(MotionStarted(2.0))  # a hand over the tray
    c.on_gesture(tap(1, E, 2.5))  # Ben seals his top-up of 0: Ana is to roll
    c.on_tray(NotRolled(3.0, hand_seen=True))
    assert c.match.state.to_act == 0 and not c.call_locked
    c.on_gesture(tap(0, E, 4.0))
    assert c.call_draft is not None and c.call_draft.value == "einhorn"


def test_a_question_stands_with_its_call_locked_through_a_hand_passing() -> None:
    c, _ = table()
    c.on_gesture(tap(0, W, 1.0))
    c.on_tray(MotionStarted(2.0))
    c.on_tray(Settled(3.0, reading([3, None, 1])))
    assert c.call_locked and c.pending is not None
    c.on_tray(MotionStarted(5.0))
    c.on_tray(NotRolled(6.0, hand_seen=True))
    assert c.call_locked and c.pending is not None


# ---------------------------------------------------------------- the control named


def _finished(button_name: object = None) -> tuple[TableController, float]:
    """A one-game match ended by Ana's called Dreifaltigkeit, at the table."""
    match = replay([setup_line(["Ana", "Ben"], games=1), *START])
    more = {} if button_name is None else {"button_name": button_name}
    c = TableController(match, MemoryRecorder(), [Seat("Ana"), Seat("Ben")],
                        archive=lambda: None, **more)  # type: ignore[arg-type]
    c.on_gesture(tap(0, D, 1.0))
    c.on_tray(MotionStarted(2.0))
    c.on_tray(Settled(3.0, reading([6, 6, 6])))
    assert c.match.over and c.context(1) is Context.FINAL
    return c, 3.0


def test_the_hold_too_early_names_the_stations_ok() -> None:
    c, ended = _finished()
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), ended + 2.0))
    assert c.notice_at(ended + 2.0) == ("The final standings stay a moment: hold OK again "
                                        "in 8 seconds for a new match.")


def test_the_hold_too_early_names_the_key_where_a_keyboard_stands_in() -> None:
    keys = {Button.EINHORN: "E", Button.DREIFALTIGKEIT: "R"}
    c, ended = _finished(lambda player, button: f"key {keys[button]}")
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), ended + 2.0))
    assert c.notice_at(ended + 2.0) == ("The final standings stay a moment: hold key E "
                                        "again in 8 seconds for a new match.")
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), ended + NEXT_MATCH_AFTER_SECONDS + 1))
    assert c.next_match_asked is not None


def test_the_camera_lost_notices_name_the_key_where_a_keyboard_stands_in() -> None:
    from einhorn_table.table.events import CameraLost

    c, _ = table([setup_line(["Ana", "Ben"])])  # the starting rolls: both may throw
    c.button_name = lambda player, button: f"key {'3E'[player]}" if button is E \
        else f"key {'4R'[player]}"
    c.on_tray(CameraLost(1.0, "unplugged"))
    c.on_gesture(Gesture(0, GestureKind.LONG, (E,), 2.0))  # Ana enters her dice by hand
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), 2.5))
    assert c.notice is not None and c.notice.text == (
        "Ana is entering their dice first: hold key E again after that.")
    c.on_gesture(tap(0, D, 3.0))  # Ana leaves the entry
    assert c.notice is not None and c.notice.text == (
        "Ana: throw again, then hold key 3 to enter the dice")


# ---------------------------------------------------------------- a call just before the throw


def test_a_call_tapped_just_before_the_dice_moved_counts_though_told_after() -> None:
    """The loop takes the tray's news before the buttons': Ana's tap of Wunsch, let go
    just before her dice started moving, came to the table just after. It was made
    before the throw (rules 4.1): it counts. Before, it was refused as too late."""
    c, r = table()
    c.on_tray(MotionStarted(10.0))
    c.on_gesture(tap(0, W, 9.98))
    assert c.call_draft is not None and c.call_draft.value == "wunsch"
    assert c.call_locked and c.notice_at(10.0) == ""
    c.on_tray(Settled(11.0, reading([2, 2, 5])))
    assert rolls(r) == [("Ana", [2, 2, 5])]
    assert c.match.ledger().player("Ana").game_stones == 7 + 2


def test_a_call_tapped_after_the_dice_moved_is_too_late() -> None:
    c, _ = table()
    c.on_tray(MotionStarted(10.0))
    c.on_gesture(tap(0, W, 10.1))
    assert c.call_draft is None
    assert c.notice_at(10.2).startswith("Too late: the dice are moving")
    c.on_gesture(tap(1, W, 9.9))  # (Ben's buttons call nothing on Ana's turn)
    assert c.call_draft is None
    c.on_tray(Settled(11.0, reading([2, 2, 5])))
    assert c.match.ledger().player("Ana").game_stones == 7 - 1  # silent
