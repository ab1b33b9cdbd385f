"""A whole 10-game match at the table, headless: bots press mock GPIO buttons and throw
dice into the synthetic camera; the roll watcher and the reader see them; the match
file replays to the ledger the screen showed last."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pygame = pytest.importorskip("pygame")

from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.adapters.gpio_buttons import ButtonStations  # noqa: E402
from einhorn_table.adapters.photo_files import PngPhotoStore  # noqa: E402
from einhorn_table.adapters.pygame_screen import PygameScreen  # noqa: E402
from einhorn_table.adapters.synth_source import SynthSource  # noqa: E402
from einhorn_table.adapters.vision_tray import VisionTray, make_reader, make_watcher  # noqa: E402
from einhorn_table.rules import EINHORN, Match, Setup, replay_file  # noqa: E402
from einhorn_table.screen.view_model import ScreenKind  # noqa: E402
from einhorn_table.simulation.strategies import make_strategy  # noqa: E402
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map  # noqa: E402
from einhorn_table.table.bots import BotDriver, Move, Press, Throw  # noqa: E402
from einhorn_table.table.controller import Seat, TableController  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402
from einhorn_table.table.recorder import JsonLinesRecorder  # noqa: E402

PIN_MAP = load_pin_map(default_pin_map_path())


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


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
        station = next(s for s in PIN_MAP.stations if s.player == move.player)
        pins = [self.factory.pin(station.pin(b)) for b in move.buttons]
        for pin in pins:
            pin.drive_low()
            self.clock.advance(0.05)
        self.clock.advance(0.8 if move.long else 0.05)
        for pin in pins:
            pin.drive_high()
        self.clock.advance(0.05)
        self.presses += 1


def test_a_whole_match_with_mock_buttons_and_the_synthetic_camera(
    mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    clock = FakeClock(0.0)
    names = ["Ana", "Ben", "Cem", "Dora"]
    camera = SynthSource(clock, seed=7, players=4, size=(240, 180))
    camera.open()
    colours = camera.table.player_colors
    tray = VisionTray(camera, make_watcher(), make_reader(), clock)
    setup = Setup.for_variant(EINHORN, names, games=10)
    match_file = tmp_path / "match.jsonl"
    recorder = JsonLinesRecorder(match_file, setup)
    controller = TableController(Match(setup), recorder,
                                 [Seat(n, colours[i]) for i, n in enumerate(names)],
                                 PngPhotoStore(tmp_path / "photos"))
    buttons = ButtonStations(PIN_MAP, clock, pin_factory=mock_factory, players=4)
    screen = PygameScreen((400, 240))
    screen.open()
    strategies = [make_strategy(s) for s in ("odds", "bidder", "random", "silent")]
    bots = BotDriver(frozenset(range(4)), strategies, random.Random(3))
    presser = PinPresser(mock_factory, clock, camera)
    loop = TableLoop(controller, tray, buttons, clock, screen, bots, presser,
                     tray_idle=lambda: not camera.frames_queued)
    try:
        loop.run(lambda: controller.match.over, max_steps=200_000)
    finally:
        buttons.close()
        recorder.close()
        screen.close()
    assert controller.match.over, "the match did not finish"
    loop.step()  # the screen shows the final standings
    view = loop.view
    assert view is not None and view.kind is ScreenKind.FINAL
    assert presser.presses > 0
    replayed = replay_file(match_file).ledger()
    assert replayed.winner is not None and view.winner == names.index(replayed.winner)
    assert view.central == replayed.central
    assert [(p.name, p.game_stones, p.stash) for p in view.players] == [
        (p.name, p.game_stones, p.stash) for p in replayed.players
    ]
    assert view.chart[-1] == tuple(p.stash for p in replayed.players)
    lines = match_file.read_text().splitlines()
    rolls = [line for line in lines if '"type": "roll"' in line]
    assert rolls and all('"t":' in line for line in rolls)
    assert any('"photo":' in line for line in rolls)
    assert os.listdir(tmp_path / "photos")
