"""Letters the screen's font lacks: a name in another script drawn with a font that has them.

pygame's own font (FreeSans) has Latin, Greek and Cyrillic letters only; a player
called 美咲 or ქეთი would show as boxes. Each text is drawn with that font where it
has every letter, else with the first font installed on the machine that has them
all (Noto Sans CJK, Droid Sans Fallback, DejaVu Sans...), else with the one that has
most of them. Which letters a font has is asked of FreeType (``pygame.freetype``),
which says so letter by letter, unlike ``pygame.font``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

#: Families tried for letters pygame's font lacks, in order: Chinese, Japanese and
#: Korean first (``fonts-noto-cjk``, ``fonts-droid-fallback`` on Raspberry Pi OS),
#: then wide general fonts (Arabic, Hebrew, Georgian, Armenian...).
FALLBACK_FAMILIES = (
    "notosanscjksc", "notosanscjkjp", "notosanscjkkr", "notosanscjktc", "notosanscjk",
    "droidsansfallbackfull", "droidsansfallback", "wenquanyizenhei", "wenquanyimicrohei",
    "notosans", "dejavusans", "freesans",
)


def default_font_path(pg: Any) -> str | None:
    """The file of pygame's own font, or None where it cannot be found."""
    path = os.path.join(os.path.dirname(pg.__file__), pg.font.get_default_font())
    return path if os.path.isfile(path) else None


def installed_fallbacks(pg: Any, families: Sequence[str] = FALLBACK_FAMILIES) -> tuple[str, ...]:
    """The font files of ``families`` installed here (fontconfig's answer), each once."""
    found: list[str] = []
    for family in families:
        try:
            # Bold, as pygame's own font is (its regular where a family has no bold).
            path = pg.font.match_font(family, bold=True) or pg.font.match_font(family)
        except Exception:  # no fontconfig, or a font list it cannot read
            return tuple(found)
        if path and path not in found:
            found.append(path)
    return tuple(found)


class GlyphCoverage:
    """Which letters each font file has (asked once per font and letter)."""

    def __init__(self, pg: Any) -> None:
        import pygame.freetype

        self._freetype = pygame.freetype
        self._freetype.init()
        self._faces: dict[str, Any] = {}
        self._known: dict[tuple[str, str], bool] = {}

    def has(self, path: str, letter: str) -> bool:
        key = (path, letter)
        if key not in self._known:
            if not self._freetype.get_init():  # (pygame.quit() since: its faces are gone)
                self._freetype.init()
                self._faces.clear()
            face = self._faces.get(path)
            if face is None:
                face = self._faces[path] = self._freetype.Font(path, 16)
            self._known[key] = face.get_metrics(letter)[0] is not None
        return self._known[key]

    def missing(self, path: str, text: str) -> int:
        """How many of ``text``'s letters (not spaces or invisible marks) ``path`` lacks."""
        return sum(1 for c in set(text) if c.isprintable() and not c.isspace()
                   and not self.has(path, c))


class FontChooser:
    """The font file to draw a text with: None (pygame's own) or a fallback's path."""

    def __init__(self, default: str | None,
                 fallbacks: Sequence[str] | Callable[[], Sequence[str]],
                 coverage: GlyphCoverage) -> None:
        self.default = default
        self._fallbacks = fallbacks
        self.coverage = coverage

    @property
    def fallbacks(self) -> tuple[str, ...]:
        """The fonts tried, looked up on the first text that needs one (asking
        fontconfig takes a moment, and nearly every name is drawn without)."""
        if callable(self._fallbacks):
            self._fallbacks = tuple(self._fallbacks())
        return tuple(self._fallbacks)

    @classmethod
    def for_machine(cls, pg: Any) -> FontChooser:
        return cls(default_font_path(pg), lambda: installed_fallbacks(pg), GlyphCoverage(pg))

    def path_for(self, text: str) -> str | None:
        if self.default is None or text.isascii():
            return None
        lacking = self.coverage.missing(self.default, text)
        if lacking == 0:
            return None
        best: str | None = None
        for path in self.fallbacks:
            short = self.coverage.missing(path, text)
            if short == 0:
                return path
            if short < lacking:
                best, lacking = path, short
        return best

    def shows(self, text: str) -> bool:
        """Whether some font here has every letter of ``text``."""
        path = self.path_for(text)
        if self.default is None:
            return True  # nothing to ask
        return self.coverage.missing(path or self.default, text) == 0


class FallbackFont:
    """A ``pygame.font.Font`` at one size that draws and measures each text with the
    font that has its letters (pygame's own for nearly every text)."""

    def __init__(self, pg: Any, px: int, chooser: FontChooser) -> None:
        self._pg = pg
        self._px = px
        self._chooser = chooser
        self._by_path: dict[str | None, Any] = {None: pg.font.Font(None, px)}

    def _for(self, text: str) -> Any:
        path = self._chooser.path_for(text)
        if path not in self._by_path:
            self._by_path[path] = self._matched(path)
        return self._by_path[path]

    def _matched(self, path: str | None) -> Any:
        """The font ``path`` at the size whose capitals stand as tall as pygame's own
        font's at this size: pygame draws its own font at about two thirds of the size
        asked, so a fallback asked at the same size came out half as big again, a name in
        Georgian running into the line under it."""
        own = self._by_path[None]
        font = self._pg.font.Font(path, self._px)
        want, got = _cap_height(own), _cap_height(font)
        ratio = want / got if want and got else own.get_height() / max(1, font.get_height())
        px = max(1, round(self._px * ratio))
        return font if px == self._px else self._pg.font.Font(path, px)

    def size(self, text: str) -> tuple[int, int]:
        size: tuple[int, int] = self._for(text).size(text)
        return size

    def render(self, text: str, antialias: bool, colour: Any, *args: Any) -> Any:
        return self._for(text).render(text, antialias, colour, *args)

    def __getattr__(self, name: str) -> Any:  # line size, height...: pygame's own font's
        return getattr(self._by_path[None], name)


def _cap_height(font: Any) -> int:
    """How tall ``font`` draws a capital H above the line (0: it has none)."""
    metrics = font.metrics("H")
    return int(metrics[0][3]) if metrics and metrics[0] else 0


@cache
def machine_chooser() -> FontChooser:
    """The one chooser of this machine's fonts, shared by every screen drawn."""
    import pygame

    return FontChooser.for_machine(pygame)
