"""[screen] rotate: a portrait screen (the Touch Display 2, 720x1280) mounted on its side
shows the table upright, turned from a landscape picture; the doctor and stderr point
out a portrait screen left unturned."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import Status, render
from einhorn_table.errors import EinhornError
from einhorn_table.screen.view_model import Marker, PlayerCard, ScreenKind, ScreenView
from einhorn_table.table.config import ConfigError, load_config

pygame = pytest.importorskip("pygame")

from einhorn_table.adapters import pygame_screen  # noqa: E402
from einhorn_table.adapters.pygame_screen import (  # noqa: E402
    PygameScreen,
    RotationError,
    TurnedDisplay,
)
from einhorn_table.doctor import screen_check  # noqa: E402

TABLE = """
[screen]
width = 720
height = 1280
fullscreen = true
{rotate}
[[player]]
name = "Ana"
[[player]]
name = "Ben"
"""

NOTE = ("the screen is portrait, 720x1280: if it is mounted on its side, set rotate = 90 "
        "(or 270) in [screen]")
RED = (255, 0, 0)


@pytest.fixture(autouse=True)
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    pygame.display.quit()


def table_file(tmp_path: Path, rotate: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(TABLE.format(rotate=rotate), encoding="utf-8")
    return path


# ---------------------------------------------------------------- the table's file


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_rotate_is_read_from_the_screen_table(tmp_path: Path, rotate: int) -> None:
    assert load_config(table_file(tmp_path, f"rotate = {rotate}")).rotate == rotate


def test_rotate_left_out_is_not_set(tmp_path: Path) -> None:
    config = load_config(table_file(tmp_path, ""))
    assert config.rotate is None and config.size == (720, 1280)


@pytest.mark.parametrize("value", ["45", "-90", "360", '"90"', "true", "90.0", "[90]"])
def test_a_wrong_rotate_is_refused_saying_what_is_allowed(tmp_path: Path, value: str) -> None:
    path = table_file(tmp_path, f"rotate = {value}")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: [screen] rotate must be 0, 90, 180 or 270")
    assert "(e.g. rotate = 90)" in message and message.endswith(f"not {value}")


def test_the_screen_refuses_a_turn_it_cannot_make() -> None:
    with pytest.raises(RotationError) as refused:
        PygameScreen((720, 1280), rotate=45)
    assert isinstance(refused.value, EinhornError) and "0, 90, 180 or 270" in str(refused.value)


# ---------------------------------------------------------------- the turned picture


def a_view(title: str = "Ana's turn") -> ScreenView:
    players = tuple(PlayerCard(name, colour, marker, 6, 3, i == 0, False, "")
                    for i, (name, colour, marker) in enumerate(
                        [("Ana", (196, 28, 36), Marker.CIRCLE),
                         ("Ben", (28, 72, 178), Marker.SQUARE)]))
    return ScreenView(ScreenKind.TURN, 1, 10, 50, None, players, title, focus=0,
                      subtitle="Call a category, or stay silent, then roll")


def marking(screen: PygameScreen) -> None:
    """Makes the renderer mark the picture's top left corner red after each drawing."""
    draw = screen.renderer.draw

    def marked(view: ScreenView) -> None:
        draw(view)
        screen.renderer.surface.fill(RED, pygame.Rect(0, 0, 20, 10))

    screen.renderer.draw = marked


def is_red(surface: Any, x: int, y: int) -> bool:
    return tuple(surface.get_at((x, y)))[:3] == RED


def test_a_frame_drawn_with_rotate_90_is_the_landscape_frame_turned_clockwise() -> None:
    screen = PygameScreen((720, 1280), rotate=90)
    assert screen.open()
    marking(screen)
    screen.show(a_view(), 0.0)
    shown = pygame.display.get_surface()
    assert shown.get_size() == (720, 1280) and screen.surface.get_size() == (1280, 720)
    # The landscape picture's top left corner (20 wide, 10 high) is the display's top right
    # (10 wide, 20 high): the picture turned a quarter turn clockwise.
    assert is_red(shown, 719, 0) and is_red(shown, 710, 19)
    assert not is_red(shown, 709, 0) and not is_red(shown, 719, 20)
    assert not any(is_red(shown, x, y) for x, y in [(0, 0), (0, 1279), (719, 1279)])
    # Every pixel: the display holds the landscape frame as drawn, turned.
    landscape = pygame.Surface((1280, 720), 0, shown)
    landscape.blit(screen.surface, (0, 0))
    for x, y in [(0, 0), (640, 40), (100, 600), (1279, 719), (900, 300)]:
        assert shown.get_at((719 - y, x)) == landscape.get_at((x, y))
    screen.close()


