"""A renderer that notes every text it draws, for tests of the screen's layout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import pytest

#: Makes a renderer of a size, with the list its texts are noted in.
MakeDrawing = Callable[[tuple[int, int]], tuple[Any, list[tuple[str, Any, Any]]]]


def text_drawing(monkeypatch: pytest.MonkeyPatch,
                 noted: Literal["size", "colour"]) -> MakeDrawing:
    """Makes renderers of a size that note every text they draw: (words, its font size
    or its colour as ``noted`` says, its rectangle)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer

    pygame.display.init()
    pygame.font.init()

    def make(size: tuple[int, int]) -> tuple[Any, list[tuple[str, Any, Any]]]:
        renderer = Renderer(pygame.Surface(size))
        texts: list[tuple[str, Any, Any]] = []
        original = renderer.text

        def text(words: str, size: float, colour: Any, *args: Any, **kwargs: Any) -> Any:
            rect = original(words, size, colour, *args, **kwargs)
            texts.append((words, size if noted == "size" else colour, rect))
            return rect

        renderer.text = text
        return renderer, texts

    return make
