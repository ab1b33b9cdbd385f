"""The screen check: open the display through SDL the way the service does."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping

from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import CheckResult, Status


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


def check_screen(machine: Machine, environ: Mapping[str, str] | None = None, *,
                 rotate: int | None = None, fullscreen: bool = True) -> CheckResult:
    """Open the screen through SDL the way the service does (kmsdrm on a Pi); ``rotate``
    and ``fullscreen`` are the table's file's ``[screen]`` (rotate None: not set), for
    what the line says of a portrait screen and of a turned picture."""
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
                "Boot > Console; on Bookworm: System Options > Boot / Auto Login > Console), "
                "since the desktop holds the screen; check the HDMI cable (the port next to "
                "the power socket) and that this user is in the video and render groups.",
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
    return _screen_line(driver, size, rotate, fullscreen)


def _screen_line(driver: str, size: tuple[int, int], rotate: int | None,
                 fullscreen: bool) -> CheckResult:
    """The line for a real screen of ``size``: a portrait one left unturned at full
    screen, or a turn that draws the table portrait, is a warning that says what to set."""
    from einhorn_table.adapters.pygame_screen import drawn_size, portrait_note

    found = f"SDL {driver} driver, {size[0]}x{size[1]} pixels"
    if not fullscreen:
        return CheckResult("screen", Status.OK, found)
    if rotate is None:
        note = portrait_note(size)
        if note is None:
            return CheckResult("screen", Status.OK, found)
        return CheckResult(
            "screen", Status.WARN, f"SDL {driver} driver; {note}",
            "rotate = 90 turns the picture a quarter turn clockwise; if the table then "
            "stands upside down, use 270. If the screen stands upright as it is, set "
            "rotate = 0 to keep the picture unturned.",
            essential=False)
    if rotate == 0:
        return CheckResult("screen", Status.OK, f"{found}, the picture unturned (rotate = 0)")
    width, height = drawn_size(size, rotate)
    turned = (f"{found}, the picture turned {rotate} degrees: the table is drawn at "
              f"{width}x{height}")
    if height > width and size[0] > size[1]:  # (a quarter turn of a landscape screen)
        return CheckResult(
            "screen", Status.WARN, f"{turned}, portrait",
            "The screen's own mode is landscape: unless it is mounted on its side, take "
            f"rotate = {rotate} out of [screen] in the table's file (or use 180 for a "
            "screen mounted upside down).",
            essential=False)
    return CheckResult("screen", Status.OK, turned)


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

        from einhorn_table.adapters.pygame_screen import fullscreen_size

        pygame.display.init()
        try:
            name = pygame.display.get_driver()
            sizes = pygame.display.get_desktop_sizes()
            if name == "kmsdrm":  # (the mode the table asks for: a 4K television's 1920x1080)
                surface = pygame.display.set_mode(fullscreen_size(sizes), pygame.FULLSCREEN)
                size = surface.get_size()
            else:
                surface = pygame.display.set_mode((320, 180))
                size = sizes[0] if sizes else surface.get_size()
            surface.fill((40, 90, 60))  # the felt's green: the screen shows it worked
            pygame.display.flip()
            return name, (int(size[0]), int(size[1]))
        finally:
            pygame.display.quit()
