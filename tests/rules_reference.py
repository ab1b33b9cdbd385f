"""A second referee, written from the text of RULES.md and docs/rules.md alone, for
the tests to hold the engine against: the same inputs must be taken or refused alike
and lead to the same ledger. It is kept plain (lists, one method a rule) rather than
fast or friendly; it refuses without saying why."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from einhorn_table.rules import (
    Bid,
    Call,
    Counterparty,
    Input,
    Roll,
    Setup,
    StartRoll,
    TiebreakRoll,
    Topup,
)

#: The central stash where a seat would stand.
CENTRE = -1


class Refused(Exception):
    """The rules do not allow this input now."""


def category(dice: tuple[int, int, int]) -> str:
    """Section 1, from the text: three of a kind, two of a kind, no two adjacent."""
    values = sorted(set(dice))
    if len(values) == 1:
        return "dreifaltigkeit"
    if len(values) == 2:
        return "wunsch"
    low, mid, high = values
    return "unvermeidlich" if mid - low == 1 or high - mid == 1 else "einhorn"


@dataclass
class Seat:
    game_stones: int
    stash: int = 0


class SecondReferee:
    """Sections 3 to 6, one input at a time; ``ledger()`` is section 9's object."""

    def __init__(self, setup: Setup) -> None:
        variant, games, target, central = setup.resolve()
        self.names = list(setup.players)
        self.table = {c.value: (row.correct, row.wrong, row.silent)
                      for c, row in variant.payouts.items()}
        self.deal, self.bonus, self.pass_stone = variant.deal, variant.start_bonus, \
            variant.pass_stone
        self.games, self.target = games, target
        # 3.2: six game stones each from the central stash; stashes 0; game 1.
        self.central = central - self.deal * len(self.names)
        self.seats = [Seat(self.deal) for _ in self.names]
        self.unicorn: int | None = None
        self.game = 1
        self.waiting = "start_roll"
        self.tied = list(range(len(self.names)))
        self.thrown: dict[int, int] = {}
        self.roller = 0
        self.called: str | None = None
        self.owed: tuple[str, int] | None = None
        self.bids: dict[int, int] = {}
        self.topped: set[int] = set()
        self.rolloff_turn = 0
        self.winner: int | None = None

    # --- section 9 ------------------------------------------------------------

    def ledger(self) -> dict[str, object]:
        n = len(self.names)
        actor: int | None = None
        if self.waiting in ("start_roll", "auction_tie"):
            actor = next(i for i in self.tied if i not in self.thrown)
        elif self.waiting in ("roll", "counterparty"):
            actor = self.roller
        elif self.waiting == "bid":
            actor = next(i for i in range(n) if i not in self.bids)
        elif self.waiting == "topup":
            actor = next(i for i in range(n) if i not in self.topped)
        elif self.waiting == "rolloff":
            actor = self.tied[self.rolloff_turn]
        awaiting = {"auction_tie": "tiebreak_roll", "rolloff": "tiebreak_roll",
                    "over": "nothing"}.get(self.waiting, self.waiting)
        return {
            "game": self.game, "central": self.central,
            "unicorn": None if self.unicorn is None else self.names[self.unicorn],
            "to_act": None if actor is None else self.names[actor], "awaiting": awaiting,
            "players": [{"name": name, "game_stones": seat.game_stones, "stash": seat.stash}
                        for name, seat in zip(self.names, self.seats, strict=True)],
            "winner": None if self.winner is None else self.names[self.winner],
        }

    def copy(self) -> SecondReferee:
        """A copy to go back to (undo, or a refused input)."""
        twin = copy.copy(self)
        twin.seats = [Seat(s.game_stones, s.stash) for s in self.seats]
        twin.tied, twin.thrown = list(self.tied), dict(self.thrown)
        twin.bids, twin.topped = dict(self.bids), set(self.topped)
        return twin

    def total(self) -> int:
        return self.central + sum(s.game_stones + s.stash for s in self.seats)

    # --- inputs ---------------------------------------------------------------

    def apply(self, item: Input) -> None:
        """Take ``item`` or raise :class:`Refused`; a refused input may leave this
        referee changed, so the caller keeps a copy."""
        if self.waiting == "over":
            raise Refused
        if isinstance(item, StartRoll):
            self._start_roll(item)
        elif isinstance(item, Call):
            self._turn_input(item.player)
            self.called = None if item.call is None else item.call.value
        elif isinstance(item, Roll):
            self._turn_input(item.player)
            self._roll(item.dice)
        elif isinstance(item, Counterparty):
            self._counterparty(item)
        elif isinstance(item, Bid):
            self._bid(item)
        elif isinstance(item, Topup):
            self._topup(item)
        elif isinstance(item, TiebreakRoll):
            self._tiebreak(item)
        else:
            raise Refused

    def _seat(self, name: str) -> int:
        if name not in self.names:
            raise Refused
        return self.names.index(name)

    def _tie_round(self, name: str, dice: tuple[int, int, int]) -> int | None:
        """One throw of a round among the tied (3.3, 5.5); the winner once one is highest."""
        seat = self._seat(name)
        if seat not in self.tied or seat in self.thrown:
            raise Refused
        self.thrown[seat] = sum(dice)
        if len(self.thrown) < len(self.tied):
            return None
        best = max(self.thrown.values())
        self.tied = [i for i in self.tied if self.thrown[i] == best]
        self.thrown = {}
        return self.tied[0] if len(self.tied) == 1 else None

    def _start_roll(self, item: StartRoll) -> None:
        if self.waiting != "start_roll":
            raise Refused
        starter = self._tie_round(item.player, item.dice)
        if starter is not None:
            # 3.4: the starting bonus, as far as the central stash holds it.
            bonus = min(self.bonus, self.central)
            self.central -= bonus
            self.seats[starter].game_stones += bonus
            self._turn_of(starter)

    def _turn_of(self, seat: int) -> None:
        self.waiting = "roll"
        self.roller = seat
        self.called = None

    def _turn_input(self, name: str) -> None:
        seat = self._seat(name)
        if self.waiting == "topup":
            # 5.7, 5.8: the owner's first call or roll closes the top-ups.
            if seat != self.unicorn:
                raise Refused
            self._turn_of(seat)
        if self.waiting != "roll" or seat != self.roller:
            raise Refused

    def _roll(self, dice: tuple[int, int, int]) -> None:
        seat = self.roller
        rolled = category(dice)
        called, self.called = self.called, None
        if self.unicorn == seat and rolled == "einhorn":
            self._after_turn(seat, rolled)  # 4.5: nothing moves
            return
        correct, wrong, silent = self.table[rolled]
        amount = silent if called is None else correct if called == rolled else wrong
        if amount == "win":
            # 4.4: every other player's game stones; the game ends.
            for other, held in enumerate(self.seats):
                if other != seat:
                    self.seats[seat].game_stones += held.game_stones
                    held.game_stones = 0
            self._game_over()
            return
        assert isinstance(amount, int)
        if self.unicorn == seat and amount != 0:
            self.waiting = "counterparty"  # 4.6
            self.owed = (rolled, amount)
            return
        self._settle(seat, amount, CENTRE)
        self._after_turn(seat, rolled)

    def _counterparty(self, item: Counterparty) -> None:
        if self.waiting != "counterparty" or self._seat(item.player) != self.roller:
            raise Refused
        party = CENTRE if item.party == "central" else self._seat(item.party)
        if party == self.roller:
            raise Refused
        assert self.owed is not None
        rolled, amount = self.owed
        self.owed = None
        self._settle(self.roller, amount, party)
        self._after_turn(self.roller, rolled)

    def _holds(self, party: int) -> int:
        return self.central if party == CENTRE else self.seats[party].game_stones

    def _pay(self, payer: int, payee: int, stones: int) -> None:
        stones = min(stones, self._holds(payer))  # 4.7
        if payer == CENTRE:
            self.central -= stones
        else:
            self.seats[payer].game_stones -= stones
        if payee == CENTRE:
            self.central += stones
        else:
            self.seats[payee].game_stones += stones

    def _settle(self, seat: int, amount: int, party: int) -> None:
        if amount > 0:
            self._pay(party, seat, amount)
        elif amount < 0:
            self._pay(seat, party, -amount)

    def _after_turn(self, seat: int, rolled: str) -> None:
        # 4.8: the unicorn passes, then (wuerfeln) the pass stone.
        if rolled == "einhorn" and self.unicorn != seat:
            old, self.unicorn = self.unicorn, seat
            if old is not None and self.pass_stone:
                self._pay(old, seat, self.pass_stone)
        # 4.9: the end checks (an empty central stash ends the match as well: 5.3).
        if self.central == 0 or any(s.game_stones == 0 for s in self.seats):
            self._game_over()
        else:
            self._turn_of((seat + 1) % len(self.names))

    def _bank(self) -> None:
        for seat in self.seats:
            seat.stash += seat.game_stones
            seat.game_stones = 0
        self.unicorn = None

    def _game_over(self) -> None:
        self._bank()  # 5.1, 5.2
        stashes = [s.stash for s in self.seats]
        if (self.central == 0 or self.game >= self.games
                or (self.target is not None and max(stashes) >= self.target)):
            self._match_over()  # 5.3
            return
        self.game += 1  # 5.4
        self.waiting = "bid"
        self.bids = {}

    def _match_over(self) -> None:
        self._bank()  # 6: game stones into the stashes first
        best = max(s.stash for s in self.seats)
        self.tied = [i for i, s in enumerate(self.seats) if s.stash == best]
        if len(self.tied) == 1:
            self.winner = self.tied[0]
            self.waiting = "over"
        else:
            self.rolloff_turn = 0
            self.waiting = "rolloff"

    def _bid(self, item: Bid) -> None:
        if self.waiting != "bid":
            raise Refused
        seat = self._seat(item.player)
        if seat in self.bids or not 0 <= item.stones <= self.seats[seat].stash:
            raise Refused
        self.bids[seat] = item.stones
        if len(self.bids) < len(self.names):
            return
        for bidder, stones in self.bids.items():  # 5.5: every bid is paid
            self.seats[bidder].stash -= stones
            self.central += stones
        best = max(self.bids.values())
        self.tied = [i for i in range(len(self.names)) if self.bids[i] == best]
        self.thrown = {}
        if len(self.tied) == 1:
            self._unicorn_to(self.tied[0])
        else:
            self.waiting = "auction_tie"

    def _unicorn_to(self, owner: int) -> None:
        self.unicorn = owner
        # 5.6 (Decision): one stone at a time round the table from the owner; the
        # match ends if the central stash runs dry before everyone has a full deal.
        n = len(self.names)
        for _ in range(self.deal):
            for k in range(n):
                if self.central == 0:
                    self._match_over()
                    return
                self.central -= 1
                self.seats[(owner + k) % n].game_stones += 1
        self.waiting = "topup"
        self.topped = set()

    def _topup(self, item: Topup) -> None:
        if self.waiting != "topup":
            raise Refused
        seat = self._seat(item.player)
        if seat in self.topped or not 0 <= item.stones <= self.seats[seat].stash:
            raise Refused
        self.seats[seat].stash -= item.stones
        self.seats[seat].game_stones += item.stones
        self.topped.add(seat)
        if len(self.topped) == len(self.names):
            assert self.unicorn is not None
            self._turn_of(self.unicorn)

    def _tiebreak(self, item: TiebreakRoll) -> None:
        if self.waiting == "auction_tie":
            owner = self._tie_round(item.player, item.dice)
            if owner is not None:
                self._unicorn_to(owner)
            return
        if self.waiting != "rolloff" or self._seat(item.player) != self.tied[self.rolloff_turn]:
            raise Refused
        if category(item.dice) == "einhorn":  # 6: the first Einhorn wins
            self.winner = self.tied[self.rolloff_turn]
            self.waiting = "over"
        else:
            self.rolloff_turn = (self.rolloff_turn + 1) % len(self.tied)
