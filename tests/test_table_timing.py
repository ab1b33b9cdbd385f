"""The table at play: three faults of timing at the buttons and the tray.

- A tap pressed before the dice were thrown but let go after they started moving was
  refused as too late ("This roll counts as silent"): a tap is only known on its
  release, but rules 4.1 locks the call when the dice move, so a call pressed before
  was made in time. It counts now, and the screen says so; a long press or a chord
  begun before the throw still calls nothing.
- A second player's undo within 1.5 s of another's counts once (docs/buttons.md), but
  was silent: the player got no answer. The screen now says who undid what, and how
  to go back further.
- After a power cut, a hand in the camera's first picture hid a die of the last roll
  (or was read as one): the table told the roller of dice "that it did not read", and
  the hand, taken for part of the empty tray, kept the tray "moving" for good. Where
  the table looks at the dice lying at start, it now waits for the picture to lie
  still.
"""

from __future__ import annotations

from table_helpers import reading
from test_table_review6 import rolls, setup_line, table
from test_table_review7 import after_anas_roll
from tray_rig import replayed_tray

from einhorn_table.cli.play import SeatControls
from einhorn_table.ports import Button, Gesture, GestureKind, RawButtonEvent
from einhorn_table.rules import Category, StartRoll, Undo
from einhorn_table.stations.gesture_table import Context
from einhorn_table.stations.gestures import GestureDecoder
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import LyingAtStart, MotionStarted, Settled
from einhorn_table.vision.synth import SynthFrame, SynthTable, mount_guide_view

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def press(c: TableController, decoder: GestureDecoder, player: int, button: Button,
          down: bool, time: float) -> list[Gesture]:
    """A raw button edge through the stations' decoder into the table."""
    gestures = decoder.feed(RawButtonEvent(player, button, down, time))
    for gesture in gestures:
        c.on_gesture(gesture)
    return gestures


def wait(c: TableController, decoder: GestureDecoder, time: float) -> None:
    for gesture in decoder.tick(time):
        c.on_gesture(gesture)


# ---------------------------------------------------------------- a tap across the throw


def test_a_tap_pressed_before_the_throw_and_let_go_after_counts() -> None:
    """Ana presses Wunsch, throws with her other hand, and lets go as the dice move."""
    c, r = table()
    decoder = GestureDecoder()
    press(c, decoder, 0, W, True, 4.9)
    c.on_tray(MotionStarted(5.0))
    (gesture,) = press(c, decoder, 0, W, False, 5.2)
    assert gesture.kind is GestureKind.TAP and gesture.pressed == 4.9
    assert c.call_draft is Category.WUNSCH and c.call_locked
    assert c.notice_at(5.2) == "Ana's call of Wunsch counts: pressed before the dice moved."
    c.on_tray(Settled(6.0, reading([3, 3, 1])))
    assert rolls(r) == [("Ana", [1, 3, 3])]
    assert c.match.ledger().player("Ana").game_stones == 7 + 2  # her Wunsch called


def test_a_tap_of_the_call_already_made_across_the_throw_takes_it_back() -> None:
    c, _ = table()
    decoder = GestureDecoder()
    press(c, decoder, 0, W, True, 3.0)
    press(c, decoder, 0, W, False, 3.1)
    press(c, decoder, 0, W, True, 4.9)
    c.on_tray(MotionStarted(5.0))
    press(c, decoder, 0, W, False, 5.2)
    assert c.call_draft is None
    assert c.notice_at(5.2) == ("Ana's call is taken back (silent): pressed before the dice "
                                "moved.")


def test_a_tap_pressed_after_the_dice_started_moving_is_too_late() -> None:
    c, _ = table()
    decoder = GestureDecoder()
    c.on_tray(MotionStarted(5.0))
    press(c, decoder, 0, W, True, 5.1)
    press(c, decoder, 0, W, False, 5.2)
    assert c.call_draft is None
    assert c.notice_at(5.2).startswith("Too late: the dice are moving")
    c.on_tray(Settled(6.0, reading([3, 3, 1])))
    assert c.match.ledger().player("Ana").game_stones == 7 - 1  # silent


