"""The button checks: the pin map (and the serial console on its pins), the buttons, the walk."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.errors import EinhornError
from einhorn_table.ports import Button, Clock, Controls, GestureKind
from einhorn_table.stations.header import BCM_TO_PHYSICAL, UART
from einhorn_table.stations.pin_map import PinMap, Station, load_pin_map
from einhorn_table.words import counted, joined, plural


def check_pin_map(path: Path, *, boot_dir: Path = Path("/boot/firmware"),
                  players: int | None = None, stations: Collection[int] | None = None,
                  ) -> tuple[CheckResult, PinMap | None]:
    """The pin map is valid; on a Pi, the UART pins of the stations used (those of
    players 1 to ``players`` and in ``stations``, 0-based, as play sets them up: all
    where not given) are not in use by a serial console."""
    try:
        pin_map = load_pin_map(path)
    except EinhornError as error:
        return CheckResult("pin map", Status.FAIL, str(error)), None
    gpios = sorted(pin_map.gpios)
    detail = (
        f"{path}: {counted(len(pin_map.stations), 'station')} x 4 buttons on GPIO "
        f"{_ranges(gpios)}; no pin used twice, none reserved"
    )
    if players is not None and stations is None:
        # --players N asks for stations 1 to N: one the map lacks would be left out
        # without a word, and its player's buttons never checked.
        lacking = pin_map.lacking(range(players))
        if lacking is not None:
            words, count = lacking
            mapped = {station.player for station in pin_map.stations}
            fewer = next(n for n in range(players) if n not in mapped)  # 1 to this are wired
            return CheckResult(
                "pin map", Status.FAIL,
                f"{words}, and --players {players} asks to check stations 1 to {players}",
                f"Wire {'that station' if count == 1 else 'those stations'} and add "
                f"{'it' if count == 1 else 'them'} to {path} (hardware/wiring.svg)"
                + (f", or check fewer: --players {fewer}." if fewer else "."),
            ), pin_map
    used = {gpio for station in pin_map.chosen(players, stations)
            for gpio in station.pins.values()}
    uart_used = sorted(used & set(UART))
    if uart_used and serial_console_enabled(boot_dir):
        owners = sorted({owner[0] + 1 for g in uart_used if (owner := pin_map.owner(g))})
        # (The UART has two pins: one owner or two.)
        uart_stations = f"{plural(len(owners), 'station')} {joined([str(o) for o in owners])}"
        return (
            CheckResult(
                "pin map",
                Status.FAIL,
                detail + f"; but GPIO {', '.join(map(str, uart_used))} carry the serial console",
                "Turn the serial console off: sudo raspi-config > Interface Options > Serial "
                f"Port > 'No' to both questions, then reboot; or leave out {uart_stations}.",
            ),
            pin_map,
        )
    return CheckResult("pin map", Status.OK, detail), pin_map


def _ranges(numbers: list[int]) -> str:
    """``[4, 5, 6, 9]`` as ``4-6, 9``."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in spans)


def serial_console_enabled(boot_dir: Path) -> bool:
    """Whether Raspberry Pi OS puts a serial console on GPIO14/15.

    That takes ``enable_uart=1`` in config.txt and ``console=serial0`` in cmdline.txt.
    """
    try:
        config = (boot_dir / "config.txt").read_text(encoding="utf-8", errors="replace")
        cmdline = (boot_dir / "cmdline.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    uart_on = any(
        line.strip().replace(" ", "") == "enable_uart=1" for line in config.splitlines()
    )
    return uart_on and ("console=serial0" in cmdline or "console=ttyAMA0" in cmdline)


