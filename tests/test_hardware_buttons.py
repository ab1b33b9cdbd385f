"""Button stations pressed through gpiozero's mock pins, with a fake clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.gpio_buttons import ButtonSetupError, ButtonStations
from einhorn_table.ports import Button, Controls, GestureKind
from einhorn_table.stations.gestures import GestureTiming
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.table.config import SeatedStations

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
PIN_MAP = load_pin_map(default_pin_map_path())



@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def stations(mock_factory: MockFactory, clock: FakeClock) -> Iterator[ButtonStations]:
    controls = ButtonStations(PIN_MAP, clock, pin_factory=mock_factory, timing=GestureTiming())
    try:
        yield controls
    finally:
        controls.close()


def press(factory: MockFactory, clock: FakeClock, gpio: int, seconds: float) -> None:
    factory.pin(gpio).drive_low()
    clock.advance(seconds)
    factory.pin(gpio).drive_high()


def test_stations_are_controls_with_pull_ups_on_every_mapped_pin(
    stations: ButtonStations, mock_factory: MockFactory
) -> None:
    assert isinstance(stations, Controls)
    assert stations.simulated is False
    for gpio in PIN_MAP.gpios:
        assert mock_factory.pin(gpio).pull == "up"
        assert mock_factory.pin(gpio).state == 1  # not pressed: held high


def test_each_mapped_button_taps_as_its_player_and_button(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock
) -> None:
    for station in PIN_MAP.stations:
        for button, gpio in station.pins.items():
            press(mock_factory, clock, gpio, 0.1)
            clock.advance(0.5)
            gestures = stations.poll()
            assert [(g.player, g.kind, g.buttons) for g in gestures] == [
                (station.player, GestureKind.TAP, (button,))
            ]


def test_chatter_inside_the_bounce_time_is_one_tap(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock
) -> None:
    pin = mock_factory.pin(PIN_MAP.stations[1].pin(E))
    for _ in range(4):  # the contact bounces for 8 ms
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.002)
    pin.drive_low()  # and bounces on release
    clock.advance(0.002)
    pin.drive_high()
    clock.advance(1.0)
    gestures = stations.poll()
    assert [(g.player, g.kind, g.buttons) for g in gestures] == [(1, GestureKind.TAP, (E,))]


def test_a_held_button_is_one_long_press_and_does_not_block_others(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock
) -> None:
    held = mock_factory.pin(PIN_MAP.stations[0].pin(D))
    held.drive_low()
    clock.advance(0.8)
    assert [(g.kind, g.buttons) for g in stations.poll()] == [(GestureKind.LONG, (D,))]
    assert stations.held(0) == (D,)
    clock.advance(20.0)
    press(mock_factory, clock, PIN_MAP.stations[3].pin(W), 0.1)
    assert [(g.player, g.kind) for g in stations.poll()] == [(3, GestureKind.TAP)]
    held.drive_high()
    clock.advance(0.1)
    assert stations.poll() == []


def test_outer_buttons_together_are_a_chord(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock
) -> None:
    station = PIN_MAP.stations[5]
    mock_factory.pin(station.pin(D)).drive_low()
    clock.advance(0.05)
    mock_factory.pin(station.pin(U)).drive_low()
    clock.advance(0.3)
    mock_factory.pin(station.pin(U)).drive_high()
    mock_factory.pin(station.pin(D)).drive_high()
    clock.advance(0.5)
    gestures = stations.poll()
    assert [(g.player, g.kind, g.buttons) for g in gestures] == [(5, GestureKind.CHORD, (U, D))]


def test_fewer_players_set_up_fewer_stations(mock_factory: MockFactory, clock: FakeClock) -> None:
    controls = ButtonStations(PIN_MAP, clock, pin_factory=mock_factory, players=3)
    try:
        assert "3 stations" in controls.description
        press(mock_factory, clock, PIN_MAP.stations[4].pin(U), 0.1)
        assert controls.poll() == []
    finally:
        controls.close()


def test_only_the_stations_players_sit_at_claim_their_pins(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    from gpiozero import LED

    # Players at stations 1 and 4: station 2's pins stay free for another use.
    controls = ButtonStations(PIN_MAP, clock, pin_factory=mock_factory, stations={0, 3})
    try:
        assert "2 stations" in controls.description
        free = LED(PIN_MAP.stations[1].pin(U), pin_factory=mock_factory)
        free.close()
        press(mock_factory, clock, PIN_MAP.stations[3].pin(U), 0.1)
        assert [(g.player, g.buttons) for g in controls.poll()] == [(3, (U,))]
    finally:
        controls.close()


def test_a_pin_in_use_is_refused_naming_player_and_button(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    from gpiozero import LED

    blocker = LED(PIN_MAP.stations[2].pin(W), pin_factory=mock_factory)
    try:
        with pytest.raises(ButtonSetupError, match=r"GPIO 16 \(player 3, Wunsch button\)"):
            ButtonStations(PIN_MAP, clock, pin_factory=mock_factory)
    finally:
        blocker.close()


def test_the_controls_factory_picks_gpio_on_a_pi_and_the_keyboard_elsewhere(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    from einhorn_table.adapters.controls import create_controls
    from einhorn_table.adapters.keyboard_controls import KeyboardControls

    on_pi = create_controls("auto", clock, on_pi=True, players=2, pin_factory=mock_factory)
    try:
        assert isinstance(on_pi, ButtonStations) and "2 stations" in on_pi.description
        press(mock_factory, clock, PIN_MAP.stations[1].pin(W), 0.1)
        assert [(g.player, g.buttons) for g in on_pi.poll()] == [(1, (W,))]
    finally:
        on_pi.close()
    desktop = create_controls("auto", clock, on_pi=False, players=3)
    assert isinstance(desktop, KeyboardControls) and desktop.simulated
    assert isinstance(create_controls("keyboard", clock, on_pi=True), KeyboardControls)


def test_a_station_the_pin_map_lacks_is_refused_naming_who_sits_there(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    import dataclasses

    # Stations 1, 2 and 4 wired; the table's file seats Cem at station 3.
    wired = dataclasses.replace(PIN_MAP, stations=tuple(
        s for s in PIN_MAP.stations if s.player in (0, 1, 3)), origin="pins.toml")
    with pytest.raises(ButtonSetupError) as refused:
        ButtonStations(wired, clock, pin_factory=mock_factory,
                       stations=SeatedStations({0: "Ana", 1: "Ben", 2: "Cem"}))
    assert str(refused.value).startswith(
        "Cem's station 3 is not in pins.toml (3 stations: 1, 2, 4), so its buttons cannot "
        "be set up. Give each player a station the pin map has")
    # Nothing was claimed: station 1's pins are free again for the next try.
    from gpiozero import LED

    LED(PIN_MAP.stations[0].pin(U), pin_factory=mock_factory).close()
    with pytest.raises(ButtonSetupError, match=r"^stations 3 and 6 are not in pins.toml"):
        ButtonStations(wired, clock, pin_factory=mock_factory, stations={0, 2, 5})
    # Stations beyond the players set up (players=2) are not asked for.
    controls = ButtonStations(wired, clock, pin_factory=mock_factory, players=2,
                              stations={0, 1, 2})
    try:
        assert "2 stations" in controls.description
    finally:
        controls.close()
