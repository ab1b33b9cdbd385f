"""The screen on a pygame display, which may come and go.

:class:`PygameScreen` opens the display, draws each view with the renderer and
saves a PNG of every new screen when asked (``--screenshots DIR``). When pygame
fails (the HDMI cable pulled, no display at all) it keeps going without a
screen and tries to open the display again every few seconds: the match and
the buttons go on meanwhile. The demo is the exception (``must_open``): on a
computer with no display it stops at once and says so, since nobody could see it or
press its keys.

Full screen, the table is drawn at the screen's own size (the 800x480 Touch Display,
an HDMI screen at 1920x1080), as the calibration is: the size asked for is the
window's. Asked for a mode other than the screen's own, SDL's console driver (kmsdrm)
switches the screen to the nearest mode it offers, or leaves a small picture in the
corner of a large one. A television at 3840x2160 is asked for 1920x1080, which it
offers (the renderer's layouts go up to it), rather than drawn in software at four
times the pixels.

A screen whose own mode is portrait (the Touch Display 2, 720x1280) mounted on its
side is given ``rotate`` (``[screen] rotate = 90`` or 270): the table is drawn on a
landscape surface (the display's size, width and height swapped) that
:class:`TurnedDisplay` turns onto the display, only when the picture changed. Full
screen on a portrait screen with no ``rotate`` set, stderr says once how to turn it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.folders import make_folder
from einhorn_table.screen.view_model import ScreenView
from einhorn_table.table.config import ROTATIONS
from einhorn_table.words import command_name

RETRY_SECONDS = 5.0

#: A screen with more pixels than this (a 4K television) is not drawn at its own size...
HUGE_SCREEN = 2560 * 1600
#: ... but asked for this mode (the renderer's layouts go up to it).
LARGEST_SCREEN = (1920, 1080)

#: What SDL falls back to when it finds no display: a window nobody sees.
INVISIBLE_DRIVER = "offscreen"

#: The bits of a pixel on a display whose pixels OpenCV can turn in place (pygame's 2D
#: pixel view; a 24-bit or a 15-bit one has none, and pygame turns it).
PIXEL_VIEW_BITS = (16, 32)

#: SDL's video drivers that show no window: nobody sees the table or presses its keys.
NO_WINDOW_DRIVERS = frozenset({"dummy", INVISIBLE_DRIVER})


def no_window() -> bool:
    """Whether SDL_VIDEODRIVER asks for a window nobody sees (headless)."""
    return os.environ.get("SDL_VIDEODRIVER", "").strip().lower() in NO_WINDOW_DRIVERS


class NoScreenError(EinhornError):
    """The demo found no display to show the table on (and no keyboard to play with)."""

    def __init__(self, reason: str) -> None:
        command = command_name()
        super().__init__(
            f"there is no screen here to show the demo on ({reason}). Run ./start on a "
            "computer with a desktop, or from the Pi's own screen and keyboard; to let "
            f"bots play a match without a screen: SDL_VIDEODRIVER=dummy {command} demo "
            "--bots all")
        self.reason = reason


class RotationError(EinhornError):
    """A turn of the picture other than 0, 90, 180 or 270 degrees."""

    def __init__(self, rotate: object) -> None:
        super().__init__(f"the screen's picture can be turned by 0, 90, 180 or 270 degrees "
                         f"(rotate = 90 in the table's file's [screen]), not by {rotate!r}")


def drawn_size(display: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The size the table is drawn at on a display of size ``display`` turned by
    ``rotate`` degrees: width and height swapped for a quarter turn (90 or 270)."""
    width, height = display
    return (height, width) if rotate % 180 else (width, height)


#: How the picture is turned where the table's file says it (play, the doctor).
TURN_IN_TABLE_FILE = "set rotate = 90 (or 270) in [screen] of the table's file (table.toml)"


def portrait_note(size: tuple[int, int], turn: str = TURN_IN_TABLE_FILE) -> str | None:
    """What to say of a screen of ``size`` (its own mode, full screen) left unturned: a
    portrait one is most likely a Touch Display 2 mounted on its side, whose picture
    ``turn`` says how to turn; None otherwise."""
    width, height = size
    if height <= width:
        return None
    return f"the screen is portrait, {width}x{height}: if it is mounted on its side, {turn}"


