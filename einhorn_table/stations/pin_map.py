"""The pin map (``hardware/pins.toml``): which GPIO each player's four buttons use.

The file::

    version = 1
    reserve_uart = false      # true keeps GPIO14/15 free for a serial console

    [[station]]
    player = 1
    unvermeidlich = 4
    wunsch = 17
    einhorn = 27
    dreifaltigkeit = 22

A map is refused, with a message naming the pin, the player and the button, if
a pin is used twice, is not a GPIO of the 40-pin header, or is reserved.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.parsing import loads_toml
from einhorn_table.ports import Button
from einhorn_table.stations import MAX_STATIONS
from einhorn_table.stations.header import (
    BCM_TO_PHYSICAL,
    RESERVED,
    UART,
    free_gpios,
    header_pin,
)
from einhorn_table.text_files import TextFileError, read_text_file
from einhorn_table.words import counted, joined, plural

PIN_MAP_VERSION = 1


class PinMapError(EinhornError):
    """The pin map cannot be used; the message names the pin, player and button."""


@dataclass(frozen=True)
class Station:
    """One player's four buttons. ``player`` counts from 0 (the file counts from 1)."""

    player: int
    pins: Mapping[Button, int]

    def pin(self, button: Button) -> int:
        return self.pins[button]


@dataclass(frozen=True)
class PinMap:
    stations: tuple[Station, ...]
    reserve_uart: bool = False
    #: Where the map came from, for messages.
    origin: str = "pin map"

    def owner(self, gpio: int) -> tuple[int, Button] | None:
        """Which (player, button) a GPIO belongs to."""
        for station in self.stations:
            for button, pin in station.pins.items():
                if pin == gpio:
                    return station.player, button
        return None

    @property
    def gpios(self) -> tuple[int, ...]:
        return tuple(pin for s in self.stations for pin in s.pins.values())

    def lacking(self, stations: Collection[int], players: int | None = None,
                ) -> tuple[str, int] | None:
        """Of ``stations`` (0-based; of players 1 to ``players``), those this map lacks,
        said for the installer ("Cem's station 3 is not in pins.toml (3 stations: 1, 2,
        4)", with the names a table's file's stations carry), and how many; None: none."""
        mapped = sorted(s.player for s in self.stations)
        missing = sorted(s for s in stations
                         if (players is None or s < players) and s not in mapped)
        if not missing:
            return None
        names: Mapping[int, str] = getattr(stations, "names", {})
        if all(s in names for s in missing):
            who = joined([f"{names[s]}'s station {s + 1}" for s in missing])
        else:
            who = f"{plural(len(missing), 'station')} {joined([str(s + 1) for s in missing])}"
        return (f"{who} {'is' if len(missing) == 1 else 'are'} not in {self.origin} "
                f"({counted(len(mapped), 'station')}: {', '.join(str(s + 1) for s in mapped)})",
                len(missing))

    def chosen(self, players: int | None = None,
               stations: Collection[int] | None = None) -> tuple[Station, ...]:
        """The stations of players 1 to ``players`` (all: None) that are also among
        ``stations`` (0-based; all: None)."""
        return tuple(s for s in self.stations
                     if (players is None or s.player < players)
                     and (stations is None or s.player in stations))


def _where(player: int, button: Button) -> str:
    return f"player {player + 1}, {button.label} button"


def load_pin_map(path: Path) -> PinMap:
    """Read and check a pin map file."""
    try:
        text = read_text_file(path, "a pin map")
    except FileNotFoundError:
        raise PinMapError(
            f"The pin map {path} does not exist. Copy hardware/pins.toml from the "
            "project, or give the right path (pins = \"...\" in table.toml; --pins for "
            "the doctor and the smoke test)."
        ) from None
    except TextFileError as error:
        raise PinMapError(str(error)) from None
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise PinMapError(f"{path} is not valid TOML ({error}); fix that line.") from None
    return parse_pin_map(data, origin=str(path))


