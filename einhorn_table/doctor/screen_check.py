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
                "Boot / Auto Login > Console), since the desktop holds the screen; check the "
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
