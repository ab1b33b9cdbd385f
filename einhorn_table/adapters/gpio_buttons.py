"""The players' button stations on the Pi's GPIO, through gpiozero.

Each button is a ``gpiozero.Button`` between a GPIO and GND (internal pull-up),
made with the pin factory passed in (``MockFactory`` in tests, gpiozero's
default, lgpio, on the Pi). Its callbacks, which run on gpiozero's thread, only
put a timestamped :class:`RawButtonEvent` on a ``queue.Queue``; :meth:`poll`,
called from the main loop, turns them into gestures.

gpiozero's own debouncing (``bounce_time``) is asked for only from the pin factories
that report an edge once the level has held steady that long (lgpio, pigpio): they
also keep a glitch on a long cable from being a press. The others (native, RPi.GPIO)
debounce by dropping any edge too soon after the last, a quick tap's release
included: the button would count as held (a long press nobody made, and the next
press lost). The gesture decoder debounces whatever edges it is given, and on every
pin factory takes a press as one only once the button has stayed down
:data:`~einhorn_table.stations.gestures.SHORTEST_PRESS` (15 ms; a finger's quickest tap
is 40 ms and more): a glitch of a millisecond or so on a station's cable, which the
native and RPi.GPIO factories report as a press and a release, is no tap and no chord.
"""

from __future__ import annotations

import os
import queue
import warnings
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.ports import Button, Clock, Gesture, RawButtonEvent
from einhorn_table.stations.gestures import SHORTEST_PRESS, GestureDecoder, GestureTiming
from einhorn_table.stations.pin_map import PinMap
from einhorn_table.stations.setup_advice import (
    factory_advice,
    mock_pins_advice,
    pin_setup_advice,
)
from einhorn_table.words import counted

#: The pin factories whose debouncing waits for a steady level (lgpio's debounce, pigpio's
#: glitch filter) rather than dropping the edges that follow one too soon.
STEADY_DEBOUNCE = frozenset({"LGPIOFactory", "PiGPIOFactory"})

INSTALL_GPIOZERO = (
    "The button library gpiozero is not installed. Run ./start again (it installs "
    "it); on the Raspberry Pi also: sudo apt install -y python3-lgpio"
)


class ButtonSetupError(EinhornError):
    """The GPIO buttons could not be set up; the message says what to do."""


def on_a_pi() -> bool:
    """Whether this machine is a Raspberry Pi (its device tree says so)."""
    from einhorn_table.doctor.machine import detect_machine

    return detect_machine().is_pi


def check_seated(pin_map: PinMap, players: int | None = None,
                 stations: Collection[int] | None = None) -> None:
    """Refuse, naming them, the stations (0-based) players sit at that ``pin_map`` lacks."""
    lacking = None if stations is None else pin_map.lacking(stations, players)
    if lacking is None:
        return
    words, count = lacking
    raise ButtonSetupError(
        f"{words}, so {'its' if count == 1 else 'their'} buttons cannot be set up. Give "
        "each player a station the pin map has (station = N in the table's file), or wire "
        "and map one more."
    )


def _default_factory(device: Any) -> Any:
    """gpiozero's pin factory, chosen now if it is not yet; refused with what to do
    where there is none (gpiozero's warnings say why each one it tried failed: they
    go into the message, and are shown as usual where one works)."""
    failure: Exception | None = None
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            device.ensure_pin_factory()
        except Exception as error:  # BadPinFactory, lgpio.error, ImportError...
            failure = error
    if failure is not None:
        raise ButtonSetupError(factory_advice(
            failure, [str(w.message) for w in said], on_pi=on_a_pi(),
            env_factory=os.environ.get("GPIOZERO_PIN_FACTORY"))) from None
    for warning in said:
        warnings.showwarning(warning.message, warning.category, warning.filename,
                             warning.lineno)
    factory = device.pin_factory
    env_factory = os.environ.get("GPIOZERO_PIN_FACTORY")
    if env_factory and is_mock(factory) and on_a_pi():
        # (Copied from a guide, or left from running the tests: the table would start
        # with buttons nobody can press, and wait for ever.)
        raise ButtonSetupError(mock_pins_advice(env_factory))
    return factory


