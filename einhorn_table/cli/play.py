"""``einhorn-table play``: the real table, from its configuration file."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from einhorn_table.ports import Button, Controls, Gesture


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="run the table: camera over the tray, button stations, screen",
        description="Runs the companion at the real table as its configuration file says "
        "(players, stations, dice colours, variant, games, camera, calibration).",
    )
    parser.add_argument("config", type=Path, nargs="?", default=Path("table.toml"),
                        help="the table's TOML configuration file (default ./table.toml; "
                        "see docs/table.example.toml)")
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="save a PNG of every new screen in this folder")
    parser.set_defaults(handler=run)


class SeatControls:
    """The stations' gestures with the station number turned into the player's seat."""

    def __init__(self, inner: Controls, seat_of_station: dict[int, int]) -> None:
        self.inner = inner
        self.seat_of_station = seat_of_station
        self.description = inner.description
        self.simulated = inner.simulated

    def poll(self) -> list[Gesture]:
        return [
            Gesture(self.seat_of_station[g.player], g.kind, g.buttons, g.time)
            for g in self.inner.poll()
            if g.player in self.seat_of_station
        ]

    def held(self, player: int) -> tuple[Button, ...]:
        stations = [s for s, seat in self.seat_of_station.items() if seat == player]
        return self.inner.held(stations[0]) if stations else ()

    def close(self) -> None:
        self.inner.close()


def run(args: argparse.Namespace) -> int:
    from einhorn_table.adapters.camera_settings import CameraSettings
    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.adapters.gpio_buttons import ButtonStations
    from einhorn_table.adapters.photo_files import PngPhotoStore
    from einhorn_table.adapters.pygame_screen import PygameScreen
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.adapters.vision_tray import VisionTray, make_watcher
    from einhorn_table.cli.table_app import standings_text
    from einhorn_table.rules import VARIANTS, Match, Setup, get_variant, load_variant
    from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
    from einhorn_table.table.config import load_calibration, load_config
    from einhorn_table.table.controller import Seat, TableController
    from einhorn_table.table.loop import TableLoop
    from einhorn_table.table.recorder import JsonLinesRecorder
    from einhorn_table.vision.profile import ReaderProfile
    from einhorn_table.vision.reader import read_frame

    config = load_config(args.config)
    variant = (get_variant(config.variant) if config.variant in VARIANTS
               else load_variant(Path(config.variant)))
    reader_settings: dict[str, Any] = {}
    camera_settings = None
    if config.calibration is not None:
        reader_settings, camera_mapping = load_calibration(config.calibration)
        camera_settings = CameraSettings.from_mapping(camera_mapping) if camera_mapping else None
    try:
        profile = ReaderProfile(**reader_settings)
    except TypeError as error:
        raise SystemExit(f"einhorn-table play: the calibration's [reader] table: {error}") \
            from None
    clock = SystemClock()
    names = [p.name for p in config.players]
    setup = Setup.for_variant(variant, names, games=config.games)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    state = config.state.expanduser()
    match_file = state / "matches" / f"match-{stamp}.jsonl"
    recorder = JsonLinesRecorder(match_file, setup)
    seats = [Seat(p.name, p.dice) for p in config.players]
    controller = TableController(Match(setup), recorder, seats,
                                 PngPhotoStore(state / "photos" / f"match-{stamp}"))
    pin_map = load_pin_map(config.pins or default_pin_map_path())
    buttons = ButtonStations(pin_map, clock)
    controls = SeatControls(buttons, {p.station - 1: i for i, p in enumerate(config.players)})
    source = create_source(config.camera, clock=clock, camera_settings=camera_settings)
    tray = VisionTray(source, make_watcher(), lambda image: read_frame(image, profile), clock)
    screen = PygameScreen(config.size, fullscreen=config.fullscreen,
                          screenshots=args.screenshots)
    screen.open(clock.monotonic())
    loop = TableLoop(controller, tray, controls, clock, screen)
    print(f"einhorn-table: match file {match_file}", file=sys.stderr)
    try:
        loop.run(lambda: False)
    finally:
        recorder.close()
        tray.close()
        controls.close()
        screen.close()
    print(standings_text(controller.match.ledger()))
    return 0
