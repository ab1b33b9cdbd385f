"""Draws a :class:`~einhorn_table.screen.view_model.ScreenView` with pygame.

Laid out for a 7-inch 800x480 panel read from 1.5 m (big numbers, few words,
high contrast) and scaled by one unit for bigger screens. Only pygame's own
default font and drawing primitives are used, so it works on a bare Pi.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from einhorn_table.rules import Category
from einhorn_table.screen.contrast import needs_edge, pip_colour
from einhorn_table.screen.fonts import FallbackFont, machine_chooser
from einhorn_table.screen.stone_flight import drawn, stone_position
from einhorn_table.screen.view_model import (
    ButtonHint,
    DieView,
    Flow,
    Marker,
    PlayerCard,
    ScreenKind,
    ScreenView,
)
from einhorn_table.standings import final_places
from einhorn_table.table.config import DICE_COLOURS

Colour = tuple[int, int, int]
BACKGROUND: Colour = (18, 22, 30)
PANEL: Colour = (34, 40, 54)
TEXT: Colour = (245, 245, 245)
DIM: Colour = (170, 178, 195)
ACCENT: Colour = (255, 214, 10)
GOOD: Colour = (90, 220, 130)
BAD: Colour = (255, 110, 90)
STONE: Colour = (200, 205, 220)

#: Which dice show each category in its icon.
ICON_DICE = {
    Category.UNVERMEIDLICH: (2, 3, 4),
    Category.WUNSCH: (4, 4, 1),
    Category.EINHORN: (1, 3, 5),
    Category.DREIFALTIGKEIT: (6, 6, 6),
}
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


#: The top bar's height and the banner's font size (at 800x480; scaled for bigger screens).
BAR = 56
BANNER_SIZE = 28
#: The smallest the banner's words get to stay in two lines (read from the chairs).
BANNER_SMALLEST = 24
#: The least height of the unicorn owner's call row in the top-ups (its words read).
CALL_ROW_LEAST = 36
#: The column left of a row of button tiles that says whose buttons they are: at least
#: this wide, and up to ``LEAD_MOST`` where a name needs it at ``LEAD_NAME``.
LEAD = 118
LEAD_MOST = 190
#: The size of a name in that column (as big as the cards' names: read from the chairs),
#: and the least it is drawn at before it is cut short.
LEAD_NAME = 32
LEAD_NAME_LEAST = 24
#: The unicorn owner's name in the top bar: its size, the least it is drawn at (read
#: from across the table) before it is cut short, and its room right of the icons.
OWNER_NAME = 34
OWNER_NAME_LEAST = 24
OWNER_ROOM = 170
#: The roll's lines on its result: their size, and the least they are drawn at (read
#: from the chairs) before the photo gives way and they take two columns.
RESULT_LINE = 30
RESULT_LEAST = 24
#: The least height of the call tiles (their names in two lines), and the least they
#: show their category's dice in (above the names).
TURN_TILE_LEAST = 64
TURN_TILE_DICE = 100
#: The least height of a row of counterparty chips under a banner (a name at 32 in it),
#: and under a banner and a notice (the subtitle gives way for it).
CHIP_ROW_LEAST = 27
CHIP_ROW_CROWDED = 40
#: A notice's font size, and the least it gets to stay in two lines (three at most).
NOTICE_SIZE = 28
NOTICE_SMALLEST = 24
#: The least a notice gets under a banner where the screen has little room (still read
#: from the chairs at 800x480).
NOTICE_FLOOR = 22
#: The least height the screen keeps between a notice's band and the cards (the title
#: and the call tiles or a row of buttons); with less, under a banner, the banner and the
#: notice are drawn smaller and the screen makes do (the call tiles without their dice).
NOTICE_LEAVES = 150

#: The margin of a card's name where the card stacks its marker, dice and unicorn
#: beside the stones (six players, long names) and the name has the whole row.
CARD_EDGE = 10

#: Signs pygame's default font lacks, and what stands in for them.
_PLAIN = str.maketrans({"\u2717": "X", "\u2212": "-", "\u2192": "->"})


def plain(text: str) -> str:
    """``text`` with the signs the default font cannot draw replaced (✗ -> X), its letters
    composed (a name typed as O and a separate umlaut drawn as Ö, in the screen's font)."""
    return unicodedata.normalize("NFC", text).translate(_PLAIN)


@cache
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """A pattern finding any of ``names`` that has a space in it ("Ngozi Okonjo",
    "Anne-Marie Weiß") as whole words of a text, the longest first (None: none has)."""
    spaced = sorted({tuple(plain(name).split()) for name in names}, key=len, reverse=True)
    parts = [r"\s+".join(map(re.escape, words)) for words in spaced if len(words) > 1]
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)") if parts else None


def chunks(text: str, names: Sequence[str] = ()) -> list[str]:
    """``text``'s words, where the words of one of ``names`` (with the words it touches:
    "(all Ngozi Okonjo had)") are one, to be kept on one line."""
    pattern = _names_pattern(tuple(names))
    spans = [m.span() for m in pattern.finditer(text)] if pattern is not None else []
    found: list[str] = []
    end = 0  # where the word before ends
    for word in re.finditer(r"\S+", text):
        if found and any(start < end and word.start() < stop for start, stop in spans):
            found[-1] += " " + word.group()  # (the space between them is in a name)
        else:
            found.append(word.group())
        end = word.end()
    return found


@dataclass(frozen=True)
class _ResultLayout:
    """Where a roll's result goes: the photo shown or not, the title and dice smaller or
    not, the left of the words, the title's lines and size, the dice row's top and size,
    and the lines (each part of a wrapped line with its colour and place) with their size
    and column width (a compact title has the dice beside it where they fit)."""

    photo: bool
    compact: bool
    left: int
    title: list[str]
    title_size: float
    dice_top: float
    dice_size: int
    #: Where the dice row starts: under the title at ``left``, or beside a compact title.
    dice_left: float
    size: float
    column: float
    lines: list[tuple[str, Colour, tuple[float, float]]]


def _balanced_split(rows: Sequence[int], columns: int) -> int:
    """Where lines of ``rows`` rows each are split into a left and a right column, in
    reading order, the taller column as short as can be (one column: all left)."""
    if columns < 2 or not rows:
        return len(rows)
    total = sum(rows)
    best, split = total, len(rows)
    before = 0
    for k in range(1, len(rows) + 1):
        before += rows[k - 1]
        tallest = max(before, total - before)
        if tallest < best:
            best, split = tallest, k
    return split


