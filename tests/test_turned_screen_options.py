"""A turned screen everywhere: the demo and the calibration take ``--rotate`` (as the
table file's ``[screen] rotate``), and the turn itself is OpenCV's, pixel for pixel what
pygame's rotate and a blit gave, in half the time."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from test_demo_review import options  # noqa: E402
from test_demo_review3 import DEMO  # noqa: E402

from einhorn_table.adapters import pygame_screen  # noqa: E402
from einhorn_table.adapters.pygame_screen import PygameScreen, TurnedDisplay  # noqa: E402
from einhorn_table.calibration import session  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.cli.demo import demo_command  # noqa: E402
from einhorn_table.cli.table_app import go_on_words  # noqa: E402
from einhorn_table.screen.renderer import Renderer  # noqa: E402
from einhorn_table.screen.view_model import (  # noqa: E402
    Marker,
    PlayerCard,
    ScreenKind,
    ScreenView,
)

ROTATIONS = (0, 90, 180, 270)


@pytest.fixture(autouse=True)
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("EINHORN_COMMAND", raising=False)
    yield
    pygame.display.quit()


def a_view() -> ScreenView:
    players = tuple(PlayerCard(name, colour, marker, 6, 3, i == 0, False, "")
                    for i, (name, colour, marker) in enumerate(
                        [("Ana", (196, 28, 36), Marker.CIRCLE),
                         ("Ben", (28, 72, 178), Marker.SQUARE)]))
    return ScreenView(ScreenKind.TURN, 1, 10, 50, None, players, "Ana's turn", focus=0,
                      subtitle="Call a category, or stay silent, then roll")


def display_of(rotate: int, depth: int = 0) -> Any:
    """A display (the dummy driver's window, or a plain surface of ``depth`` bits standing
    in for one) that shows a 1280x720 picture turned ``rotate`` degrees."""
    size = (720, 1280) if rotate % 180 else (1280, 720)
    window = pygame.display.set_mode(size)
    pygame.font.init()
    return pygame.Surface(size, 0, depth) if depth else window


def pygame_turned(display: Any, picture: Any, rotate: int) -> bytes:
    """What pygame's rotate and a blit put on ``display`` (the turn as it was made)."""
    shown = pygame.Surface(display.get_size(), 0, display)
    shown.blit(pygame.transform.rotate(picture, -rotate), (0, 0))
    return bytes(shown.get_buffer().raw)


def noisy(surface: Any, seed: int) -> None:
    """Pixels of random colours all over ``surface`` (a turn that misplaced one shows)."""
    top = 2 ** min(24, surface.get_bitsize())
    values = np.random.default_rng(seed).integers(0, top, surface.get_size(), np.uint32)
    pygame.surfarray.blit_array(surface, values)


# ---------------------------------------------------------------- the turn itself


@pytest.mark.parametrize("rotate", ROTATIONS)
def test_the_turn_is_pixel_for_pixel_pygames_at_every_angle(rotate: int) -> None:
    display = display_of(rotate)
    turned = TurnedDisplay(pygame, display, rotate)
    assert turned.surface.get_size() == (1280, 720)
    for seed in (1, 2):  # each pixel its own colour, twice over
        noisy(turned.surface, seed)
        picture = turned.surface.copy()
        turned.flip()
        assert bytes(display.get_buffer().raw) == pygame_turned(display, picture, rotate)
    Renderer(turned.surface).draw(a_view())  # and a real screen, text and all
    picture = turned.surface.copy()
    turned.flip()
    assert bytes(display.get_buffer().raw) == pygame_turned(display, picture, rotate)


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_changed_picture_is_turned_by_opencv_not_by_pygames_rotate(
        rotate: int, monkeypatch: pytest.MonkeyPatch) -> None:
    display = display_of(rotate)
    turned = TurnedDisplay(pygame, display, rotate)
    noisy(turned.surface, 3)
    expected = pygame_turned(display, turned.surface, rotate)

    def slower(*_: object) -> None:
        raise AssertionError("turned through pygame.transform.rotate")

    monkeypatch.setattr(pygame.transform, "rotate", slower)
    turned.flip()
    assert turned.turned == 1 and bytes(display.get_buffer().raw) == expected


