"""The companion's main loop: tray, buttons, bots, screen, once per frame.

Each :meth:`TableLoop.step` takes the tray's events and the stations' gestures
to the controller, lets the bots move, and shows the view. Nothing in it
blocks: a roll's animation is drawn from the clock, so buttons keep working
while stones fly. Time comes from the clock passed in; with a fake clock a
whole match runs as fast as the computer can draw it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from einhorn_table.ports import Clock, Controls
from einhorn_table.screen.view_model import ScreenView, build_view
from einhorn_table.table.bots import BotDriver, Move
from einhorn_table.table.controller import TableController
from einhorn_table.table.events import TrayEvent


class TrayFeed(Protocol):
    def poll(self) -> list[TrayEvent]: ...


class ScreenOutput(Protocol):
    quit_requested: bool

    def show(self, view: ScreenView, now: float, key: tuple[object, ...] | None = None) -> None:
        ...


def screen_key(view: ScreenView) -> tuple[object, ...]:
    """What makes a screen new (for screenshots): not the animation, not the numbers."""
    return (view.kind, view.title, view.call, view.call_locked, view.chosen, view.entry,
            view.entry_position, bool(view.help), bool(view.banner), bool(view.notice))


@dataclass
class TableLoop:
    controller: TableController
    tray: TrayFeed
    controls: Controls
    clock: Clock
    screen: ScreenOutput | None = None
    bots: BotDriver | None = None
    perform: Callable[[Move], None] | None = None
    tray_idle: Callable[[], bool] = lambda: True
    frame_seconds: float = 1 / 30
    #: The last view shown (tests compare it with the match file).
    view: ScreenView | None = field(default=None, init=False)
    steps: int = field(default=0, init=False)

    def step(self) -> ScreenView:
        started = self.clock.monotonic()
        c = self.controller
        for event in self.tray.poll():
            c.on_tray(event)
        for gesture in self.controls.poll():
            c.on_gesture(gesture)
        # (The buttons held now: the screen shows a hold filling up before it counts.)
        c.see_held({p: self.controls.held(p) for p in range(len(c.names))},
                   self.clock.monotonic())
        if self.bots is not None and self.perform is not None:
            for move in self.bots.moves(c, self.clock.monotonic(), self.tray_idle()):
                self.perform(move)
        now = self.clock.monotonic()
        view = build_view(c, now)
        if self.screen is not None:
            self.screen.show(view, now, screen_key(view))
        self.view = view
        self.steps += 1
        self.clock.sleep(self.frame_seconds - (self.clock.monotonic() - started))
        return view

    def run(self, done: Callable[[], bool], max_steps: int | None = None) -> None:
        while not done():
            if self.screen is not None and self.screen.quit_requested:
                return
            if max_steps is not None and self.steps >= max_steps:
                return
            self.step()
