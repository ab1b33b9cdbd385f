"""A note that says what a button does, or how long to wait, is true for as long as it
stands (review of the notes that stay as long as they take to read): the dice entry's
answer to a hold says what ✗ does at the marked die (on the first it leaves the entry
for a new throw, as its tile says), and the final standings' "hold OK again in 2
seconds" goes once the hold is taken."""

from __future__ import annotations

from table_helpers import reading, tap
from test_table_moments import START, THREE, setup_line, table
from test_table_review6 import _finished

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.stations.gesture_table import NEXT_MATCH_AFTER_SECONDS
from einhorn_table.table.events import MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def test_a_hold_at_the_first_die_says_that_x_rolls_again() -> None:
    c, _ = table([setup_line(THREE), *START])
    c.on_tray(MotionStarted(1.0))
    c.on_tray(Settled(2.0, reading([2, None, 3])))  # a die unread: Ana enters them
    assert c.entry is not None and c.entry.position == 0
    c.on_gesture(Gesture(0, GestureKind.LONG, (W,), 3.0))
    told = c.notice_at(3.1)
    assert told.endswith("✗ to roll again."), told
    c.on_gesture(tap(0, D, 4.0))  # she taps ✗ as told: the entry is left
    assert c.entry is None and c.pending is None
    assert c.notice_at(4.1) == "Ana: roll again"


def test_a_hold_at_a_later_die_says_that_x_goes_back_one() -> None:
    c, _ = table([setup_line(THREE), *START])
    c.on_tray(MotionStarted(1.0))
    c.on_tray(Settled(2.0, reading([2, None, 3])))
    c.on_gesture(tap(0, E, 3.0))  # the first die is right: on to the second
    assert c.entry is not None and c.entry.position == 1
    c.on_gesture(Gesture(0, GestureKind.LONG, (W,), 4.0))
    told = c.notice_at(4.1)
    assert told.endswith("✗ to go back one."), told
    c.on_gesture(tap(0, D, 5.0))
    assert c.entry is not None and c.entry.position == 0


def test_the_wait_for_a_new_match_goes_once_the_hold_is_taken() -> None:
    c, ended = _finished()
    opens = ended + NEXT_MATCH_AFTER_SECONDS
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), opens - 2.0))
    told = ("The final standings stay a moment: hold OK again in 2 seconds for a new "
            "match.")
    assert c.notice_at(opens - 1.0) == told
    # (Read aloud it would stay some 7 seconds: "in 2 seconds" past the 2 seconds.)
    assert c.notice_at(opens + 0.5) != told
    c.on_gesture(Gesture(1, GestureKind.LONG, (E,), opens + 1.0))
    assert c.next_match_asked is not None


def test_the_demos_note_on_a_key_goes_once_the_table_takes_the_next_input() -> None:
    """The demo answers a key that did nothing with a note of its own; it now stays as
    long as it takes to read, and "it is Ana's turn to roll" stood over Ben's own turn
    once Ana had rolled (the table's own answer goes at the next input)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from types import SimpleNamespace

    from test_demo_review4 import started

    from einhorn_table.cli.table_app import DemoKeys, KeyboardScreen
    from einhorn_table.screen.view_model import ScreenView, build_view

    c = started()
    keys = DemoKeys(["Ana", "Ben"], frozenset())
    shown: list[ScreenView] = []
    inner = SimpleNamespace(quit_requested=False,
                            show=lambda view, now, key=None: shown.append(view))
    screen = KeyboardScreen(inner, ["Ana", "Ben"], frozenset(),  # type: ignore[arg-type]
                            lambda: c, lambda: c.roller(), keys)
    c.on_gesture(tap(0, E, 4.0))  # Ana calls Einhorn
    keys.check(c, tap(1, W, 5.0), open_to=True)  # Ben's key on her turn
    told = "Ben: key W does nothing now; it is Ana's turn to roll."
    screen.show(build_view(c, 5.5), 5.5)
    assert told in shown[-1].notice
    c.on_tray(MotionStarted(6.0))
    c.on_tray(Settled(7.0, reading([4, 4, 2])))  # Ana rolls: now it is Ben's turn
    assert c.roller() == 1 and keys.note.at(8.0) == told  # (still being read)
    screen.show(build_view(c, 8.0), 8.0)
    assert "Ana's turn" not in shown[-1].notice
