"""What turning the table's picture costs a frame (``[screen] rotate``, the Touch Display 2).

Run: PYTHONPATH=. SDL_VIDEODRIVER=dummy python benchmarks/screen_rotation.py [--frames 300]
[--screen 720x1280]

The turn screen is drawn at the display's size turned (1280x720 for a 720x1280 display)
and shown through :class:`~einhorn_table.adapters.pygame_screen.TurnedDisplay`, as play
shows it. Timed on the real clock, in ms per frame (median and 90th percentile of
``--frames`` frames):

* drawing the frame (the renderer), for scale;
* showing it unturned (rotate 0: the flip alone);
* showing a changed frame turned (OpenCV's ``rotate`` into the display, then the flip);
* showing a frame the same as the last one turned (compared, not turned again);
* a quarter turn alone, each way it can be made, to check the choice on the Pi: pygame's
  ``transform.rotate`` and a blit (the way before), numpy's ``rot90`` and OpenCV's
  ``rotate`` (the way taken) on pygame's pixel views. All three give the same pixels
  (tests/test_turned_screen_options.py).

The loop's frame is 33 ms (30 frames a second). A Raspberry Pi 4's core is several times
slower than a desktop's at this (it moves 3.7 MB a frame through memory).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy
import pygame

from einhorn_table.adapters.pygame_screen import TurnedDisplay, drawn_size
from einhorn_table.rules import Category
from einhorn_table.screen.renderer import Renderer
from einhorn_table.screen.view_model import Marker, PlayerCard, ScreenKind, ScreenView


def views() -> tuple[ScreenView, ScreenView]:
    """Two turn screens that differ (the call chosen), so each frame drawn is new."""
    colours = [(196, 28, 36), (28, 72, 178), (22, 140, 64), (246, 200, 24)]
    players = tuple(PlayerCard(name, colours[i], list(Marker)[i], 6, 3, i == 0, False, "")
                    for i, name in enumerate(("Ana", "Ben", "Cem", "Dora")))
    view = ScreenView(ScreenKind.TURN, 2, 10, 50, None, players, "Ana's turn", focus=0,
                      subtitle="Call a category, or stay silent, then roll",
                      call=Category.EINHORN)
    other = ScreenView(ScreenKind.TURN, 2, 10, 50, None, players, "Ana's turn", focus=0,
                       subtitle="Call a category, or stay silent, then roll",
                       call=Category.WUNSCH)
    return view, other


def timed(frames: int, step: Callable[[int], None]) -> list[float]:
    spent = []
    for k in range(frames):
        started = time.perf_counter()
        step(k)
        spent.append(1000 * (time.perf_counter() - started))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="frames timed per row")
    parser.add_argument("--screen", default="720x1280", help="the display's own size")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    width, height = (int(v) for v in args.screen.split("x"))
    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode((width, height))
    pair = views()
    rows: list[tuple[str, list[float]]] = []

    landscape = drawn_size((width, height), 90 if height > width else 0)
    drawer = Renderer(pygame.Surface(landscape, 0, window))
    rows.append((f"drawing a {landscape[0]}x{landscape[1]} frame (the renderer, for scale)",
                 timed(args.frames, lambda k: drawer.draw(pair[k % 2]))))
    plain = TurnedDisplay(pygame, window, 0)
    rows.append((f"showing a {width}x{height} frame, rotate = 0 (the flip alone)",
                 timed(args.frames, lambda k: plain.flip())))
    for rotate in (90, 180, 270):
        turned = TurnedDisplay(pygame, window, rotate)
        renderer = Renderer(turned.surface)
        drawn = [pygame.Surface(turned.surface.get_size(), 0, turned.surface)
                 for _ in pair]
        for surface, view in zip(drawn, pair, strict=True):
            renderer.draw(view)
            surface.blit(turned.surface, (0, 0))

        def changed(k: int, turned: TurnedDisplay = turned,
                    drawn: list[pygame.Surface] = drawn) -> None:
            turned.surface.blit(drawn[k % 2], (0, 0))  # (a copy: the drawing not timed)
            turned.flip()

        def same(k: int, turned: TurnedDisplay = turned,
                 drawn: list[pygame.Surface] = drawn) -> None:
            turned.surface.blit(drawn[0], (0, 0))
            turned.flip()

        size = "x".join(map(str, drawn_size((width, height), rotate)))
        rows.append((f"showing a changed {size} frame, rotate = {rotate}",
                     timed(args.frames, changed)))
        rows.append((f"showing an unchanged {size} frame, rotate = {rotate}",
                     timed(args.frames, same)))
    rows += quarter_turns(args.frames, width, height)
    pygame.display.quit()
    print(f"screen rotation benchmark: display {width}x{height}, {args.frames} frames a row, "
          f"SDL {os.environ['SDL_VIDEODRIVER']} driver")
    print()
    print("| frame | median ms | p90 ms |")
    print("|---|---|---|")
    for name, spent in rows:
        print(f"| {name} | {statistics.median(spent):.2f} | {_pct(spent, 90):.2f} |")


def quarter_turns(frames: int, width: int, height: int) -> list[tuple[str, list[float]]]:
    """The quarter turn alone (rotate = 90), each way, taking turns frame by frame (a
    busy machine slows each alike)."""
    window = pygame.display.set_mode((width, height))
    picture = pygame.Surface(drawn_size((width, height), 90), 0, window)
    Renderer(picture).draw(views()[0])
    pixels = pygame.surfarray.pixels2d
    kind = numpy.int32 if window.get_bytesize() == 4 else numpy.int16

    def by_pygame() -> None:
        window.blit(pygame.transform.rotate(picture, -90), (0, 0))

    def by_numpy() -> None:
        pixels(window)[...] = numpy.rot90(pixels(picture), 1)

    def by_opencv() -> None:
        cv2.rotate(pixels(picture).T.view(kind), cv2.ROTATE_90_CLOCKWISE,
                   dst=pixels(window).T.view(kind))

    ways: list[tuple[str, Callable[[], Any]]] = [
        ("pygame's transform.rotate and a blit", by_pygame),
        ("numpy's rot90 on the pixel views", by_numpy),
        ("OpenCV's rotate on the pixel views (taken)", by_opencv)]
    spent: list[list[float]] = [[] for _ in ways]
    for k in range(frames):
        for j in range(len(ways)):
            which = (j + k) % len(ways)
            started = time.perf_counter()
            ways[which][1]()
            spent[which].append(1000 * (time.perf_counter() - started))
    size = "x".join(map(str, picture.get_size()))
    return [(f"a quarter turn of {size} alone: {name}", times)
            for (name, _), times in zip(ways, spent, strict=True)]


def _pct(values: list[float], pct: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))]


if __name__ == "__main__":
    main()
