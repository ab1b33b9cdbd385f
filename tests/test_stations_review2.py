"""The button stations at a real table, second review: a child's slow chord, and mock
pins left named in ``GPIOZERO_PIN_FACTORY`` on a Raspberry Pi.

Pressed through gpiozero's mock pins with a fake clock (the time passed in), into the
table's controller where what a press does at the table is the point.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin
from table_helpers import MemoryRecorder

from einhorn_table.adapters import gpio_buttons
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.gpio_buttons import ButtonSetupError, ButtonStations
from einhorn_table.doctor.button_checks import check_buttons
from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import Status
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import Awaiting, Bid, Category, Undo, replay
from einhorn_table.stations.gesture_table import Context
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.table.controller import Seat, TableController

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
PIN_MAP = load_pin_map(default_pin_map_path())
NAMES = ["Ana", "Ben", "Cem"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def stations(mock_factory: MockFactory, clock: FakeClock) -> Iterator[ButtonStations]:
    controls = ButtonStations(PIN_MAP, clock, pin_factory=mock_factory, players=3)
    try:
        yield controls
    finally:
        controls.close()


def pin(factory: MockFactory, player: int, button: Button) -> MockPin:
    return factory.pin(next(s for s in PIN_MAP.stations if s.player == player).pin(button))


def overlapping(factory: MockFactory, clock: FakeClock, stations: ButtonStations,
                player: int, first: Button, second: Button, gap: float) -> list[Gesture]:
    """``first`` pressed, ``second`` pressed ``gap`` seconds later while ``first`` is still
    down, then both let go (a child's chord when ``gap`` is long)."""
    pin(factory, player, first).drive_low()
    clock.advance(gap)
    pin(factory, player, second).drive_low()
    clock.advance(0.05)
    gestures = stations.poll()
    pin(factory, player, first).drive_high()
    clock.advance(0.03)
    pin(factory, player, second).drive_high()
    clock.advance(0.3)
    return gestures + stations.poll()


def one_after_the_other(factory: MockFactory, clock: FakeClock, stations: ButtonStations,
                        player: int, buttons: tuple[Button, ...], held: float,
                        gap: float) -> list[Gesture]:
    """Each button pressed for ``held`` seconds and let go, the next ``gap`` later."""
    for button in buttons:
        pin(factory, player, button).drive_low()
        clock.advance(held)
        pin(factory, player, button).drive_high()
        clock.advance(gap)
    clock.advance(0.3)
    return stations.poll()


def kinds(gestures: list[Gesture]) -> list[tuple[GestureKind, tuple[Button, ...]]]:
    return [(g.kind, g.buttons) for g in gestures]


# ---------------------------------------------------------------- the slow chord


@pytest.mark.parametrize("gap", [0.3, 0.45, 0.55])
@pytest.mark.parametrize("buttons", [(U, D), (W, E)])
def test_a_slow_chord_is_still_a_chord(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations,
    gap: float, buttons: tuple[Button, Button],
) -> None:
    """A child pressing the second button up to about half a second after the first, the
    first still held: one chord (before: two taps, each meaning something else)."""
    gestures = overlapping(mock_factory, clock, stations, 1, *buttons, gap)
    assert kinds(gestures) == [(GestureKind.CHORD, buttons)]


@pytest.mark.parametrize("gap", [0.02, 0.1])
def test_two_quick_taps_one_after_the_other_stay_two_taps(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations, gap: float,
) -> None:
    gestures = one_after_the_other(mock_factory, clock, stations, 1, (W, E), 0.08, gap)
    assert kinds(gestures) == [(GestureKind.TAP, (W,)), (GestureKind.TAP, (E,))]


def test_a_slow_tap_let_go_before_the_next_press_is_no_chord(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations,
) -> None:
    """A child's slow taps (held half a second each, 0.1 s apart): still two taps, as the
    second goes down after the first came up."""
    gestures = one_after_the_other(mock_factory, clock, stations, 1, (U, D), 0.5, 0.1)
    assert kinds(gestures) == [(GestureKind.TAP, (U,)), (GestureKind.TAP, (D,))]


def test_a_first_button_held_until_it_is_a_long_press_is_no_chord_partner(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations,
) -> None:
    gestures = overlapping(mock_factory, clock, stations, 1, U, D, 0.75)
    assert kinds(gestures) == [(GestureKind.LONG, (U,)), (GestureKind.TAP, (D,))]


# ------------------------------------------------------------- at the table


def lines(*items: dict[str, object]) -> list[str]:
    setup = {"v": 1, "type": "setup", "variant": "einhorn", "players": NAMES, "games": 10}
    return [json.dumps(setup), *(json.dumps(item) for item in items)]


START = [{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]},
         {"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]},
         {"type": "start_roll", "player": "Cem", "dice": [1, 2, 2]}]


def roll(player: str, dice: list[int]) -> dict[str, object]:
    return {"type": "roll", "player": player, "dice": dice}


def table(items: list[dict[str, object]]) -> tuple[TableController, MemoryRecorder]:
    recorder = MemoryRecorder()
    seats = [Seat(name) for name in NAMES]
    return TableController(replay(lines(*START, *items)), recorder, seats), recorder


def test_a_slow_undo_chord_while_calling_undoes_and_leaves_the_call_alone(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations,
) -> None:
    """Ben, about to call, undoes Ana's misread roll with the outer buttons, the second
    0.4 s after the first. Before: Das Unvermeidliche, then Dreifaltigkeit called, and
    Ana's roll stayed."""
    c, recorder = table([roll("Ana", [1, 3, 5])])
    assert c.context(1) is Context.CALL
    for gesture in overlapping(mock_factory, clock, stations, 1, U, D, 0.4):
        c.on_gesture(gesture)
    assert [type(item) for item in recorder.items] == [Undo]
    assert c.call_draft is None
    assert c.match.ledger().to_act == "Ana"


def test_a_slow_help_chord_in_the_auction_shows_help_and_seals_no_bid(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations,
) -> None:
    """Before: + then OK, so Ben's bid of 1 was sealed by asking for the help."""
    call = {"type": "call", "player": "Ana", "call": "einhorn"}
    game = [call, roll("Ana", [2, 2, 3]), roll("Ben", [2, 2, 3]), roll("Cem", [2, 2, 3])]
    c, recorder = table([*game * 3, call, roll("Ana", [2, 2, 3])])
    assert c.awaiting is Awaiting.BID
    for gesture in overlapping(mock_factory, clock, stations, 1, W, E, 0.4):
        c.on_gesture(gesture)
    assert not any(isinstance(item, Bid) for item in recorder.items)
    assert c.help is not None and c.help.player == 1 and c.help.context is Context.BID


def test_quick_taps_while_calling_still_change_the_call(
    mock_factory: MockFactory, clock: FakeClock, stations: ButtonStations,
) -> None:
    c, recorder = table([roll("Ana", [1, 3, 5])])
    for gesture in one_after_the_other(mock_factory, clock, stations, 1, (U, D), 0.1, 0.05):
        c.on_gesture(gesture)
    assert recorder.items == [] and c.call_draft is Category.DREIFALTIGKEIT


# ------------------------------------------------- mock pins named on a Raspberry Pi


@pytest.fixture
def no_factory_yet(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero as at a program's start: no pin factory chosen yet."""
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        yield
    finally:
        chosen = Device.pin_factory
        Device.pin_factory = saved
        if chosen is not None and chosen is not saved:
            chosen.close()


def test_mock_pins_named_on_a_pi_are_refused_saying_what_to_do(
    no_factory_yet: None, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(gpio_buttons, "on_a_pi", lambda: True)
    with pytest.raises(ButtonSetupError) as refused:
        ButtonStations(PIN_MAP, clock, players=2)
    message = str(refused.value)
    assert message.startswith("GPIOZERO_PIN_FACTORY=mock is set, so the buttons would be "
                              "gpiozero's mock pins")
    assert "nobody at the table could press a button" in message
    assert "unset GPIOZERO_PIN_FACTORY" in message and "~/.bashrc" in message


def test_mock_pins_named_on_a_desktop_still_work(
    no_factory_yet: None, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
) -> None:
    """The tests and the desktop's own runs use mock pins on purpose."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(gpio_buttons, "on_a_pi", lambda: False)
    controls = ButtonStations(PIN_MAP, clock, players=2)
    try:
        assert controls.pressed_now() == []
    finally:
        controls.close()


def test_the_doctors_buttons_check_fails_on_mock_pins_on_a_pi(
    no_factory_yet: None, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
) -> None:
    """Before, the doctor said every button was set up, and its button test blamed the
    wiring of every button."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(gpio_buttons, "on_a_pi", lambda: True)
    result, controls = check_buttons(Machine(True, "Raspberry Pi 4 Model B Rev 1.5"),
                                     PIN_MAP, clock, players=2)
    assert controls is None
    assert result.status is Status.FAIL
    assert result.detail.startswith("GPIOZERO_PIN_FACTORY=mock is set")


# ------------------------------------------------- the doctor's button test on a keyboard


@pytest.fixture
def window(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import pygame

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    pygame.event.clear()
    try:
        yield
    finally:
        pygame.display.quit()


def test_the_doctors_keyboard_button_test_names_the_keys_and_survives_a_stray_row(
    window: None,
) -> None:
    """On a desktop the doctor asked for 'player 1 Einhorn (GPIO 27, header pin 13)',
    naming no key; and a key of a row the pin map lacks (player 5's 7) crashed it
    (StopIteration), where a family's map has four stations."""
    import pygame

    from einhorn_table.adapters.keyboard_controls import KeyboardControls
    from einhorn_table.doctor.button_checks import walk_buttons
    from einhorn_table.stations.pin_map import parse_pin_map

    two = parse_pin_map({"version": 1, "station": [
        {"player": 1, "unvermeidlich": 4, "wunsch": 17, "einhorn": 27, "dreifaltigkeit": 22},
        {"player": 2, "unvermeidlich": 5, "wunsch": 6, "einhorn": 13, "dreifaltigkeit": 19},
    ]})
    clock = FakeClock()
    keys = KeyboardControls(clock)
    prompts: list[str] = []

    def press(char: str) -> None:
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(
                kind, key=pygame.key.key_code(char),
                scancode=getattr(pygame, f"KSCAN_{char.upper()}")))
            clock.advance(0.1)

    def say(text: str) -> None:
        prompts.append(text)
        if text.startswith("Press"):
            key = text.split("(key ")[1].split(")")[0].lower()
            press("7" if key == "w" else key)  # player 2's Wunsch: a stray key instead

    outcome = walk_buttons(keys, two, clock, say, timeout=1.0)
    assert prompts[0] == "Press player 1 Das Unvermeidliche (key 1) ... "
    assert "GPIO" not in "".join(prompts)
    assert outcome.status is Status.FAIL and "7 of 8 buttons answered" in outcome.detail
    assert ("player 2 Wunsch (key W) answered as player 5 Das Unvermeidliche (key 7)"
            in outcome.detail)
    assert "keep the doctor's window in front" in outcome.todo.lower()
    assert "player 2: Q W E R" in outcome.todo and "wiring.svg" not in outcome.todo


def test_the_serial_console_names_the_station_that_wears_its_pins(tmp_path: Path) -> None:
    """A map of its own with GPIO 14/15 at station 2: the doctor said to leave out
    station 6, which this table does not even have."""
    from einhorn_table.doctor.button_checks import check_pin_map

    (tmp_path / "config.txt").write_text("enable_uart=1\n")
    (tmp_path / "cmdline.txt").write_text("console=serial0,115200 console=tty1\n")
    pins = tmp_path / "pins.toml"
    pins.write_text(
        "version = 1\n"
        "[[station]]\nplayer = 1\nunvermeidlich = 4\nwunsch = 17\neinhorn = 27\n"
        "dreifaltigkeit = 22\n"
        "[[station]]\nplayer = 2\nunvermeidlich = 14\nwunsch = 15\neinhorn = 23\n"
        "dreifaltigkeit = 24\n", encoding="utf-8")
    result, _ = check_pin_map(pins, boot_dir=tmp_path)
    assert result.status is Status.FAIL and "GPIO 14, 15 carry the serial console" in (
        result.detail)
    assert result.todo.endswith("or leave out station 2.")
