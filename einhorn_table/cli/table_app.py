"""Putting the companion together for ``demo`` and ``play`` (the composition root).

Not a sub-command itself: ``demo`` and ``play`` build their parts here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.ports import Button, Clock, Controls, Gesture, GestureKind
from einhorn_table.rules import EINHORN, Ledger, Match, Setup, Variant
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.table.bots import BotDriver, Move, Press, Throw
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.loop import TableLoop
from einhorn_table.table.recorder import JsonLinesRecorder

#: Seconds the final standings stay on screen before a headless demo exits.
FINAL_SECONDS = 3.0


@dataclass
class DemoOptions:
    names: list[str]
    games: int
    bots: frozenset[int]
    strategy: str
    chance: random.Random
    seed: int
    size: tuple[int, int]
    fullscreen: bool
    screenshots: Path | None
    match_file: Path
    photos: Path
    fast: bool
    variant: Variant = EINHORN
    camera_size: tuple[int, int] = (320, 240)


@dataclass
class DemoResult:
    ledger: Ledger
    standings: str
    loop: TableLoop


def standings_text(ledger: Ledger) -> str:
    """The final standings as lines of text, best first."""
    order = sorted(ledger.players, key=lambda p: -p.stash)
    lines = [f"Final standings after {min(ledger.game, ledger.games)} game(s):"]
    for rank, player in enumerate(order, 1):
        lines.append(f"{rank}. {player.name:<10} {player.stash:>4} stones")
    if ledger.winner:
        lines.append(f"Winner: {ledger.winner}")
    return "\n".join(lines)


def direct_performer(controller: TableController, throw: Callable[[int, Sequence[int]], None],
                     clock: Clock) -> Callable[[Move], None]:
    """Bots' moves straight into the controller (gestures) and the synthetic tray (throws)."""

    def perform(move: Move) -> None:
        if isinstance(move, Throw):
            throw(move.player, move.dice)
            return
        assert isinstance(move, Press)
        kind = GestureKind.CHORD if len(move.buttons) == 2 else (
            GestureKind.LONG if move.long else GestureKind.TAP)
        controller.on_gesture(Gesture(move.player, kind, move.buttons, clock.monotonic()))

    return perform


def throw_into(camera: Any) -> Callable[[int, Sequence[int]], None]:
    """A bot's throw as a roll of the synthetic camera (``SynthSource``)."""

    def throw(player: int, dice: Sequence[int]) -> None:
        camera.roll(list(dice), player=player, settle_frames=2)

    return throw


class NoControls:
    description = "no buttons"
    simulated = True

    def poll(self) -> list[Gesture]:
        return []

    def held(self, player: int) -> tuple[Button, ...]:
        return ()

    def close(self) -> None:
        pass


def run_demo(options: DemoOptions) -> DemoResult:
    from einhorn_table.adapters.clock import FakeClock, SystemClock
    from einhorn_table.adapters.keyboard_controls import KeyboardControls
    from einhorn_table.adapters.photo_files import PngPhotoStore
    from einhorn_table.adapters.pygame_screen import PygameScreen
    from einhorn_table.adapters.synth_source import SynthSource
    from einhorn_table.adapters.vision_tray import VisionTray, make_reader, make_watcher

    clock: FakeClock | SystemClock = FakeClock(0.0) if options.fast else SystemClock()
    players = len(options.names)
    camera = SynthSource(clock, seed=options.seed, players=players, size=options.camera_size)
    camera.open()
    tray = VisionTray(camera, make_watcher(), make_reader(), clock)
    setup = Setup.for_variant(options.variant, options.names, games=options.games)
    match = Match(setup)
    recorder = JsonLinesRecorder(options.match_file, setup)
    colours = camera.table.player_colors
    seats = [Seat(name, colours[i]) for i, name in enumerate(options.names)]
    controller = TableController(match, recorder, seats, PngPhotoStore(options.photos))
    screen = PygameScreen(options.size, fullscreen=options.fullscreen,
                          screenshots=options.screenshots)
    screen.open(clock.monotonic())
    controls: Controls
    try:
        keyboard = KeyboardControls(clock, players=players, read_event_queue=False)
        screen.listeners.append(keyboard.handle)
        controls = keyboard
    except Exception:  # no keyboard without a display: bots only
        controls = NoControls()

    def space(event: Any) -> None:
        pg = screen.pg
        if event.type == pg.KEYDOWN and event.key == pg.K_SPACE:
            roller = controller.roller()
            if roller is not None and not camera.frames_queued and roller not in options.bots:
                camera.roll(player=roller, settle_frames=2)

    screen.listeners.append(space)
    strategies = [make_strategy(options.strategy) for _ in options.names]
    bots = BotDriver(options.bots, strategies, options.chance, pace=0.0 if options.fast else 0.8,
                     linger=0.0 if options.fast else 8.5)
    loop = TableLoop(controller, tray, controls, clock, screen, bots,
                     direct_performer(controller, throw_into(camera), clock),
                     tray_idle=lambda: not camera.frames_queued)
    ended: list[float] = []

    def done() -> bool:
        if not match.over:
            return False
        if not ended:
            ended.append(clock.monotonic())
        return clock.monotonic() - ended[0] > FINAL_SECONDS and options.bots == frozenset(
            range(players))

    try:
        loop.run(done)
    finally:
        recorder.close()
        tray.close()
        screen.close()
    ledger = match.ledger()
    return DemoResult(ledger, standings_text(ledger), loop)
