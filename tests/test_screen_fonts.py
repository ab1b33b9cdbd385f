"""Names in other scripts: drawn with an installed font that has their letters."""

from __future__ import annotations

import os

import pygame
import pytest

from einhorn_table.screen.fonts import (
    FallbackFont,
    FontChooser,
    GlyphCoverage,
    default_font_path,
    installed_fallbacks,
)

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
needs_dejavu = pytest.mark.skipif(not os.path.isfile(DEJAVU), reason="needs fonts-dejavu-core")
GEORGIAN = "ქეთი"  # Keti: FreeSans, pygame's font, has no Georgian letters


@pytest.fixture(scope="module")
def coverage() -> GlyphCoverage:
    pygame.font.init()
    return GlyphCoverage(pygame)


def test_pygame_s_own_font_has_latin_greek_and_cyrillic_but_not_georgian_or_chinese(
        coverage: GlyphCoverage) -> None:
    own = default_font_path(pygame)
    assert own is not None
    assert coverage.missing(own, "Zoë Ωμέγα Фёдор Großmutter") == 0
    assert coverage.missing(own, GEORGIAN + "ი") == 4  # ქ, ე, თ, ი: each counts once
    assert coverage.missing(own, "美咲") == 2


@needs_dejavu
def test_a_name_pygame_s_font_lacks_is_drawn_with_a_font_that_has_it(
        coverage: GlyphCoverage) -> None:
    chooser = FontChooser(default_font_path(pygame), (DEJAVU,), coverage)
    assert chooser.path_for("Ana") is None and chooser.path_for("Zoë") is None
    assert chooser.path_for(GEORGIAN) == DEJAVU
    assert chooser.shows(GEORGIAN) and chooser.shows("Zoë")
    assert not chooser.shows("美咲")  # no font here has them: said, for the doctor

    font = FallbackFont(pygame, 30, chooser)
    own = pygame.font.Font(None, 30)
    drawn, boxes = font.render(GEORGIAN, True, (255, 255, 255)), own.render(
        GEORGIAN, True, (255, 255, 255))
    assert font.size(GEORGIAN) == drawn.get_size() != boxes.get_size()
    assert font.size("Ana") == own.size("Ana")
    assert font.get_linesize() == own.get_linesize()
    # Four different letters drawn, not four copies of the same empty box.
    columns = pygame.surfarray.array_alpha(drawn)
    quarters = [columns[k * len(columns) // 4:(k + 1) * len(columns) // 4].sum() for k in
                range(4)]
    assert len(set(quarters)) == 4 and min(quarters) > 0


def test_the_fallbacks_are_the_installed_fonts_of_the_families_asked_for() -> None:
    pygame.font.init()
    found = installed_fallbacks(pygame, ("nosuchfontfamily", "dejavusans", "dejavusans"))
    assert all(os.path.isfile(p) for p in found)
    assert len(found) == len(set(found)) <= 1
    if os.path.isfile(DEJAVU):
        assert found and "DejaVu" in found[0]


@needs_dejavu
def test_the_table_s_screen_draws_such_a_name_with_the_fallback() -> None:
    from einhorn_table.screen.renderer import Renderer

    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    own = pygame.font.Font(None, 24)
    assert renderer.font(24).size("Ana") == own.size("Ana")
    assert renderer.font(24).size(GEORGIAN) != own.size(GEORGIAN)  # not four empty boxes



@needs_dejavu
def test_a_name_in_the_fallback_font_stands_as_tall_as_the_screens_own_letters(
        coverage: GlyphCoverage) -> None:
    # pygame draws its own font at about two thirds of the size asked: a fallback asked
    # at the same size drew "ქეთევანი's turn" half as big again, over the line below.
    chooser = FontChooser(default_font_path(pygame), (DEJAVU,), coverage)
    for px in (24, 46):
        font = FallbackFont(pygame, px, chooser)
        own = pygame.font.Font(None, px)
        white = (255, 255, 255)
        georgian = font.render(f"{GEORGIAN}'s turn", True, white)
        latin = own.render("Ana's turn", True, white)
        assert 0.9 * latin.get_height() <= georgian.get_height() <= 1.25 * latin.get_height()
        # Its capitals as tall as the screen's own (the name's "'s turn" beside them).
        capital = font.render(f"H{GEORGIAN}", True, white).subsurface(
            (0, 0, own.size("H")[0] // 2, georgian.get_height())).get_bounding_rect()
        assert abs(capital.height - own.render("H", True, white).get_bounding_rect().height) <= 2