def tell_portrait(size: tuple[int, int], fullscreen: bool, rotate: int | None,
                  turn: str = TURN_IN_TABLE_FILE) -> bool:
    """Say on stderr where a full screen of ``size`` is portrait and nobody set
    ``rotate`` (:func:`portrait_note`); whether it was said."""
    note = portrait_note(size, turn) if fullscreen and rotate is None else None
    if note is not None:
        print(f"einhorn-table: {note}.", file=sys.stderr)
    return note is not None


class TurnedDisplay:
    """Where a screen is drawn and how it reaches the display.

    With ``rotate`` 0 the display itself is drawn on. Else ``surface`` is a landscape
    surface of :func:`drawn_size`, and :meth:`flip` turns it ``rotate`` degrees
    clockwise onto the display: OpenCV's ``rotate`` turns the surface's pixels straight
    into the display's, pixel for pixel what ``pygame.transform.rotate`` and a blit
    give, in about half the time on a PC (benchmarks/screen_rotation.py). Turning
    1280x720 still costs a millisecond, several times more on a Pi, so a picture drawn
    the same as the last one shown is not turned again: the display still holds it.
    """

    def __init__(self, pg: Any, display: Any, rotate: int = 0) -> None:
        # (``rotate`` is one of ROTATIONS: the callers check it, PygameScreen and the
        # table file's loading.)
        self.pg = pg
        self.display = display
        self.rotate = rotate
        self.surface: Any = display
        if rotate:  # (of the display's pixel format: blitting it is a plain copy)
            self.surface = pg.Surface(drawn_size(display.get_size(), rotate), 0, display)
        self._shown: bytes | None = None
        #: How many pictures were turned onto the display (the rest were the same).
        self.turned = 0

    def flip(self) -> None:
        """Show what was drawn on ``surface``."""
        if self.rotate:
            drawn = self.surface.get_buffer().raw
            if drawn != self._shown:
                self._turn()
                self._shown = drawn
                self.turned += 1
        self.pg.display.flip()

    def _turn(self) -> None:
        """Put ``surface`` onto the display turned ``rotate`` degrees clockwise."""
        size = self.display.get_bytesize()
        if (self.display.get_bitsize() not in PIXEL_VIEW_BITS
                or self.surface.get_bitsize() != self.display.get_bitsize()):
            # (A 24-bit or 15-bit display has no pixel view: pygame turns it, anticlockwise
            # for a positive angle, onto a new surface that is then copied.)
            self.display.blit(self.pg.transform.rotate(self.surface, -self.rotate), (0, 0))
            return
        import cv2
        import numpy

        # pygame's pixel views, indexed [x, y], swapped to OpenCV's rows of pixels, as
        # signed whole numbers of the pixel's size (OpenCV has no unsigned 32-bit ones).
        # The views lock both surfaces until they are dropped, when this returns.
        kind = numpy.int32 if size == 4 else numpy.int16
        pixels = self.pg.surfarray.pixels2d
        target = pixels(self.display).T.view(kind)
        turn = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180,
                270: cv2.ROTATE_90_COUNTERCLOCKWISE}[self.rotate]
        turned = cv2.rotate(pixels(self.surface).T.view(kind), turn, dst=target)
        if turned is not target:  # (where OpenCV could not write into the display's own)
            target[...] = turned


def fullscreen_size(desktops: list[tuple[int, int]]) -> tuple[int, int]:
    """The size to ask SDL for full screen, given the screens' own sizes (pygame's
    ``get_desktop_sizes``): (0, 0), the first screen's own size, unless that has more
    pixels than :data:`HUGE_SCREEN` (then :data:`LARGEST_SCREEN`)."""
    if desktops:
        width, height = desktops[0]
        if width * height > HUGE_SCREEN:
            return LARGEST_SCREEN
    return (0, 0)