def parse_pin_map(data: Mapping[str, Any], *, origin: str = "pin map") -> PinMap:
    """Check a pin map's content (as read from TOML) and build it."""
    unknown = sorted(set(data) - {"version", "reserve_uart", "station"})
    if unknown:
        raise PinMapError(
            f"{origin}: unknown {plural(len(unknown), 'setting')} {', '.join(unknown)}; "
            "a pin map has version, reserve_uart and [[station]] tables."
        )
    if data.get("version") != PIN_MAP_VERSION:
        raise PinMapError(
            f"{origin}: 'version = {PIN_MAP_VERSION}' is missing or different "
            f"(found {data.get('version')!r}); this companion reads version {PIN_MAP_VERSION}."
        )
    reserve_uart = data.get("reserve_uart", False)
    if not isinstance(reserve_uart, bool):
        raise PinMapError(f"{origin}: reserve_uart must be true or false.")
    raw_stations = data.get("station", [])
    if not isinstance(raw_stations, list) or not raw_stations:
        raise PinMapError(
            f"{origin}: no [[station]] tables; add one per player, each with "
            "player = N and its four buttons' GPIO numbers."
        )
    if len(raw_stations) > MAX_STATIONS:
        raise PinMapError(
            f"{origin}: {len(raw_stations)} stations, but a match has at most "
            f"{MAX_STATIONS} players; remove the extra ones."
        )
    stations = [_station(raw, index, origin) for index, raw in enumerate(raw_stations)]
    _check_players(stations, origin)
    _check_pins(stations, reserve_uart, origin)
    ordered = tuple(sorted(stations, key=lambda s: s.player))
    return PinMap(ordered, reserve_uart=reserve_uart, origin=origin)


def _station(raw: Any, index: int, origin: str) -> Station:
    if not isinstance(raw, Mapping):
        raise PinMapError(f"{origin}: station {index + 1} is not a table.")
    names = {b.value for b in Button}
    unknown = sorted(set(raw) - names - {"player"})
    if unknown:
        raise PinMapError(
            f"{origin}: station {index + 1} has unknown {plural(len(unknown), 'key')} "
            f"{', '.join(unknown)}; the buttons are {', '.join(b.value for b in Button)}."
        )
    player = raw.get("player")
    if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= MAX_STATIONS:
        raise PinMapError(
            f"{origin}: station {index + 1} needs 'player = N' with N from 1 to "
            f"{MAX_STATIONS} (found {player!r})."
        )
    pins: dict[Button, int] = {}
    for button in Button:
        value = raw.get(button.value)
        where = _where(player - 1, button)
        if value is None:
            raise PinMapError(f"{origin}: no GPIO for {where}; add '{button.value} = N'.")
        if not isinstance(value, int) or isinstance(value, bool):
            raise PinMapError(
                f"{origin}: the GPIO for {where} must be a BCM number, not {value!r}."
            )
        pins[button] = value
    return Station(player - 1, pins)


def _check_players(stations: list[Station], origin: str) -> None:
    seen: set[int] = set()
    for station in stations:
        if station.player in seen:
            raise PinMapError(
                f"{origin}: player {station.player + 1} has two [[station]] tables; "
                "give each player one."
            )
        seen.add(station.player)


def _check_pins(stations: list[Station], reserve_uart: bool, origin: str) -> None:
    used: dict[int, str] = {}
    for station in stations:
        for button, gpio in station.pins.items():
            where = _where(station.player, button)
            if gpio not in BCM_TO_PHYSICAL:
                raise PinMapError(
                    f"{origin}: GPIO {gpio} ({where}) is not on the 40-pin header; "
                    f"use a BCM number from 0 to 27.{_header_pin_hint(gpio)} "
                    f"{_free(stations, reserve_uart)}"
                )
            reason = RESERVED.get(gpio) or (UART.get(gpio) if reserve_uart else None)
            if reason is not None:
                raise PinMapError(
                    f"{origin}: GPIO {gpio} ({where}) is reserved ({reason}); "
                    f"move that button to a free GPIO. {_free(stations, reserve_uart)}"
                )
            if gpio in used:
                raise PinMapError(
                    f"{origin}: GPIO {gpio} is used twice: by {used[gpio]} and by {where}; "
                    f"give each button its own GPIO. {_free(stations, reserve_uart)}"
                )
            used[gpio] = where


def _header_pin_hint(number: int) -> str:
    """Where ``number`` is a header pin's (an installer counting pins on the header), what
    that pin is; else nothing."""
    what = header_pin(number)
    if what is None:
        return ""
    return (f" {number} looks like a header pin number: header pin {number} is {what}; "
            "the pin map takes GPIO (BCM) numbers (hardware/wiring.svg shows both).")


def _free(stations: list[Station], reserve_uart: bool) -> str:
    taken = {pin for s in stations for pin in s.pins.values()}
    free = [str(n) for n in free_gpios(reserve_uart=reserve_uart) if n not in taken]
    if not free:
        return "No GPIO is left free: use fewer stations (see hardware/README.md)."
    return f"Free GPIOs: {', '.join(free)}."


def default_pin_map_path() -> Path:
    """``hardware/pins.toml`` of the project this package was installed from."""
    return Path(__file__).resolve().parents[2] / "hardware" / "pins.toml"
