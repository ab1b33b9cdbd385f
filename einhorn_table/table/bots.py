"""Bots at the table: seats played by strategies, through the same buttons and tray as people.

A bot looks at the controller, decides with its strategy (``simulation.strategies``)
what the match wants from it, and answers with *moves*: a button press on its
station (tap, long press, chord) or a throw of dice into the tray. Whoever runs
the loop performs them: the demo feeds the gestures in directly and throws dice
on the synthetic camera; the end-to-end test presses mock GPIO pins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from einhorn_table.ports import Button
from einhorn_table.rules import (
    ALL_ROLLS,
    AuctionResult,
    Awaiting,
    Category,
    TiebreakRoll,
    TurnResult,
)
from einhorn_table.simulation.strategies import Strategy
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.controller import ROLL_INPUTS, TableController

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


@dataclass(frozen=True)
class Press:
    """Press ``buttons`` of ``player``'s station: one for a tap (or, ``long``, a hold), two
    for a chord."""

    player: int
    buttons: tuple[Button, ...]
    long: bool = False


@dataclass(frozen=True)
class Throw:
    """``player`` throws three dice into the tray showing ``dice``."""

    player: int
    dice: tuple[int, int, int]


Move = Press | Throw


@dataclass
class BotDriver:
    """Plays the ``seats`` with their ``strategies`` (one per seat of the match)."""

    seats: frozenset[int]
    strategies: Sequence[Strategy]
    chance: random.Random
    #: Seconds between two moves of one bot (0 in fast headless runs).
    pace: float = 0.0
    #: Seconds the bots look at a game's end before they bid (0 in fast headless runs).
    linger: float = 0.0
    #: Seconds the bots look at who took the unicorn (the bids revealed, or the tie-break
    #: roll) before they top up: a top-up sealed takes that screen away, and the bots'
    #: took it in the first frame, before anyone at the table had seen it.
    reveal: float = 0.0
    #: Seconds the bots look at the last roll's result before the next bot calls and
    #: throws: its throw takes that screen away, and the bots' came while people were
    #: still reading the last one (0 in fast headless runs).
    result: float = 0.0

    def __post_init__(self) -> None:
        self._plans: dict[tuple[int, int, str], object] = {}
        self._thrown: dict[int, tuple[int, int, int]] = {}
        self._last_move: dict[int, float] = {}
        self._waiting_roll: dict[int, tuple[int, int]] = {}

    def moves(self, c: TableController, now: float, tray_idle: bool = True) -> list[Move]:
        """The bots' next moves (at most one per bot)."""
        out: list[Move] = []
        # (Not while a player reads the help: the screen would move on under it. Once
        # it has left the screen, the bots go on.)
        if c.halted is not None or (c.help is not None and c.help.shown(now)):
            return out
        for seat in sorted(self.seats):
            if now - self._last_move.get(seat, -1e9) < self.pace:
                continue
            move = self._move(c, seat, tray_idle, now)
            if move is not None:
                self._last_move[seat] = now
                out.append(move)
                if isinstance(move, Throw):
                    break  # one pair of hands in the tray at a time
        return out

    def _unicorn_shown(self, c: TableController, now: float) -> bool:
        """Whether the screen still shows who took the unicorn, for ``reveal`` seconds."""
        last = c.last
        return last is not None and now - last.time < self.reveal and (
            isinstance(last.outcome, AuctionResult) or isinstance(last.item, TiebreakRoll))

    def _roll_shown(self, c: TableController, now: float) -> bool:
        """Whether the screen still shows the last roll's result (settled with whom the
        unicorn owner chose, where it was theirs), for ``result`` seconds."""
        last = c.last
        return last is not None and now - last.time < self.result and (
            isinstance(last.item, ROLL_INPUTS) or isinstance(last.outcome, TurnResult))

    def _plan(self, c: TableController, seat: int, what: str, make: object) -> object:
        key = (len(c.match.record), seat, what)
        if key not in self._plans:
            self._plans = {k: v for k, v in self._plans.items() if k[0] == key[0]}
            self._plans[key] = make() if callable(make) else make
        return self._plans[key]

    def _move(self, c: TableController, seat: int, tray_idle: bool, now: float) -> Move | None:
        state = c.match.state
        context = c.context(seat)
        strategy = self.strategies[seat]
        if context in (Context.CONFIRM_DICE, Context.ENTER_DICE) and c.tray_busy \
                and c.pending is not None and not c.pending.by_hand:
            return None  # (the dice asked about may be thrown again: once they lie still)
        if context is Context.CONFIRM_DICE:
            pending = c.pending
            assert pending is not None
            thrown = self._thrown.get(seat)
            ok = thrown is not None and sorted(pending.reading.values,
                                               key=lambda v: v or 0) == sorted(thrown)
            return Press(seat, (E,) if ok else (D,))
        if context is Context.ENTER_DICE:
            entry = c.entry
            assert entry is not None
            thrown = self._thrown.get(seat) or (1, 1, 1)
            want = thrown[entry.position]
            have = entry.values[entry.position]
            if have == want:
                return Press(seat, (E,))
            return Press(seat, (W,) if (want - have) % 6 <= 3 else (U,))
        if context is Context.COUNTERPARTY:
            amount = state.pending_amount or 0
            party = self._plan(c, seat, "party",
                               lambda: strategy.counterparty(state, seat, amount, self.chance))
            parties = c.parties()
            if parties[c.cursor % len(parties)] == party:
                return Press(seat, (E,))
            return Press(seat, (W,))
        ended = c.game_ended_at
        if context is Context.BID and ended is not None and now - ended < self.linger:
            return None
        if context is Context.TOPUP and self._unicorn_shown(c, now):
            return None
        if context in (Context.BID, Context.TOPUP):
            limit = c.number_limit(seat)
            choose = strategy.bid if context is Context.BID else strategy.topup
            target = self._plan(c, seat, context.value,
                                lambda: max(0, min(limit, choose(state, seat, self.chance))))
            assert isinstance(target, int)
            have = c.drafts.get(seat, 0)
            if have == target:
                return Press(seat, (E,))
            step = (W,) if target > have else (U,)
            return Press(seat, step, long=abs(target - have) >= 5)
        lost = c.camera_lost is not None  # (nothing moving in the tray will be read)
        if not lost and (not tray_idle or c.tray_busy):
            return None
        if c.pending is not None:
            return None  # someone else's doubtful roll is being sorted out
        if c.roller() != seat:
            return None
        if self._roll_shown(c, now):
            return None
        if context is Context.CALL:
            if state.awaiting is Awaiting.TOPUP and set(state.owing()) - {seat}:
                return None  # let the others top up first
            call = self._plan(c, seat, "call", lambda: strategy.call(state, seat, self.chance))
            if c.call_draft != call and not c.call_locked:
                button = call if isinstance(call, Category) else c.call_draft
                assert button is not None
                return Press(seat, (Button(button.value),))
        if c.awaiting not in (Awaiting.ROLL, Awaiting.START_ROLL, Awaiting.TIEBREAK_ROLL,
                              Awaiting.TOPUP):
            return None
        if lost:
            # Nobody reads the tray: the bot throws, as the players do, then holds OK
            # and enters its dice by hand (the entry above).
            self._thrown[seat] = self.chance.choice(ALL_ROLLS)
            return Press(seat, (E,), long=True)
        marker = (len(c.match.record), c.settles)
        if self._waiting_roll.get(seat) == marker:
            return None  # thrown already; the tray has not told the controller yet
        dice = self.chance.choice(ALL_ROLLS)
        self._thrown[seat] = dice
        self._waiting_roll[seat] = marker
        return Throw(seat, dice)