def check_buttons(
    machine: Machine,
    pin_map: PinMap | None,
    clock: Clock,
    *,
    players: int | None = None,
    stations: Collection[int] | None = None,
    pin_factory: Any = None,
    use_gpio: bool | None = None,
) -> tuple[CheckResult, Controls | None]:
    """Set the buttons up (GPIO on a Pi, else the keyboard stands in); report held ones."""
    gpio = machine.is_pi if use_gpio is None else use_gpio
    if not gpio:
        from einhorn_table.adapters.keyboard_controls import key_map_text

        count = players or 6
        return (
            CheckResult(
                "buttons",
                Status.OK,
                f"the keyboard stands in for the buttons: {key_map_text(count)}",
                simulated=True,
            ),
            None,
        )
    if pin_map is None:
        return CheckResult("buttons", Status.FAIL, "not set up: the pin map is not usable"), None
    from einhorn_table.adapters.gpio_buttons import ButtonStations

    try:
        controls = ButtonStations(pin_map, clock, pin_factory=pin_factory, players=players,
                                  stations=stations)
    except EinhornError as error:
        return CheckResult("buttons", Status.FAIL, str(error)), None
    held = controls.pressed_now()
    detail = f"{controls.description}: every button set up with its pull-up"
    if held:
        names = "; ".join(_where(pin_map, p, b) for p, b in held)
        return (
            CheckResult(
                "buttons",
                Status.FAIL,
                detail + f"; but these read pressed with nobody touching them: {names}",
                "Let go of them; if they stay pressed, the wire touches GND somewhere "
                "(a short) or the button is wired to the wrong pin.",
            ),
            controls,
        )
    return CheckResult("buttons", Status.OK, detail), controls


def _where(pin_map: PinMap, player: int, button: Button) -> str:
    gpio = next((s.pin(button) for s in pin_map.stations if s.player == player), None)
    if gpio is None:  # (a station the map lacks: only a keyboard has one)
        return f"player {player + 1} {button.label}"
    return (
        f"player {player + 1} {button.label} (GPIO {gpio}, header pin {BCM_TO_PHYSICAL[gpio]})"
    )


def _key_where(player: int, button: Button) -> str:
    """A button as the keyboard standing in for it has it: its player, its name, its key."""
    from einhorn_table.adapters.keyboard_controls import button_key

    return f"player {player + 1} {button.label} (key {button_key(player, button)})"


#: What to do about buttons that did not answer, or answered as others.
_WIRES_TODO = (
    "For a button with no answer check both of its wires: one to its GPIO's header pin, "
    "one to a GND pin (hardware/wiring.svg). Mixed-up buttons have their GPIO wires "
    "swapped: swap them back, or change hardware/pins.toml to match.")
_KEYS_TODO = (
    "Keep the doctor's window in front while you press (it takes the keys), and press the "
    "key asked for: each player's four keys are a row ({keys}; docs/buttons.md).")


def walk_buttons(
    controls: Controls,
    pin_map: PinMap,
    clock: Clock,
    say: Callable[[str], None],
    *,
    players: int | None = None,
    stations: Collection[int] | None = None,
    timeout: float = 10.0,
    poll_every: float = 0.02,
) -> CheckResult:
    """Ask for each button in turn and see it pressed (``--buttons``)."""
    missing: list[str] = []
    swapped: list[str] = []
    used = pin_map.chosen(players, stations)
    total = 4 * len(used)

    def name(player: int, button: Button) -> str:  # the keyboard's keys, or the GPIO pins
        if controls.simulated:
            return _key_where(player, button)
        return _where(pin_map, player, button)

    for station in used:
        for button in Button:
            where = name(station.player, button)
            say(f"Press {where} ... ")
            deadline = clock.monotonic() + timeout
            seen: tuple[int, Button] | None = None
            while seen is None and clock.monotonic() < deadline:
                for gesture in controls.poll():
                    if gesture.kind in (GestureKind.TAP, GestureKind.LONG):
                        seen = (gesture.player, gesture.button)
                        break
                if seen is None:
                    clock.sleep(poll_every)
            if seen == (station.player, button):
                say("  seen.\n")
            elif seen is None:
                say(f"  nothing in {timeout:g} s.\n")
                missing.append(where)
            else:
                other = name(*seen)
                say(f"  that was {other}.\n")
                swapped.append(f"{where} answered as {other}")
    if not missing and not swapped:
        return CheckResult("button test", Status.OK, f"all {total} buttons answered")
    problems = []
    if missing:
        problems.append("no answer from " + "; ".join(missing))
    if swapped:
        problems.append("mixed up: " + "; ".join(swapped))
    return CheckResult(
        "button test",
        Status.FAIL,
        f"{total - len(missing) - len(swapped)} of {total} buttons answered; "
        + "; ".join(problems),
        _KEYS_TODO.format(keys=_key_rows(used)) if controls.simulated else _WIRES_TODO,
    )


def _key_rows(used: Collection[Station]) -> str:
    from einhorn_table.adapters.keyboard_controls import row_keys

    return "; ".join(f"player {s.player + 1}: {row_keys(s.player)}" for s in used)