@pytest.mark.parametrize("rotate", [90, 180, 270])
@pytest.mark.parametrize("depth", [15, 16, 24])
def test_a_15_16_or_24_bit_display_is_turned_as_well(rotate: int, depth: int) -> None:
    """16 bits a pixel: OpenCV turns them as 16-bit numbers; a 24-bit display, or a 15-bit
    one (two bytes a pixel, yet no 2D pixel view in pygame), has no pixel view for OpenCV
    to write into, and pygame turns it, as before."""
    display = display_of(rotate, depth=depth)
    turned = TurnedDisplay(pygame, display, rotate)
    assert turned.surface.get_bitsize() == depth
    noisy(turned.surface, 4)
    picture = turned.surface.copy()
    turned.flip()
    assert bytes(display.get_buffer().raw) == pygame_turned(display, picture, rotate)


def test_a_turn_opencv_could_not_write_into_the_display_is_copied_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    display = display_of(90)
    turned = TurnedDisplay(pygame, display, 90)
    noisy(turned.surface, 5)
    expected = pygame_turned(display, turned.surface, 90)
    rotate = cv2.rotate
    monkeypatch.setattr(cv2, "rotate", lambda src, code, dst: rotate(src, code))
    turned.flip()
    assert bytes(display.get_buffer().raw) == expected


# ---------------------------------------------------------------- the demo


def seen_screens(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """(the turn, the window's size, the size the table is drawn at) of each screen shown."""
    seen: list[tuple[Any, ...]] = []
    show = PygameScreen.show

    def noted(self: PygameScreen, view: ScreenView, now: float,
              key: tuple[object, ...] | None = None) -> None:
        show(self, view, now, key)
        if self.display is not None:
            seen.append((self.rotate, self.display.display.get_size(),
                         self.display.surface.get_size()))

    monkeypatch.setattr(PygameScreen, "show", noted)
    return seen


def test_the_demo_turns_its_picture_as_rotate_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = seen_screens(monkeypatch)
    shots = tmp_path / "shots"
    assert main([*DEMO, "--bots", "all", "--games", "1", "--rotate", "90", "--screenshots",
                 str(shots), "--state-dir", str(tmp_path / "state")]) == 0
    # A 400x240 screen turned a quarter turn: the table drawn at 240x400, then turned.
    assert seen and set(seen) == {(90, (400, 240), (240, 400))}
    shot = pygame.image.load(str(sorted(shots.glob("*.png"))[0]))
    assert shot.get_size() == (240, 400)  # the picture upright, as the players read it


@pytest.mark.parametrize("value", ["45", "-90", "360", "ninety", "90.0"])
def test_the_demo_refuses_a_turn_it_cannot_make(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["demo", "--rotate", value])
    assert stopped.value.code == 2
    assert (f"argument --rotate: must be 0, 90, 180 or 270 (degrees clockwise; 90 or 270 "
            f"for a screen mounted on its side), not {value}") in capsys.readouterr().err


def test_the_lines_that_run_the_demo_again_keep_its_turn(tmp_path: Path) -> None:
    kept = options(tmp_path, frozenset({0, 1}), rotate=270)
    assert "--rotate 270" in go_on_words(kept)
    assert "--rotate" not in go_on_words(options(tmp_path, frozenset({0, 1})))
    args = argparse.Namespace(names=None, players=None, bots="none", variant="einhorn",
                              games=None, strategy="odds", seed=1, size="720x1280",
                              rotate=90, screenshots=None, state_dir=Path("einhorn-state"),
                              profile=None, fullscreen=False, mount=False, fast=False)
    assert demo_command(args, bots="all").endswith("--size 720x1280 --rotate 90")


# ---------------------------------------------------------------- the calibration

TABLE = """
camera = "synth:seed=5,players=2"
[screen]
width = 800
height = 480
fullscreen = false
{rotate}
[[player]]
name = "Ana"
[[player]]
name = "Ben"
"""


def calibration_turns(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, tuple[int, int]]]:
    """(the turn, the size drawn at) of the calibration's screen; it stops at its first
    step (as Esc stops it)."""
    made: list[tuple[int, tuple[int, int]]] = []

    class Noted(TurnedDisplay):
        def __init__(self, pg: Any, display: Any, rotate: int = 0) -> None:
            super().__init__(pg, display, rotate)
            made.append((rotate, self.surface.get_size()))

    def stopped(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(pygame_screen, "TurnedDisplay", Noted)
    monkeypatch.setattr(session, "run_flow", stopped)
    return made


def test_calibrate_without_a_table_file_turns_as_rotate_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # (no table.toml here)
    shots = tmp_path / "shots"
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--rotate", "90",
                 "--rolls", "1", "--autopilot", "--screenshots", str(shots),
                 "--out", str(tmp_path / "cal.toml")]) == 0
    tray = pygame.image.load(str(next(shots.glob("calibration-01-tray.png"))))
    assert tray.get_size() == (480, 800)  # drawn upright for an 800x480 screen on its side


