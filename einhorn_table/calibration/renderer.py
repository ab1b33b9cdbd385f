"""Draws a :class:`~einhorn_table.calibration.view.CalibrationView` with pygame.

Same look as the table's screen (its colours, font and dice from
``einhorn_table.screen.renderer``), laid out for the 800x480 panel: the camera
picture on the left with the tray outline and the dice found, the words on the
right, the four buttons along the bottom.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from einhorn_table.calibration.view import CalibrationView, Hint, Swatch
from einhorn_table.screen.renderer import (
    ACCENT,
    BACKGROUND,
    BAD,
    DIM,
    GOOD,
    PANEL,
    TEXT,
    Renderer,
)

#: Said in the top bar of every screen (the buttons' two chords, docs/buttons.md).
CHORDS = "help: + and OK together · back: − and ✗ together"

#: The title's font size, the smallest it is made to fit, and its most lines.
TITLE_SIZE, TITLE_SMALLEST, TITLE_LINES = 38, 26, 3
#: The lines and warnings are drawn down to this share of their size where they would
#: not fit above the buttons otherwise (a poor result's advice, several warnings).
SMALLEST_WORDS = 0.7

#: The players' colours under the words: a row's height, the names' font size and the
#: smallest it is made before a name is cut short.
SWATCH_ROW, SWATCH_SIZE, SWATCH_SMALLEST = 28, 26, 20
#: After the name of a colour too like another's: in words where there is room, else
#: the warnings' sign (the warning above says whose it is like).
CLASH_WORDS, CLASH_SIGN = "  (too alike!)", " !"

#: Signs the default font has no glyph for, as drawn instead.
_GLYPHS = {"✗": "X"}


def _clean(text: str) -> str:
    for glyph, plain in _GLYPHS.items():
        text = text.replace(glyph, plain)
    return text


class CalibrationRenderer:
    """Draws calibration views onto a pygame surface (800x480 and up)."""

    def __init__(self, surface: Any) -> None:
        import pygame

        self.pg: Any = pygame
        self.surface = surface
        self.base = Renderer(surface)
        self.w, self.h = surface.get_size()

    def s(self, value: float) -> int:
        return self.base.s(value)

    def text(self, text: str, size: float, colour: tuple[int, int, int],
             pos: tuple[float, float], anchor: str = "topleft",
             max_width: float | None = None) -> Any:
        return self.base.text(_clean(text), size, colour, pos, anchor, max_width)

    def wrap(self, text: str, size: float, width: float) -> list[str]:
        """``text`` in lines no wider than ``width``: at spaces, and a word too long
        for a line of its own (a file's path in a message, a long name) after a "/" or
        a "-", else anywhere."""
        font = self.base.font(size)
        lines: list[str] = []
        for line in self.base.wrap(text, size, width):
            while len(line) > 1 and font.size(line)[0] > width:
                fits = max((k for k in range(1, len(line))
                            if font.size(line[:k])[0] <= width), default=1)
                slash = max(line.rfind("/", 0, fits), line.rfind("-", 0, fits))
                cut = slash + 1 if slash > 0 else fits
                lines.append(line[:cut])
                line = line[cut:]
            lines.append(line)
        return lines

    def title_lines(self, title: str, width: float) -> tuple[list[str], float]:
        """A screen's title in at most :data:`TITLE_LINES` lines no wider than ``width``,
        and its font size: wrapped at spaces, smaller (down to :data:`TITLE_SMALLEST`)
        where a word is too long for a line (a long name, a long word in another
        language) or the lines too many; a word too long even then is broken."""
        text = _clean(title)
        font_size = TITLE_SIZE
        while True:
            lines = self.base.wrap(text, font_size, width)
            font = self.base.font(font_size)
            if len(lines) <= TITLE_LINES and all(font.size(ln)[0] <= width for ln in lines):
                return lines, font_size
            if font_size <= TITLE_SMALLEST:
                return self.wrap(text, font_size, width)[:TITLE_LINES], font_size
            font_size -= 2

    # ------------------------------------------------------------------ the screen

    def draw(self, view: CalibrationView) -> None:
        self.surface.fill(BACKGROUND)
        self._top_bar(view)
        strip, picture, words = self.layout()
        self._picture_box(view, picture)
        self._words(view, words)
        self._buttons(view.hints, strip)
        if view.help:
            self._help(view.help)

    def layout(self) -> tuple[Any, Any, Any]:
        """The screen's parts below the top bar: the buttons' strip, the picture and the
        words beside it (pygame rectangles)."""
        pg = self.pg
        strip = pg.Rect(self.s(10), self.h - self.s(62), self.w - self.s(20), self.s(54))
        body_top = self.s(54)
        body = pg.Rect(self.s(10), body_top, self.w - self.s(20), strip.y - body_top - self.s(8))
        picture = pg.Rect(body.x, body.y, round(body.width * 0.58), body.height)
        words = pg.Rect(picture.right + self.s(12), body.y,
                        body.right - picture.right - self.s(12), body.height)
        return strip, picture, words

    def _top_bar(self, view: CalibrationView) -> None:
        pg = self.pg
        pg.draw.rect(self.surface, PANEL, pg.Rect(0, 0, self.w, self.s(44)))
        title = self.text("Calibration", 34, TEXT, (self.s(14), self.s(22)), "midleft")
        right = self.w - self.s(16)
        r = self.s(7)
        for k in range(view.steps, 0, -1):
            x = right - (view.steps - k) * self.s(22) - r
            colour = ACCENT if k == view.step else (GOOD if k < view.step else DIM)
            pg.draw.circle(self.surface, colour, (x, self.s(22)), r,
                           0 if k <= view.step else max(1, self.s(2)))
        left_of_dots = right - view.steps * self.s(22) - self.s(10)
        step = self.text(f"step {view.step} of {view.steps}", 26, DIM,
                         (left_of_dots, self.s(22)), "midright")
        # The buttons' two chords, said on every screen: the parent meets them here first.
        room = step.left - title.right - self.s(24)
        if room > self.s(120):
            self.text(CHORDS, 22, DIM, ((title.right + step.left) / 2, self.s(22)), "center",
                      max_width=room)

    def _picture_box(self, view: CalibrationView, box: Any) -> None:
        pg = self.pg
        pg.draw.rect(self.surface, PANEL, box, border_radius=self.s(8))
        image = view.image
        if image is None:
            self.text("no picture from the camera", 26, DIM, box.center, "center")
            return
        height, width = image.shape[:2]
        scale = min(box.width / width, box.height / height)
        shown_size = (round(width * scale), round(height * scale))
        surface = pg.image.frombuffer(image[:, :, ::-1].tobytes(), (width, height), "RGB")
        shown = pg.transform.smoothscale(surface, shown_size)
        rect = shown.get_rect(center=box.center)
        self.surface.blit(shown, rect)

        def at(x: float, y: float) -> tuple[int, int]:
            return (round(rect.x + x * scale), round(rect.y + y * scale))

        if view.corners is not None:
            points = [at(x, y) for x, y in view.corners]
            for k in range(4):
                self._thick_line(points[k], points[(k + 1) % 4], self.s(3))
            for k, point in enumerate(points):
                selected = view.selected_corner == k
                radius = self.s(11) if selected else self.s(5)
                pg.draw.circle(self.surface, ACCENT, point, radius)
                if selected:
                    pg.draw.circle(self.surface, BACKGROUND, point, self.s(11), max(1, self.s(2)))
                    self.text(str(k + 1), 22, BACKGROUND, point, "center")
        for k, mark in enumerate(view.boxes):
            x0, y0 = at(mark.box[0], mark.box[1])
            x1, y1 = at(mark.box[2], mark.box[3])
            outline = pg.Rect(x0, y0, max(1, x1 - x0), max(1, y1 - y0)).inflate(6, 6)
            colour = GOOD if mark.good else BAD
            if view.marked == k:  # the die being entered by hand
                colour = ACCENT
                outline.inflate_ip(self.s(6), self.s(6))
            pg.draw.rect(self.surface, colour, outline, width=max(2, self.s(2)))
            tag = pg.Rect(0, 0, self.s(24), self.s(24))
            tag.midbottom = (outline.centerx, outline.top - 1)
            tag.clamp_ip(rect)
            pg.draw.rect(self.surface, colour, tag, border_radius=self.s(4))
            self.text(mark.label, 24, BACKGROUND, tag.center, "center")

    def _thick_line(self, a: tuple[int, int], b: tuple[int, int], width: int) -> None:
        """A straight band (pygame's wide lines step on slight slopes)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = max(1.0, (dx * dx + dy * dy) ** 0.5)
        nx, ny = -dy / length * width / 2, dx / length * width / 2
        band = [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny),
                (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)]
        self.pg.draw.polygon(self.surface, ACCENT, band)

    def words_scale(self, view: CalibrationView, area: Any) -> float:
        """How much smaller than usual the lines and warnings are drawn so that they fit
        in ``area`` (1: as usual; at most :data:`SMALLEST_WORDS` times smaller)."""
        # (Room kept below them for what follows: the progress bar, the dice, and the
        # rows the players' colours need for every name to be whole.)
        below = ((self.s(40) if view.progress is not None else 0)
                 + (self.s(86) if view.dice else 0)
                 + (self.s(4) + self.swatch_rows(view.swatches, area.width)
                    * self.s(SWATCH_ROW) if view.swatches else 0))
        scale = 1.0
        while (scale > SMALLEST_WORDS
               and self._words_bottom(view, area, scale) > area.bottom - below):
            scale = round(scale - 0.05, 2)
        return scale

    def _words_bottom(self, view: CalibrationView, area: Any, scale: float,
                      draw: bool = False) -> int:
        """Where the title, lines and warnings end, drawn ``scale`` times the usual size
        (with ``draw``: drawn there)."""
        pg = self.pg
        y = area.y + self.s(4)
        lines, size = self.title_lines(view.title, area.width)
        for line in lines:
            if draw:
                self.text(line, size, TEXT, (area.x, y))
            y += self.s(size * 36 / 38)
        y += self.s(6)
        text, small = 26 * scale, 24 * scale
        for paragraph in view.lines:
            for line in self.wrap(_clean(paragraph), text, area.width):
                if draw:
                    self.text(line, text, TEXT if paragraph is view.lines[0] else DIM,
                              (area.x, y))
                y += self.s(24 * scale)
            y += self.s(4)
        for warning in view.warnings:
            y += self.s(4)
            lines = self.wrap(_clean(warning), small, area.width - self.s(30))
            tall = len(lines) * self.s(22 * scale) + self.s(10)
            if draw:
                pg.draw.rect(self.surface, (70, 34, 34), pg.Rect(area.x, y, area.width, tall),
                             border_radius=self.s(6))
                self.text("!", 32 * scale, BAD, (area.x + self.s(14), y + self.s(16 * scale)),
                          "center")
                for k, line in enumerate(lines):
                    self.text(line, small, TEXT,
                              (area.x + self.s(28), y + self.s(5) + k * self.s(22 * scale)))
            y += tall + self.s(4)
        return int(y)

    def _words(self, view: CalibrationView, area: Any) -> None:
        pg = self.pg
        y = self._words_bottom(view, area, self.words_scale(view, area), draw=True)
        if view.progress is not None:
            y += self.s(10)
            bar = pg.Rect(area.x, y, area.width, self.s(18))
            pg.draw.rect(self.surface, PANEL, bar, border_radius=self.s(9))
            filled = bar.copy()
            filled.width = max(self.s(18), round(bar.width * view.progress))
            pg.draw.rect(self.surface, ACCENT, filled, border_radius=self.s(9))
            y += self.s(30)
        if view.dice:
            y = max(y + self.s(8), area.y + self.s(150))
            size = min(self.s(64), (area.width - self.s(20)) // max(3, len(view.dice)) - self.s(10))
            for k, value in enumerate(view.dice):
                rect = pg.Rect(area.x + self.s(6) + k * (size + self.s(16)), y, size, size)
                self.base.die(rect, value, outline=ACCENT if view.marked == k else None)
            y += size + self.s(14)
        if view.swatches:
            self._swatches(view.swatches, y + self.s(4), area)

    def swatch_rows(self, swatches: tuple[Swatch, ...], width: float) -> int:
        """The fewest rows the players' colours take in ``width`` with every name whole
        (at :data:`SWATCH_SMALLEST` at least) and a clash marked; one a player where
        even two columns are too narrow for that."""
        for rows in range(1, len(swatches)):
            columns = -(-len(swatches) // rows)
            if all(self._whole(swatch, self._name_room(width // columns))
                   for swatch in swatches):
                return rows
        return max(1, len(swatches))

    def _name_room(self, cell: float) -> int:
        """How wide a name may be in a cell ``cell`` wide (its colour's circle first)."""
        return int(cell - self.s(40))

    def _whole(self, swatch: Swatch, room: float) -> tuple[str, float] | None:
        """A swatch's name, whole, with its clash marked, and the largest font size from
        :data:`SWATCH_SIZE` to :data:`SWATCH_SMALLEST` at which it fits ``room`` (None:
        it does not)."""
        name = _clean(swatch.name)
        for mark in (CLASH_WORDS, CLASH_SIGN) if swatch.clash else ("",):
            size = float(SWATCH_SIZE)
            while size >= SWATCH_SMALLEST:
                if self.base.font(size).size(name + mark)[0] <= room:
                    return name + mark, size
                size -= 2
        return None

    def swatch_label(self, swatch: Swatch, room: float) -> tuple[str, float]:
        """What is written beside a player's colour in ``room``, and its font size: the
        name whole where it fits, with "(too alike!)" or "!" after it for a clash, else
        the name cut short (on the table's cards too), the clash's "!" kept."""
        whole = self._whole(swatch, room)
        if whole is not None:
            return whole
        mark = CLASH_SIGN if swatch.clash else ""
        mark_width = self.base.font(SWATCH_SMALLEST).size(mark)[0] if mark else 0
        name, size = self.base.shortened(_clean(swatch.name), SWATCH_SMALLEST,
                                         SWATCH_SMALLEST, room - mark_width)
        return name + mark, size

    def _swatches(self, swatches: tuple[Swatch, ...], top: int, area: Any) -> None:
        """The players' registered colours at the foot of ``area``, below ``top``: in
        one column where they fit, else in rows of two or more side by side (a name cut
        short only where even the rows there is room for are too few)."""
        pg = self.pg
        row = self.s(SWATCH_ROW)
        count = len(swatches)
        fit = max(1, min(count, (area.bottom - top) // row))
        columns = -(-count // fit)
        rows = -(-count // columns)
        width = area.width // columns
        top = max(top, area.bottom - row * rows)
        labels = [self.swatch_label(swatch, self._name_room(width)) for swatch in swatches]
        size = min(size for _, size in labels)  # (all names alike, as the smallest)
        for k, (swatch, (label, _)) in enumerate(zip(swatches, labels, strict=True)):
            x = area.x + (k % columns) * width
            centre = (x + self.s(14), top + (k // columns) * row + self.s(12))
            pg.draw.circle(self.surface, swatch.colour, centre, self.s(11))
            pg.draw.circle(self.surface, BAD if swatch.clash else DIM, centre, self.s(11),
                           max(1, self.s(2)))
            self.text(label, size, BAD if swatch.clash else TEXT,
                      (x + self.s(34), centre[1]), "midleft")

    def _buttons(self, hints: tuple[Hint, ...], area: Any) -> None:
        self.base.button_tiles([(h.sign, _clean(h.does)) for h in hints], area)

    def _help(self, lines: tuple[str, ...]) -> None:
        pg = self.pg
        shade = pg.Surface((self.w, self.h), pg.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        self.surface.blit(shade, (0, 0))
        box = pg.Rect(self.s(60), self.s(60), self.w - self.s(120), self.h - self.s(120))
        pg.draw.rect(self.surface, PANEL, box, border_radius=self.s(12))
        self.text("Help", 40, ACCENT, (box.x + self.s(20), box.y + self.s(14)))
        y = box.y + self.s(62)
        for paragraph in lines:
            for line in self.wrap(_clean(paragraph), 28, box.width - self.s(40)):
                self.text(line, 28, TEXT, (box.x + self.s(20), y))
                y += self.s(28)
            y += self.s(6)


class ScreenshotWriter:
    """Saves each screen once as ``calibration-NN-SCREEN.png``: the last frame it was
    shown (when the next screen comes, and at the end)."""

    def __init__(self, folder: Path) -> None:
        import pygame

        self.pg: Any = pygame
        self.folder = folder
        self.saved: list[Path] = []
        self._last: tuple[str, Any] | None = None

    def update(self, screen: str, surface: Any) -> None:
        if self._last is not None and self._last[0] != screen:
            self._write()
        self._last = (screen, surface.copy())

    def finish(self) -> list[Path]:
        self._write()
        return self.saved

    def _write(self) -> None:
        if self._last is None:
            return
        screen, surface = self._last
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"calibration-{len(self.saved) + 1:02d}-{screen}.png"
        self.pg.image.save(surface, str(path))
        self.saved.append(path)
        self._last = None
