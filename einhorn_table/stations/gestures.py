"""From raw button edges to gestures: debouncing, then taps, long presses and chords.

Pure and driven by the events' timestamps: feed it :class:`RawButtonEvent`s
(from GPIO callbacks or key events) and call :meth:`GestureDecoder.tick` now
and then (every frame is plenty), and it returns :class:`Gesture`s.

* **Debouncing** (per button): the first edge counts at once; further edges in
  the next ``bounce`` seconds are chatter and only remembered; when that time is
  up the button takes the level it was last seen at. Chatter never makes two
  presses of one.
* **Glitches**: where ``shortest_press`` is more than 0 (real buttons: the GPIO
  stations use :data:`SHORTEST_PRESS`), a press counts once the button has stayed
  down that long, with the time it went down; one let go sooner (a spike on a long
  cable from a motor, a lamp switching, static) is nothing at all: no tap, and no
  part of a chord. With 0 (keys) a press reacts without delay.
* **Tap**: a button pressed and released within ``long_press`` seconds; told at
  its release, with when it was pressed (``Gesture.pressed``).
* **Long press**: a button held ``long_press`` seconds; it is reported once, at
  that moment (while still held), and its release is then ignored, however long
  the button stays down.
* **Chord**: a second button of the same station pressed within
  ``chord_window`` seconds of the first while the first is still down (0.6 s: a
  child's two fingers, or two hands, seldom land together; a tap let go before the
  next press is never part of a chord, however quick the two are). Reported
  at once; both releases are ignored, and so are other presses of that station
  until the chord's buttons are up, or ``long_press`` seconds have passed since
  the chord (a chord's button stuck down, or leant on, then no longer stops its
  station; its release is still ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from einhorn_table.ports import Button, Gesture, GestureKind, RawButtonEvent

#: Seconds a real button must stay down for a press: a finger's quickest tap holds a
#: button 40 ms and more (a child's jab 20 ms at the very least), a glitch on a long
#: station cable (a motor, a lamp switching, static from a child's jumper) a millisecond
#: or so. The room left below the quickest tap is for a press told a little late (the
#: pin library's thread waiting its turn) and its release told on time.
SHORTEST_PRESS = 0.015


@dataclass(frozen=True)
class GestureTiming:
    """Seconds: chatter lock-out, the long-press threshold and the chord window, and
    how long a press must last to count (0: at once, as keys do)."""

    bounce: float = 0.03
    long_press: float = 0.7
    #: Up to just before the first button would count as held: a slow chord (a child's)
    #: is still a chord, not two taps of the buttons' other meanings (the help chord in
    #: the auction was + and then OK, sealing a bid; the undo chord while calling
    #: changed the call).
    chord_window: float = 0.6
    #: A press let go sooner than this is no press (see :data:`SHORTEST_PRESS`).
    shortest_press: float = 0.0

    def __post_init__(self) -> None:
        if not 0 <= self.bounce < self.chord_window < self.long_press:
            raise ValueError(
                "gesture timing must satisfy 0 <= bounce < chord_window < long_press, "
                f"not {self.bounce}, {self.chord_window}, {self.long_press}"
            )
        if not 0 <= self.shortest_press < self.chord_window:
            raise ValueError(
                "gesture timing must satisfy 0 <= shortest_press < chord_window, "
                f"not {self.shortest_press}, {self.chord_window}"
            )


Key = tuple[int, Button]


@dataclass
class _Line:
    level: bool = False  # the debounced state: True is pressed
    raw: bool = False  # the last level seen, chatter included
    raw_since: float = float("-inf")  # when it was last seen to change
    #: When the press seen now began: its first edge, the contact's bounce after it
    #: (let go for less than the bounce time, all within the bounce time) included.
    down_since: float = float("-inf")
    locked_until: float = float("-inf")


class Debouncer:
    """Per-button lock-out debouncing of raw edges, and presses shorter than
    ``shortest_press`` dropped (see the module's description)."""

    def __init__(self, bounce: float, shortest_press: float = 0.0) -> None:
        self.bounce = bounce
        self.shortest_press = shortest_press
        self._lines: dict[Key, _Line] = {}

    def feed(self, event: RawButtonEvent) -> list[RawButtonEvent]:
        """The accepted edges after ``event`` (lock-outs that ended before it come first)."""
        accepted = self.flush(event.time)
        key = (event.player, event.button)
        line = self._lines.setdefault(key, _Line())
        if event.pressed != line.raw:
            if event.pressed and (event.time - line.raw_since > self.bounce
                                  or event.time - line.down_since > self.bounce):
                # (Not the bounce of a press begun: let go longer than a bounce, or
                # edges for longer than one, a motor's spikes, lasts: noise before it.)
                line.down_since = event.time
            line.raw = event.pressed
            line.raw_since = event.time
        accepted += self._settle(key, line, event.time)
        return accepted

    def flush(self, now: float) -> list[RawButtonEvent]:
        """Edges that become true at the end of lock-outs (and of presses long enough to
        count) up to ``now``, oldest first."""
        accepted: list[RawButtonEvent] = []
        for key, line in self._lines.items():
            accepted += self._settle(key, line, now)
        accepted.sort(key=lambda e: e.time)
        return accepted

    def _settle(self, key: Key, line: _Line, now: float) -> list[RawButtonEvent]:
        """The edge of ``line`` that is due by ``now``: a release at once (or at the end
        of the lock-out), a press once it has lasted ``shortest_press`` since its last
        bounce (or at the end of the lock-out, if later); told at the time it happened,
        a press when it first went down (or when the lock-out ended)."""
        if line.raw == line.level:
            return []
        due = line.locked_until
        if line.raw:
            due = max(due, line.raw_since + self.shortest_press)
        if due > now:
            return []
        when = max(line.down_since if line.raw else line.raw_since, line.locked_until)
        line.level = line.raw
        line.locked_until = when + self.bounce
        return [RawButtonEvent(key[0], key[1], line.level, when)]

    def is_pressed(self, player: int, button: Button) -> bool:
        line = self._lines.get((player, button))
        return line is not None and line.level


@dataclass
class _Station:
    down: dict[Button, float] = field(default_factory=dict)  # press times of held buttons
    spent: set[Button] = field(default_factory=set)  # held buttons whose release is ignored
    #: The buttons of the chord still down: while any is (for long_press after the chord
    #: at most), the station's presses are ignored (a button held down before the chord,
    #: stuck or leant on, does not keep it going).
    chord: set[Button] = field(default_factory=set)
    #: When the chord was pressed: its buttons stop holding the station long_press later.
    chord_time: float = float("-inf")


class GestureDecoder:
    """Turns raw button events of all stations into gestures."""

    def __init__(self, timing: GestureTiming | None = None) -> None:
        self.timing = timing or GestureTiming()
        self._debouncer = Debouncer(self.timing.bounce, self.timing.shortest_press)
        self._stations: dict[int, _Station] = {}

    def feed(self, event: RawButtonEvent) -> list[Gesture]:
        """Take one raw event; returns the gestures it (and time up to it) completed."""
        gestures = self.tick(event.time)
        for edge in self._debouncer.feed(event):
            gestures += self._timers(edge.time)
            gestures += self._edge(edge)
        return gestures

    def tick(self, now: float) -> list[Gesture]:
        """Let time pass up to ``now``: ends lock-outs and reports long presses."""
        gestures: list[Gesture] = []
        for edge in self._debouncer.flush(now):
            gestures += self._timers(edge.time)
            gestures += self._edge(edge)
        gestures += self._timers(now)
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        """The buttons of a station that are down now (for a screen's feedback)."""
        station = self._stations.get(player)
        return tuple(sorted(station.down, key=lambda b: b.position)) if station else ()

    # ------------------------------------------------------------------------
    def _edge(self, edge: RawButtonEvent) -> list[Gesture]:
        station = self._stations.setdefault(edge.player, _Station())
        if edge.pressed:
            return self._press(station, edge)
        return self._release(station, edge)

    def _press(self, station: _Station, edge: RawButtonEvent) -> list[Gesture]:
        if station.chord:
            station.down[edge.button] = edge.time
            station.spent.add(edge.button)
            return []
        partners = [
            b
            for b, since in station.down.items()
            if b not in station.spent and edge.time - since <= self.timing.chord_window
        ]
        station.down[edge.button] = edge.time
        if not partners:
            return []
        partner = min(partners, key=lambda b: station.down[b])
        buttons = tuple(sorted((partner, edge.button), key=lambda b: b.position))
        station.spent.update(buttons)
        station.chord = set(buttons)
        station.chord_time = edge.time
        return [Gesture(edge.player, GestureKind.CHORD, buttons, edge.time)]

    def _release(self, station: _Station, edge: RawButtonEvent) -> list[Gesture]:
        since = station.down.pop(edge.button, None)
        spent = edge.button in station.spent
        station.spent.discard(edge.button)
        station.chord.discard(edge.button)
        if since is None or spent:
            return []  # a release we never saw pressed (held at start-up), or already used
        kind = GestureKind.TAP
        if edge.time - since >= self.timing.long_press:
            kind = GestureKind.LONG  # the tick that would have reported it never came
        pressed = since if kind is GestureKind.TAP else None
        return [Gesture(edge.player, kind, (edge.button,), edge.time, pressed)]

    def _timers(self, now: float) -> list[Gesture]:
        gestures: list[Gesture] = []
        for player, station in self._stations.items():
            if station.chord and now - station.chord_time >= self.timing.long_press:
                station.chord.clear()  # (held this long, a chord's button is stuck)
            for button, since in station.down.items():
                due = since + self.timing.long_press
                if button not in station.spent and due <= now:
                    station.spent.add(button)
                    gestures.append(Gesture(player, GestureKind.LONG, (button,), due))
        gestures.sort(key=lambda g: g.time)
        return gestures
