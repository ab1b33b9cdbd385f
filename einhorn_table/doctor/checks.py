"""The doctor's checks. Each returns a :class:`CheckResult` and never raises for a problem
it can explain: the problem goes into the report, with what to do."""

from __future__ import annotations

import contextlib
import grp
import os
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from einhorn_table.adapters.camera_settings import CameraSettings, CameraSettingsError
from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.errors import EinhornError
from einhorn_table.ports import Button, Clock, Controls, GestureKind
from einhorn_table.stations.header import BCM_TO_PHYSICAL, UART
from einhorn_table.stations.pin_map import PinMap, load_pin_map

#: Below this the camera is too slow to see the dice come to rest.
MIN_FPS = 10.0
#: Below this it works, but rolls are seen late.
GOOD_FPS = 20.0

#: The groups the service's user needs (see systemd/einhorn-table.service).
GROUPS = ("video", "render", "input", "gpio")


def default_source(machine: Machine) -> str:
    return "picamera2" if machine.is_pi else "synth:seed=0"


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the match history goes: systemd's ``$STATE_DIRECTORY``, else the XDG state home."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "einhorn-table"


# ----------------------------------------------------------------------------- profile


def check_profile(path: Path | None) -> tuple[CheckResult, CameraSettings | None]:
    """A calibration profile parses as TOML, has a ``version``, and a valid ``[camera]``."""
    if path is None:
        return (
            CheckResult(
                "profile",
                Status.SKIP,
                "no calibration profile given (--profile FILE checks one)",
                essential=False,
            ),
            None,
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return _profile_fail(path, "does not exist", "Give the right path with --profile."), None
    except (OSError, UnicodeDecodeError) as error:
        return _profile_fail(path, f"cannot be read ({error})", "Check its permissions."), None
    except tomllib.TOMLDecodeError as error:
        return _profile_fail(path, f"is not valid TOML ({error})", "Fix that line."), None
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return (
            _profile_fail(
                path,
                f"has no valid 'version' (found {version!r})",
                "Add 'version = 1' at the top, or make the profile again.",
            ),
            None,
        )
    settings = None
    if "camera" in data:
        try:
            settings = CameraSettings.from_mapping(data["camera"])
        except CameraSettingsError as error:
            return _profile_fail(path, f"[camera]: {error}", "Fix the [camera] table."), None
    extra = ", with camera settings" if settings else ""
    return CheckResult("profile", Status.OK, f"{path}: version {version}{extra}"), settings


def _profile_fail(path: Path, what: str, todo: str) -> CheckResult:
    return CheckResult("profile", Status.FAIL, f"the calibration profile {path} {what}", todo)


# ------------------------------------------------------------------------------ camera


def check_camera(
    source_text: str,
    clock: Clock,
    *,
    frames: int = 30,
    settings: CameraSettings | None = None,
) -> CheckResult:
    """Open the frame source, read ``frames`` frames, and report size and frame rate."""
    from einhorn_table.adapters.sources import create_source

    try:
        source = create_source(source_text, clock=clock, camera_settings=settings)
        with source:
            first = source.read()
            started = clock.monotonic()
            count = 1 if first is not None else 0
            last = first
            while count < frames and (frame := source.read()) is not None:
                last = frame
                count += 1
            elapsed = clock.monotonic() - started
            notes = list(getattr(source, "notes", []))
            locked = dict(getattr(source, "locked", {}))
    except EinhornError as error:
        return CheckResult("camera", Status.FAIL, f"{source_text}: {error}")
    except Exception as error:  # an unforeseen library error: report it, check the rest
        return CheckResult(
            "camera",
            Status.FAIL,
            f"{source_text}: unexpected {type(error).__name__}: {error}",
            "Run the doctor again; if this stays, report this line to the project.",
        )
    if first is None or last is None:
        return CheckResult(
            "camera",
            Status.FAIL,
            f"{source.description} gave no picture at all",
            "Point --source at a recording that holds pictures, or check the camera.",
        )
    width, height = first.size
    rate = (count - 1) / elapsed if count > 1 and elapsed > 0 else None
    shown = f"{rate:.1f} frames/s" if rate is not None else f"{count} frame(s)"
    detail = f"{source.description}: {width}x{height} at {shown}"
    if locked:
        detail += "; locked " + _describe_locked(locked)
    brightness = float(last.image.mean())
    todo: list[str] = list(notes)
    status = Status.WARN if notes else Status.OK
    if rate is not None and not source.simulated and rate < MIN_FPS:
        return CheckResult(
            "camera",
            Status.FAIL,
            detail + f" (too slow: {MIN_FPS:g} frames/s at least)",
            "Lower the resolution (--source picamera2:width=1280,height=960), close other "
            "programs using the camera, and use a 5 V 3 A (Pi 4) or 5 A (Pi 5) supply.",
        )
    if rate is not None and not source.simulated and rate < GOOD_FPS:
        status = Status.WARN
        todo.append("Rolls will be seen late; a smaller picture size is faster.")
    if brightness < 12:
        status = Status.WARN
        todo.append("The picture is nearly black: lens cap on? Light over the tray?")
    return CheckResult(
        "camera", status, detail, " ".join(todo), simulated=source.simulated
    )


def _describe_locked(locked: Mapping[str, Any]) -> str:
    parts = []
    if "ExposureTime" in locked:
        parts.append(f"exposure {locked['ExposureTime'] / 1000:.1f} ms")
    if "AnalogueGain" in locked:
        parts.append(f"gain {locked['AnalogueGain']:.2f}")
    if "ColourGains" in locked:
        red, blue = locked["ColourGains"]
        parts.append(f"white balance (red {red:.2f}, blue {blue:.2f})")
    if "LensPosition" in locked:
        parts.append(f"focus {locked['LensPosition']:.2f} dioptres")
    return ", ".join(parts)


# ----------------------------------------------------------------------------- buttons


def check_pin_map(path: Path, *, boot_dir: Path = Path("/boot/firmware")) -> tuple[
    CheckResult, PinMap | None
]:
    """The pin map is valid; on a Pi, its UART pins are not in use by a serial console."""
    try:
        pin_map = load_pin_map(path)
    except EinhornError as error:
        return CheckResult("pin map", Status.FAIL, str(error)), None
    gpios = sorted(pin_map.gpios)
    detail = (
        f"{path}: {len(pin_map.stations)} station(s) x 4 buttons on GPIO "
        f"{_ranges(gpios)}; no pin used twice, none reserved"
    )
    uart_used = sorted(set(gpios) & set(UART))
    if uart_used and serial_console_enabled(boot_dir):
        return (
            CheckResult(
                "pin map",
                Status.FAIL,
                detail + f"; but GPIO {', '.join(map(str, uart_used))} carry the serial console",
                "Turn the serial console off: sudo raspi-config > Interface Options > Serial "
                "Port > 'No' to both questions, then reboot; or leave out station 6.",
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
        controls = ButtonStations(pin_map, clock, pin_factory=pin_factory, players=players)
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
    gpio = next(s.pin(button) for s in pin_map.stations if s.player == player)
    return (
        f"player {player + 1} {button.label} (GPIO {gpio}, header pin {BCM_TO_PHYSICAL[gpio]})"
    )


def walk_buttons(
    controls: Controls,
    pin_map: PinMap,
    clock: Clock,
    say: Callable[[str], None],
    *,
    players: int | None = None,
    timeout: float = 10.0,
    poll_every: float = 0.02,
) -> CheckResult:
    """Ask for each button in turn and see it pressed (``--buttons``)."""
    missing: list[str] = []
    swapped: list[str] = []
    stations = [s for s in pin_map.stations if players is None or s.player < players]
    total = 4 * len(stations)
    for station in stations:
        for button in Button:
            where = _where(pin_map, station.player, button)
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
                other = _where(pin_map, *seen)
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
        "For a button with no answer check both of its wires: one to its GPIO's header pin, "
        "one to a GND pin (hardware/wiring.svg). Mixed-up buttons have their GPIO wires "
        "swapped: swap them back, or change hardware/pins.toml to match.",
    )


# ------------------------------------------------------------------------------ screen


@contextlib.contextmanager
def _environment(name: str, value: str | None) -> Iterator[None]:
    saved = os.environ.get(name)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = saved


SIMULATED_DRIVERS = frozenset({"dummy", "offscreen"})


def check_screen(machine: Machine, environ: Mapping[str, str] | None = None) -> CheckResult:
    """Open the screen through SDL the way the service does (kmsdrm on a Pi)."""
    env = os.environ if environ is None else environ
    requested = env.get("SDL_VIDEODRIVER") or ("kmsdrm" if machine.is_pi else None)
    if requested is None and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return _simulated_screen("no display here (DISPLAY and WAYLAND_DISPLAY are not set)")
    try:
        driver, size = _open_screen(requested)
    except Exception as error:  # pygame.error, or a missing pygame
        if machine.is_pi:
            return CheckResult(
                "screen",
                Status.FAIL,
                f"SDL could not open the screen with the {requested} driver ({error})",
                "Boot to the console, not the desktop (sudo raspi-config > System Options > "
                "Boot > Console Autologin), since the desktop holds the screen; check the "
                "HDMI cable (the port next to the power socket) and that this user is in "
                "the video and render groups.",
            )
        return _simulated_screen(f"no display could be opened ({error})")
    if driver in SIMULATED_DRIVERS:
        if machine.is_pi:
            return CheckResult(
                "screen",
                Status.FAIL,
                f"no real screen: SDL fell back to its {driver} driver",
                "Run with SDL_VIDEODRIVER=kmsdrm from the console (or let the service do "
                "it); connect the screen before power-up.",
            )
        return CheckResult(
            "screen",
            Status.OK,
            f"no display here: SDL's {driver} driver stands in for the window",
            simulated=True,
        )
    return CheckResult("screen", Status.OK, f"SDL {driver} driver, {size[0]}x{size[1]} pixels")


def _simulated_screen(why: str) -> CheckResult:
    try:
        _open_screen("dummy")
    except Exception as error:
        return CheckResult(
            "screen",
            Status.FAIL,
            f"pygame cannot open even a simulated screen ({error})",
            "Install again with ./start (it installs pygame).",
        )
    return CheckResult(
        "screen", Status.OK, f"{why}; SDL's dummy driver stands in for the window", simulated=True
    )


def _open_screen(driver: str | None) -> tuple[str, tuple[int, int]]:
    with _environment("SDL_VIDEODRIVER", driver), _environment("PYGAME_HIDE_SUPPORT_PROMPT", "1"):
        import pygame

        pygame.display.init()
        try:
            name = pygame.display.get_driver()
            sizes = pygame.display.get_desktop_sizes()
            fullscreen = name == "kmsdrm"
            surface = pygame.display.set_mode(
                (0, 0) if fullscreen else (320, 180), pygame.FULLSCREEN if fullscreen else 0
            )
            surface.fill((40, 90, 60))  # the felt's green: the screen shows it worked
            pygame.display.flip()
            size = sizes[0] if sizes else surface.get_size()
            return name, (int(size[0]), int(size[1]))
        finally:
            pygame.display.quit()


# ------------------------------------------------------------------------- state, groups


def check_state_dir(path: Path) -> CheckResult:
    """The state directory exists (or can be made) and a file can be written there."""
    probe = path / ".einhorn-doctor-probe"
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe.write_text("ok\n", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        return CheckResult(
            "state dir",
            Status.FAIL,
            f"{path} is not writable ({error.strerror or error})",
            "The service gets /var/lib/einhorn-table from systemd (StateDirectory=). "
            "By hand, give a folder you own with --state-dir, or: "
            f"sudo mkdir -p {path} && sudo chown $USER {path}",
        )
    return CheckResult("state dir", Status.OK, f"{path} is writable")


def check_groups(machine: Machine) -> CheckResult | None:
    """On a Pi, whether this user may use camera, screen, keyboard and GPIO (not for root)."""
    if not machine.is_pi or os.geteuid() == 0:
        return None
    mine = set(os.getgroups())
    lacking = []
    for name in GROUPS:
        try:
            gid = grp.getgrnam(name).gr_gid
        except KeyError:
            continue
        if gid not in mine:
            lacking.append(name)
    if not lacking:
        return CheckResult("groups", Status.OK, f"this user is in {', '.join(GROUPS)}")
    return CheckResult(
        "groups",
        Status.WARN,
        f"this user is not in: {', '.join(lacking)} (the service's user gets them from the unit)",
        f"To run by hand: sudo usermod -aG {','.join(lacking)} $USER, then log out and in.",
        essential=False,
    )
