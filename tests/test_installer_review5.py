"""What a parent installing the table on a Raspberry Pi meets (fifth review): a
calibration whose view is written as an inline table (or half filled in) keeps its lines
and comments when the doctor keeps the view in it, the table fills the screen it finds
(an HDMI screen at 1920x1080 as well as the Touch Display's 800x480), and the service
waits for the boot splash to let go of the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_hardware_systemd_unit import UNIT, directives
from test_installer_review3 import (  # (_quiet: the same environment, for each test)
    FULL_VIEW,
    _old_pi_calibration,
    _quiet,  # noqa: F401
)

from einhorn_table.adapters.pygame_screen import PygameScreen
from einhorn_table.calibration.camera_view import keep_view
from einhorn_table.calibration.profile import load_profile

# ------------------------------------------------------------------ keeping the view


def _with_view_line(tmp_path: Path, view_line: str) -> tuple[Path, str]:
    """An old Pi calibration with the parent's comments, its view written as
    ``view_line`` among the top-level keys."""
    path, _ = _old_pi_calibration(tmp_path)
    made = path.read_text(encoding="utf-8").replace("\n[view]\n", "\n")
    top, _, tables = made.partition("\n[")
    text = (f"# our table, measured on Sunday\n{top}\n{view_line}\n"
            f"# the lamp stood left of the tray\n[{tables}")
    path.write_text(text, encoding="utf-8")
    assert load_profile(path).view.told is None
    return path, text


@pytest.mark.parametrize("written", ["view = {}", "view = { }   # filled in by the doctor",
                                     'view = {camera = ""}',
                                     'view = { mode = [1536, 864] }'])
def test_a_view_written_as_an_inline_table_is_set_in_its_own_line(
    tmp_path: Path, written: str
) -> None:
    path, text = _with_view_line(tmp_path, written)
    keep_view(path, FULL_VIEW)
    kept = path.read_text(encoding="utf-8")
    comment = written.partition("#")[2]
    line = 'view = { camera = "imx708", mode = [2304, 1296] }' + (
        f"   #{comment}" if comment else "")
    assert kept == text.replace(written, line)  # every other line as the parent wrote it
    assert load_profile(path).view.told == FULL_VIEW


def test_a_half_filled_view_table_keeps_the_parents_comments(tmp_path: Path) -> None:
    path, _ = _old_pi_calibration(tmp_path)
    made = path.read_text(encoding="utf-8")
    text = "# our table\n" + made.replace(
        "\n[view]\n", '\n[view]  # the camera\ncamera = ""   # I did not know it\n'
        "# ask the doctor\n")
    path.write_text(text, encoding="utf-8")
    keep_view(path, FULL_VIEW)
    assert path.read_text(encoding="utf-8") == text.replace(
        'camera = ""   # I did not know it\n', 'camera = "imx708"\nmode = [2304, 1296]\n')
    assert load_profile(path).view.told == FULL_VIEW


def test_a_view_in_a_shape_not_edited_in_place_is_still_kept(tmp_path: Path) -> None:
    path, _ = _with_view_line(tmp_path, 'view.camera = ""')  # (dotted keys)
    keep_view(path, FULL_VIEW)
    assert load_profile(path).view.told == FULL_VIEW


# ------------------------------------------------------------------ the table's screen


def _opened(monkeypatch: pytest.MonkeyPatch, desktop: tuple[int, int], *,
            fullscreen: bool) -> tuple[PygameScreen, list[tuple[int, int]]]:
    """A table's screen opened as table.toml's [screen] (800x480) asks, on a display of
    its own size ``desktop``; the modes asked of SDL."""
    import pygame

    asked: list[tuple[int, int]] = []

    def set_mode(size: tuple[int, int], flags: int = 0) -> Any:
        asked.append(tuple(size))
        return pygame.Surface(desktop if tuple(size) == (0, 0) else size)

    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [desktop])
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    screen = PygameScreen((800, 480), fullscreen=fullscreen)
    assert screen.open()
    return screen, asked


@pytest.mark.parametrize("desktop", [(800, 480), (1024, 600), (1920, 1080)])
def test_the_table_fills_the_screen_it_is_shown_on(
    monkeypatch: pytest.MonkeyPatch, desktop: tuple[int, int]
) -> None:
    """An HDMI screen at 1920x1080 was asked for the 800x480 of table.toml: SDL's
    console driver switched it to another mode, or drew the table small in a corner,
    where the calibration before it had filled the screen."""
    screen, asked = _opened(monkeypatch, desktop, fullscreen=True)
    try:
        assert asked == [(0, 0)]  # (pygame: the screen's own size)
        assert screen.surface.get_size() == desktop
        assert screen.renderer is not None and (screen.renderer.w, screen.renderer.h) == desktop
    finally:
        screen.close()


def test_a_television_is_asked_for_full_hd_and_a_window_for_its_size(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    screen, asked = _opened(monkeypatch, (3840, 2160), fullscreen=True)
    screen.close()
    assert asked == [(1920, 1080)]
    screen, asked = _opened(monkeypatch, (1920, 1080), fullscreen=False)
    screen.close()
    assert asked == [(800, 480)]


# ------------------------------------------------------------------ the service


def test_the_service_starts_after_the_boot_splash_has_let_go_of_the_screen() -> None:
    """On Raspberry Pi OS with the desktop, booted to the console, the boot splash
    (plymouth) holds the screen until plymouth-quit-wait ends: the console's login
    waits for it, and the table, which takes the login's place, must too."""
    unit = directives(UNIT.read_text())
    assert "plymouth-quit-wait.service" in unit["Unit.After"][0].split()
    assert "getty@tty1.service" in unit["Unit.Conflicts"][0].split()
