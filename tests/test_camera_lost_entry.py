"""The camera is lost mid-match: the player to roll throws the real dice and holds OK
to enter them by hand, so the family goes on. Driven through the main loop with a fake
clock, real button edges and the gesture decoder (a hold is a hold of 0.7 s)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from table_helpers import BLUE, RED, MemoryRecorder, controller, reading

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.ports import Button, Gesture, RawButtonEvent
from einhorn_table.rules import Awaiting, Call, Category, Roll, StartRoll, Undo
from einhorn_table.screen.view_model import ScreenKind, ScreenView, build_view
from einhorn_table.stations.gesture_table import GESTURES, Context
from einhorn_table.stations.gestures import GestureDecoder
from einhorn_table.table.controller import TableController
from einhorn_table.table.events import (
    CameraBack,
    CameraLost,
    MotionStarted,
    Settled,
    TrayEvent,
)
from einhorn_table.table.loop import TableLoop

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


@dataclass
class ScriptedTray:
    """Hands the loop the events queued for it, one poll at a time."""

    queued: list[TrayEvent] = field(default_factory=list)

    def poll(self) -> list[TrayEvent]:
        events, self.queued = self.queued, []
        return events


@dataclass
class Buttons:
    """Raw button edges at clock times, decoded as the stations' are."""

    clock: FakeClock
    decoder: GestureDecoder = field(default_factory=GestureDecoder)
    edges: list[RawButtonEvent] = field(default_factory=list)
    description: str = "scripted buttons"
    simulated: bool = True

    def poll(self) -> list[Gesture]:
        now = self.clock.now
        due = [e for e in self.edges if e.time <= now]
        self.edges = [e for e in self.edges if e.time > now]
        gestures: list[Gesture] = []
        for edge in due:
            gestures += self.decoder.feed(edge)
        return gestures + self.decoder.tick(now)

    def held(self, player: int) -> tuple[Button, ...]:
        return self.decoder.held(player)


@dataclass
class Rig:
    c: TableController
    recorder: MemoryRecorder
    clock: FakeClock
    tray: ScriptedTray
    buttons: Buttons
    loop: TableLoop

    def run(self, seconds: float) -> ScreenView:
        end = self.clock.now + seconds
        view = self.loop.step()
        while self.clock.now < end:
            view = self.loop.step()
        return view

    def press(self, player: int, *buttons: Button, hold: float = 0.1) -> ScreenView:
        """Press (and after ``hold`` seconds let go of) ``buttons`` together."""
        t = self.clock.now
        for k, button in enumerate(buttons):
            self.buttons.edges.append(RawButtonEvent(player, button, True, t + 0.05 * k))
        for button in buttons:
            self.buttons.edges.append(RawButtonEvent(player, button, False, t + hold))
        return self.run(hold + 0.2)

    def hold_ok(self, player: int) -> ScreenView:
        return self.press(player, E, hold=1.0)

    def enter(self, player: int, dice: tuple[int, int, int]) -> ScreenView:
        """Enter ``dice`` by hand from 1 1 1 (+ steps the marked die, OK goes on)."""
        view = self.run(0.1)
        for die in dice:
            for _ in range(die - 1):
                self.press(player, W)
            view = self.press(player, E)
        return view

    def throw(self, values: list[int], colour: tuple[int, int, int] = RED) -> ScreenView:
        """Dice thrown and read by the camera (it works)."""
        self.tray.queued += [MotionStarted(self.clock.now)]
        self.run(1.0)
        self.tray.queued += [Settled(self.clock.now, reading(list(values), colour))]
        return self.run(0.2)

    def lose_camera(self) -> ScreenView:
        self.tray.queued.append(CameraLost(self.clock.now, "camera stopped sending frames"))
        return self.run(0.2)

    def camera_back(self) -> ScreenView:
        self.tray.queued.append(CameraBack(self.clock.now))
        return self.run(0.2)


