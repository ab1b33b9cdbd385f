"""The table at play through odd moments a family causes (review 7).

- A call pressed while the last roll's dice were nudged (or taken out, or a hand
  passed) was refused as too late, the call was freed once the tray lay still, and the
  press was lost: the player rolled silent without knowing. Nobody threw, so by rules
  4.1 the call counts: it is taken once the tray lies still.
- Presses that do nothing at the moment (out of turn, a held button while calling, a
  button in a starting roll) got no answer on the stations' table; the desktop demo
  answered its keys. The table now says why nothing happened.
- A power cut while the table asked about dice by a hand or cup: when the match went
  on, the dice still lying were taken for the empty tray (the watcher's first picture)
  and the turn was shown as if nothing had been thrown. The tray now reads its first
  picture where the table asks, and the table says the dice were not read: the roller
  takes them out, calls again and rolls.
"""

from __future__ import annotations

from pathlib import Path

from table_helpers import MemoryRecorder, reading, tap
from table_rig import WallClock
from test_table_review6 import rolls, setup_line, table
from tray_rig import replayed_tray

from einhorn_table.cli.table_app import start_match
from einhorn_table.history import MatchStore, TableLog
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import Category, replay
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import (
    LyingAtStart,
    MotionStarted,
    NotRolled,
    Settled,
    TrayEvent,
)
from einhorn_table.table.resume import Choice
from einhorn_table.vision.synth import SynthTable, mount_guide_view

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def after_anas_roll() -> tuple[TableController, MemoryRecorder]:
    """Ana rolled (silent) 2 2 5; her dice lie in the tray; Ben is to roll."""
    c, r = table()
    c.on_tray(MotionStarted(1.0))
    c.on_tray(Settled(2.0, reading([2, 2, 5])))
    assert rolls(r) == [("Ana", [2, 2, 5])] and c.context(1) is Context.CALL
    return c, r


# ---------------------------------------------------------------- a call while dice are nudged


def test_a_call_pressed_while_the_last_rolls_dice_are_nudged_counts() -> None:
    """Ben calls Wunsch while Ana's dice, still in the tray, are pushed a little: nobody
    threw, so his call counts (before, it was refused and lost, and he rolled silent)."""
    c, r = after_anas_roll()
    c.on_tray(MotionStarted(5.0))  # Ana's dice nudged
    c.on_gesture(tap(1, W, 5.3))
    assert c.notice_at(5.3).startswith("Too late: the dice are moving")
    c.on_tray(NotRolled(6.0, hand_seen=True, dice_still=False))
    assert not c.call_locked
    assert c.call_draft is Category.WUNSCH
    assert c.notice_at(6.0) == "Nobody threw: Ben's call of Wunsch counts."
    c.on_tray(MotionStarted(8.0))  # Ben throws
    c.on_tray(Settled(9.0, reading([3, 3, 1])))
    assert rolls(r)[-1] == ("Ben", [1, 3, 3])
    assert c.match.ledger().player("Ben").game_stones == 6 + 2  # his Wunsch called


def test_a_call_pressed_while_the_last_rolls_dice_are_taken_out_counts() -> None:
    c, _ = after_anas_roll()
    c.on_tray(MotionStarted(5.0))  # Ana takes her dice out
    c.on_gesture(tap(1, E, 5.5))
    c.on_tray(Settled(6.0, reading([])))  # the tray is empty
    assert c.call_draft is Category.EINHORN and not c.call_locked


def test_a_call_pressed_during_the_players_own_throw_stays_too_late() -> None:
    c, r = after_anas_roll()
    c.on_tray(MotionStarted(5.0))  # Ben throws
    c.on_gesture(tap(1, W, 5.3))
    c.on_tray(Settled(6.0, reading([3, 3, 1])))
    assert rolls(r)[-1] == ("Ben", [1, 3, 3])
    assert c.match.ledger().player("Ben").game_stones == 6 - 1  # silent
    assert c.call_draft is None and c.held_calls == []


def test_a_call_pressed_during_a_throw_asked_about_is_not_taken_later() -> None:
    """Ben's press came while his dice moved; the roll is asked about (a die unclear),
    then a hand passes: the question stands and his call stays as it was (silent)."""
    c, _ = after_anas_roll()
    c.on_tray(MotionStarted(5.0))
    c.on_gesture(tap(1, W, 5.3))
    c.on_tray(Settled(6.0, reading([3, None, 1])))
    assert c.pending is not None
    c.on_tray(MotionStarted(7.0))
    c.on_tray(NotRolled(8.0, hand_seen=True, dice_still=True))
    assert c.pending is not None and c.call_locked and c.call_draft is None


