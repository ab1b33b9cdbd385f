"""`einhorn-table play` run for real with gpiozero's mock pins on a fake clock.

:func:`play_with_pins` starts the real ``play`` (synthetic camera, no display) and
hands its :class:`PinTable` to a script: the script lets bots roll on the synthetic
camera (:meth:`PinTable.bots_until`), then presses and lets go of the stations'
buttons itself (:meth:`PinTable.press`, :meth:`PinTable.release`), edges at their own
moments, and watches the screen (:meth:`PinTable.run_for`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml

import einhorn_table.adapters.clock as clock_module
import einhorn_table.adapters.sources as sources
from einhorn_table.cli import main
from einhorn_table.ports import Button
from einhorn_table.screen.view_model import ScreenView
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.table.bots import BotDriver, Press, Throw
from einhorn_table.table.loop import TableLoop

NAMES = ("Ana", "Ben", "Cem")


@dataclass
class PinTable:
    """The running table: its loop, the mock pins, the fake clock and the camera."""

    loop: TableLoop
    factory: MockFactory
    clock: clock_module.FakeClock
    camera: Any
    #: GPIO of each seat's buttons (the shipped pin map: seat i at station i + 1).
    gpios: dict[int, dict[Button, int]]
    #: Pin edges still to come: (time, gpio, pressed).
    edges: list[tuple[float, int, bool]] = field(default_factory=list)
    #: Every screen seen, in order (a new one where its title or notice changes).
    seen: list[ScreenView] = field(default_factory=list)

    def at(self, time: float, seat: int, button: Button, pressed: bool) -> None:
        self.edges.append((time, self.gpios[seat][button], pressed))
        self.edges.sort()

    def press(self, seat: int, button: Button, after: float = 0.0) -> None:
        self.at(self.clock.now + after, seat, button, True)

    def release(self, seat: int, button: Button, after: float = 0.0) -> None:
        self.at(self.clock.now + after, seat, button, False)

    def tap(self, seat: int, button: Button, after: float = 0.0, hold: float = 0.12) -> None:
        self.press(seat, button, after)
        self.release(seat, button, after + hold)

    def chord(self, seat: int, first: Button, second: Button, after: float = 0.0) -> None:
        """``first`` pressed, ``second`` 0.15 s later, both let go 0.2 s after that."""
        self.press(seat, first, after)
        self.press(seat, second, after + 0.15)
        self.release(seat, first, after + 0.35)
        self.release(seat, second, after + 0.37)

    def step(self) -> ScreenView:
        frame_end = self.clock.now + self.loop.frame_seconds
        while self.edges and self.edges[0][0] <= frame_end:
            when, gpio, pressed = self.edges.pop(0)
            self.clock.set(max(self.clock.now, when))
            pin = self.factory.pin(gpio)
            if pressed:
                pin.drive_low()
            else:
                pin.drive_high()
        view = self.loop.step()
        last = self.seen[-1] if self.seen else None
        if last is None or (last.kind, last.title, last.notice, last.call, last.help_title) \
                != (view.kind, view.title, view.notice, view.call, view.help_title):
            self.seen.append(view)
        return view

    def run_for(self, seconds: float) -> ScreenView:
        """Frames for ``seconds`` (the pin edges due on the way included); the last view."""
        end = self.clock.now + seconds
        view = self.step()
        while self.clock.now < end:
            view = self.step()
        return view

    def bots_until(self, wanted: Callable[[ScreenView], bool], limit: float = 400.0,
                   seed: int = 5) -> ScreenView:
        """Bots call, bid and roll (their presses on the pins, their throws on the
        synthetic camera) until a screen is ``wanted``; that screen."""
        c = self.loop.controller
        seats = len(c.names)
        bots = BotDriver(frozenset(range(seats)), [make_strategy("odds")] * seats,
                         random.Random(seed), pace=0.8, linger=6, reveal=4, result=3)
        end = self.clock.now + limit
        while self.clock.now < end:
            view = self.step()
            if wanted(view):
                return view
            if self.edges or self.camera.frames_queued:
                continue
            for move in bots.moves(c, self.clock.now, True):
                if isinstance(move, Throw):
                    self.camera.roll(list(move.dice), player=move.player, settle_frames=2)
                elif isinstance(move, Press):
                    if len(move.buttons) == 2:
                        self.chord(move.player, *move.buttons)
                    else:
                        self.tap(move.player, move.buttons[0],
                                 hold=0.9 if move.long else 0.12)
        raise AssertionError(f"no wanted screen in {limit} s: {[v.title for v in self.seen]}")


def play_with_pins(script: Callable[[PinTable], None], factory: MockFactory,
                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   games: int = 2) -> int:
    """Run ``play`` for Ana, Ben and Cem (stations 1 to 3), ``script`` playing it."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    clock = clock_module.FakeClock(1000.0)
    monkeypatch.setattr(clock_module, "SystemClock", lambda: clock)
    cameras: list[Any] = []
    create = sources.create_source

    def made(*args: Any, **kwargs: Any) -> Any:
        cameras.append(create(*args, **kwargs))
        return cameras[-1]

    monkeypatch.setattr(sources, "create_source", made)
    stations = load_pin_map(default_pin_map_path()).stations
    gpios = {s.player: dict(s.pins) for s in stations}

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        script(PinTable(self, factory, clock, cameras[0], gpios))

    monkeypatch.setattr(TableLoop, "run", run)
    table = tmp_path / "table.toml"
    table.write_text(f'games = {games}\ncamera = "synth:seed=3,players=3"\n'
                     f'state = "{tmp_path / "state"}"\n'
                     "[screen]\nwidth = 400\nheight = 240\nfullscreen = false\n"
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"),
                                    ("Cem", 3, "blue")), encoding="utf-8")
    return main(["play", str(table), "--new"])