class PygameScreen:
    def __init__(
        self,
        size: tuple[int, int] = (800, 480),
        *,
        fullscreen: bool = False,
        screenshots: Path | None = None,
        caption: str = "Einhorn Table",
        must_open: bool = False,
        rotate: int | None = None,
        turn: str = TURN_IN_TABLE_FILE,
    ) -> None:
        """``size`` is the window's (``fullscreen`` false); ``rotate`` the degrees the
        picture is turned clockwise on the display (None: not set, drawn unturned, and a
        portrait screen at full screen is pointed out once on stderr, saying ``turn``:
        how this command is told to turn it)."""
        import pygame

        if rotate is not None and rotate not in ROTATIONS:
            raise RotationError(rotate)
        self.pg: Any = pygame
        self.size = size
        self.fullscreen = fullscreen
        self.rotate = rotate
        self.turn = turn
        # (Made now: a folder that cannot be made stops the command before a match.)
        self.screenshots = make_folder(screenshots, "screenshots") if screenshots else None
        self.caption = caption
        self.must_open = must_open
        #: What the table is drawn on (the display itself where it is not turned).
        self.surface: Any = None
        self.display: TurnedDisplay | None = None
        self.renderer: Any = None
        self._portrait_told = False
        self.quit_requested = False
        self.error: str | None = None
        self._retry_at = 0.0
        self._last_key: tuple[object, ...] | None = None
        self._shots = 0
        self.listeners: list[Any] = []

    def open(self, now: float = 0.0) -> bool:
        """Open the display now; False (and retry later) when there is none. A screen
        that ``must_open`` raises :class:`NoScreenError` instead, also for SDL's
        invisible fallback window (unless SDL_VIDEODRIVER asks for it)."""
        if not self.must_open:
            return self._open(now)
        try:
            self.pg.display.init()
        except self.pg.error as error:
            raise NoScreenError(str(error)) from None
        driver = self.pg.display.get_driver()
        if driver == INVISIBLE_DRIVER and os.environ.get("SDL_VIDEODRIVER") != driver:
            self.pg.display.quit()
            raise NoScreenError("no display was found")
        if not self._open(now, quiet=True):
            raise NoScreenError(self.error or "the display did not open")
        return True

    def _open(self, now: float, *, quiet: bool = False) -> bool:
        pg = self.pg
        try:
            pg.display.init()
            pg.font.init()
            if self.fullscreen:
                window = pg.display.set_mode(
                    fullscreen_size(pg.display.get_desktop_sizes()), pg.FULLSCREEN)
            else:
                window = pg.display.set_mode(self.size)
            pg.display.set_caption(self.caption)
            self.display = TurnedDisplay(pg, window, self.rotate or 0)
        except pg.error as error:
            if quiet:
                self.error = str(error)
            else:
                self._lost(str(error), now)
            return False
        from einhorn_table.screen.renderer import Renderer

        self.surface = self.display.surface
        self._tell_portrait(window.get_size())
        self.renderer = Renderer(self.surface)
        self.error = None
        return True

    def _tell_portrait(self, size: tuple[int, int]) -> None:
        """Say once where a full screen is portrait and nobody set ``rotate``."""
        if not self._portrait_told:
            self._portrait_told = tell_portrait(size, self.fullscreen, self.rotate,
                                                self.turn)

    def _lost(self, reason: str, now: float) -> None:
        if self.error is None:
            print(f"einhorn-table: the screen failed ({reason}); the match goes on, "
                  f"retrying every {RETRY_SECONDS:.0f} s. Check the display cable.",
                  file=sys.stderr)
        self.error = reason
        self.surface = None
        self.display = None
        self.renderer = None
        self._retry_at = now + RETRY_SECONDS

    def show(self, view: ScreenView, now: float, key: tuple[object, ...] | None = None) -> None:
        """Draw ``view``; ``key`` names the screen (a new key saves a screenshot, of the
        picture as the players see it, upright where the display is turned)."""
        pg = self.pg
        if self.renderer is None and (now < self._retry_at or not self._open(now)):
            return
        try:
            for event in pg.event.get():
                if event.type == pg.QUIT or (event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE):
                    self.quit_requested = True
                for listener in self.listeners:
                    listener(event)
            self.renderer.draw(view)
            assert self.display is not None  # (opened with the renderer)
            self.display.flip()
        except pg.error as error:
            self._lost(str(error), now)
            return
        if self.screenshots is not None and key is not None and key != self._last_key:
            self._last_key = key
            self._shots += 1
            name = f"{self._shots:04d}-{view.kind.value}.png"
            pg.image.save(self.surface, str(self.screenshots / name))

    def close(self) -> None:
        if self.surface is not None:
            self.pg.display.quit()
