"""The result's layout and the banner's lines are worked out once while they stay the
same, not again every frame (~30 a second on a Pi), and never kept past a change."""

from __future__ import annotations

from typing import Any

import numpy as np
import pygame
import pytest
from test_screen_review3 import cards

from einhorn_table.rules import Category
from einhorn_table.screen.banner import save_banner
from einhorn_table.screen.renderer import Renderer
from einhorn_table.screen.view_model import DieView, ScreenKind, ScreenView
from einhorn_table.table.recorder import SaveKind

SIX = ("Alexandra-Marie", "Maximilian Fried", "Großmutter Hilde", "Konstantinopel",
       "Emmanuelle Sophie", "Johannes Baptist")
DICE = (DieView(2, (200, 150, 260, 210), True), DieView(3, (300, 160, 360, 220), True),
        DieView(4, (250, 260, 310, 320), True))
PHOTO = np.random.default_rng(1).integers(0, 255, (480, 640, 3), dtype=np.uint8)


def result(lines: tuple[str, ...], banner: str = "", photo: Any = None,
           title: str = "Maximilian Fried rolled") -> ScreenView:
    return ScreenView(ScreenKind.RESULT, 2, 10, 50, 1, cards(SIX), title, focus=1,
                      dice=DICE, category=Category.UNVERMEIDLICH, lines=lines,
                      banner=banner, photo=photo)


PAYS = tuple(f"{name} pays Maximilian Fried 2" for name in SIX)


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.display.init()
    pygame.font.init()


def counted(renderer: Renderer, name: str) -> list[object]:
    """Each call of ``renderer``'s method ``name`` from now on, by its first argument."""
    calls: list[object] = []
    method = getattr(renderer, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return method(*args, **kwargs)

    setattr(renderer, name, counting)
    return calls


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_result_is_laid_out_once_while_it_is_shown(size: tuple[int, int]) -> None:
    renderer = Renderer(pygame.Surface(size))
    view = result(PAYS, save_banner(SaveKind.FULL), PHOTO)
    renderer.draw(view)
    first = pygame.image.tobytes(renderer.surface, "RGB")
    layouts = counted(renderer, "_result_layout")
    wraps = counted(renderer, "wrap")
    for _ in range(3):
        renderer.draw(view)
        assert pygame.image.tobytes(renderer.surface, "RGB") == first
    assert layouts == []
    assert wraps == []  # (neither the lines nor the banner wrapped again)


def test_a_changed_result_is_laid_out_afresh() -> None:
    """Each change of what the layout depends on, drawn after the one before by the same
    renderer, looks as a fresh renderer draws it (no layout kept past its change)."""
    banner = save_banner(SaveKind.FULL)
    views = [
        result(PAYS[:2]),
        result(PAYS[:2], photo=PHOTO),  # the photo beside the lines
        result(PAYS, photo=PHOTO),  # more lines: the photo gives way
        result(PAYS, banner, PHOTO),  # a banner: less room, the title smaller
        result(PAYS, save_banner(SaveKind.FULL, camera_lost=True), PHOTO),  # other words
        result(PAYS, banner, PHOTO, title=" and ".join(SIX[:4]) + " roll off"),
        result((*PAYS[:2], "Called Unvermeidliche - wrong")),
        result(PAYS[:2]),  # back to the first
    ]
    for size in ((800, 480), (1920, 1080)):
        renderer = Renderer(pygame.Surface(size))
        for view in views:
            renderer.draw(view)
            fresh = Renderer(pygame.Surface(size))
            fresh.draw(view)
            assert (pygame.image.tobytes(renderer.surface, "RGB")
                    == pygame.image.tobytes(fresh.surface, "RGB")), (size, view.lines)
