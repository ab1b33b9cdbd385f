"""The players' button stations on the Pi's GPIO, through gpiozero.

Each button is a ``gpiozero.Button`` between a GPIO and GND (internal pull-up),
made with the pin factory passed in (``MockFactory`` in tests, gpiozero's
default, lgpio, on the Pi). Its callbacks, which run on gpiozero's thread, only
put a timestamped :class:`RawButtonEvent` on a ``queue.Queue``; :meth:`poll`,
called from the main loop, turns them into gestures.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Collection
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.ports import Button, Clock, Gesture, RawButtonEvent
from einhorn_table.stations.gestures import GestureDecoder, GestureTiming
from einhorn_table.stations.pin_map import PinMap
from einhorn_table.words import counted

INSTALL_GPIOZERO = (
    "The button library gpiozero is not installed. Run ./start again (it installs "
    "it); on the Raspberry Pi also: sudo apt install -y python3-lgpio"
)


class ButtonSetupError(EinhornError):
    """The GPIO buttons could not be set up; the message says what to do."""


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
        table's file's :class:`~einhorn_table.table.config.SeatedStations`)."""
        check_seated(pin_map, players, stations)
        try:
            from gpiozero import Button as GpioButton
        except ImportError as error:
            raise ButtonSetupError(f"{INSTALL_GPIOZERO} (Python said: {error})") from None
        self.timing = timing or GestureTiming()
        self._clock = clock
        self._queue: queue.Queue[RawButtonEvent] = queue.Queue()
        self._decoder = GestureDecoder(self.timing)
        self._devices: list[Any] = []
        self._where: list[tuple[int, Button]] = []
        used = pin_map.chosen(players, stations)
        self.description = f"GPIO buttons, {counted(len(used), 'station')} ({pin_map.origin})"
        try:
            for station in used:
                for button, gpio in station.pins.items():
                    device = self._make(GpioButton, gpio, pin_factory, station.player, button)
                    device.when_pressed = self._callback(station.player, button, True)
                    device.when_released = self._callback(station.player, button, False)
                    self._devices.append(device)
                    self._where.append((station.player, button))
        except ButtonSetupError:
            self.close()
            raise

    def _make(
        self, kind: Any, gpio: int, factory: Any, player: int, button: Button
    ) -> Any:
        try:
            return kind(
                gpio,
                pull_up=True,
                bounce_time=self.timing.bounce or None,
                hold_time=self.timing.long_press,
                pin_factory=factory,
            )
        except Exception as error:  # gpiozero: BadPinFactory, GPIOPinInUse, lgpio.error...
            name = type(error).__name__
            raise ButtonSetupError(
                f"GPIO {gpio} (player {player + 1}, {button.label} button) could not be "
                f"set up: {name}: {error}. On the Pi: is python3-lgpio installed "
                "(sudo apt install -y python3-lgpio) and is this user in the 'gpio' "
                "group (sudo usermod -aG gpio $USER, then log in again)? Is another "
                "program using the pin? Elsewhere set GPIOZERO_PIN_FACTORY=mock or "
                "use the keyboard."
            ) from None

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
