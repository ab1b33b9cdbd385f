"""A whole table, headless: mock GPIO stations, the synthetic camera, a fake clock, and
bots that press the mock pins; the match is kept in a history store."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.gpio_buttons import ButtonStations
from einhorn_table.adapters.pygame_screen import PygameScreen
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.adapters.vision_tray import VisionTray, make_reader, make_watcher
from einhorn_table.cli.table_app import Started
from einhorn_table.history import MatchStore
from einhorn_table.history.view import history_summary
from einhorn_table.ports import Button
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.table.bots import BotDriver, Move, Press, Throw
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.loop import TableLoop
from einhorn_table.vision.synth import DICE_PALETTE_NAMES

PIN_MAP = load_pin_map(default_pin_map_path())



class WallClock:
    """The history's wall clock: a minute later each time it is read."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def open_store(folder: Path) -> MatchStore:
    return MatchStore(folder, now=WallClock())


def press(factory: MockFactory, clock: FakeClock, player: int, buttons: tuple[Button, ...],
          long: bool = False) -> None:
    """Press ``buttons`` of ``player``'s station on the mock pins and let go."""
    station = next(s for s in PIN_MAP.stations if s.player == player)
    pins = [factory.pin(station.pin(b)) for b in buttons]
    for pin in pins:
        pin.drive_low()
        clock.advance(0.05)
    clock.advance(0.8 if long else 0.05)
    for pin in pins:
        pin.drive_high()
    clock.advance(0.05)


class PinPresser:
    """Performs the bots' moves: presses on mock pins, throws on the synthetic camera."""

    def __init__(self, factory: MockFactory, clock: FakeClock, camera: SynthSource) -> None:
        self.factory = factory
        self.clock = clock
        self.camera = camera
        self.presses = 0

    def __call__(self, move: Move) -> None:
        if isinstance(move, Throw):
            self.camera.roll(list(move.dice), player=move.player, settle_frames=2)
            return
        assert isinstance(move, Press)
        press(self.factory, self.clock, move.player, move.buttons, move.long)
        self.presses += 1


@dataclass
class Table:
    loop: TableLoop
    controller: TableController
    buttons: ButtonStations
    presser: PinPresser
    screen: PygameScreen

    def close(self) -> None:
        self.buttons.close()
        self.screen.close()


def table(factory: MockFactory, clock: FakeClock, started: Started, store: MatchStore,
          seed: int = 7) -> Table:
    """The table playing ``started``'s match, recording into ``store``."""
    names = list(started.match.names)
    camera = SynthSource(clock, seed=seed, players=len(names), size=(240, 180))
    camera.open()
    colours = camera.table.player_colors
    tray = VisionTray(camera, make_watcher(), make_reader(), clock)
    seats = [Seat(n, colours[i], DICE_PALETTE_NAMES[i]) for i, n in enumerate(names)]
    controller = TableController(started.match, started.recorder, seats, started.recorder,
                                 archive=lambda: history_summary(store))
    buttons = ButtonStations(PIN_MAP, clock, pin_factory=factory, players=len(names))
    screen = PygameScreen((400, 240))
    screen.open()
    names_of = ("odds", "bidder", "random", "silent", "odds", "random")
    strategies = [make_strategy(names_of[i]) for i in range(len(names))]
    bots = BotDriver(frozenset(range(len(names))), strategies, random.Random(seed))
    presser = PinPresser(factory, clock, camera)
    loop = TableLoop(controller, tray, buttons, clock, screen, bots, presser,
                     tray_idle=lambda: not camera.frames_queued)
    return Table(loop, controller, buttons, presser, screen)