@pytest.mark.parametrize(("rotate", "size", "corner"),
                         [(0, (1280, 720), (0, 0)), (180, (1280, 720), (1279, 719)),
                          (270, (720, 1280), (0, 1279))])
def test_each_turn_puts_the_picture_s_top_left_where_it_belongs(
        rotate: int, size: tuple[int, int], corner: tuple[int, int]) -> None:
    screen = PygameScreen(size, rotate=rotate)
    assert screen.open()
    marking(screen)
    screen.show(a_view(), 0.0)
    shown = pygame.display.get_surface()
    assert screen.surface.get_size() == (1280, 720)
    assert is_red(shown, *corner)
    screen.close()


def test_a_picture_the_same_as_the_last_is_not_turned_again() -> None:
    screen = PygameScreen((720, 1280), rotate=90)
    assert screen.open()
    display = screen.display
    assert isinstance(display, TurnedDisplay)
    screen.show(a_view(), 0.0)
    before = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
    screen.show(a_view(), 0.1)
    screen.show(a_view(), 0.2)
    assert display.turned == 1
    assert pygame.image.tobytes(pygame.display.get_surface(), "RGB") == before
    screen.show(a_view("Ben's turn"), 0.3)
    assert display.turned == 2
    assert pygame.image.tobytes(pygame.display.get_surface(), "RGB") != before
    screen.close()


def test_a_screenshot_of_a_turned_screen_is_the_picture_upright(tmp_path: Path) -> None:
    screen = PygameScreen((720, 1280), rotate=90, screenshots=tmp_path)
    assert screen.open()
    screen.show(a_view(), 0.0, key=("turn",))
    (shot,) = tmp_path.glob("*.png")
    assert pygame.image.load(str(shot)).get_size() == (1280, 720)
    screen.close()


# ---------------------------------------------------------------- a portrait screen


def portrait_fullscreen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full screen opens a 720x1280 window, as the Touch Display 2's own mode."""
    real = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda *_args: real((720, 1280)))


def test_a_portrait_screen_unturned_is_pointed_out_once(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    portrait_fullscreen(monkeypatch)
    screen = PygameScreen(fullscreen=True)
    assert screen.open()
    screen._lost("the cable", 0.0)  # (opened again: not said again)
    screen.show(a_view(), 10.0)
    assert screen.renderer is not None
    err = capsys.readouterr().err
    assert err.count(NOTE) == 1
    screen.close()


@pytest.mark.parametrize(("fullscreen", "rotate"), [(True, 0), (True, 90), (False, None)])
def test_no_note_where_rotate_is_set_or_in_a_window(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        fullscreen: bool, rotate: int | None) -> None:
    portrait_fullscreen(monkeypatch)
    screen = PygameScreen((720, 1280), fullscreen=fullscreen, rotate=rotate)
    assert screen.open()
    assert "portrait" not in capsys.readouterr().err
    screen.close()


# ---------------------------------------------------------------- the doctor


def doctor_line(monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], **screen: Any) -> Any:
    monkeypatch.setattr(screen_check, "_open_screen", lambda driver: ("kmsdrm", size))
    return screen_check.check_screen(Machine(True, "Raspberry Pi 5 Model B"), {}, **screen)


def test_the_doctor_says_a_portrait_screen_can_be_turned(
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = doctor_line(monkeypatch, (720, 1280))
    assert result.status is Status.WARN and NOTE in result.detail
    assert "270" in result.todo and "rotate = 0" in result.todo
    report = " ".join(render("Machine: a Pi.", [result]).split())
    assert NOTE in report and "what to do: rotate = 90 turns the picture" in report


def test_the_doctor_names_the_size_a_turned_table_is_drawn_at(
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = doctor_line(monkeypatch, (720, 1280), rotate=90)
    assert result.status is Status.OK
    assert result.detail == ("SDL kmsdrm driver, 720x1280 pixels, the picture turned 90 "
                             "degrees: the table is drawn at 1280x720")
    assert doctor_line(monkeypatch, (720, 1280), rotate=0).status is Status.OK
    assert doctor_line(monkeypatch, (720, 1280), fullscreen=False).status is Status.OK
    assert doctor_line(monkeypatch, (1920, 1080)).detail == "SDL kmsdrm driver, 1920x1080 pixels"


def test_the_doctor_warns_of_a_landscape_screen_turned_portrait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = doctor_line(monkeypatch, (1920, 1080), rotate=270)
    assert result.status is Status.WARN and "1080x1920, portrait" in result.detail
    assert "take rotate = 270 out" in result.todo


def test_the_portrait_note_is_for_portrait_screens_only() -> None:
    assert pygame_screen.portrait_note((800, 480)) is None
    assert pygame_screen.portrait_note((1080, 1080)) is None
    assert NOTE in (pygame_screen.portrait_note((720, 1280)) or "")
