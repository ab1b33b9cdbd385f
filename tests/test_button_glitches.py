"""A glitch on a long station cable (a spike of a millisecond or so from a motor, a lamp
switching, static from a child's jumper) is no tap and no chord on any pin factory;
what a finger does (a quick tap, a double tap, a hold, the undo chord) still counts.

gpiozero's native and RPi.GPIO pin factories do not filter glitches (lgpio's and
pigpio's steady-level debounce does): mock pins without a bounce time stand for them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.gpio_buttons import ButtonStations
from einhorn_table.ports import Button, Gesture, GestureKind, RawButtonEvent
from einhorn_table.stations.gestures import SHORTEST_PRESS, GestureDecoder, GestureTiming
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
PIN_MAP = load_pin_map(default_pin_map_path())
FRAME = 1 / 30
START = 100.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def stations(mock_factory: MockFactory, clock: FakeClock) -> Iterator[ButtonStations]:
    controls = ButtonStations(PIN_MAP, clock, pin_factory=mock_factory, players=2)
    try:
        yield controls
    finally:
        controls.close()


def play(stations: ButtonStations, factory: MockFactory, clock: FakeClock,
         edges: list[tuple[float, Button, bool]], until: float = 2.0,
         player: int = 0) -> list[Gesture]:
    """Drive ``player``'s pins at the edges' times (seconds after START; True: pressed)
    while the table polls every frame; the gestures polled up to ``until``."""
    pins = PIN_MAP.stations[player].pins
    todo = sorted(edges, key=lambda e: e[0])
    gestures: list[Gesture] = []
    frame = START
    while frame < START + until:
        frame += FRAME
        while todo and START + todo[0][0] <= frame:
            when, button, pressed = todo.pop(0)
            clock.set(max(clock.now, START + when))
            pin = factory.pin(pins[button])
            if pressed:
                pin.drive_low()
            else:
                pin.drive_high()
        clock.set(max(clock.now, frame))
        gestures += stations.poll()
    return gestures


def kinds(gestures: list[Gesture]) -> list[tuple[GestureKind, tuple[Button, ...]]]:
    return [(g.kind, g.buttons) for g in gestures]


def test_the_native_and_rpigpio_pin_factories_are_not_asked_to_debounce(
    stations: ButtonStations, mock_factory: MockFactory,
) -> None:
    """(The mock pins stand for them here: gpiozero filters nothing.)"""
    assert mock_factory.pin(PIN_MAP.stations[0].pin(E)).bounce is None


def test_a_one_millisecond_glitch_on_a_button_is_no_tap(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock,
) -> None:
    """A lamp switched on next to the station's cable: OK reads pressed for 1 ms.
    In the auction that would have been "done" with whatever bid was counted."""
    edges = [(0.5, E, True), (0.501, E, False)]
    assert play(stations, mock_factory, clock, edges) == []
    assert stations.held(0) == ()


def test_a_burst_of_spikes_from_a_motor_is_no_tap(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock,
) -> None:
    """Several spikes within a few milliseconds, none as long as a finger's press."""
    edges = [(0.5 + 0.003 * k, W, k % 2 == 0) for k in range(8)]  # 4 spikes in 24 ms
    assert play(stations, mock_factory, clock, edges) == []


def test_a_glitch_on_every_wire_of_a_station_is_no_chord(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock,
) -> None:
    """Static from a child's jumper on the cable reaches all four signal wires at once:
    before, the first two made a chord at once (the outer two: undo the last input)."""
    edges = [(0.5 + 0.0001 * k, b, True) for k, b in enumerate((U, D, W, E))]
    edges += [(0.501 + 0.0001 * k, b, False) for k, b in enumerate((U, D, W, E))]
    assert play(stations, mock_factory, clock, edges) == []


def test_quick_taps_a_double_tap_a_hold_and_the_undo_chord_still_count(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock,
) -> None:
    edges = [(0.2, W, True), (0.24, W, False)]  # the quickest finger: 40 ms
    edges += [(0.6, W, True), (0.64, W, False), (0.68, W, True), (0.72, W, False)]  # double
    edges += [(1.0, E, True), (1.9, E, False)]  # a hold
    edges += [(2.5, U, True), (2.65, D, True), (2.85, U, False), (2.87, D, False)]  # undo
    gestures = play(stations, mock_factory, clock, edges, until=4.0)
    assert kinds(gestures) == [(GestureKind.TAP, (W,)), (GestureKind.TAP, (W,)),
                               (GestureKind.TAP, (W,)), (GestureKind.LONG, (E,)),
                               (GestureKind.CHORD, (U, D))]
    assert gestures[0].pressed == pytest.approx(START + 0.2)  # (a call before dice moved)
    assert gestures[3].time == pytest.approx(START + 1.7)  # (told while still held)
    assert gestures[4].time == pytest.approx(START + 2.65)


def test_a_real_press_counts_from_when_it_went_down_despite_contact_bounce() -> None:
    """The decoder as the GPIO stations use it: a press with a few milliseconds of
    contact bounce is one tap, pressed when it first went down."""
    decoder = GestureDecoder(GestureTiming(shortest_press=SHORTEST_PRESS))
    bounce = [RawButtonEvent(0, E, k % 2 == 0, 1.0 + 0.001 * k) for k in range(5)]
    gestures: list[Gesture] = []
    for event in [*bounce, RawButtonEvent(0, E, False, 1.08)]:
        gestures += decoder.feed(event)
    gestures += decoder.tick(2.0)
    assert kinds(gestures) == [(GestureKind.TAP, (E,))]
    assert gestures[0].pressed == pytest.approx(1.0)  # (when it first went down)


