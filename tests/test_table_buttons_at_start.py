"""`einhorn-table play` with buttons that read pressed as the table starts (mock pins,
no display): a station whose four buttons all read pressed is a plug or cable to look
at, said as one; a station's several buttons are named together."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml

from einhorn_table.adapters.gpio_buttons import ButtonStations
from einhorn_table.cli import main
from einhorn_table.cli.play import held_buttons_words
from einhorn_table.ports import Button
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.table.config import PlayerConfig
from einhorn_table.table.loop import TableLoop


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    made = MockFactory()
    Device.pin_factory = made
    try:
        yield made
    finally:
        made.reset()
        Device.pin_factory = saved


def _play_with_pins_low(gpios: list[int], factory: MockFactory, tmp_path: Path,
                        monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The notice on the first screen of ``play``, ``gpios`` reading pressed (driven low
    once the pull-ups are set, as a shorted cable reads) as the table starts."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    set_up = ButtonStations.__init__

    def held_down(self: ButtonStations, *args: object, **kwargs: object) -> None:
        set_up(self, *args, **kwargs)  # type: ignore[arg-type]
        for gpio in gpios:
            factory.pin(gpio).drive_low()

    monkeypatch.setattr(ButtonStations, "__init__", held_down)
    notices: list[str] = []

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        notices.append(self.controller.notice_at(self.clock.monotonic()))

    monkeypatch.setattr(TableLoop, "run", run)
    table = tmp_path / "table.toml"
    table.write_text('games = 2\ncamera = "synth:seed=3,players=3"\n'
                     f'state = "{tmp_path / "state"}"\n'
                     "[screen]\nwidth = 400\nheight = 240\nfullscreen = false\n"
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"),
                                    ("Cem", 3, "blue")), encoding="utf-8")
    assert main(["play", str(table)]) == 0
    return notices


def test_a_station_whose_four_buttons_read_pressed_is_told_as_its_plug_or_cable(
    factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ben = next(s for s in load_pin_map(default_pin_map_path()).stations if s.player == 1)
    notices = _play_with_pins_low(list(ben.pins.values()), factory, tmp_path, monkeypatch)
    assert notices == ["All four of Ben's buttons read pressed with nobody touching them: "
                       "check the plug and cable of Ben's station."]
    err = capsys.readouterr().err
    assert "All four of Ben's buttons" in err and "doctor --buttons" in err


def test_several_buttons_of_one_station_are_named_together() -> None:
    players = [PlayerConfig("Ana", 1, None), PlayerConfig("Ben", 2, None)]
    assert held_buttons_words(
        [(1, Button.UNVERMEIDLICH), (1, Button.WUNSCH), (0, Button.EINHORN)], players) == (
        "Ben's − and +, and Ana's OK buttons read pressed with nobody touching them: they "
        "work once let go. If they stay pressed, check their wires.")
    assert held_buttons_words(
        [(1, b) for b in Button] + [(0, Button.EINHORN)], players).startswith(
        "All four of Ben's buttons read pressed with nobody touching them: check the plug "
        "and cable of Ben's station. "
        "Ana's OK button reads pressed")
