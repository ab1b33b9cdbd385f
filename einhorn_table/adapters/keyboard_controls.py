"""A desktop keyboard standing in for the button stations (pygame key events).

Each player has four keys in a row, left to right the same as their buttons
(Das Unvermeidliche, Wunsch, Einhorn, Dreifaltigkeit)::

    player 1: 1 2 3 4      player 4: Z X C V
    player 2: Q W E R      player 5: 7 8 9 0
    player 3: A S D F      player 6: U I O P

A letter is matched by what the keyboard's layout makes of it (the SDL key
code), so the key printed Z is player 4's first button on any keyboard, on a
German one too (where it lies where Y lies on an American one), and A is player
3's on a French one. Only where the layout has no Latin letters (a Russian or
Greek one) is a letter matched by its place (the scancode), as the American
keyboard has it. A digit is matched by its place too: on a French keyboard the
digits are the shifted signs of the top row's keys, and those keys are the
players' either way. A digit on the number pad is the same key as the digit
above the letters (key 1 is player 1's first button either way). Holding a
key is a long press, two keys of one row at once a chord, exactly as with the
buttons.
"""

from __future__ import annotations

import sys
import unicodedata
from typing import Any

from einhorn_table.ports import Button, Clock, Gesture, RawButtonEvent
from einhorn_table.stations import MAX_STATIONS
from einhorn_table.stations.gestures import GestureDecoder, GestureTiming

#: Per player, the four keys (as printed on a US keyboard), left to right.
KEY_ROWS: tuple[str, ...] = ("1234", "qwer", "asdf", "zxcv", "7890", "uiop")


def other_alphabet(key: int) -> bool:
    """Whether SDL's key code ``key`` is a letter of another alphabet than the Latin one
    (a Russian or Greek layout's): SDL's code of a letter key is the letter itself."""
    if not 0 < key < sys.maxunicode:
        return False
    char = chr(key)
    return char.isalpha() and not unicodedata.name(char, "LATIN").startswith("LATIN")


def row_keys(player: int) -> str:
    """``player``'s four keys as the keyboard prints them, e.g. ``1 2 3 4``."""
    return " ".join(KEY_ROWS[player].upper())


def button_key(player: int, button: Button) -> str:
    """The key that is ``player``'s ``button``, e.g. ``3`` for player 1's Einhorn (OK)."""
    return KEY_ROWS[player][list(Button).index(button)].upper()


def key_map_text(players: int = MAX_STATIONS) -> str:
    """One line per player, e.g. ``player 1: 1 2 3 4``."""
    return "; ".join(
        f"player {n + 1}: {row_keys(n)}" for n in range(players)
    )


class KeyboardControls:
    """:class:`~einhorn_table.ports.Controls` from pygame's KEYDOWN/KEYUP events.

    The screen's event loop hands key events to :meth:`handle`; with
    ``read_event_queue`` (the default) :meth:`poll` also takes them from
    pygame's event queue itself, for use without a screen loop.
    """

    simulated = True

    def __init__(
        self,
        clock: Clock,
        *,
        players: int = MAX_STATIONS,
        timing: GestureTiming | None = None,
        read_event_queue: bool = True,
    ) -> None:
        import pygame

        self._pygame: Any = pygame
        self._clock = clock
        self._decoder = GestureDecoder(timing)
        self._read_queue = read_event_queue
        self.description = f"keyboard ({key_map_text(players)})"
        #: The digits' places (the top row's and the number pad's), and the letters'
        #: places as an American keyboard has them (for layouts without Latin letters).
        self._digit_places: dict[int, tuple[int, Button]] = {}
        self._letter_places: dict[int, tuple[int, Button]] = {}
        self._by_key: dict[int, tuple[int, Button]] = {}
        for player, row in enumerate(KEY_ROWS[:players]):
            for char, button in zip(row, Button, strict=True):
                target = (player, button)
                self._by_key[getattr(pygame, f"K_{char}")] = target
                scancode = getattr(pygame, f"KSCAN_{char.upper()}")
                if char.isdigit():  # (the number pad's digit: the same key to a person)
                    self._digit_places[scancode] = target
                    self._by_key[getattr(pygame, f"K_KP{char}")] = target
                    self._digit_places[getattr(pygame, f"KSCAN_KP{char}")] = target
                else:
                    self._letter_places[scancode] = target
        self._pending: list[Gesture] = []
        #: Esc was pressed (what reads the event queue itself learns it here).
        self.quit_requested = False

    def _lookup(self, event: Any) -> tuple[int, Button] | None:
        key = getattr(event, "key", -1)
        if key in self._by_key:  # (the key the layout names: what the screen shows)
            return self._by_key[key]
        scancode = getattr(event, "scancode", 0)
        if scancode in self._digit_places:  # (a French keyboard's & é " ' ...)
            return self._digit_places[scancode]
        if other_alphabet(key) and scancode in self._letter_places:
            return self._letter_places[scancode]  # (a layout without Latin letters)
        return None

    def button_of(self, event: Any) -> tuple[int, Button] | None:
        """Whose button the key of ``event`` is (None: no player's)."""
        return self._lookup(event)

    def handle(self, event: Any) -> bool:
        """Take one pygame event; True if it was one of the players' keys."""
        pygame = self._pygame
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return False
        if event.type == pygame.KEYDOWN and getattr(event, "key", None) == pygame.K_ESCAPE:
            self.quit_requested = True
            return False
        target = self._lookup(event)
        if target is None:
            return False
        player, button = target
        raw = RawButtonEvent(player, button, event.type == pygame.KEYDOWN, self._clock.monotonic())
        self._pending += self._decoder.feed(raw)
        return True

    def poll(self) -> list[Gesture]:
        pygame = self._pygame
        if self._read_queue and pygame.display.get_init():
            for event in pygame.event.get((pygame.KEYDOWN, pygame.KEYUP)):
                self.handle(event)
        gestures = self._pending + self._decoder.tick(self._clock.monotonic())
        self._pending = []
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        return self._decoder.held(player)

    def close(self) -> None:
        self._pending = []