def test_the_decoder_drops_a_press_let_go_sooner_than_the_shortest() -> None:
    timing = GestureTiming(shortest_press=SHORTEST_PRESS)
    for held, expected in ((0.001, []), (SHORTEST_PRESS * 0.9, []),
                           (SHORTEST_PRESS * 1.1, [(GestureKind.TAP, (W,))])):
        decoder = GestureDecoder(timing)
        gestures = decoder.feed(RawButtonEvent(0, W, True, 1.0))
        gestures += decoder.feed(RawButtonEvent(0, W, False, 1.0 + held))
        gestures += decoder.tick(3.0)
        assert kinds(gestures) == expected, held
    with pytest.raises(ValueError, match="shortest_press < chord_window"):
        GestureTiming(shortest_press=0.6)


def test_keys_react_at_once_as_before() -> None:
    """The keyboard's timing (0: no glitches on keys) takes a press at once."""
    decoder = GestureDecoder(GestureTiming())
    assert decoder.feed(RawButtonEvent(0, U, True, 1.0)) == []
    assert decoder.held(0) == (U,)
    assert kinds(decoder.feed(RawButtonEvent(0, D, True, 1.1))) == [
        (GestureKind.CHORD, (U, D))]


presses = st.lists(
    st.tuples(
        st.sampled_from(list(Button)),
        st.floats(min_value=0.1, max_value=2.0),  # quiet time before the press
        # how long a finger holds it (not within twice the bounce time of a long press:
        # a spike just before a press is its bounce for all the decoder can tell)
        st.floats(min_value=0.04, max_value=1.5).filter(
            lambda held: abs(held - GestureTiming().long_press) > 2 * GestureTiming().bounce),
        st.lists(st.floats(min_value=0.0005, max_value=0.003), max_size=6),  # bounce
        st.sampled_from(list(Button)),  # a glitch's button, in the quiet time before
        st.floats(min_value=0.0002, max_value=0.003),  # and how long it lasts
        # a motor's spikes on the pressed button's wire before the press: how many,
        # how far apart, and how long before the press the last one is
        st.tuples(st.integers(min_value=0, max_value=80),
                  st.floats(min_value=0.004, max_value=0.025),
                  st.floats(min_value=0.002, max_value=0.025)),
    ),
    min_size=1,
    max_size=10,
)


@settings(max_examples=150, deadline=None)
@given(presses=presses)
def test_glitches_and_bounce_never_change_what_a_fingers_presses_mean(
    presses: list[tuple[Button, float, float, list[float], Button, float,
                        tuple[int, float, float]]],
) -> None:
    """Presses of 40 ms and more with contact bounce, and a glitch of up to 3 ms in the
    quiet before each, and a train of such spikes on its wire up to the press: the
    gestures are those of the clean presses alone, each pressed when it was (give or
    take the bounce time)."""
    timing = GestureTiming(shortest_press=SHORTEST_PRESS)
    clean: list[RawButtonEvent] = []
    noisy: list[RawButtonEvent] = []
    t = 0.0
    for button, quiet, held, bounce, glitched, glitch, (spikes, period, lead) in presses:
        spike = t + quiet / 2
        noisy += [RawButtonEvent(0, glitched, True, spike),
                  RawButtonEvent(0, glitched, False, spike + glitch)]
        released, t = t, t + quiet
        for k in range(spikes):
            spike = t - lead - glitch - k * period
            if spike <= released:
                break
            noisy += [RawButtonEvent(0, button, True, spike),
                      RawButtonEvent(0, button, False, spike + glitch)]
        clean.append(RawButtonEvent(0, button, True, t))
        noisy.append(RawButtonEvent(0, button, True, t))
        flip, level = t, True
        for gap in bounce:  # on the press, over within 18 ms, ending pressed
            flip += gap
            level = not level
            noisy.append(RawButtonEvent(0, button, level, flip))
        if not level:
            noisy.append(RawButtonEvent(0, button, True, flip + 0.0005))
        t += held
        clean.append(RawButtonEvent(0, button, False, t))
        noisy.append(RawButtonEvent(0, button, False, t))

    def decoded(events: list[RawButtonEvent]) -> list[Gesture]:
        decoder = GestureDecoder(timing)
        gestures: list[Gesture] = []
        for event in sorted(events, key=lambda e: e.time):
            gestures += decoder.feed(event)
        return gestures + decoder.tick(t + 5.0)

    expected, got = decoded(clean), decoded(noisy)
    assert kinds(got) == kinds(expected)
    for mine, theirs in zip(got, expected, strict=True):
        assert abs(mine.time - theirs.time) <= timing.bounce + 1e-9
        if theirs.pressed is not None:
            assert mine.pressed is not None
            assert abs(mine.pressed - theirs.pressed) <= timing.bounce + 1e-9
    assert len(expected) == len(presses)


def test_a_tap_amid_a_motors_spikes_is_a_tap_not_a_long_press(
    stations: ButtonStations, mock_factory: MockFactory, clock: FakeClock,
) -> None:
    """A vacuum cleaner runs beside the cable: + reads pressed 1 ms in every 10 ms for a
    second and a half, and a finger taps it (60 ms) meanwhile. Before, the press counted
    from the first spike: a long press at once ("five stones more"), not one stone."""
    edges = [(0.3 + 0.01 * k + lag, W, lag == 0) for k in range(150) for lag in (0, 0.001)]
    edges += [(1.805, W, True), (1.865, W, False)]
    gestures = play(stations, mock_factory, clock, edges, until=3.0)
    assert kinds(gestures) == [(GestureKind.TAP, (W,))]
    assert gestures[0].pressed is not None
    assert START + 1.805 - GestureTiming().bounce <= gestures[0].pressed <= START + 1.805