@pytest.mark.parametrize(("written", "given", "turn", "said"), [
    ("rotate = 90", None, 90, None),
    ("", "270", 270, "[screen] in {table} has no rotate: play does not turn its picture "
                     "(write rotate = 270 there to play turned this way)."),
    ("rotate = 90", "0", 0, "[screen] in {table} says rotate = 90, which play goes by "
                            "(write rotate = 0 there to play turned this way)."),
    ("rotate = 90", "90", 90, None),
    ("", "0", 0, None),
])
def test_calibrate_s_rotate_wins_over_the_table_file_s_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        written: str, given: str | None, turn: int, said: str | None) -> None:
    table = tmp_path / "table.toml"
    table.write_text(TABLE.format(rotate=written), encoding="utf-8")
    made = calibration_turns(monkeypatch)
    rotate = ["--rotate", given] if given is not None else []
    assert main(["calibrate", "--table", str(table), *rotate, "--out",
                 str(tmp_path / "cal.toml")]) == 130
    assert made == [(turn, (480, 800) if turn % 180 else (800, 480))]
    out = capsys.readouterr().out
    if said is None:
        assert "--rotate" not in out
    else:
        assert f"--rotate {given} turns the calibration's picture {given} degrees; " \
            + said.format(table=table) in out


# ---------------------------------------------------------------- a portrait screen unturned


def portrait_fullscreen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full screen opens a 720x1280 window, as the Touch Display 2's own mode; the match
    stops at once."""
    from einhorn_table.table.loop import TableLoop

    real = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda *_args: real((720, 1280)))
    monkeypatch.setattr(TableLoop, "run", lambda *_args, **_kwargs: None)


def test_the_demo_on_a_portrait_screen_says_how_the_demo_turns_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    portrait_fullscreen(monkeypatch)
    main([*DEMO, "--fullscreen", "--bots", "all", "--state-dir", str(tmp_path / "state")])
    err = capsys.readouterr().err
    assert ("the screen is portrait, 720x1280: if it is mounted on its side, run the demo "
            "with --rotate 90 (or --rotate 270).") in err
    assert "table.toml" not in err  # (the demo reads no table's file)


def test_the_calibration_on_a_portrait_screen_says_both_ways_to_turn_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # (no table.toml here)
    portrait_fullscreen(monkeypatch)
    calibration_turns(monkeypatch)
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--fullscreen", "--out",
                 str(tmp_path / "cal.toml")]) == 130
    assert ("if it is mounted on its side, run the calibration with --rotate 90 (or --rotate "
            "270), and set rotate = 90 (or 270) in [screen] of the table's file (table.toml) "
            "for play.") in capsys.readouterr().err


def test_a_quarter_turn_of_a_landscape_window_is_pointed_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``demo --rotate 90`` left at the 800x480 window draws the table portrait, small."""
    from einhorn_table.table.loop import TableLoop

    monkeypatch.setattr(TableLoop, "run", lambda *_args, **_kwargs: None)
    state = str(tmp_path / "state")
    main(["demo", "--fast", "--bots", "all", "--rotate", "90", "--state-dir", state])
    assert ("--rotate 90 turns the 800x480 window's picture on its side: the table is "
            "drawn portrait, 480x800, small and with room left over. A quarter turn is for "
            "a portrait screen mounted on its side: give that screen's own size, e.g. --size "
            "720x1280 for a Touch Display 2 (or leave --rotate out).") in capsys.readouterr().err
    for fitting in (["--size", "720x1280", "--rotate", "90"], ["--rotate", "180"],
                    ["--fullscreen", "--rotate", "270"]):
        main(["demo", "--fast", "--bots", "all", *fitting, "--state-dir", state])
        assert "on its side" not in capsys.readouterr().err


def test_calibrate_s_quarter_turn_of_a_landscape_window_is_pointed_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``calibrate --rotate 90`` left at its 800x480 window draws portrait, small, as the
    demo does: said the same way; a turn the table's file asks for is not --rotate's."""
    monkeypatch.chdir(tmp_path)  # (no table.toml here)
    calibration_turns(monkeypatch)
    out = str(tmp_path / "cal.toml")
    source = ["--source", "synth:seed=5,players=2"]
    assert main(["calibrate", *source, "--rotate", "90", "--out", out]) == 130
    assert "--rotate 90 turns the 800x480 window's picture on its side" \
        in capsys.readouterr().err
    for fitting in (["--size", "720x1280", "--rotate", "90"], ["--rotate", "180"], []):
        assert main(["calibrate", *source, *fitting, "--out", out]) == 130
        assert "on its side" not in capsys.readouterr().err
