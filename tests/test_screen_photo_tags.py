"""The value tag of each die in the roll's photo sits by that die and covers no other:
where two dice lie one above the other, the lower one's tag goes below it (above, it
hid the upper die and read as that die's value)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_screen_review3 import cards

from einhorn_table.rules import Category
from einhorn_table.screen.view_model import DieView, ScreenKind, ScreenView

PHOTO = np.full((480, 640, 3), 90, dtype=np.uint8)
#: A 6 with a 3 just below it (as the screenshots' result had them), a 1 apart.
CLOSE = (DieView(6, (300, 100, 340, 140), True), DieView(3, (295, 150, 340, 195), True),
         DieView(1, (420, 260, 460, 300), True))


def _result(dice: tuple[DieView, ...]) -> ScreenView:
    return ScreenView(ScreenKind.RESULT, 1, 4, 70, 0, cards(("Ana", "Ben", "Cem", "Dora")),
                      "Ana rolled", focus=0, dice=dice, photo=PHOTO,
                      category=Category.EINHORN, lines=("called Einhorn - right!",))


def _drawn(monkeypatch: pytest.MonkeyPatch, view: ScreenView, size: tuple[int, int],
           ) -> tuple[list[Any], list[tuple[str, Any]]]:
    """The dice's outlines and their tags' values with where they were drawn."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import GOOD, Renderer
    pygame.display.init()
    pygame.font.init()
    renderer = Renderer(pygame.Surface(size))
    outlines: list[Any] = []
    rect = pygame.draw.rect

    def noting(surface: Any, colour: Any, area: Any, *args: Any, **kwargs: Any) -> Any:
        if colour == GOOD and kwargs.get("width", 0) > 0:
            outlines.append(pygame.Rect(area))
        return rect(surface, colour, area, *args, **kwargs)

    monkeypatch.setattr(pygame.draw, "rect", noting)
    tags: list[tuple[str, Any]] = []
    text = renderer.text

    def noted(words: str, *args: Any, **kwargs: Any) -> Any:
        drawn = text(words, *args, **kwargs)
        if words.isdigit() and len(words) == 1:
            tags.append((words, drawn))
        return drawn

    renderer.text = noted  # type: ignore[method-assign]
    renderer.draw(view)
    return outlines, tags


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_no_dies_tag_covers_another_die(monkeypatch: pytest.MonkeyPatch,
                                         size: tuple[int, int]) -> None:
    outlines, tags = _drawn(monkeypatch, _result(CLOSE), size)
    assert len(outlines) == 3 and [value for value, _ in tags][-3:] == ["6", "3", "1"]
    for (value, tag), outline in zip(tags[-3:], outlines, strict=True):
        others = [o for o in outlines if o is not outline]
        assert tag.collidelist(others) < 0, f"the {value}'s tag covers another die"
        # ... and it sits by its own die: nearer to it than to any other.
        near = outline.inflate(tag.width * 3, tag.height * 3)
        assert near.colliderect(tag)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_tag_stays_above_its_die_where_there_is_room(monkeypatch: pytest.MonkeyPatch,
                                                        size: tuple[int, int]) -> None:
    apart = (DieView(6, (200, 150, 240, 190), True), DieView(3, (330, 160, 370, 200), True),
             DieView(1, (260, 280, 300, 320), True))
    outlines, tags = _drawn(monkeypatch, _result(apart), size)
    for (_, tag), outline in zip(tags[-3:], outlines, strict=True):
        assert tag.bottom <= outline.top and abs(tag.centerx - outline.centerx) <= 1