def rig() -> Rig:
    c, recorder = controller()
    clock = FakeClock(100.0)
    tray = ScriptedTray()
    buttons = Buttons(clock)
    loop = TableLoop(c, tray, buttons, clock)
    return Rig(c, recorder, clock, tray, buttons, loop)


def started() -> Rig:
    """Ana starts (the camera read the starting rolls); it is her turn."""
    r = rig()
    r.throw([6, 6, 5], RED)
    r.throw([1, 1, 2], BLUE)
    r.run(5.0)
    assert r.c.awaiting is Awaiting.ROLL and r.c.match.ledger().to_act == "Ana"
    return r


def test_a_turn_goes_on_by_hand_while_the_camera_is_lost() -> None:
    r = started()
    view = r.lose_camera()
    assert "hold OK" in view.banner and view.kind is ScreenKind.TURN
    r.press(0, W)  # Ana calls Wunsch
    assert r.c.call_draft is Category.WUNSCH
    view = r.hold_ok(0)
    assert view.kind is ScreenKind.DOUBT and view.entry == (1, 1, 1)
    assert view.title == "Ana, enter your dice"
    assert view.subtitle == "Camera lost: enter the dice you threw"
    assert view.banner == "", "the entry's title is not hidden under the banner"
    assert r.c.call_locked and r.c.call_draft is Category.WUNSCH
    r.press(0, D)  # ... the call cannot change now (✗ on the first die leaves the entry)
    assert r.c.pending is None and r.c.call_locked
    assert r.c.notice is not None and "throw again, then hold OK" in r.c.notice.text
    r.hold_ok(0)
    r.enter(0, (2, 2, 3))
    call, roll = r.recorder.items[-2:]
    assert isinstance(call, Call) and call.call is Category.WUNSCH
    assert isinstance(roll, Roll) and roll.dice == (2, 2, 3)
    assert roll.extra["entered"] == "by hand" and roll.extra["camera"] == "lost"
    ledger = r.c.match.ledger()
    assert ledger.player("Ana").game_stones == 7 + 2  # a Wunsch called and rolled
    assert ledger.to_act == "Ben"
    view = r.run(5.0)
    assert view.kind is ScreenKind.TURN and view.title == "Ben's turn"
    assert "hold OK" in view.banner and not r.c.call_locked and r.c.call_draft is None


def test_the_starting_rolls_go_by_hand_while_the_camera_is_lost() -> None:
    r = rig()
    view = r.lose_camera()
    assert view.kind is ScreenKind.START_ROLLS and "hold OK" in view.banner
    assert r.c.context(1) is Context.ROLL
    r.hold_ok(1)  # Ben first: the starting rolls go in any order
    r.enter(1, (1, 1, 2))
    r.hold_ok(0)
    r.enter(0, (6, 6, 5))
    assert [(type(i), i.player, i.dice) for i in r.recorder.items] == [
        (StartRoll, "Ben", (1, 1, 2)), (StartRoll, "Ana", (6, 6, 5))]
    assert r.c.awaiting is Awaiting.ROLL and r.c.match.ledger().to_act == "Ana"


def test_a_roll_entered_by_hand_is_undone_like_any_other() -> None:
    r = started()
    r.lose_camera()
    r.hold_ok(0)
    r.enter(0, (2, 2, 3))
    assert r.c.match.ledger().to_act == "Ben"
    r.press(1, U, D)  # Ben: the outer chord
    assert isinstance(r.recorder.items[-1], Undo)
    ledger = r.c.match.ledger()
    assert ledger.to_act == "Ana" and ledger.player("Ana").game_stones == 7
    assert not r.c.call_locked, "Ana calls again"
    assert r.c.notice is not None and r.c.notice.text == "Ben undid Ana's roll 2 2 3"


