"""One factory for the players' controls: GPIO button stations, or the keyboard standing in."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any, Literal

from einhorn_table.adapters.gpio_buttons import ButtonStations
from einhorn_table.adapters.keyboard_controls import KeyboardControls
from einhorn_table.ports import Clock, Controls
from einhorn_table.stations.gestures import GestureTiming
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map

ControlsKind = Literal["auto", "gpio", "keyboard"]


def create_controls(
    kind: ControlsKind,
    clock: Clock,
    *,
    on_pi: bool,
    players: int | None = None,
    stations: Collection[int] | None = None,
    pin_map_path: Path | None = None,
    pin_factory: Any = None,
    timing: GestureTiming | None = None,
) -> Controls:
    """``auto`` means the GPIO buttons on a Raspberry Pi and the keyboard elsewhere.
    The GPIO stations set up are players 1 to ``players`` among ``stations`` (0-based;
    None: all), as :class:`ButtonStations` says.

    The keyboard needs the screen's pygame display (its window gets the keys).
    """
    use_gpio = on_pi if kind == "auto" else kind == "gpio"
    if use_gpio:
        pin_map = load_pin_map(pin_map_path or default_pin_map_path())
        return ButtonStations(
            pin_map, clock, pin_factory=pin_factory, timing=timing, players=players,
            stations=stations,
        )
    return KeyboardControls(clock, players=players or 6, timing=timing)
