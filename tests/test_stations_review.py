"""The button stations as a family presses them: the review's findings.

A button stuck down while its station presses a chord, a quick tap on a pin factory
whose own debouncing drops edges, what the installer reads when the pins cannot be set
up, and a header pin number written where the pin map wants a GPIO number.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory, GPIOPinInUse, PinFactoryFallback
from gpiozero.pins.mock import MockFactory, MockPin

from einhorn_table.adapters import gpio_buttons
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.gpio_buttons import ButtonSetupError, ButtonStations
from einhorn_table.ports import Button, GestureKind, RawButtonEvent
from einhorn_table.stations.gestures import GestureDecoder, GestureTiming
from einhorn_table.stations.pin_map import (
    PinMapError,
    default_pin_map_path,
    load_pin_map,
    parse_pin_map,
)

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
PIN_MAP = load_pin_map(default_pin_map_path())


# ----------------------------------------------------------- a button stuck down


def test_a_station_with_a_button_stuck_down_still_works_after_a_chord() -> None:
    """A toy lying on ✗ (or a button wired to NC): the station's other buttons go on
    working, also after the help chord; before, the station went dead for good."""
    decoder = GestureDecoder(GestureTiming())
    feed = [RawButtonEvent(0, D, True, 1.0)]  # stuck from here on
    feed += [RawButtonEvent(0, W, True, 3.0), RawButtonEvent(0, E, True, 3.05)]  # help
    feed += [RawButtonEvent(0, W, False, 3.3), RawButtonEvent(0, E, False, 3.35)]
    feed += [RawButtonEvent(0, W, True, 5.0), RawButtonEvent(0, W, False, 5.1)]  # + tap
    gestures = []
    for event in feed:
        gestures += decoder.feed(event)
    gestures += decoder.tick(6.0)
    assert [(g.kind, g.buttons) for g in gestures] == [
        (GestureKind.LONG, (D,)), (GestureKind.CHORD, (W, E)), (GestureKind.TAP, (W,))]
    assert decoder.held(0) == (D,)


# --------------------------------------------- a pin factory that debounces itself

CLOCK = FakeClock(100.0)


class EdgeDroppingPin(MockPin):
    """A mock pin debounced as gpiozero's native and RPi.GPIO pin factories do: an edge
    within ``bounce`` seconds of the last one reported is dropped, whatever it was."""

    _last_call: float | None = None

    def _call_when_changed(self) -> None:
        now = CLOCK.monotonic()
        bounce = self._bounce
        if bounce and self._last_call is not None and now - self._last_call <= bounce:
            return
        self._last_call = now
        super()._call_when_changed()


@pytest.fixture
def dropping_factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    factory = MockFactory(pin_class=EdgeDroppingPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


def test_a_quick_tap_is_a_tap_whatever_the_pin_factory_debounces(
    dropping_factory: MockFactory,
) -> None:
    """A child's quick jab at + in an auction (20 ms down): one stone more, not five (a
    long press after the lost release), and the next tap is not swallowed."""
    controls = ButtonStations(PIN_MAP, CLOCK, pin_factory=dropping_factory)
    try:
        pin = dropping_factory.pin(PIN_MAP.stations[0].pin(W))
        pin.drive_low()
        CLOCK.advance(0.02)
        pin.drive_high()
        CLOCK.advance(1.0)
        assert [(g.kind, g.buttons) for g in controls.poll()] == [(GestureKind.TAP, (W,))]
        pin.drive_low()
        CLOCK.advance(0.15)
        pin.drive_high()
        CLOCK.advance(0.2)
        assert [(g.kind, g.buttons) for g in controls.poll()] == [(GestureKind.TAP, (W,))]
    finally:
        controls.close()


class LGPIOFactory(MockFactory):
    """Mock pins under the name of gpiozero's lgpio factory, whose debouncing reports an
    edge once the level has held steady (a glitch on a long cable is no press)."""


def test_gpiozero_debounces_only_where_it_waits_for_a_steady_level() -> None:
    steady = LGPIOFactory()
    dropping = MockFactory(pin_class=EdgeDroppingPin)
    gpio = PIN_MAP.stations[0].pin(U)
    try:
        for factory, bounce in ((steady, GestureTiming().bounce), (dropping, None)):
            controls = ButtonStations(PIN_MAP, CLOCK, pin_factory=factory, players=1)
            try:
                assert factory.pin(gpio).bounce == bounce
            finally:
                controls.close()
    finally:
        steady.reset()
        dropping.reset()


# ------------------------------------------------ what the installer reads at setup


@pytest.fixture
def no_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """gpiozero left to find its own pin factory, which fails after the warnings given
    in the list the test fills (as on a desktop, or a Pi whose lgpio cannot work)."""
    fallbacks: list[str] = []

    def default() -> Any:
        for text in fallbacks:
            warnings.warn(PinFactoryFallback(text), stacklevel=2)
        raise BadPinFactory("Unable to load any default pin factory!")

    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(default))
    try:
        yield fallbacks
    finally:
        Device.pin_factory = saved


def refusal(**kwargs: Any) -> str:
    with pytest.raises(ButtonSetupError) as refused:
        ButtonStations(PIN_MAP, CLOCK, **kwargs)
    return str(refused.value)


def test_a_computer_without_gpio_is_told_to_use_the_keyboard_not_mock_pins(
    no_factory: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gpio_buttons, "on_a_pi", lambda: False)
    no_factory += ["Falling back from lgpio: No module named 'lgpio'",
                   "Falling back from native: unable to locate Pi revision in "
                   "/proc/device-tree or /proc/cpuinfo"]
    message = refusal()
    assert message.startswith("This computer is not a Raspberry Pi: it has no GPIO header")
    assert "einhorn-table demo" in message and "--controls keyboard" in message
    # Mock pins are buttons nobody can press: the table would wait for ever.
    assert "GPIOZERO_PIN_FACTORY=mock" not in message
    assert "GPIO 4 (" not in message  # not a fault of one pin


def test_a_pi_without_lgpio_is_told_to_install_it(
    no_factory: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gpio_buttons, "on_a_pi", lambda: True)
    no_factory += ["Falling back from lgpio: No module named 'lgpio'",
                   "Falling back from native: [Errno 13] Permission denied: '/dev/gpiomem'"]
    message = refusal()
    assert message.startswith("The GPIO library lgpio is not installed")
    assert "sudo apt install -y python3-lgpio" in message and "./start" in message


def test_a_pi_whose_gpiochip_cannot_be_opened_is_told_both_causes(
    no_factory: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gpio_buttons, "on_a_pi", lambda: True)
    no_factory += ["Falling back from lgpio: 'can not open gpiochip'"]
    message = refusal()
    assert message.startswith("lgpio could not open the GPIO chip ('can not open gpiochip')")
    assert "sudo usermod -aG gpio" in message
    assert "Pi 5" in message and "sudo apt full-upgrade" in message
    assert "/dev/gpiochip4" in message


def test_a_pin_factory_named_wrongly_is_told_to_unset_it(
    mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpoi")
    try:
        message = refusal()
    finally:
        Device.pin_factory = saved
    assert message.startswith("GPIOZERO_PIN_FACTORY=lgpoi names no pin factory gpiozero has")
    assert "unset GPIOZERO_PIN_FACTORY" in message


class BusyPin(MockPin):
    """A pin the kernel or another program holds: lgpio answers 'GPIO busy'."""

    def __init__(self, factory: Any, info: Any) -> None:
        if info.name == f"GPIO{PIN_MAP.stations[4].pin(E)}":  # GPIO 11: SPI0's clock
            raise RuntimeError("'GPIO busy'")
        super().__init__(factory, info)


def test_a_busy_pin_names_the_pin_the_header_pin_and_what_may_hold_it() -> None:
    factory = MockFactory(pin_class=BusyPin)
    try:
        message = refusal(pin_factory=factory)
    finally:
        factory.reset()
    assert message.startswith(
        "GPIO 11 (player 5, Einhorn button), on header pin 23, is in use ('GPIO busy')")
    assert "sudo systemctl stop einhorn-table" in message  # the table's own service
    assert "SPI" in message and "raspi-config" in message  # what the kernel uses it for
    assert "python3-lgpio" not in message  # no shotgun list of unrelated causes


def test_a_pin_this_program_holds_is_said_in_use(mock_factory: MockFactory) -> None:
    from gpiozero import LED

    blocker = LED(PIN_MAP.stations[0].pin(E), pin_factory=mock_factory)
    try:
        message = refusal(pin_factory=mock_factory)
    finally:
        blocker.close()
    assert message.startswith("GPIO 27 (player 1, Einhorn button), on header pin 13, is in use")
    assert "SPI" not in message  # GPIO 27 has no other job


def test_gpio_pin_in_use_is_recognised_by_its_class_too() -> None:
    from einhorn_table.stations.setup_advice import pin_setup_advice

    advice = pin_setup_advice(GPIOPinInUse("pin GPIO17 is already in use by <LED>"), 17,
                              "player 1, Wunsch button")
    assert advice.startswith("GPIO 17 (player 1, Wunsch button), on header pin 11, is in use")


# ---------------------------------------------------- header pin numbers in the map


def one_station(**pins: int) -> dict[str, Any]:
    station = {"player": 1, "unvermeidlich": 4, "wunsch": 17, "einhorn": 27,
               "dreifaltigkeit": 22}
    station.update(pins)
    return {"version": 1, "station": [station]}


def test_a_header_pin_number_in_the_map_is_named_as_one() -> None:
    """An installer counting pins on the header writes 29 for Das Unvermeidliche of
    station 2: the map takes GPIO numbers, and header pin 29 is GPIO 5."""
    with pytest.raises(PinMapError) as refused:
        parse_pin_map(one_station(unvermeidlich=29))
    message = str(refused.value)
    assert "GPIO 29 (player 1, Das Unvermeidliche button) is not on the 40-pin header" in message
    assert ("29 looks like a header pin number: header pin 29 is GPIO 5; the pin map "
            "takes GPIO (BCM) numbers") in message


def test_a_header_pin_number_of_a_ground_pin_says_so() -> None:
    with pytest.raises(PinMapError) as refused:
        parse_pin_map(one_station(einhorn=30))
    assert "header pin 30 is a GND pin, for the station's common wire" in str(refused.value)