# ---------------------------------------------------------------- presses that do nothing


def test_a_press_out_of_turn_says_whose_turn_it_is() -> None:
    c, _ = table()
    c.on_gesture(tap(1, W, 3.0))  # Ben presses on Ana's turn
    assert c.notice_at(3.0) == "Not your turn, Ben: it is Ana's turn to roll."
    assert c.call_draft is None


def test_a_press_out_of_turn_while_a_roll_is_asked_about_says_so() -> None:
    c, _ = table()
    c.on_tray(MotionStarted(1.0))
    c.on_tray(Settled(2.0, reading([3, None, 1])))
    c.on_gesture(tap(1, E, 3.0))
    assert c.notice_at(3.0) == "Not your turn, Ben: Ana is telling the table their dice."


def test_a_button_held_to_call_says_to_tap_it() -> None:
    c, _ = table()
    c.on_gesture(Gesture(0, GestureKind.LONG, (W,), 3.0))
    assert c.call_draft is None
    assert c.notice_at(3.0) == ("Ana: holding a button calls nothing. Tap one button to "
                                "call, then roll.")


def test_a_button_in_the_starting_roll_says_to_throw() -> None:
    c, _ = table([setup_line(["Ana", "Ben", "Cem"])])
    c.on_gesture(tap(1, W, 3.0))
    assert c.notice_at(3.0) == ("Ben: nobody calls in this roll. Throw your three dice "
                                "into the tray.")


def test_a_press_out_of_turn_does_not_hide_what_the_table_just_said() -> None:
    c, _ = table()
    c.on_gesture(Gesture(1, GestureKind.CHORD, (U, D), 1.0))  # Ben undoes his start roll
    said = c.notice_at(1.0)
    assert said == "Undone: Ben's roll 1 1 2"
    c.on_gesture(tap(0, W, 1.5))  # Ana, who rolled, presses
    assert c.notice_at(1.5) == said
    c.on_gesture(tap(0, W, 6.0))  # (later, it is answered)
    assert c.notice_at(6.0) == "Not your turn, Ana: it is Ben's turn to roll."


def test_a_keyboard_demo_answers_its_keys_itself() -> None:
    """Where the notices name keys (the desktop demo), the demo's own line answers a key
    that does nothing; the table says nothing over it."""
    c, _ = table()
    c.button_name = lambda player, button: f"key {button.position}"
    c.on_gesture(tap(1, W, 3.0))
    assert c.notice_at(3.0) == ""
    c.answers_idle_presses = True
    c.on_gesture(tap(1, W, 4.0))
    assert c.notice_at(4.0).startswith("Not your turn, Ben")


# ---------------------------------------------------------------- a power cut at the question


def asked_with_a_cup(tmp_path: Path) -> tuple[MatchStore, str]:
    """Ana calls Wunsch and throws; a cup by a die hides one past the tray's limit: the
    table asks about two dice. Then the power goes (the store is left as it stood)."""
    store = MatchStore(tmp_path / "state", now=WallClock())
    started = start_match(TableLog(store), replay([setup_line(["Ana", "Ben"])]).setup, None,
                          Choice.NEW)
    c = TableController(started.match, started.recorder, [Seat("Ana"), Seat("Ben")])
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([6, 6, 5])))
    c.on_tray(MotionStarted(2.0))
    c.on_tray(Settled(3.0, reading([1, 1, 2])))
    assert c.match.state.to_act == 0
    c.on_gesture(tap(0, W, 4.0))
    c.on_tray(MotionStarted(5.0))
    c.on_tray(Settled(12.0, reading([4, 4]), held_too_long=True))
    assert c.pending is not None
    assert c.pending.doubt.again == ": a hand or cup may hide one. Take it away, or roll again"
    return store, started.match_id


def resumed(store: MatchStore, match_id: str) -> TableController:
    row = store.unfinished()
    assert row is not None and row.match_id == match_id
    started = start_match(TableLog(store), replay([setup_line(["Ana", "Ben"])]).setup, row,
                          Choice.CONTINUE)
    return TableController(started.match, started.recorder, [Seat("Ana"), Seat("Ben")])