def test_a_long_press_or_a_chord_begun_before_the_throw_calls_nothing() -> None:
    c, _ = table()
    decoder = GestureDecoder()
    press(c, decoder, 0, W, True, 4.6)
    c.on_tray(MotionStarted(5.0))
    wait(c, decoder, 5.3)  # (a long press at 5.3)
    press(c, decoder, 0, W, False, 5.5)
    assert c.call_draft is None
    press(c, decoder, 0, W, True, 7.9)  # the help chord, Wunsch then Einhorn
    press(c, decoder, 0, E, True, 8.1)
    c.on_tray(MotionStarted(8.2))
    press(c, decoder, 0, W, False, 8.3)
    press(c, decoder, 0, E, False, 8.4)
    assert c.call_draft is None and c.help is not None


def test_the_decoder_tells_when_only_a_tap_was_pressed() -> None:
    decoder = GestureDecoder()
    decoder.feed(RawButtonEvent(0, W, True, 1.0))
    (tapped,) = decoder.feed(RawButtonEvent(0, W, False, 1.3))
    decoder.feed(RawButtonEvent(0, E, True, 2.0))
    (held,) = decoder.tick(2.8)
    decoder.feed(RawButtonEvent(0, E, False, 3.0))
    decoder.feed(RawButtonEvent(0, U, True, 4.0))
    (both,) = decoder.feed(RawButtonEvent(0, D, True, 4.2))
    assert (tapped.kind, tapped.pressed) == (GestureKind.TAP, 1.0)
    assert (held.kind, held.pressed) == (GestureKind.LONG, None)
    assert (both.kind, both.pressed) == (GestureKind.CHORD, None)


class _Station:
    description = "one station"
    simulated = False

    def __init__(self, gestures: list[Gesture]) -> None:
        self.gestures = gestures

    def poll(self) -> list[Gesture]:
        gestures, self.gestures = self.gestures, []
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        return ()

    def close(self) -> None:
        pass


def test_the_real_tables_stations_keep_when_a_tap_was_pressed() -> None:
    """``play`` turns station numbers into seats; it kept the tap but lost its press."""
    seats = SeatControls(_Station([Gesture(2, GestureKind.TAP, (W,), 5.2, 4.9)]), {2: 0})
    assert seats.poll() == [Gesture(0, GestureKind.TAP, (W,), 5.2, 4.9)]


# ---------------------------------------------------------------- two undos at once


def test_a_second_players_undo_at_once_is_answered() -> None:
    c, r = after_anas_roll()
    chord = (U, D)
    c.on_gesture(Gesture(1, GestureKind.CHORD, chord, 10.0))  # Ben undoes Ana's roll
    assert c.notice_at(10.0) == "Ben undid Ana's roll 2 2 5"
    c.on_gesture(Gesture(0, GestureKind.CHORD, chord, 10.6))  # Ana too, for the same slip
    assert [i for i in r.items if isinstance(i, Undo)] == [Undo()]
    assert c.notice_at(10.6) == ("Undone once (Ben and Ana both asked): Ana's roll 2 2 5. "
                                 "To go back further, undo again.")
    c.on_gesture(Gesture(0, GestureKind.CHORD, chord, 12.0))  # later: it goes further
    assert len([i for i in r.items if isinstance(i, Undo)]) == 2


def test_a_second_undo_at_once_of_a_roll_asked_about_is_answered() -> None:
    c, r = after_anas_roll()
    c.on_tray(MotionStarted(5.0))
    c.on_tray(Settled(6.0, reading([3, None, 1])))
    assert c.pending is not None and c.pending.roller == 1
    c.on_gesture(Gesture(1, GestureKind.CHORD, (U, D), 7.0))
    c.on_gesture(Gesture(0, GestureKind.CHORD, (U, D), 7.5))
    # (The table's instruction after the first undo stays on the screen.)
    assert c.notice_at(7.5) == ("Undone once (Ben and Ana both asked): the dice as read. "
                                "Ben: roll again")
    assert c.pending is None and rolls(r) == [("Ana", [2, 2, 5])]


# ---------------------------------------------------------------- a hand at start


