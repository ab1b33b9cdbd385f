"""The gesture decoder, driven by hand-made timestamps (a fake clock's worth of time)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from einhorn_table.ports import Button, Gesture, GestureKind, RawButtonEvent
from einhorn_table.stations.gestures import Debouncer, GestureDecoder, GestureTiming

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
TIMING = GestureTiming(bounce=0.03, long_press=0.7, chord_window=0.25)


def down(button: Button, t: float, player: int = 0) -> RawButtonEvent:
    return RawButtonEvent(player, button, True, t)


def up(button: Button, t: float, player: int = 0) -> RawButtonEvent:
    return RawButtonEvent(player, button, False, t)


def run(events: list[RawButtonEvent], until: float | None = None) -> list[Gesture]:
    decoder = GestureDecoder(TIMING)
    gestures: list[Gesture] = []
    for event in events:
        gestures += decoder.feed(event)
    if until is not None:
        gestures += decoder.tick(until)
    return gestures


def kinds(gestures: list[Gesture]) -> list[tuple[int, GestureKind, tuple[Button, ...]]]:
    return [(g.player, g.kind, g.buttons) for g in gestures]


def test_a_short_press_is_one_tap_reported_at_release() -> None:
    gestures = run([down(W, 1.0), up(W, 1.15)], until=5.0)
    assert kinds(gestures) == [(0, GestureKind.TAP, (W,))]
    assert gestures[0].time == pytest.approx(1.15)


def test_chatter_on_press_and_release_still_makes_one_tap() -> None:
    chatter = [down(E, 1.0), up(E, 1.004), down(E, 1.009), up(E, 1.013), down(E, 1.02)]
    release = [up(E, 1.3), down(E, 1.305), up(E, 1.31), down(E, 1.317), up(E, 1.322)]
    gestures = run(chatter + release, until=3.0)
    assert kinds(gestures) == [(0, GestureKind.TAP, (E,))]


def test_chatter_that_ends_released_inside_the_lockout_is_a_release_at_its_end() -> None:
    decoder = GestureDecoder(TIMING)
    # Pressed, then the contact opens again for good inside the bounce time.
    assert decoder.feed(down(U, 2.0)) == []
    assert decoder.feed(up(U, 2.01)) == []
    gestures = decoder.tick(2.1)
    assert kinds(gestures) == [(0, GestureKind.TAP, (U,))]
    assert gestures[0].time == pytest.approx(2.03)


def test_a_held_button_is_one_long_press_reported_while_still_held() -> None:
    decoder = GestureDecoder(TIMING)
    assert decoder.feed(down(D, 10.0)) == []
    assert decoder.tick(10.69) == []
    gestures = decoder.tick(10.71)
    assert kinds(gestures) == [(0, GestureKind.LONG, (D,))]
    assert gestures[0].time == pytest.approx(10.7)
    # Held on and on: nothing more, and the release is swallowed.
    assert decoder.tick(30.0) == []
    assert decoder.feed(up(D, 31.0)) == []
    assert decoder.held(0) == ()


def test_a_long_press_is_still_reported_if_no_tick_came_before_the_release() -> None:
    assert kinds(run([down(W, 0.0), up(W, 1.5)])) == [(0, GestureKind.LONG, (W,))]


def test_two_buttons_pressed_together_are_one_chord_in_station_order() -> None:
    events = [down(D, 5.0), down(U, 5.1), up(U, 5.4), up(D, 5.5)]
    gestures = run(events, until=9.0)
    assert kinds(gestures) == [(0, GestureKind.CHORD, (U, D))]
    assert gestures[0].time == pytest.approx(5.1)


def test_a_chord_held_long_makes_no_long_press_and_a_third_button_is_ignored() -> None:
    events = [down(W, 1.0), down(E, 1.05), down(U, 1.2), up(U, 1.3)]
    gestures = run(events, until=4.0)
    assert kinds(gestures) == [(0, GestureKind.CHORD, (W, E))]


def test_a_second_press_after_the_chord_window_is_its_own_gesture() -> None:
    events = [down(U, 1.0), down(W, 1.4), up(W, 1.5)]
    gestures = run(events, until=3.0)
    assert kinds(gestures) == [(0, GestureKind.TAP, (W,)), (0, GestureKind.LONG, (U,))]


def test_a_tap_released_before_the_next_press_is_not_a_chord() -> None:
    gestures = run([down(U, 1.0), up(U, 1.05), down(D, 1.1), up(D, 1.2)], until=2.0)
    assert kinds(gestures) == [(0, GestureKind.TAP, (U,)), (0, GestureKind.TAP, (D,))]


def test_stations_are_independent_even_while_one_button_is_held() -> None:
    events = [down(E, 0.0, player=2), down(E, 0.1, player=4), up(E, 0.2, player=4)]
    gestures = run(events, until=1.0)
    assert kinds(gestures) == [(4, GestureKind.TAP, (E,)), (2, GestureKind.LONG, (E,))]


def test_a_release_never_seen_pressed_is_ignored() -> None:
    # A button held down while the companion started: only its release arrives.
    assert run([up(W, 3.0)], until=4.0) == []


def test_debouncer_keeps_the_level_seen_last_when_its_lockout_ends() -> None:
    debouncer = Debouncer(0.05)
    accepted = debouncer.feed(down(U, 0.0))
    accepted += debouncer.feed(up(U, 0.01))
    accepted += debouncer.feed(down(U, 0.02))
    accepted += debouncer.flush(1.0)
    assert [(e.pressed, e.time) for e in accepted] == [(True, 0.0)]
    assert debouncer.is_pressed(0, U)


def test_timing_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="bounce < chord_window < long_press"):
        GestureTiming(bounce=0.1, long_press=0.5, chord_window=0.6)


# --------------------------------------------------------------- property: chatter

presses = st.lists(
    st.tuples(
        st.sampled_from(list(Button)),
        st.floats(min_value=0.1, max_value=2.0),  # quiet time before the press
        st.floats(min_value=0.05, max_value=1.5),  # how long it is held
        # Contact bounce: up to six flips, all over within 25 ms (the bounce time is 30 ms).
        st.lists(st.floats(min_value=0.0005, max_value=0.004), max_size=6),  # on press
        st.lists(st.floats(min_value=0.0005, max_value=0.004), max_size=6),  # on release
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(presses=presses)
def test_chatter_never_changes_what_clean_presses_mean(
    presses: list[tuple[Button, float, float, list[float], list[float]]],
) -> None:
    """One button at a time, pressed and released with contact bounce shorter than the
    bounce time: the gestures are exactly those of the same presses without bounce."""
    clean: list[RawButtonEvent] = []
    noisy: list[RawButtonEvent] = []
    t = 0.0
    for button, quiet, held, press_bounce, release_bounce in presses:
        t += quiet
        for edges, level in ((press_bounce, True), (release_bounce, False)):
            clean.append(RawButtonEvent(0, button, level, t))
            noisy.append(RawButtonEvent(0, button, level, t))
            flip_time, state = t, level
            for gap in edges:  # flips inside the bounce time, ending on the true level
                flip_time += gap
                state = not state
                noisy.append(RawButtonEvent(0, button, state, flip_time))
            if state != level:
                noisy.append(RawButtonEvent(0, button, level, flip_time + 0.0005))
            t += held if level else 0.0
    expected = run(clean, until=t + 5.0)
    got = run(noisy, until=t + 5.0)
    assert [(g.kind, g.buttons) for g in got] == [(g.kind, g.buttons) for g in expected]
    for mine, theirs in zip(got, expected, strict=True):
        assert abs(mine.time - theirs.time) <= TIMING.bounce + 1e-9
    assert len(expected) == len(presses)
