"""Whom the table is still waiting for: a station that does nothing reads as buttons let
go (an unplugged one too), the same as a player thinking, and so does one button whose
switch or wire is broken. Where the table has waited a while for a bid, a top-up or the
unicorn owner's choice, the screen says whose it waits for, and what to check: from a
player who has pressed nothing since it was asked, the station's plug; from one whose
other buttons work, the button that hands it in (Einhorn, OK: the only way on)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting, MatchState
from einhorn_table.stations.gesture_table import Context, button_words
from einhorn_table.words import joined

#: What the players the table still waits for should check where their buttons do
#: nothing, given the names and those players ("check your station's plug").
ControlsCheck = Callable[[Sequence[str], Sequence[int]], str]
#: What the players the table still waits for, whose other buttons work, should check:
#: the button that hands in what is asked (``awaiting``), given the names and those
#: players ("Ben: Einhorn (OK) hands in your bid; if it does nothing, check its wires").
ButtonCheck = Callable[[Sequence[str], Sequence[int], Awaiting], str]

#: The button that hands in what the table waits for (a bid, a top-up, the owner's
#: choice): with it broken, nothing else moves the table on.
HANDS_IN = Button.EINHORN
#: What :data:`HANDS_IN` does for each input the table waits for (as the help says it).
HANDS_IN_WORDS = {Awaiting.BID: ("hands in your bid", "hands in your bids"),
                  Awaiting.TOPUP: ("ends your top-up", "ends your top-ups"),
                  Awaiting.COUNTERPARTY: ("settles with the one shown",
                                          "settles with the one shown")}

#: How long the table waits for a bid, a top-up or the unicorn owner's choice from a
#: player who has pressed nothing since it was asked before the screen says whose it
#: waits for, and what to check: an unplugged station reads as buttons let go, the same
#: as a player thinking (a family's bid takes a few seconds, rarely half a minute).
STILL_WAITING_SECONDS = 30.0
#: What the table waits for from each player, in words ("Ben's bid").
ASKED_WORDS = {Awaiting.BID: ("bid", "bids"), Awaiting.TOPUP: ("top-up", "top-ups"),
               Awaiting.COUNTERPARTY: ("choice of who pays or is paid",
                                       "choices of who pays or is paid")}


def asked_now(state: MatchState) -> tuple[list[int], Context] | None:
    """The players whose bid, top-up or choice of who pays the match asks for now, and
    what their buttons do (BID, TOPUP, COUNTERPARTY); None: it asks for none of these
    (a roll: the dice show the players thinking)."""
    awaiting = state.awaiting
    if awaiting not in ASKED_WORDS:
        return None
    if awaiting is Awaiting.COUNTERPARTY:
        return ([] if state.to_act is None else [state.to_act]), Context.COUNTERPARTY
    return list(state.owing()), Context.BID if awaiting is Awaiting.BID else Context.TOPUP


@dataclass
class PressLog:
    """When each player pressed anything (a gesture of their station)."""

    _times: dict[int, list[float]] = field(default_factory=dict)

    def note(self, player: int, time: float) -> None:
        bisect.insort(self._times.setdefault(player, []), time)

    def first_since(self, player: int, since: float) -> float | None:
        """The time of ``player``'s first press at ``since`` or later (None: none)."""
        times = self._times.get(player, [])
        at = bisect.bisect_left(times, since)
        return times[at] if at < len(times) else None

    def first_after(self, player: int, after: float) -> float | None:
        """The time of ``player``'s first press later than ``after`` (None: none)."""
        times = self._times.get(player, [])
        at = bisect.bisect_right(times, after)
        return times[at] if at < len(times) else None


@dataclass(frozen=True)
class Waited:
    """The players the table has waited for a while: those who pressed nothing since it
    was asked (``silent``: their station's plug), and those who pressed other buttons
    but never handed it in (``not_handed_in``: the button that hands it in)."""

    silent: tuple[int, ...] = ()
    not_handed_in: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.silent or self.not_handed_in)

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(sorted(self.silent + self.not_handed_in))


def waited_too_long(asked: Sequence[int], since: float, presses: PressLog,
                    now: float, pressed_from: float | None = None) -> Waited:
    """Those of the ``asked`` players the table has waited for a while at ``now``
    (``STILL_WAITING_SECONDS``): counted from ``since`` (when it was asked) for those
    who have pressed nothing since, nor after ``pressed_from`` (when this kind of input
    was first asked, by a press not counted: an auction's start, where another player's
    bid handed in asks the rest again at ``since``), from their first press since then
    (``since`` at the earliest) for the others (their presses of the other buttons do
    not start it again: a broken OK would never be told to a player who keeps trying
    +)."""
    silent: list[int] = []
    not_handed_in: list[int] = []
    for player in asked:
        first = presses.first_after(player, pressed_from) \
            if pressed_from is not None and pressed_from < since \
            else presses.first_since(player, since)
        if now - (since if first is None else max(first, since)) >= STILL_WAITING_SECONDS:
            (silent if first is None else not_handed_in).append(player)
    return Waited(tuple(silent), tuple(not_handed_in))


def still_waiting_words(awaiting: Awaiting, names: Sequence[str], waited: Waited,
                        check: ControlsCheck, button_check: ButtonCheck) -> str:
    """Whose input (``awaiting``) the table has waited for a while (``waited``), and what
    they check: their station (``check``) where they pressed nothing, the button that
    hands it in (``button_check``) where they pressed others; "" while nobody's."""
    if not waited:
        return ""
    players = waited.players
    one, more = ASKED_WORDS[awaiting]
    whose = joined([f"{names[p]}'s" for p in players])
    words = [f"Still waiting for {whose} {one if len(players) == 1 else more}."]
    if waited.silent:
        words.append(check(names, waited.silent))
    if waited.not_handed_in:
        words.append(button_check(names, waited.not_handed_in, awaiting))
    return " ".join(words)


def station_check(names: Sequence[str], players: Sequence[int]) -> str:
    """What the players whose input the table still waits for should check where their
    buttons do nothing: their station's plug (an unplugged station reads as released)."""
    if len(players) == 1:
        return (f"{names[players[0]]}: if your buttons do nothing, check your station's "
                "plug and cable.")
    return "If your buttons do nothing, check your station's plug and cable."


def hands_in_check(names: Sequence[str], players: Sequence[int], awaiting: Awaiting) -> str:
    """What the players the table still waits for, whose other buttons work, should
    check: the button that hands it in, by the name on the station (its switch or one
    of its wires may be broken, which reads as not pressed)."""
    one, more = HANDS_IN_WORDS[awaiting]
    who = joined([names[p] for p in players])
    return (f"{who}: {button_words(HANDS_IN)} {one if len(players) == 1 else more}; if "
            "it does nothing, check that button's wires.")