def _started_with_a_hand(lying: list[int]) -> tuple[TableController, list[tuple[float, str]]]:
    """Ana rolled 2 2 5, Ben is to roll; the table starts again (a power cut) with
    ``lying`` in the tray and Ben's hand reaching over them in the first picture,
    trembling as a hand held out does; the hand goes. What the screen noted after each
    of the tray's news (time, notice)."""
    c, r = after_anas_roll()
    again = TableController(c.match, r, [Seat("Ana"), Seat("Ben")])
    synth = SynthTable(seed=5, **mount_guide_view())
    synth.still(lying)
    layout = synth.layout
    frames = [synth.render(layout, hand=synth._hand_pose(1, 0.8 + 0.01 * (k % 2), fist=False,
                                                         aim=0.01 * (k % 3)))
              for k in range(10)]
    frames += [synth.render(layout, hand=synth._hand_pose(1, 0.8 * (1 - k / 6) - 0.05,
                                                          fist=False)) for k in range(1, 7)]
    frames += [synth.render(layout) for _ in range(90)]
    return again, _played(again, frames, synth, lying)


def _played(again: TableController, frames: list[SynthFrame], synth: SynthTable,
            lying: list[int]) -> list[tuple[float, str]]:
    """``frames`` through a vision tray into the table ``again`` (started again, or a
    new match), with ``lying`` in the tray at start (told as such, if at all): (time,
    notice) after each of the tray's news."""
    tray, clock, times = replayed_tray(frames, synth)
    tray.dice_at_start = again.looks_at_start
    noted: list[tuple[float, str]] = []
    for t in times:
        clock.now = t
        for event in tray.poll():
            again.on_tray(event)
            if isinstance(event, LyingAtStart):
                assert sorted(v or 0 for v in event.reading.values) == sorted(lying)
            noted.append((t, again.notice_at(t)))
    return noted


def test_a_hand_in_the_first_picture_after_a_power_cut_gives_no_false_notice() -> None:
    """The hand hid one of Ana's dice: the table told Ben of dice it did not read, and
    the hand, taken for the empty tray, kept the tray moving: Ben's throw was never read."""
    c, noted = _started_with_a_hand([5, 2, 2])
    assert noted and all(text == "" for _, text in noted)
    assert c.unread_at_start is None and not c.tray_busy
    assert c.context(1) is Context.CALL and not c.call_locked


def test_unread_dice_under_a_hand_after_a_power_cut_are_told_once_it_has_gone() -> None:
    c, noted = _started_with_a_hand([4, 4, 6])
    assert c.unread_at_start == 1 and not c.tray_busy
    assert noted[0][0] >= 16 / 30  # (the hand gone)
    assert noted[-1][1].startswith("The table started again with dice in the tray that it "
                                   "did not read. Ben:")


def test_dice_thrown_at_once_after_a_power_cut_are_a_roll() -> None:
    """Ben throws as soon as the table shows his turn again (the demo's bots do): the
    tray lay still a moment first. The throw was taken for dice lying at start, never
    read as a roll, and the table asked about them and waited."""
    c, r = after_anas_roll()
    again = TableController(c.match, r, [Seat("Ana"), Seat("Ben")])
    synth = SynthTable(seed=5, **mount_guide_view())  # (Ana's dice taken out meanwhile)
    frames = synth.roll_sequence([6, 4, 1], player=1, settle_frames=40)  # (3 still frames)
    noted = _played(again, frames, synth, [])
    assert rolls(r) == [("Ana", [2, 2, 5]), ("Ben", [1, 4, 6])]
    assert again.unread_at_start is None and not again.tray_busy
    assert not any("did not read" in text for _, text in noted)


def test_a_hand_in_the_first_picture_of_a_new_match_does_not_stop_the_tray_for_good() -> None:
    """At a match's start the watcher takes the first picture for the empty tray: with a
    hand in it, the tray waited for that hand to go for good ("Waiting for the tray to lie
    still"), and Ana's roll was never read. A tray lying still for seconds, no die in it,
    is the empty tray now."""
    c, r = table([setup_line(["Ana", "Ben"])])  # (the starting rolls first)
    synth = SynthTable(seed=5, **mount_guide_view())
    hand = [synth._hand_pose(0, 0.8 - 0.8 * k / 8, fist=False) for k in range(8)]
    frames = [synth.render((), hand=pose) for pose in hand]
    frames += [synth.empty() for _ in range(100)]  # (3.3 s)
    frames += synth.roll_sequence([3, 3, 1], settle_frames=40)
    assert not c.looks_at_start()
    noted = _played(c, frames, synth, [])
    assert [(i.player, sorted(i.dice)) for i in r.items] == [("Ana", [1, 3, 3])]
    assert isinstance(r.items[0], StartRoll)
    assert not c.tray_busy and "Waiting for the tray" not in noted[-1][1]