def is_mock(factory: Any) -> bool:
    """Whether ``factory`` is one of gpiozero's mock pin factories (pins only code presses)."""
    return type(factory).__module__.startswith("gpiozero.pins.mock")


class ButtonStations:
    """The :class:`~einhorn_table.ports.Controls` of real (or mock) GPIO buttons."""

    simulated = False

    def __init__(
        self,
        pin_map: PinMap,
        clock: Clock,
        *,
        pin_factory: Any = None,
        timing: GestureTiming | None = None,
        players: int | None = None,
        stations: Collection[int] | None = None,
    ) -> None:
        """Only the stations of players 1 to ``players`` and, where given, those in
        ``stations`` (0-based) are set up: the pins of stations nobody plays at stay
        free (GPIO 7 to 11 are SPI's, 14 and 15 the serial port's).

        A station in ``stations`` (of players 1 to ``players``) that the pin map lacks
        is refused: its player would have no buttons (named, where ``stations`` are the
        table's file's :class:`~einhorn_table.table.config.SeatedStations`).

        A press counts once its button has stayed down ``SHORTEST_PRESS`` (``timing``'s
        ``shortest_press`` where that is longer): shorter is a glitch on the cable."""
        check_seated(pin_map, players, stations)
        try:
            from gpiozero import Button as GpioButton
            from gpiozero import Device
        except ImportError as error:
            raise ButtonSetupError(f"{INSTALL_GPIOZERO} (Python said: {error})") from None
        timing = timing or GestureTiming()
        # (A press shorter than a finger's is a glitch on the cable, whatever the pins'
        # factory and whatever timing is asked for.)
        self.timing = replace(timing, shortest_press=max(timing.shortest_press,
                                                         SHORTEST_PRESS))
        self._clock = clock
        self._queue: queue.Queue[RawButtonEvent] = queue.Queue()
        self._decoder = GestureDecoder(self.timing)
        self._devices: list[Any] = []
        self._where: list[tuple[int, Button]] = []
        used = pin_map.chosen(players, stations)
        self.description = f"GPIO buttons, {counted(len(used), 'station')} ({pin_map.origin})"
        factory = pin_factory if pin_factory is not None else _default_factory(Device)
        steady = type(factory).__name__ in STEADY_DEBOUNCE
        bounce = (self.timing.bounce or None) if steady else None
        try:
            for station in used:
                for button, gpio in station.pins.items():
                    where = f"player {station.player + 1}, {button.label} button"
                    try:
                        device = GpioButton(gpio, pull_up=True, bounce_time=bounce,
                                            pin_factory=factory)
                    except Exception as error:  # GPIOPinInUse, lgpio.error 'GPIO busy'...
                        raise ButtonSetupError(pin_setup_advice(error, gpio, where)) from None
                    device.when_pressed = self._callback(station.player, button, True)
                    device.when_released = self._callback(station.player, button, False)
                    self._devices.append(device)
                    self._where.append((station.player, button))
        except ButtonSetupError:
            self.close()
            raise

    def _callback(self, player: int, button: Button, pressed: bool) -> Callable[[], None]:
        def put() -> None:
            self._queue.put(RawButtonEvent(player, button, pressed, self._clock.monotonic()))

        return put

    def poll(self) -> list[Gesture]:
        gestures: list[Gesture] = []
        while True:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                break
            gestures += self._decoder.feed(event)
        gestures += self._decoder.tick(self._clock.monotonic())
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        """The buttons of a station held down now (for the screen's feedback)."""
        return self._decoder.held(player)

    def pressed_now(self) -> list[tuple[int, Button]]:
        """(player, button) of every button reading pressed right now (held, or shorted)."""
        return [w for w, d in zip(self._where, self._devices, strict=True) if d.is_pressed]

    def close(self) -> None:
        self._where = []
        devices, self._devices = self._devices, []
        for device in devices:
            device.close()