class Renderer:
    """Draws views onto a pygame surface of any size (800x480 up to 1920x1080)."""

    def __init__(self, surface: Any) -> None:
        import pygame

        self.pg: Any = pygame
        self.surface = surface
        width, height = surface.get_size()
        self.w, self.h = width, height
        self.u: float = min(width / 800, height / 480)
        self._fonts: dict[int, Any] = {}
        #: The photo last drawn, and its surface.
        self._photo_cache: tuple[Any, Any] | None = None
        #: The photo last drawn, the part of it shown and that part's size on screen, and
        #: the part scaled to that size (scaling it is most of a frame's work on a Pi).
        self._scaled_cache: tuple[Any, tuple[object, ...], Any] | None = None
        #: The result's layout last chosen, with what it was chosen from (the same each
        #: frame while the result is shown: not tried again at every size).
        self._layout_cache: tuple[tuple[object, ...], _ResultLayout] | None = None
        #: The banner's words last wrapped, with their lines and size.
        self._banner_cache: tuple[tuple[object, ...], tuple[list[str], float]] | None = None
        #: The width of the column that says whose a row of buttons is (this screen's),
        #: and the one size of the names in it (a list, read down the column).
        self._lead_width = 0
        self._lead_size: float = LEAD_NAME
        #: The players' names (this screen's): ``wrap`` keeps each on one line where the
        #: line has room for it, not "... (all Ngozi / Okonjo had)".
        self.names: tuple[str, ...] = ()

    # ------------------------------------------------------------------ basics

    def font(self, size: float) -> Any:
        px = max(10, round(size * self.u))
        if px not in self._fonts:
            # pygame's own font, or for a name in letters it lacks, one that has them.
            self._fonts[px] = FallbackFont(self.pg, px, machine_chooser())
        return self._fonts[px]

    def text(self, text: str, size: float, colour: Colour, pos: tuple[float, float],
             anchor: str = "topleft", max_width: float | None = None) -> Any:
        text = plain(text)
        font = self.font(size)
        while max_width is not None and font.size(text)[0] > max_width and size > 12:
            size -= 2
            font = self.font(size)
        image = font.render(text, True, colour)
        rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        self.surface.blit(image, rect)
        return rect

    def wrap(self, text: str, size: float, width: float) -> list[str]:
        """``text`` in lines of ``width`` at most, broken between words; a player's name
        (``names``) kept on one line where a line has room for it."""
        text = plain(text)
        font = self.font(size)
        lines: list[str] = []
        current = ""
        words = [word for chunk in chunks(text, self.names)
                 for word in ([chunk] if font.size(chunk)[0] <= width else chunk.split())]
        for word in words:
            trial = f"{current} {word}".strip()
            if font.size(trial)[0] <= width or not current:
                current = trial
            else:
                lines.append(current)
                current = word
        if current:
            lines.append(current)
        return lines

    def subtitle_lines(self, text: str, size: float, width: float) -> list[str]:
        """``text`` wrapped; where it takes more than a line, its last sentence starts a
        line of its own if that takes no more lines (not "... You can / also roll
        again")."""
        lines = self.wrap(text, size, width)
        if len(lines) < 2:
            return lines
        head, stop, tail = plain(text).rpartition(". ")
        if not stop:
            return lines
        broken = self.wrap(head + ".", size, width) + self.wrap(tail, size, width)
        return broken if len(broken) <= len(lines) else lines

    def fit(self, text: str, size: float, width: float) -> str:
        """``text`` cut at a word and ended with "..." so that it fits ``width`` ("" if
        not even one word does); not inside a player's name where a word before it fits
        ("... then Ngozi..." read as a player of its own)."""
        text = plain(text)
        font = self.font(size)
        if font.size(text)[0] <= width:
            return text
        for words in (chunks(text, self.names), text.split()):
            while words and font.size(" ".join(words) + "...")[0] > width:
                words.pop()
            if words:
                break
        return " ".join(words).rstrip(",") + "..." if words else ""

    def shortened(self, text: str, size: float, smallest: float, width: float,
                  ) -> tuple[str, float]:
        """``text`` and a font size from ``size`` down to ``smallest`` at which it fits
        ``width``; cut short with "." where even the smallest does not fit (never after
        a hyphen or a space: "Friedrich-." read as a name of its own)."""
        text = plain(text)
        while self.font(size).size(text)[0] > width and size > smallest:
            size = max(smallest, size - 2)
        font = self.font(size)
        if font.size(text)[0] <= width:
            return text, size

        def cut(part: str) -> str:
            return (part.rstrip(" -\u2010\u2011,.'") or part[:1]) + "."

        while len(text) > 1 and font.size(cut(text))[0] > width:
            text = text[:-1]
        return cut(text), size

    def s(self, value: float) -> int:
        scaled: float = value * self.u
        return round(scaled)

    # ------------------------------------------------------------------ the screen

    def draw(self, view: ScreenView) -> None:
        self.surface.fill(BACKGROUND)
        self._players_count = len(view.players)
        self.names = tuple(card.name for card in view.players)
        self._top_bar(view)
        full_screen = view.kind in (ScreenKind.FINAL, ScreenKind.HISTORY)
        if not full_screen:
            self._cards(view.players)
        # The banner (the camera lost, the match not written) takes its own band under
        # the top bar, and the screen goes on below it: its title stays in view.
        banner, banner_size = self._banner_lines(view.banner) if view.banner else ([], 0)
        # A notice takes its own band under them too (drawn over the screen, it hid the
        # button strip's words and the call tiles' names just when they were needed; over
        # the title, the title and what it asks). Where both leave the screen too little
        # room, both are drawn smaller (down to what is read from the chairs) and the
        # screen below makes do with less (``_crowded``).
        notice, notice_size = self._notice_lines(view.notice) if view.notice else ([], 0)
        self._crowded = False
        if banner and notice and self._room_left(banner, banner_size, notice, notice_size) \
                < self.s(NOTICE_LEAVES):
            self._crowded = True  # (the notice's lines closer, and no bigger than the banner's)
            notice, notice_size = self._notice_lines(view.notice, NOTICE_FLOOR,
                                                     min(NOTICE_SMALLEST, banner_size))
        top = self.s(BAR + 6) + (self._banner_height(banner, banner_size) if banner else 0)
        notice_top = top - self.s(2)
        if notice:
            top += self._notice_height(notice, notice_size) + self.s(4)
        self._tight = bool(banner or notice)
        middle = self.pg.Rect(self.s(10), top, self.w - self.s(20),
                              self.h - top - self.s(160))
        kind = view.kind
        self._lead_width = self._lead_for(view)
        self._lead_size = self._lead_name_size(view)
        if full_screen:
            area = self.pg.Rect(self.s(10), top, self.w - self.s(20),
                                self.h - top - self.s(10))
            if kind is ScreenKind.HISTORY:
                area.height -= self.s(58)
                self._button_strip(view.buttons, self.pg.Rect(
                    area.x, area.bottom + self.s(4), area.width, self.s(54)))
                self._history(view, area)
            else:
                self._final(view, area)
        else:
            area = middle.copy()
            if view.buttons:
                area.height -= self.s(58)
                self._button_strip(view.buttons, self.pg.Rect(
                    middle.x, middle.bottom - self.s(54), middle.width, self.s(54)),
                    [view.players[i] for i in view.buttons_for])
            {
                ScreenKind.TURN: self._turn,
                ScreenKind.RESULT: self._result,
                ScreenKind.COUNTERPARTY: self._counterparty,
                ScreenKind.DOUBT: self._doubt,
                ScreenKind.AUCTION: self._auction,
                ScreenKind.TOPUP: self._topup,
                ScreenKind.START_ROLLS: self._start_rolls,
                ScreenKind.GAME_END: self._game_end,
                ScreenKind.RESUME: self._resume,
            }[kind](view, area)
        self._flows(view.flows)
        if notice:
            self._notice(notice, notice_size, notice_top)
        if banner:
            self._banner(banner, banner_size)
        if view.help:  # (over the whole screen, the banner too: read whole, then closed)
            self._help(view)

    # ------------------------------------------------------------------ pieces

    def _top_bar(self, view: ScreenView) -> None:
        pg = self.pg
        pg.draw.rect(self.surface, PANEL, (0, 0, self.w, self.s(BAR)))
        if view.kind is not ScreenKind.FINAL:
            self.text("Game", 22, DIM, (self.s(12), self.s(6)))
            self.text(f"{view.game} / {view.games}", 40, TEXT, (self.s(12), self.s(24)))
        centre = self._central_pos()
        self._stone(centre[0] - self.s(58), self.s(30), self.s(13))
        self.text("Central", 22, DIM, (centre[0] - self.s(40), self.s(6)))
        self.text(str(view.central), 48, TEXT, (centre[0] - self.s(40), self.s(22)))
        right = self.w - self.s(12)
        if view.unicorn is not None:
            card = view.players[view.unicorn]
            # (shrunk down to a size read from across the table, then cut as on the cards)
            name, size = self.shortened(card.name, OWNER_NAME, OWNER_NAME_LEAST,
                                        self.s(OWNER_ROOM))
            rect = self.text(name, size, TEXT, (right, self.s(28)), "midright")
            self._marker(card.marker, card.colour, (rect.left - self.s(18), self.s(28)),
                         self.s(12))
            self._unicorn_icon((rect.left - self.s(52), self.s(28)), self.s(20))
        else:
            self._unicorn_icon((right - self.s(150), self.s(28)), self.s(20))
            self.text("nobody", 30, DIM, (right, self.s(28)), "midright")

    def _central_pos(self) -> tuple[int, int]:
        return (self.w // 2, self.s(30))

    def _card_rects(self, count: int) -> list[Any]:
        gap = self.s(8)
        top = self.h - self.s(154)
        width = (self.w - gap * (count + 1)) / max(count, 1)
        return [self.pg.Rect(round(gap + i * (width + gap)), top, round(width), self.s(146))
                for i in range(count)]

    def _cards(self, cards: tuple[PlayerCard, ...]) -> None:
        pg = self.pg
        rects = self._card_rects(len(cards))
        # Narrow cards (six players, long names) give the names the whole row and stack
        # the dice and the unicorn at the right of the stones: all cards alike.
        beside = all(self.font(28).size(plain(card.name))[0]
                     <= rect.width - self.s(46 + self._icons_width(card))
                     for card, rect in zip(cards, rects, strict=True))
        # One size for the row's names (a short name drawn bigger than its neighbours'
        # reads as the one whose move it is), cut short as before where even 22 is not.
        rooms = [self._name_room(card, rect, beside)
                 for card, rect in zip(cards, rects, strict=True)]
        fitted = [self.shortened(card.name, 32, 22, room)
                  for card, room in zip(cards, rooms, strict=True)]
        name_size = min((size for _, size in fitted), default=32)
        for card, rect, room, (name, size) in zip(cards, rects, rooms, fitted, strict=True):
            pg.draw.rect(self.surface, PANEL, rect, border_radius=self.s(10))
            if card.active:
                pg.draw.rect(self.surface, ACCENT, rect, width=self.s(5),
                             border_radius=self.s(10))
            pg.draw.rect(self.surface, card.colour, (rect.x + self.s(6), rect.y + self.s(6),
                                                     rect.width - self.s(12), self.s(5)))
            # Stacked, the marker stands left of the stones as the dice stand right of
            # them, and the name has the card's whole width: six players' names were cut
            # to "Maximilia." beside an empty corner.
            self._marker(card.marker, card.colour,
                         (rect.x + self.s(22 if beside else 20),
                          rect.y + self.s(30 if beside else 62)), self.s(12))
            if size != name_size:  # (a name fitted at the row's size is drawn as fitted)
                name, size = self.shortened(card.name, name_size, name_size, room)
            self.text(name, size, TEXT, (rect.x + self.s(40 if beside else CARD_EDGE),
                                         rect.y + self.s(30)), "midleft")
            right = rect.right - self.s(8)
            icon_y = rect.y + self.s(30)
            if card.unicorn:  # beside the name: the unicorn rightmost, the dice left of it
                # (under the dice, clear of the stash's line: a long "stash 17" ran
                # into it)
                below = rect.y + self.s(86 if card.dice_colour else 62)
                self._unicorn_icon((right - self.s(10), icon_y if beside else below),
                                   self.s(13))
                right -= self.s(26) if beside else 0
            if card.dice_colour:
                body = card.dice_colour
                pip = pip_colour(body)
                die_y = icon_y if beside else rect.y + self.s(62)
                die = pg.Rect(right - self.s(20), die_y - self.s(10), self.s(20), self.s(20))
                self.die(die, 5, body, pip)
                pg.draw.rect(self.surface, DIM, die, width=1, border_radius=self.s(3))
            self.text(str(card.game_stones), 66, TEXT, (rect.centerx, rect.y + self.s(50)),
                      "midtop")
            self.text(f"stash {card.stash}", 28, DIM, (rect.centerx, rect.y + self.s(100)),
                      "midtop")
            if card.status:
                colour = GOOD if card.status in ("done", "ready") else ACCENT
                self.text(card.status, 28, colour, (rect.centerx, rect.bottom - self.s(6)),
                          "midbottom", max_width=rect.width - self.s(8))

    def _name_room(self, card: PlayerCard, rect: Any, beside: bool) -> int:
        """The width a card's name has: its row less the marker and the dice and the
        unicorn where they stand beside it; stacked, the whole row."""
        if not beside:
            return int(rect.width - self.s(2 * CARD_EDGE))
        return int(rect.width - self.s(46 + self._icons_width(card)))

    @staticmethod
    def _icons_width(card: PlayerCard) -> int:
        """The room the dice and the unicorn take beside a card's name."""
        return (24 if card.dice_colour else 0) + (26 if card.unicorn else 0)

    def _marker(self, marker: Marker, colour: Colour, centre: tuple[float, float],
                r: float) -> None:
        pg = self.pg
        x, y = centre
        if marker is Marker.CIRCLE:
            pg.draw.circle(self.surface, colour, (round(x), round(y)), round(r))
            return
        if marker is Marker.SQUARE:
            pg.draw.rect(self.surface, colour, (x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7))
            return
        corners = {Marker.TRIANGLE: 3, Marker.DIAMOND: 4, Marker.HEXAGON: 6, Marker.STAR: 10}
        n = corners[marker]
        start = -math.pi / 2
        points = []
        for k in range(n):
            radius = r * (0.45 if marker is Marker.STAR and k % 2 else 1.1)
            angle = start + 2 * math.pi * k / n
            points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
        pg.draw.polygon(self.surface, colour, points)

    def _stone(self, x: float, y: float, r: float) -> None:
        self.pg.draw.circle(self.surface, STONE, (round(x), round(y)), round(r))
        self.pg.draw.circle(self.surface, (120, 125, 140), (round(x), round(y)), round(r),
                            max(1, round(r / 5)))

    def _unicorn_icon(self, centre: tuple[float, float], r: float) -> None:
        """The unicorn: a golden spiral horn, drawn with polygons and lines."""
        pg = self.pg
        x, y = centre
        tip = (x + r * 0.55, y - r * 1.0)
        left, right = (x - r * 0.55, y + r * 0.9), (x + r * 0.15, y + r * 1.0)
        pg.draw.polygon(self.surface, ACCENT, [tip, right, left])
        for k in (0.3, 0.55, 0.8):
            a = (tip[0] + (left[0] - tip[0]) * k, tip[1] + (left[1] - tip[1]) * k)
            b = (tip[0] + (right[0] - tip[0]) * (k - 0.12),
                 tip[1] + (right[1] - tip[1]) * (k - 0.12))
            pg.draw.line(self.surface, (150, 110, 0), a, b, max(2, round(r / 7)))
        pg.draw.polygon(self.surface, (255, 240, 170), [tip, right, left], max(1, round(r / 10)))

    def die(self, rect: Any, value: int | None, colour: Colour = (250, 250, 250),
            pip: Colour = (20, 20, 20), outline: Colour | None = None) -> None:
        pg = self.pg
        pg.draw.rect(self.surface, colour, rect, border_radius=max(2, rect.width // 6))
        if outline is not None:
            pg.draw.rect(self.surface, outline, rect.inflate(self.s(8), self.s(8)),
                         width=self.s(4), border_radius=max(2, rect.width // 5))
        if value is None:
            self.text("?", rect.height * 0.9 / self.u, BAD, rect.center, "center")
            return
        r = max(2, round(rect.width * 0.09))
        for px, py in PIPS[value]:
            pg.draw.circle(self.surface, pip, (round(rect.x + px * rect.width),
                                               round(rect.y + py * rect.height)), r)

    def category_icon(self, category: Category, x: float, y: float, size: float) -> None:
        for k, value in enumerate(ICON_DICE[category]):
            self.die(self.pg.Rect(round(x + k * size * 1.15), round(y), round(size),
                                  round(size)), value, (235, 235, 240), (30, 30, 40))

    def _dice_row(self, dice: tuple[DieView | int, ...], x: float, y: float,
                  size: float, marked: int | None = None) -> None:
        for k, die in enumerate(dice):
            value = die.value if isinstance(die, DieView) else die
            sure = die.sure if isinstance(die, DieView) else True
            rect = self.pg.Rect(round(x + k * size * 1.2), round(y), round(size), round(size))
            outline = ACCENT if marked == k else (BAD if not sure else None)
            body = die.colour if isinstance(die, DieView) and die.colour else (250, 250, 250)
            self.die(rect, value, body, pip_colour(body), outline=outline)
            if needs_edge(body, BACKGROUND):  # (a black die on the dark screen)
                self.pg.draw.rect(self.surface, DIM, rect, width=max(1, self.s(2)),
                                  border_radius=max(2, rect.width // 6))

    def _photo(self, view: ScreenView, box: Any) -> Any | None:
        """The roll's photo fitted into ``box``, dice outlined with their values."""
        placed = self._photo_place(view, box)
        if placed is None:
            return None
        part, crop, scale, rect = placed
        pg = self.pg
        self.surface.blit(self._scaled(view.photo, part, crop, rect.size), rect)
        pg.draw.rect(self.surface, DIM, rect, width=1)
        clip = self.surface.get_clip()
        self.surface.set_clip(rect)
        self._outlines(view, rect, crop, scale)
        self.surface.set_clip(clip)
        return rect

    def _scaled(self, image: Any, part: Any, crop: Any, size: tuple[int, int]) -> Any:
        """``part`` (``crop`` of the photo ``image``) scaled to ``size``: scaled once, and
        kept for the next frames while the photo, its part and its size stay the same."""
        key = (tuple(crop), tuple(size))
        cached = self._scaled_cache
        if cached is None or cached[0] is not image or cached[1] != key:
            cached = (image, key, self.pg.transform.smoothscale(part, size))
            self._scaled_cache = cached
        return cached[2]

    def _photo_place(self, view: ScreenView, box: Any) -> tuple[Any, Any, float, Any] | None:
        """The part of the photo shown in ``box``, that part's place in the photo, its
        scale and where it goes (None: no photo)."""
        if view.photo is None:
            return None
        pg = self.pg
        image = view.photo
        # Kept with its surface: a new photo is never taken for the last one (the id of
        # an array let go is soon another's).
        if self._photo_cache is None or self._photo_cache[0] is not image:
            rgb = image[:, :, ::-1].copy()
            height, width = rgb.shape[:2]
            surface = pg.image.frombuffer(rgb.tobytes(), (width, height), "RGB")
            self._photo_cache = (image, surface)
        surface = self._photo_cache[1]
        crop = self._crop(view.dice + view.photo_dice, surface.get_size(),
                          box.width / box.height)
        part = surface.subsurface(crop)
        scale = min(box.width / crop.width, box.height / crop.height)
        rect = pg.Rect(box.topleft, (round(crop.width * scale), round(crop.height * scale)))
        return part, crop, scale, rect

    def _outlines(self, view: ScreenView, rect: Any, crop: Any, scale: float) -> None:
        pg = self.pg
        shown: list[tuple[DieView, Any]] = []
        for die in view.dice:
            if die.box is None:
                continue
            x0, y0, x1, y1 = ((v - off) * scale for v, off in
                              zip(die.box, (crop.x, crop.y, crop.x, crop.y), strict=True))
            shown.append((die, pg.Rect(rect.x + x0, rect.y + y0, x1 - x0,
                                       y1 - y0).inflate(6, 6)))
        outlines = [outline for _, outline in shown]
        for die, outline in shown:
            pg.draw.rect(self.surface, GOOD if die.sure else BAD, outline,
                         width=max(2, self.s(3)))
        for (die, _), tag in zip(shown, self._tag_places(outlines, rect), strict=True):
            pg.draw.rect(self.surface, GOOD if die.sure else BAD, tag,
                         border_radius=self.s(5))
            self.text("?" if die.value is None else str(die.value), 30, BACKGROUND,
                      tag.center, "center")

    def _tag_places(self, outlines: Sequence[Any], bounds: Any) -> list[Any]:
        """Where each die's value tag goes: above its outline, or, where that would cover
        another die (dice lying close) or another tag, below, right or left of it; the
        tag of a die must never be read as another's."""
        pg = self.pg
        side = self.s(28)
        placed: list[Any] = []
        for k, outline in enumerate(outlines):
            others = [o for i, o in enumerate(outlines) if i != k] + placed
            first: Any = None
            for anchor, point in (("midbottom", (outline.centerx, outline.top - 2)),
                                  ("midtop", (outline.centerx, outline.bottom + 2)),
                                  ("midleft", (outline.right + 2, outline.centery)),
                                  ("midright", (outline.left - 2, outline.centery))):
                tag = pg.Rect(0, 0, side, side)
                setattr(tag, anchor, point)
                tag.clamp_ip(bounds)
                if first is None:
                    first = tag
                if tag.collidelist(others) < 0 and not tag.colliderect(outline):
                    break
            else:
                tag = first  # crowded all round: above, as always
            placed.append(tag)
        return placed

    def _crop(self, dice: tuple[DieView, ...], size: tuple[int, int], aspect: float) -> Any:
        """The part of the photo around the dice (zoomed in, never past the photo)."""
        width, height = size
        boxes = [d.box for d in dice if d.box is not None]
        if not boxes:
            return self.pg.Rect(0, 0, width, height)
        x0 = min(b[0] for b in boxes)
        y0 = min(b[1] for b in boxes)
        x1 = max(b[2] for b in boxes)
        y1 = max(b[3] for b in boxes)
        side = max(x1 - x0, y1 - y0)
        margin = side * 0.35 + 20
        w = x1 - x0 + 2 * margin
        h = y1 - y0 + 2 * margin
        if w / h < aspect:
            w = h * aspect
        else:
            h = w / aspect
        w, h = min(w, width), min(h, height)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        left = max(0.0, min(width - w, cx - w / 2))
        top = max(0.0, min(height - h, cy - h / 2))
        return self.pg.Rect(round(left), round(top), max(1, round(w)), max(1, round(h)))

    def _title(self, view: ScreenView, area: Any, x: float | None = None,
               lines: int = 2) -> float:
        """The title, and under it the subtitle in ``lines`` lines at most (the last cut
        short with "..." where it has more words); returns where the screen goes on."""
        left = area.x + self.s(8) if x is None else x
        width = self._title_width(view, area, x)
        colour = TEXT
        if view.focus is not None:
            card = view.players[view.focus]
            self._marker(card.marker, card.colour, (left + self.s(14), area.y + self.s(24)),
                         self.s(13))
            left += self.s(36)
        big, row, small, step = self._title_sizes()
        self.text(view.title, big, colour, (left, area.y + self.s(4)), max_width=width)
        y: float = area.y + self.s(row)
        wrapped = self.subtitle_lines(view.subtitle, small, width) if view.subtitle else []
        if len(wrapped) > lines > 0:
            wrapped[lines - 1] = self.fit(" ".join(wrapped[lines - 1:]), small, width)
        for line in wrapped[:lines]:
            self.text(line, small, DIM, (left, y))
            y += self.s(step)
        return y

    def _title_width(self, view: ScreenView, area: Any, x: float | None = None) -> float:
        """The width of the title's and the subtitle's lines (right of the marker)."""
        left: float = area.x + self.s(8) if x is None else x
        right: float = area.right
        return right - left - self.s(8) - (self.s(36) if view.focus is not None else 0)

    def _title_sizes(self) -> tuple[int, int, int, int]:
        """The title's size, the room it takes, the subtitle's size and line step: under a
        banner a little smaller, so that the screen's own choices keep their room."""
        return (40, 42, 25, 24) if self._tight else (46, 48, 28, 26)

    def _button_strip(self, hints: tuple[ButtonHint, ...], area: Any,
                      whose: Sequence[PlayerCard] = ()) -> None:
        """The button hints; ``whose``: the players they are for, shown by their shapes at
        the left (where the other players' buttons do something else)."""
        if len(whose) == 1:
            lead, area = self._lead(area)
            self._lead_name(whose[0], lead)
        elif whose:
            lead, area = self._lead(area)
            step = min(self.s(23), (lead.width - self.s(4)) / len(whose))
            for k, card in enumerate(whose):
                self._marker(card.marker, card.colour,
                             (lead.x + self.s(12) + k * step, lead.centery), self.s(10))
        self.button_tiles(
            [(h.sign, h.category.label if h.does == "call it" else h.does) for h in hints], area
        )

    def _lead_for(self, view: ScreenView) -> int:
        """The width of the column that says whose a row of buttons is: room for the
        marker and the name of each player named there at ``LEAD_NAME`` (the owner
        calling; the one other player topping up), within ``LEAD`` and ``LEAD_MOST``."""
        named = [view.players[i].name for i in self._lead_names(view)]
        need = max((self.font(LEAD_NAME).size(plain(name))[0] for name in named), default=0)
        return max(self.s(LEAD), min(self.s(LEAD_MOST), need + self.s(34)))

    def _lead_name_size(self, view: ScreenView) -> float:
        """The one size of the names in that column (read down it as a list: "Zoë" is not
        drawn bigger than "Friedrich-Wilhelm" under it), as on the cards: from
        ``LEAD_NAME`` down to ``LEAD_NAME_LEAST``, a name that does not fit then cut."""
        room = (self._lead_width or self.s(LEAD)) - self.s(30)
        return min((self.shortened(view.players[i].name, LEAD_NAME, LEAD_NAME_LEAST, room)[1]
                    for i in self._lead_names(view)), default=LEAD_NAME)

    @staticmethod
    def _lead_names(view: ScreenView) -> list[int]:
        """The seats named in the rows' lead column: the caller, and the others only where
        they are one (more are shown by their shapes: the line above names them)."""
        if view.caller is None:
            return []
        return [view.caller, *(view.buttons_for if len(view.buttons_for) == 1 else ())]

    def _lead_name(self, card: PlayerCard, lead: Any) -> None:
        """A player's marker and name in a row's lead column, the name at the column's
        one size (cut short where even ``LEAD_NAME_LEAST`` does not fit)."""
        self._marker(card.marker, card.colour, (lead.x + self.s(12), lead.centery),
                     self.s(11))
        name, size = self.shortened(card.name, self._lead_size, LEAD_NAME_LEAST,
                                    lead.width - self.s(30))
        self.text(name, size, TEXT, (lead.x + self.s(28), lead.centery), "midleft")

    def _lead(self, area: Any) -> tuple[Any, Any]:
        """``area`` cut into a column at its left that says whose the row is, and the rest
        (the four tiles, aligned with those of the row above or below)."""
        width = self._lead_width or self.s(LEAD)
        lead = self.pg.Rect(area.x, area.y, width, area.height)
        rest = self.pg.Rect(area.x + width + self.s(6), area.y,
                            area.width - width - self.s(6), area.height)
        return lead, rest

    def _call_row(self, view: ScreenView, card: PlayerCard, area: Any) -> None:
        """The caller's four buttons as the categories they call, the called one lit (the
        top-ups, the owner done with theirs): their marker and name at the left."""
        pg = self.pg
        lead, rest = self._lead(area)
        self._lead_name(card, lead)
        gap = self.s(6)
        width = (rest.width - gap * 3) / 4
        for k, category in enumerate(ICON_DICE):
            rect = pg.Rect(round(rest.x + k * (width + gap)), rest.y, round(width),
                           rest.height)
            called = view.call is category
            pg.draw.rect(self.surface, ACCENT if called else PANEL, rect,
                         border_radius=self.s(8))
            if called and view.call_locked:
                pg.draw.rect(self.surface, BAD, rect, width=self.s(3), border_radius=self.s(8))
            words = category.label.split(" ")
            if rect.height < self.s(52):  # a low row (under a banner): "Unvermeidliche"
                lines, size = words[-1:], min(24.0, rect.height / self.u - 12)
            else:
                lines = [" ".join(words[:-1]), words[-1]] if len(words) > 1 else words
                size = min(24.0, rect.height / self.u / len(lines) - 1)
            for n, line in enumerate(lines):
                self.text(line, size, BACKGROUND if called else TEXT,
                          (rect.centerx, rect.centery + (n - (len(lines) - 1) / 2)
                           * self.s(size)), "center", max_width=rect.width - self.s(8))

    def button_tiles(self, tiles: Sequence[tuple[str, str]], area: Any) -> None:
        """The four buttons left to right: each its sign and what it does now ("": nothing)."""
        pg = self.pg
        gap = self.s(6)
        width = (area.width - gap * 3) / 4
        for k, (sign, label) in enumerate(tiles):
            rect = pg.Rect(round(area.x + k * (width + gap)), area.y, round(width), area.height)
            colour = TEXT if label else DIM
            pg.draw.rect(self.surface, (52, 60, 80) if label else PANEL, rect,
                         border_radius=self.s(8))
            self.sign(sign, (rect.x + self.s(26), rect.centery), self.s(15), colour)
            if label:
                self.text(label, 26, colour, (rect.x + self.s(50), rect.centery), "midleft",
                          max_width=rect.width - self.s(56))

    def sign(self, sign: str, centre: tuple[int, int], r: int, colour: Colour) -> None:
        """A button's sign (- + OK X) in a ring, as the stations show it."""
        pg = self.pg
        x, y = centre
        thick = max(2, r // 4)
        pg.draw.circle(self.surface, colour, centre, r + self.s(5), max(1, thick // 2))
        if sign in ("-", "+"):
            pg.draw.line(self.surface, colour, (x - r * 0.6, y), (x + r * 0.6, y), thick)
        if sign == "+":
            pg.draw.line(self.surface, colour, (x, y - r * 0.6), (x, y + r * 0.6), thick)
        if sign == "X":
            pg.draw.line(self.surface, colour, (x - r * 0.5, y - r * 0.5),
                         (x + r * 0.5, y + r * 0.5), thick)
            pg.draw.line(self.surface, colour, (x - r * 0.5, y + r * 0.5),
                         (x + r * 0.5, y - r * 0.5), thick)
        if sign == "OK":
            self.text("OK", 20, colour, centre, "center")

    # ------------------------------------------------------------------ the screens

    def _turn(self, view: ScreenView, area: Any) -> None:
        """The call: four tiles, one per button left to right; the called one lit."""
        pg = self.pg
        _, title_room, _, step = self._title_sizes()
        # (Under a banner and a notice: the subtitle gives way where the tiles would be
        # too low for their names, and the tiles show their dice only where they fit.)
        said = 2  # (the subtitle's lines)
        while said > 0 and area.bottom - area.y - self.s(title_room + said * step + 6) \
                < self.s(TURN_TILE_LEAST):
            said -= 1
        y = self._title(view, area, lines=said)
        gap = self.s(6)
        top = y + self.s(6)
        height = area.bottom - top
        width = (area.width - 3 * gap) / 4
        with_dice = height >= self.s(TURN_TILE_DICE)
        for k, category in enumerate(ICON_DICE):
            rect = pg.Rect(round(area.x + k * (width + gap)), top, round(width), height)
            called = view.call is category
            pg.draw.rect(self.surface, ACCENT if called else PANEL, rect,
                         border_radius=self.s(10))
            if called and view.call_locked:
                pg.draw.rect(self.surface, BAD, rect, width=self.s(4), border_radius=self.s(10))
            size = min(self.s(34), (rect.width - self.s(20)) / 3.3)
            if with_dice:
                self.category_icon(category, rect.centerx - size * 1.65, rect.y + self.s(10),
                                   size)
            colour = BACKGROUND if called else TEXT
            words = category.label.split(" ")
            lines = [" ".join(words[:-1]), words[-1]] if len(words) > 1 else words
            for n, line in enumerate(lines):
                self.text(line, 28, colour,
                          (rect.centerx, rect.bottom - self.s(8) - (len(lines) - 1 - n) *
                           self.s(24)), "midbottom", max_width=rect.width - self.s(8))
        state = "LOCKED" if view.call_locked else ""
        if state:
            self.text(state, 30, BAD, (area.right - self.s(8), area.y + self.s(20)), "midright")

    def _result(self, view: ScreenView, area: Any) -> None:
        """The photo (dice outlined, values tagged), the dice drawn big, category, payments.

        Every line is drawn, wrapped where it is long and never smaller than read from the
        chairs while there is a way: where the lines need the room (many of them, long
        names, a banner above), the photo gives way first, then they take two columns."""
        photo_box = self.pg.Rect(area.x, area.y, round(area.width * 0.40), area.height)
        placed = self._photo_place(view, photo_box)
        layout = self._chosen_layout(view, area, None if placed is None else placed[3])
        if layout.photo:
            self._photo(view, photo_box)
        left = layout.left
        for k, line in enumerate(layout.title):
            self.text(line, layout.title_size, TEXT,
                      (left, area.y + self.s(2) + k * self.s(layout.title_size)),
                      max_width=area.right - left)
        y = layout.dice_top
        size = layout.dice_size
        if view.dice:
            self._dice_row(view.dice, layout.dice_left, y, size)
        if view.category is not None:
            label = round(layout.dice_left) + round(size * 3.6)
            self.text(view.category.label, 32 if layout.compact else 40, ACCENT,
                      (label, y + size / 2), "midleft", max_width=area.right - label)
        for words, colour, place in layout.lines:
            self.text(words, layout.size, colour, place, max_width=layout.column)

    def _chosen_layout(self, view: ScreenView, area: Any, photo: Any | None,
                       ) -> _ResultLayout:
        """The first layout whose lines fit (beside ``photo``, the photo's place; None:
        no photo), kept for the next frames: it depends only on what its key holds."""
        key = (view.title, view.lines, bool(view.dice), view.category,
               None if photo is None else tuple(photo), tuple(area), self._tight, self.u,
               self.names)
        if self._layout_cache is not None and self._layout_cache[0] == key:
            return self._layout_cache[1]
        # (photo, columns, the title and dice smaller), the first whose lines fit.
        tries: list[tuple[Any | None, int, bool]] = [(None, 1, False), (None, 2, False),
                                                     (None, 2, True)]
        if photo is not None:
            tries.insert(0, (photo, 1, False))
        layout: _ResultLayout | None = None
        for shown, columns, compact in tries:
            layout = self._result_layout(view, area, shown, columns, RESULT_LEAST, compact)
            if layout is not None:
                break
        if layout is None:  # (even that is too little: smaller, no line left out)
            layout = self._result_layout(view, area, None, 2, 12, compact=True)
            assert layout is not None
        self._layout_cache = (key, layout)
        return layout

    def _result_layout(self, view: ScreenView, area: Any, photo: Any | None, columns: int,
                       least: float, compact: bool = False) -> _ResultLayout | None:
        """Where the result's title, dice and lines go beside ``photo`` (None: no photo) in
        ``columns`` columns, the lines at ``least`` or bigger (``compact``: the title and the
        dice smaller); None where they do not fit."""
        left = area.x + (photo.width + self.s(16) if photo is not None else self.s(8))
        width = area.right - left
        title, title_size = self._title_lines(view.title, *((32, 26) if compact else (40, 30)),
                                              width)
        y = area.y + self.s(2) + len(title) * self.s(title_size) - self.s(2)
        dice_top, dice_left = y, float(left)
        # (under a banner, and smaller still where the lines need it: room for them)
        dice_size = self.s(30 if compact else 38 if self._tight else 46)
        beside = self._beside_title(view, title, title_size, dice_size, width) \
            if compact else None
        if beside is not None:  # (the lines get the dice's row)
            dice_left = left + beside
            title_height = self.font(title_size).get_height()
            dice_top = area.y + self.s(2) + max(0, title_height - dice_size) / 2
            y += self.s(6)
        elif view.dice or view.category is not None:
            y += dice_size + self.s(6 if compact else 10)
        else:
            y += self.s(6)
        gap = self.s(16)
        column = (width - gap * (columns - 1)) / columns
        colours = [TEXT] * len(view.lines)
        if view.lines:  # the call (a name such as "Wright" colours nothing)
            first = view.lines[0]
            colours[0] = GOOD if first.endswith(" - right!") else (
                BAD if first.endswith(" - wrong") else TEXT)
        size = RESULT_LINE
        while size >= least:
            wrapped = [self.wrap(line, size, column) for line in view.lines]
            split = _balanced_split([len(parts) for parts in wrapped], columns)
            rows = max((sum(len(parts) for parts in part) for part in
                        (wrapped[:split], wrapped[split:])), default=0)
            if y + rows * self.s(size) <= area.bottom or size <= 12:
                placed: list[tuple[str, Colour, tuple[float, float]]] = []
                row = y
                for k, parts in enumerate(wrapped):
                    x = left if k < split else left + column + gap
                    if k == split:
                        row = y
                    for part in parts:
                        placed.append((part, colours[k], (x, row)))
                        row += self.s(size)
                return _ResultLayout(photo is not None, compact, left, title, title_size,
                                     dice_top, dice_size, dice_left, size, column, placed)
            size -= 1
        return None

    def _beside_title(self, view: ScreenView, title: list[str], title_size: float,
                      dice_size: int, width: float) -> int | None:
        """How far right of the title's left the dice and the category go where they fit
        beside a one-line title (None: they do not, or there are none)."""
        if len(title) != 1 or not (view.dice or view.category is not None):
            return None
        row = round(len(view.dice) * dice_size * 1.2)
        if view.category is not None:
            row = round(dice_size * 3.6) + self.font(32).size(plain(view.category.label))[0]
        start = self.font(title_size).size(title[0])[0] + self.s(24)
        return start if start + row <= width else None

    def _title_lines(self, text: str, size: float, smallest: float, width: float,
                     ) -> tuple[list[str], float]:
        """A title in one line from ``size`` down to ``smallest``, else in two at
        ``smallest`` (the second cut short with "...")."""
        text = plain(text)
        while size > smallest and self.font(size).size(text)[0] > width:
            size -= 2
        if self.font(size).size(text)[0] <= width:
            return [text], size
        lines = self.wrap(text, size, width)
        if len(lines) > 2:
            lines = [lines[0], self.fit(" ".join(lines[1:]), size, width)]
        return lines, size

    def _counterparty(self, view: ScreenView, area: Any) -> None:
        # Under a banner, six long names take two rows only where the subtitle gives up
        # its second line: then it does (cut with "..."), the names are whole.
        lines = 2
        _, title_room, small, step = self._title_sizes()
        if self._tight and view.subtitle:
            wrapped = len(self.wrap(view.subtitle, small, self._title_width(view, area)))
            room = (area.bottom - self.s(6) - area.y - self.s(title_room)
                    - min(wrapped, 2) * self.s(step))
            if wrapped > 1 and room < self._two_rows_least() <= room + self.s(step) and \
                    self._chips_crowded(view.choices, area.x + self.s(190),
                                        area.right - self.s(8)):
                lines = 1
        while self._crowded and lines > 0 and area.bottom - self.s(12) - area.y - self.s(
                title_room + lines * step) < self.s(CHIP_ROW_CROWDED):
            lines -= 1  # (a banner and a notice above: the chips keep a row)
        y = self._title(view, area, lines=lines)
        room = area.bottom - y - self.s(6)  # (less under a banner)
        label = self.s(34) if view.category is not None and room >= self.s(74) else 0
        size = min(self.s(44), room - label)
        self._dice_row(view.dice, area.x + self.s(10), y + self.s(6), size)
        if label:
            assert view.category is not None
            self.text(view.category.label, 26, ACCENT, (area.x + self.s(10), y + size +
                                                        self.s(12)), max_width=self.s(166))
        x = area.x + self.s(190)
        rects = self._chip_rects(view.choices, x, area.right - self.s(8), y + self.s(6),
                                 room)
        # One size for the row (the shortest fitting name is not drawn bigger than its
        # neighbours), cut as on the cards, never shrunk past reading from the chairs.
        size = min((self.shortened(choice, 32, 22, rect.width - self.s(8))[1]
                    for choice, rect in zip(view.choices, rects, strict=True)), default=32)
        for k, (choice, rect) in enumerate(zip(view.choices, rects, strict=True)):
            chosen = k == view.chosen
            self.pg.draw.rect(self.surface, ACCENT if chosen else PANEL, rect,
                              border_radius=self.s(8))
            name, _ = self.shortened(choice, size, size, rect.width - self.s(8))
            self.text(name, size, BACKGROUND if chosen else TEXT, rect.center, "center")

    def _chip_rects(self, choices: Sequence[str], left: float, right: float, top: float,
                    room: float) -> list[Any]:
        """The counterparty's chips between ``left`` and ``right``: one row, or two where
        a name would be cut short in one and there is room for two (six players)."""
        count = len(choices)
        rows, height = 1, min(self.s(64), room)
        if room >= self._two_rows_least() and self._chips_crowded(choices, left, right):
            rows, height = 2, min(self.s(56), (room - self.s(6)) // 2)
        per_row = -(-count // rows)
        width = (right - left) / max(per_row, 1)
        rects = []
        for k in range(count):
            row, column = divmod(k, per_row)
            rects.append(self.pg.Rect(round(left + column * width) + self.s(3),
                                      round(top + row * (height + self.s(6))),
                                      round(width) - self.s(6), height))
        return rects

    def _chips_crowded(self, choices: Sequence[str], left: float, right: float) -> bool:
        """Whether a name of more than two chips would be cut short in one row."""
        width = (right - left) / max(len(choices), 1) - self.s(14)
        return len(choices) > 2 and any(self.font(32).size(plain(choice))[0] > width
                                        for choice in choices)

    def _two_rows_least(self) -> int:
        """The least room for two rows of chips: roomy ones, or under a banner rows just
        taller than a name at the chips' largest size."""
        row = CHIP_ROW_LEAST if self._tight else 48
        return self.s(2 * row + 6)

    def _doubt(self, view: ScreenView, area: Any) -> None:
        photo_box = self.pg.Rect(area.x, area.y, round(area.width * 0.45), area.height)
        shown = self._photo(view, photo_box)
        left = (shown.right if shown is not None else area.x) + self.s(14)
        sub = self.pg.Rect(left, area.y, area.right - left, area.height)
        y = self._title(view, sub, left)
        size = min(self.s(58), area.bottom - y - self.s(14))  # (less under a banner)
        if view.entry:
            # The dice entered, in the roller's dice colour (as the result draws them).
            entered = tuple(DieView(v, None, True, view.entry_colour) for v in view.entry)
            self._dice_row(entered, left + self.s(6), y + self.s(10), size,
                           marked=view.entry_position)
        else:
            self._dice_row(view.dice, left + self.s(6), y + self.s(10), size)

    def flow(self, widths: Sequence[float], left: float, right: float, top: float,
             gap: float, line: float) -> list[tuple[float, float]]:
        """Where items of these widths go, left to right, a new line when one would not fit."""
        places = []
        x, y = left, top
        for width in widths:
            if x > left and x + width > right:
                x, y = left, y + line
            places.append((x, y))
            x += width + gap
        return places

    def fitted_flow(self, labels: Sequence[str], size: float, left: float, right: float,
                    top: float, bottom: float, gap: float, lead: float = 0,
                    ) -> tuple[float, list[tuple[float, float]]]:
        """A font size (from ``size`` down) at which ``labels`` flow between ``left`` and
        ``right`` from ``top`` without passing ``bottom`` (six long names), and where each
        goes; ``lead`` is the room before each label (a marker)."""
        while True:
            widths = [self.s(lead) + self.font(size).size(plain(label))[0]
                      for label in labels]
            places = self.flow(widths, left, right, top, gap, self.s(size))
            if size <= 20 or not places or places[-1][1] + self.s(size) <= bottom:
                return size, places
            size -= 4

    def _auction(self, view: ScreenView, area: Any) -> None:
        y = self._title(view, area)
        if view.lines:  # the bids, revealed: as many lines as six players' names need
            size, places = self.fitted_flow(view.lines, 40, area.x + self.s(10),
                                            area.right - self.s(100), y + self.s(8),
                                            area.bottom, self.s(30))
            for line, place in zip(view.lines, places, strict=True):
                self.text(line, size, TEXT, place)
        r = min(self.s(34), (area.bottom - y) // 2 - self.s(6))  # (less under a banner)
        if r >= self.s(12):
            self._unicorn_icon((area.right - self.s(60), y + self.s(6) + r), r)

    def _topup(self, view: ScreenView, area: Any) -> None:
        lines, gap = 2, 8
        if view.caller is not None:  # the owner's row keeps its height: the subtitle gives
            gap = 4  # up its second line first (under a banner)
            _, title_room, _, step = self._title_sizes()
            while lines > 1 and area.bottom - area.y - self.s(title_room + lines * step + gap) \
                    < self.s(CALL_ROW_LEAST):
                lines -= 1
        y = self._title(view, area, lines=lines) + self.s(gap)
        bottom = area.bottom
        if view.caller is not None:  # right above the others' buttons, aligned with them
            height = min(self.s(54), area.bottom - y)
            bottom -= height + self.s(4)
            self._call_row(view, view.players[view.caller],
                           self.pg.Rect(area.x, area.bottom - height, area.width, height))
        labels = [f"{card.name} {card.status.replace(' ?', '')}" for card in view.players]
        size, places = self.fitted_flow(labels, 40, area.x + self.s(10),
                                        area.right - self.s(10), y, bottom,
                                        self.s(24), lead=30)
        if view.caller is not None and (size < 28 or places[-1][1] + self.s(size) > bottom):
            return  # (no room for them readable: the cards say who is ready, who counts)
        half = self.s(size) / 2
        for card, label, (x, row) in zip(view.players, labels, places, strict=True):
            self._marker(card.marker, card.colour, (x + self.s(12), row + half),
                         self.s(11))
            self.text(label, size, GOOD if card.status == "ready" else TEXT,
                      (x + self.s(30), row + half), "midleft")

    def _start_rolls(self, view: ScreenView, area: Any) -> None:
        y = self._title(view, area)
        # The last roll as read, with whose it was (no dice before the first: dice drawn
        # for show were taken for a reading); after a tie, who tied and on what.
        x = area.x + self.s(10)
        left = x
        if view.dice:
            self._dice_row(view.dice, x, y + self.s(14), self.s(54))
            left = x + round(len(view.dice) * self.s(54) * 1.2) + self.s(8)
        if view.lines:
            self.text(view.lines[0], 30, TEXT, (left, y + self.s(26)),
                      max_width=area.right - self.s(10) - left)

    def _game_end(self, view: ScreenView, area: Any) -> None:
        y = self._title(view, area)
        size, places = self.fitted_flow(view.lines, 34, area.x + self.s(10),
                                        area.right - self.s(10), y + self.s(10), area.bottom,
                                        self.s(28))
        for line, place in zip(view.lines, places, strict=True):
            self.text(line, size, TEXT, place)

    def _final(self, view: ScreenView, area: Any) -> None:
        pg = self.pg
        # Left of the chart (a long name's "... wins!" smaller, not under it).
        self.text(view.title, 44, TEXT, (area.x + self.s(6), area.y + self.s(4)),
                  max_width=self.s(308))
        if view.subtitle:
            self.text(view.subtitle, 44, ACCENT, (area.x + self.s(6), area.y + self.s(46)),
                      max_width=self.s(308))
        places = final_places([p.stash for p in view.players], view.winner)
        order = [i for _, i in places]
        y = area.y + self.s(100)
        hints = [hint for hint in view.buttons if hint.does]
        strip = self.s(44) if hints else 0  # the buttons that mean something, across the foot
        bottom = area.bottom - strip
        row = min(self.s(52), (bottom - y) // max(1, len(order)))
        high = row / self.u  # (six rows under a banner: each its row's height at most)
        # One size for every name, as on the cards (a short name drawn bigger than the
        # others' stood out as if it had won); a long name cut short, not shrunk past reading.
        name_size = min((self.shortened(view.players[i].name, min(38, high), min(24, high),
                                        self.s(150))[1] for i in order), default=38)
        for place, i in places:
            card = view.players[i]
            self.text(f"{place}.", min(36, high), DIM, (area.x + self.s(6), y + row // 2),
                      "midleft")
            self._marker(card.marker, card.colour, (area.x + self.s(54), y + row // 2),
                         self.s(13))
            name, size = self.shortened(card.name, name_size, name_size, self.s(150))
            self.text(name, size, TEXT, (area.x + self.s(74), y + row // 2), "midleft")
            self.text(str(card.stash), min(46, high + 4), TEXT,
                      (area.x + self.s(290), y + row // 2), "midright")
            y += row
        panel = pg.Rect(area.x + self.s(320), area.y + self.s(8), area.width - self.s(330),
                        area.height - self.s(16) - strip)
        # Why the match ended (where its games did not end it) and how a tie was broken,
        # under the chart: the standings keep their room for six players.
        why = [part for line in view.lines
               for part in self.wrap(line, 26, panel.width - self.s(24))]
        chart = panel.copy()
        chart.height -= len(why) * self.s(28) + (self.s(6) if why else 0)
        pg.draw.rect(self.surface, PANEL, panel, border_radius=self.s(10))
        self._chart(view, chart)
        for k, part in enumerate(why):
            self.text(part, 26, TEXT, (panel.x + self.s(12), chart.bottom + k * self.s(28)))
        x = area.x + self.s(26)
        for hint in hints:  # + history, hold OK: the next match
            centre = (x, area.bottom - self.s(20))
            holding = hint.sign == "OK" and view.held is not None
            colour = GOOD if holding else ACCENT
            self.sign(hint.sign, centre, self.s(13), colour)
            if holding:  # OK held: its ring fills up until the hold counts
                self._filling(centre, self.s(13) + self.s(5), view.held or 0.0)
            does = "keep holding: new match" if holding and (view.held or 0) < 1 \
                else hint.does
            rect = self.text(does, 32, colour, (x + self.s(26), centre[1]), "midleft",
                             max_width=area.right - x - self.s(26))
            x = rect.right + self.s(50)

    def _filling(self, centre: tuple[int, int], radius: int, part: float) -> None:
        """A thick ring around a button's sign, filled clockwise from the top to ``part``
        (0 to 1) of the way round: a hold coming to count."""
        if part <= 0:
            return
        rect = self.pg.Rect(0, 0, 2 * (radius + self.s(2)), 2 * (radius + self.s(2)))
        rect.center = centre
        end = math.pi / 2
        self.pg.draw.arc(self.surface, GOOD, rect, end - 2 * math.pi * min(1.0, part), end,
                         max(3, self.s(6)))

    def _resume(self, view: ScreenView, area: Any) -> None:
        """The interrupted match: who, when, which game, the stashes (the cards below)."""
        y = self._title(view, area) + self.s(6)
        width = area.width - self.s(16)
        size = 30  # smaller where six long names' stashes and why it cannot go on need it
        while size > 20 and self.s(size) * sum(
                len(self.wrap(line, size, width)) for line in view.lines) > area.bottom - y:
            size -= 2
        for line in view.lines:
            for part in self.wrap(line, size, width):
                if y + self.s(size) > area.bottom:
                    return
                self.text(part, size, TEXT, (area.x + self.s(8), y))
                y += self.s(size)

    def _history(self, view: ScreenView, area: Any) -> None:
        """The latest matches and the dice in words (left), who wins most (right)."""
        summary = view.archive
        left = area.x + self.s(6)
        self.text(view.title, 40, TEXT, (left, area.y + self.s(2)))
        if summary is None:
            return
        self.text(summary.title, 26, DIM, (area.right - self.s(6), area.y + self.s(12)),
                  "topright")
        top = area.y + self.s(44)
        split = area.x + round(area.width * 0.66)
        dice_rows = len(summary.dice) + 1 if summary.dice else 0
        dice_top = area.bottom - dice_rows * self.s(26)
        self.text("Latest matches", 24, DIM, (left, top))
        y = top + self.s(26)
        for line in summary.matches:
            if y + self.s(26) > dice_top - self.s(6):
                break
            outcome = f"{line.winner} won" if line.winner != "-" else line.state
            self.text(line.date[5:], 26, DIM, (left, y))
            rect = self.text(outcome, 26, TEXT, (left + self.s(110), y),
                             max_width=split - left - self.s(124))
            others = self.fit(f"({line.players})", 24, split - rect.right - self.s(24))
            self.text(others, 24, DIM, (rect.right + self.s(8), y + self.s(2)))
            y += self.s(27)
        if not summary.matches:
            self.text("No match kept yet", 26, TEXT, (left, y))
        self.text("Wins", 24, DIM, (split, top))
        markers = {card.name: card for card in view.players}
        y = top + self.s(26)
        # One size for every name, as on the cards and the final standings; a long name
        # cut short, not shrunk past reading.
        shown = summary.leaders[:max(0, (area.bottom - y) // max(1, self.s(28)))]
        name_size = min((self.shortened(
            leader.name, 28, 22, area.right - self.s(6) - self.font(28).size(
                f"{leader.wins} of {leader.matches}")[0] - split - self.s(34))[1]
            for leader in shown), default=28)
        for leader in shown:
            card = markers.get(leader.name)
            if card is not None:
                self._marker(card.marker, card.colour, (split + self.s(10), y + self.s(11)),
                             self.s(9))
            wins = self.text(f"{leader.wins} of {leader.matches}", 28, TEXT,
                             (area.right - self.s(6), y), "topright")
            # A long name cut short as on the cards, not shrunk past reading.
            name, size = self.shortened(leader.name, name_size, name_size,
                                        wins.left - split - self.s(34))
            self.text(name, size, TEXT, (split + self.s(26), y + (self.s(28) - self.s(size)) / 2))
            y += self.s(28)
        if summary.dice:
            self.pg.draw.line(self.surface, PANEL, (left, dice_top - self.s(4)),
                              (split - self.s(14), dice_top - self.s(4)), 2)
            self.text("Are the dice fair?", 24, DIM, (left, dice_top))
            for k, verdict in enumerate(summary.dice, 1):
                y = dice_top + k * self.s(26)
                name, _, words = verdict.partition(": ")
                x = left
                body = DICE_COLOURS.get(name)
                if body is not None:  # a small die of that colour, and "red dice: ..."
                    pip = pip_colour(body)
                    die = self.pg.Rect(x, y + self.s(1), self.s(18), self.s(18))
                    self.die(die, 5, body, pip)
                    self.pg.draw.rect(self.surface, DIM, die, width=1,
                                      border_radius=self.s(3))
                    x += self.s(26)
                    verdict = f"{name} dice: {words}"
                self.text(verdict, 26, TEXT, (x, y), max_width=split - x - self.s(14))

    def _chart(self, view: ScreenView, rect: Any) -> None:
        pg = self.pg
        pg.draw.rect(self.surface, PANEL, rect, border_radius=self.s(10))
        history = view.chart
        if len(history) < 2:
            self.text("No game finished", 30, DIM, rect.center, "center")
            return
        top = max(max(row) for row in history) or 1
        inner = rect.inflate(-self.s(70), -self.s(70))
        inner.x += self.s(14)
        self.text("stash after each game", 24, DIM, (rect.x + self.s(10), rect.y + self.s(8)))
        for value in (0, top):
            yy = inner.bottom - value / top * inner.height
            pg.draw.line(self.surface, (70, 78, 96), (inner.x, yy), (inner.right, yy), 1)
            self.text(str(value), 24, DIM, (inner.x - self.s(8), yy), "midright")
        steps = len(history) - 1
        for g in range(steps + 1):
            if steps <= 12 or g % 2 == 0 or g == steps:
                xx = inner.x + g / steps * inner.width
                self.text(str(g), 22, DIM, (xx, inner.bottom + self.s(6)), "midtop")
        for i, card in enumerate(view.players):
            points = [(inner.x + g / steps * inner.width,
                       inner.bottom - row[i] / top * inner.height)
                      for g, row in enumerate(history)]
            pg.draw.lines(self.surface, card.colour, False, points, max(2, self.s(4)))
            for point in points[1:]:
                self._marker(card.marker, card.colour, point, self.s(7))

    # ------------------------------------------------------------------ overlays

    def _slot_pos(self, slot: int, count: int) -> tuple[float, float]:
        if slot < 0:
            return self._central_pos()
        rect = self._card_rects(count)[slot]
        return (rect.centerx, rect.y + self.s(80))

    def _flows(self, flows: tuple[Flow, ...]) -> None:
        for flow in flows:
            players = self._players_count
            a = self._slot_pos(flow.source, players)
            b = self._slot_pos(flow.target, players)
            for k in range(drawn(flow.stones)):
                t = stone_position(flow.progress, k)
                if t <= 0.0 or t >= 1.0:
                    continue
                ease = t * t * (3 - 2 * t)
                x = a[0] + (b[0] - a[0]) * ease
                y = a[1] + (b[1] - a[1]) * ease - math.sin(math.pi * ease) * self.s(60)
                self._stone(x, y, self.s(11))

    _players_count = 2
    #: Whether a banner takes room from the screen (titles and tiles drawn smaller).
    _tight = False
    #: Whether a banner and a notice both do, leaving the screen less than it needs.
    _crowded = False

    def _room_left(self, banner: list[str], banner_size: float, notice: list[str],
                   notice_size: float) -> int:
        """The height left to the screen between the notice's band and the cards."""
        height: int = self.h
        return height - self.s(160) - self.s(BAR + 6) - self._banner_height(
            banner, banner_size) - self._notice_height(notice, notice_size) - self.s(4)

    def _notice_lines(self, text: str, smallest: float = NOTICE_SMALLEST,
                      largest: float = NOTICE_SIZE) -> tuple[list[str], float]:
        """The notice's lines and their size: two lines at ``largest``, a little smaller
        (down to ``smallest``) where its words need it; else three at most."""
        width = self.w - self.s(48)
        for size in range(round(largest), round(smallest) - 1, -2):
            lines = self.wrap(text, size, width)
            if len(lines) <= 2:
                return lines, size
        return self.wrap(text, smallest, width)[:3], smallest

    def _notice_step(self, size: float) -> int:
        """The notice's line step: its size, or where the screen is crowded just the
        letters' height and a little."""
        if self._crowded:
            height: int = self.font(size).get_height()
            return height + self.s(3)
        return self.s(size)

    def _notice_height(self, lines: list[str], size: float) -> int:
        return self.s(12) + len(lines) * self._notice_step(size)

    def _notice(self, lines: list[str], size: float, top: int) -> None:
        pg = self.pg
        rect = pg.Rect(self.s(10), top, self.w - self.s(20), self._notice_height(lines, size))
        pg.draw.rect(self.surface, (70, 60, 20), rect, border_radius=self.s(8))
        pg.draw.rect(self.surface, ACCENT, rect, width=self.s(2), border_radius=self.s(8))
        step = self._notice_step(size)
        pad = (rect.height - len(lines) * step) // 2
        for k, line in enumerate(lines):
            self.text(line, size, TEXT, (rect.x + self.s(14), rect.y + pad + k * step))

    def _banner_lines(self, text: str) -> tuple[list[str], float]:
        """The banner's lines and their size: two lines (the screens below are laid out
        for two), a little smaller where its words need it; else four at most (kept for
        the next frames while the banner stays)."""
        key = (text, self.w, self.u, self.names)
        if self._banner_cache is None or self._banner_cache[0] != key:
            self._banner_cache = (key, self._banner_wrapped(text))
        return self._banner_cache[1]

    def _banner_wrapped(self, text: str) -> tuple[list[str], float]:
        for size in range(BANNER_SIZE, BANNER_SMALLEST - 1, -2):
            lines = self.wrap(text, size, self.w - self.s(48))
            if len(lines) <= 2:
                return lines, size
        return self.wrap(text, BANNER_SIZE, self.w - self.s(48))[:4], BANNER_SIZE

    def _banner_height(self, lines: list[str], size: float) -> int:
        return self.s(12) + len(lines) * self.s(size)

    def _banner(self, lines: list[str], size: float) -> None:
        pg = self.pg
        rect = pg.Rect(0, self.s(BAR), self.w, self._banner_height(lines, size))
        pg.draw.rect(self.surface, (150, 30, 30), rect)
        for k, line in enumerate(lines):
            self.text(line, size, TEXT, (self.s(24), rect.y + self.s(6) + k * self.s(size)))

    def _help(self, view: ScreenView) -> None:
        pg = self.pg
        veil = pg.Surface((self.w, self.h), pg.SRCALPHA)
        veil.fill((10, 12, 18, 250))
        self.surface.blit(veil, (0, 0))
        x = self.s(24)
        self.text(view.help_title, 38, ACCENT, (x, self.s(14)), max_width=self.w - 2 * x)
        y = self.s(60)
        col = self.s(330)
        for line in view.help:
            does = self.wrap(line.does, 26, self.w - x - col - self.s(20))
            gesture = self.wrap(line.gesture, 26, col - self.s(16))
            rows = max(len(does), len(gesture))
            if y + rows * self.s(25) > self.h - self.s(40):
                break
            for k, part in enumerate(gesture):
                self.text(part, 26, TEXT, (x, y + k * self.s(25)))
            for k, part in enumerate(does):
                self.text(part, 26, DIM, (x + col, y + k * self.s(25)))
            y += rows * self.s(25) + self.s(10)
        self.text(view.help_close, 26, ACCENT,
                  (x, self.h - self.s(12)), "bottomleft")
