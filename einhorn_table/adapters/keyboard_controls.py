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

#: Seconds between two polls beyond which the keyboard was not looked at in between (a
#: frame held up by reading a roll): a key let go meanwhile is seen only afterwards, and
#: pygame's events carry no time of their own. Frames come every 1/30 s.
BLIND_SECONDS = 0.1

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
        #: When the keys were last polled, and when each key held was pressed (as told).
        self._polled: float | None = None
        self._down: dict[tuple[int, Button], float] = {}
        #: The time of the latest key event told (the keys are known as of then).
        self._known = float("-inf")
        #: Since when the keyboard was not looked at, where the last poll came after a
        #: held-up frame (None: it came on time): a key let go that the next events tell
        #: of may have been let go any time since.
        self._blind_since: float | None = None
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
        pressed = event.type == pygame.KEYDOWN
        now = self._clock.monotonic()
        if pressed:
            self._down.setdefault(target, now)
        else:
            since = self._down.pop(target, now)
            if self._blind_since is not None and self._polled is not None \
                    and since < self._polled:
                # Pressed before a frame that was held up, and let go some time during
                # it: told as let go as early as it can have been (just after the press,
                # or as the frame began), not at the end of the frame, which would make
                # a quick tap a hold.
                bounce = self._decoder.timing.bounce
                now = min(now, max(since + bounce, self._blind_since))
        self._known = max(self._known, now)
        raw = RawButtonEvent(player, button, pressed, now)
        self._pending += self._decoder.feed(raw)
        return True

    def poll(self) -> list[Gesture]:
        pygame = self._pygame
        now = self._clock.monotonic()
        held_up = self._polled is not None and now - self._polled > BLIND_SECONDS
        self._blind_since = self._polled if held_up else None
        self._polled = now
        if self._read_queue and pygame.display.get_init():
            for event in pygame.event.get((pygame.KEYDOWN, pygame.KEYUP)):
                self.handle(event)
        # After a held-up frame, where the screen's loop hands over the key events after
        # this poll, the keys are known only as the events before told them: a key's
        # release may still wait in the queue, so a hold is not told from this frame's
        # length (the next poll, on time, tells it).
        known = now
        if self._blind_since is not None and not self._read_queue:
            bounce = self._decoder.timing.bounce
            known = min(now, max(self._known + bounce, self._blind_since))
        gestures = self._pending + self._decoder.tick(known)
        self._pending = []
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        return self._decoder.held(player)

    def close(self) -> None:
        self._pending = []
