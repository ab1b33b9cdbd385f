"""Review of the change to the table at play, its screens and the demo (change 10).

- Dice seen whole after a question asked past the tray's limit are the whole roll: where
  they were still fewer than three, they were taken for the rest of a roll thrown in two
  goes and the die asked about was counted twice (OK recorded 5 5 3 for a 5 and a 3).
- The question for one die seen says a hand or cup may hide two, not one.
- A hand passing over the tray while a roll was undone left the roller's call locked
  ("Too late: the dice were thrown once this turn") though no die moved; after an undo
  with the tray still, the call is free.
- A top-up not sealed names the key to press where a keyboard stands in ("OK" on the
  stations), and two of them "were" not sealed.
- ``demo --continue`` without a window and with nothing to go on with offered a command
  the demo itself then refused (people at the keyboard): it offers bots in every seat.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from table_helpers import chord, reading, tap
from test_table_review6 import START, rolls, setup_line, table
from test_watcher_resting_hand import _die, _Source, _Watcher

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.vision_tray import VisionTray
from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting, Undo
from einhorn_table.table.controller import TableController
from einhorn_table.table.doubt import DoubtKind
from einhorn_table.table.events import MotionStarted, NotRolled, SeenWhole, Settled, TrayEvent
from einhorn_table.vision.results import FrameReading
from einhorn_table.vision.watcher import EventKind, WatchEvent

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


# ---------------------------------------------------------------- dice seen whole


def test_dice_seen_whole_are_never_taken_for_a_second_go_counting_a_die_twice() -> None:
    """A cup by the dice hid two of them past the limit: one die (a 5) was asked about.
    The cup lifted, two dice are seen (the 5 and a 3; the third still out of sight):
    they are the roll asked about, read again, not the rest of it. Before, the 5 was
    counted twice: "3 dice thrown in two goes", 5 5 3, and OK recorded it."""
    c, r = table()
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(9.0, reading([5]), held_too_long=True))
    assert c.pending is not None
    assert c.pending.doubt.message + c.pending.doubt.again == (
        "1 die seen, not 3: a hand or cup may hide two. Take it away, or roll again")
    c.on_tray(MotionStarted(14.0))
    c.on_tray(SeenWhole(14.5, reading([5, 3])))
    asked = c.pending
    assert asked is not None and asked.doubt.kind is DoubtKind.COUNT
    assert sorted(v for v in asked.reading.values if v is not None) == [3, 5]
    assert not asked.confirmable
    c.on_gesture(tap(0, E, 16.0))  # OK does not take two dice for three
    assert rolls(r) == []


def test_dice_seen_whole_in_full_are_still_read_at_once() -> None:
    c, r = table()
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(9.0, reading([5, 3]), held_too_long=True))
    c.on_tray(MotionStarted(14.0))
    c.on_tray(SeenWhole(14.5, reading([5, 3, 2])))
    assert c.pending is None and rolls(r) == [("Ana", [2, 3, 5])]


# ---------------------------------------------------------------- an undo while a hand passes


def _ana_undoes_her_roll_while_the_tray_moves() -> TableController:
    c, r = table([setup_line(["Ana", "Ben"]), *START,
                  '{"type": "roll", "player": "Ana", "dice": [1, 2, 4]}'])
    assert c.roller() == 1 and not c.call_locked
    c.on_tray(MotionStarted(1.0))
    c.on_gesture(chord(0, U, D, 1.5))  # Ana's roll is taken back
    assert isinstance(r.items[-1], Undo) and c.roller() == 0
    return c


def test_a_hand_passing_while_a_roll_is_undone_leaves_the_call_free() -> None:
    c = _ana_undoes_her_roll_while_the_tray_moves()
    c.on_tray(NotRolled(2.0, hand_seen=True, dice_still=True))  # no die moved
    assert not c.call_locked
    c.on_gesture(tap(0, W, 3.0))
    assert c.call_draft is not None and c.call_draft.value == "wunsch"
    assert not c.notice_at(3.0).startswith("Too late")


def test_dice_moved_while_a_roll_is_undone_keep_the_call_locked() -> None:
    c = _ana_undoes_her_roll_while_the_tray_moves()
    c.on_tray(NotRolled(2.0, hand_seen=True))  # a die pushed (a nudge)
    assert c.call_locked


def _scripted_tray(after: EventKind, same: bool) -> list[TrayEvent]:
    """Dice lie still; a hand passes (or pushes a die): what the tray tells then."""
    script = {0.0: [WatchEvent(EventKind.MOTION_STARTED, 0.0)],
              1.0: [WatchEvent(EventKind.SETTLED, 1.0)],
              3.0: [WatchEvent(EventKind.MOTION_STARTED, 3.0, hand_seen=True)],
              3.5: [WatchEvent(after, 3.5, same_as_last=same, hand_seen=True)]}
    three = FrameReading((_die(10.0), _die(60.0), _die(110.0, 6)))
    times = [k / 10 for k in range(41)]
    clock = FakeClock(0.0)
    tray = VisionTray(_Source(times), _Watcher(script), lambda image: three, clock)
    told: list[TrayEvent] = []
    for t in times:
        clock.now = t
        told += tray.poll()
    return told


@pytest.mark.parametrize(("after", "same", "still"), [
    (EventKind.SETTLED, True, True), (EventKind.NUDGED, False, False)])
def test_the_tray_tells_whether_the_dice_lie_as_they_lay(after: EventKind, same: bool,
                                                         still: bool) -> None:
    told = _scripted_tray(after, same)
    last = told[-1]
    assert isinstance(last, NotRolled) and last.hand_seen
    assert last.dice_still is still


# ---------------------------------------------------------------- the key named


def _owner_rolls_with_top_ups_unsealed(counting: list[int]) -> TableController:
    """Dia owns the unicorn after Ana ran out; she rolls while those in ``counting``
    have counted a top-up of 1 and not sealed it (at a keyboard: OK is key E for Ben,
    key L for Cem)."""
    names = ["Ana", "Ben", "Cem", "Dia"]
    call = '{"type": "call", "player": "Ana", "call": "einhorn"}'

    def roll_line(player: str) -> str:
        return json.dumps({"type": "roll", "player": player, "dice": [2, 2, 3]})

    start = [json.dumps({"type": "start_roll", "player": n, "dice": d}) for n, d in
             zip(names, ([6, 6, 5], [1, 1, 2], [1, 1, 3], [1, 1, 4]), strict=True)]
    rounds = [call, *(roll_line(n) for n in names)]
    bids = [json.dumps({"type": "bid", "player": n, "stones": k})
            for n, k in zip(names, (0, 0, 1, 2), strict=True)]
    c, _ = table([setup_line(names), *start, *rounds * 3, call, roll_line("Ana"), *bids])
    assert c.awaiting is Awaiting.TOPUP and c.match.state.unicorn == 3
    c.button_name = lambda player, button: f"key {'3ELP'[player]}"
    c.on_gesture(tap(3, E, 1.0))  # Dia, the owner, tops up 0
    for player in counting:
        c.on_gesture(tap(player, W, 2.0))
    c.on_tray(MotionStarted(3.0))
    c.on_tray(Settled(4.0, reading([2, 2, 3])))
    return c


def test_a_top_up_not_sealed_names_the_key_where_a_keyboard_stands_in() -> None:
    c = _owner_rolls_with_top_ups_unsealed([1])
    assert c.notice is not None and c.notice.text == (
        "Ben's top-up of 1 was counted but not done with key E before the unicorn owner "
        "rolled, so it moves nothing")


def test_two_top_ups_not_sealed_were_not_sealed() -> None:
    c = _owner_rolls_with_top_ups_unsealed([1, 2])
    assert c.notice is not None and c.notice.text == (
        "Ben's top-up of 1 and Cem's top-up of 1 were counted but not done before the "
        "unicorn owner rolled, so they move nothing")


# ---------------------------------------------------------------- the demo


def test_continue_with_nothing_to_go_on_with_headless_offers_a_command_that_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.cli import main

    monkeypatch.setitem(os.environ, "SDL_VIDEODRIVER", "dummy")
    state = tmp_path / "state"
    assert main(["demo", "--continue", "--names", "Ana,Ben", "--bots", "Ben",
                 "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    offered = err.split("Start a new one: ")[1].strip()
    assert offered == (f"SDL_VIDEODRIVER=dummy einhorn-table demo --names Ana,Ben --bots "
                       f"all --state-dir {state}")


def test_continue_with_nothing_to_go_on_with_at_a_window_keeps_the_people(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.cli import main

    monkeypatch.setitem(os.environ, "SDL_VIDEODRIVER", "wayland")
    state = tmp_path / "state"
    assert main(["demo", "--continue", "--bots", "1", "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.split("Start a new one: ")[1].strip() == (
        f"einhorn-table demo --bots 1 --state-dir {state}")