def test_after_a_power_cut_dice_lying_unread_are_told_to_be_thrown_again(
        tmp_path: Path) -> None:
    """The power comes back with Ana's dice still in the tray (the cup gone). Before, the
    table took them for the empty tray and showed Ana's turn as if nothing had been
    thrown, her call gone without a word. Now it says the dice were not read, and Ana
    calls again and rolls (the call was never written: the table cannot know it)."""
    store, match_id = asked_with_a_cup(tmp_path)
    c = resumed(store, match_id)
    assert c.looks_at_start()
    c.on_tray(LyingAtStart(100.0, reading([4, 4, 6])))
    told = ("The table started again with dice in the tray that it did not read. Ana: take "
            "them out, make your call again, and roll.")
    assert c.pending is None and c.notice_at(100.0) == told
    assert c.notice_at(160.0) == told  # (it stands: nobody may have looked at once)
    c.on_gesture(tap(0, W, 161.0))  # Ana calls Wunsch again
    assert c.call_draft is Category.WUNSCH
    c.on_tray(MotionStarted(162.0))  # she takes the dice out
    assert c.notice_at(162.5) == ""
    c.on_tray(Settled(163.0, reading([])))
    assert c.call_draft is Category.WUNSCH and not c.call_locked
    c.on_tray(MotionStarted(164.0))
    c.on_tray(Settled(165.0, reading([3, 3, 1])))
    assert c.match.ledger().player("Ana").game_stones == 7 + 2
    store.close()


def test_after_a_power_cut_the_last_rolls_dice_lying_are_left_as_ever(
        tmp_path: Path) -> None:
    c, r = after_anas_roll()
    again = TableController(c.match, r, [Seat("Ana"), Seat("Ben")])
    assert again.looks_at_start()
    again.on_tray(LyingAtStart(1.0, reading([5, 2, 2])))
    assert again.pending is None and again.notice_at(1.0) == ""
    assert again.context(1) is Context.CALL


def test_a_new_match_does_not_look_at_the_tray_at_start() -> None:
    c, _ = table([setup_line(["Ana", "Ben"])])
    assert not c.looks_at_start()
    c.on_tray(LyingAtStart(1.0, reading([4, 4, 6])))
    assert c.notice_at(1.0) == "" and c.pending is None


def test_the_tray_tells_the_dice_lying_in_its_first_picture_once() -> None:
    """The real watcher takes the first picture for the empty tray; the dice lying there
    (after a power cut) were never told. Now they are, once, where the table asks for
    them; the dice taken out and a new throw are read as ever."""
    synth = SynthTable(seed=5, **mount_guide_view())
    synth.still([4, 4, 6])
    frames = synth.settled_frames(20)
    frames += [synth.empty() for _ in range(25)]
    frames += synth.roll_sequence([2, 3, 5], settle_frames=40, empty_frames=0)
    tray, clock, times = replayed_tray(frames, synth)
    tray.dice_at_start = lambda: True  # (a match going on at a turn)
    told: list[tuple[int, TrayEvent]] = []
    for i, t in enumerate(times):
        clock.now = t
        told += [(i, e) for e in tray.poll()]
    lying = [(i, e) for i, e in told if isinstance(e, LyingAtStart)]
    # (Once the picture has lain still as long as dice must to be read: a hand in the
    # first picture is not taken for the tray.)
    assert len(lying) == 1 and lying[0][0] == 12
    assert sorted(v or 0 for v in lying[0][1].reading.values) == [4, 4, 6]
    rolled = [e.reading.values for _, e in told if isinstance(e, Settled) and e.reading.dice]
    assert [sorted(v or 0 for v in values) for values in rolled] == [[2, 3, 5]]


def test_einhorn_held_to_call_it_says_to_tap_it() -> None:
    """A hold of OK (Einhorn) enters dice by hand only while the camera is lost; with the
    camera reading, Ana who held it to call Einhorn was told nothing and rolled silent."""
    c, _ = table()
    c.on_gesture(Gesture(0, GestureKind.LONG, (E,), 3.0))
    assert c.call_draft is None and c.pending is None
    assert c.notice_at(3.0) == ("Ana: holding a button calls nothing. Tap one button to "
                                "call, then roll.")


def test_two_players_pressing_at_once_ana_calls_and_ben_is_told() -> None:
    c, _ = table()
    c.on_gesture(tap(0, W, 3.0))
    c.on_gesture(tap(1, E, 3.0))
    assert c.call_draft is Category.WUNSCH
    assert c.notice_at(3.0) == "Not your turn, Ben: it is Ana's turn to roll."
