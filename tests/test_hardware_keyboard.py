"""The keyboard stand-in, through real pygame events (SDL's dummy video driver)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.keyboard_controls import (
    KEY_ROWS,
    KeyboardControls,
    key_map_text,
)
from einhorn_table.ports import Button, Controls, GestureKind


@pytest.fixture
def window() -> Iterator[None]:
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    pygame.event.clear()
    try:
        yield
    finally:
        pygame.display.quit()


def post(kind: int, char: str, *, with_scancode: bool = True) -> None:
    scancode = getattr(pygame, f"KSCAN_{char.upper()}") if with_scancode else 0
    pygame.event.post(pygame.event.Event(kind, key=pygame.key.key_code(char), scancode=scancode))


def test_each_players_row_of_keys_taps_their_four_buttons(window: None) -> None:
    clock = FakeClock()
    keys = KeyboardControls(clock)
    assert isinstance(keys, Controls) and keys.simulated
    for player, row in enumerate(KEY_ROWS):
        for char, button in zip(row, Button, strict=True):
            post(pygame.KEYDOWN, char)
            assert keys.poll() == []
            clock.advance(0.1)
            post(pygame.KEYUP, char)
            clock.advance(0.1)
            gestures = keys.poll()
            assert [(g.player, g.kind, g.buttons) for g in gestures] == [
                (player, GestureKind.TAP, (button,))
            ]


def test_holding_a_key_is_a_long_press_and_two_keys_a_chord(window: None) -> None:
    clock = FakeClock()
    keys = KeyboardControls(clock)
    post(pygame.KEYDOWN, "w")
    keys.poll()
    clock.advance(1.0)
    assert [(g.player, g.kind, g.buttons) for g in keys.poll()] == [
        (1, GestureKind.LONG, (Button.WUNSCH,))
    ]
    post(pygame.KEYUP, "w")
    post(pygame.KEYDOWN, "a")
    post(pygame.KEYDOWN, "f")
    clock.advance(0.1)
    post(pygame.KEYUP, "a")
    post(pygame.KEYUP, "f")
    assert [(g.player, g.kind, g.buttons) for g in keys.poll()] == [
        (2, GestureKind.CHORD, (Button.UNVERMEIDLICH, Button.DREIFALTIGKEIT))
    ]


def test_keys_without_a_scancode_are_matched_by_key_and_others_are_left_alone(
    window: None,
) -> None:
    clock = FakeClock()
    keys = KeyboardControls(clock, players=2, read_event_queue=False)
    other = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, scancode=pygame.KSCAN_SPACE)
    assert keys.handle(other) is False
    player_five = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_7, scancode=pygame.KSCAN_7)
    assert keys.handle(player_five) is False  # only two players at this table
    assert keys.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, scancode=0))
    clock.advance(0.1)
    assert keys.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_q, scancode=0))
    assert [(g.player, g.buttons) for g in keys.poll()] == [(1, (Button.UNVERMEIDLICH,))]


def test_the_key_map_text_names_each_players_keys() -> None:
    assert key_map_text(2) == "player 1: 1 2 3 4; player 2: Q W E R"


def test_docs_list_the_same_keys() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "buttons.md").read_text()
    for player, row in enumerate(KEY_ROWS):
        assert f"| {player + 1} | {' '.join(row.upper())}" in doc


def test_esc_tapped_between_two_frames_quits_calibration(window: None) -> None:
    """The keyboard's buttons take every key event off the queue: they note an Esc, so
    that calibrate can stop (it looked only at keys held down at the moment it drew)."""
    from einhorn_table.cli.calibrate import escaped

    keys = KeyboardControls(FakeClock())
    assert not escaped(keys)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, scancode=41))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_ESCAPE, scancode=41))
    assert keys.poll() == []
    assert escaped(keys)
    # With the GPIO buttons nothing else reads the keys: calibrate reads them itself.
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, scancode=41))
    assert escaped(object())