def test_an_undo_during_the_entry_leaves_it_and_takes_back_nothing_else() -> None:
    r = started()
    r.lose_camera()
    r.hold_ok(0)
    before = list(r.recorder.items)
    r.press(0, U, D)
    assert r.c.pending is None and r.recorder.items == before
    assert r.c.notice is not None and r.c.notice.text == (
        "Undone: the dice entry. Ana: throw again, then hold OK to enter the dice")


def test_the_camera_coming_back_mid_entry_lets_the_entry_finish() -> None:
    r = started()
    r.lose_camera()
    r.hold_ok(0)
    r.press(0, W)
    r.press(0, E)  # first die: 2
    view = r.camera_back()
    assert view.banner == "" and view.kind is ScreenKind.DOUBT
    # The first frames: a hand takes the dice out, they are thrown in again.
    r.throw([6, 6, 6])
    assert r.c.pending is not None and r.c.entry is not None and r.c.entry.values[0] == 2
    assert r.c.notice is not None and "finish entering your dice by hand" in r.c.notice.text
    r.press(0, W)
    r.press(0, E)  # second die: 2
    r.press(0, W)
    r.press(0, W)
    r.press(0, E)  # third die: 3
    roll = r.recorder.items[-1]
    assert isinstance(roll, Roll) and roll.dice == (2, 2, 3)
    r.run(5.0)
    r.throw([1, 2, 4], BLUE)  # Ben's roll: the camera reads it again
    last = r.recorder.items[-1]
    assert isinstance(last, Roll) and last.player == "Ben" and last.dice == (1, 2, 4)
    assert "entered" not in last.extra


def test_a_hold_of_ok_does_nothing_while_the_camera_works_or_for_others() -> None:
    r = started()
    r.hold_ok(0)
    assert r.c.pending is None and not r.c.call_locked, "the camera reads the dice"
    r.lose_camera()
    r.hold_ok(1)  # Ben is not to roll
    assert r.c.pending is None and not r.c.call_locked
    r.hold_ok(0)
    assert r.c.pending is not None and r.c.pending.roller == 0


def test_a_tie_in_the_starting_rolls_goes_by_hand_too() -> None:
    r = rig()
    r.lose_camera()
    r.hold_ok(0)
    r.enter(0, (2, 2, 3))
    r.hold_ok(1)
    r.enter(1, (1, 3, 3))  # a tie: 7 and 7
    assert r.c.awaiting is Awaiting.START_ROLL and r.c.context(0) is Context.ROLL
    r.hold_ok(0)
    r.enter(0, (6, 6, 6))
    r.hold_ok(1)
    r.enter(1, (1, 1, 1))
    assert [(i.player, i.dice) for i in r.recorder.items] == [
        ("Ana", (2, 2, 3)), ("Ben", (1, 3, 3)), ("Ana", (6, 6, 6)), ("Ben", (1, 1, 1))]
    assert r.c.awaiting is Awaiting.ROLL and r.c.match.ledger().to_act == "Ana"


def test_the_help_for_the_call_and_the_roll_says_how_to_go_on_without_the_camera() -> None:
    for context in (Context.CALL, Context.ROLL):
        lines = {line.gesture: line.does for line in GESTURES[context]}
        assert "camera is lost" in lines["hold Einhorn (OK)"]
    r = started()
    r.lose_camera()
    r.press(0, W, E)  # the middle chord
    view = build_view(r.c, r.clock.now)
    assert any(line.gesture == "hold Einhorn (OK)" for line in view.help)


@pytest.mark.parametrize("reason", [
    "camera stopped sending frames", "no frames for 2 s",
    "Failed to start camera: Device or resource busy. Close the other program",
])
def test_the_camera_lost_banner_fits_two_lines_above_the_call_tiles(reason: str) -> None:
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer

    r = started()
    r.tray.queued.append(CameraLost(r.clock.now, reason))
    view = r.run(0.2)
    pygame.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    assert len(renderer.wrap(view.banner, 32, renderer.w - renderer.s(60))) <= 2
