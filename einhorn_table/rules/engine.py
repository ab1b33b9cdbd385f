"""The state of a match and every rule that changes it (RULES.md sections 3 to 7).

:class:`MatchState` takes one input at a time. Each input is checked in full
before anything changes, so a refused input (a :class:`RuleViolation`) leaves
the state exactly as it was. Undo lives one level up, in
:class:`einhorn_table.rules.match.Match`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from einhorn_table.rules.categories import Category, Dice, categorize
from einhorn_table.rules.errors import RuleViolation
from einhorn_table.rules.notation import (
    CENTRAL,
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
from einhorn_table.rules.variants import WIN, Amount, Variant

#: Stands for the central stash where a player index would stand.
BANK = -1


class Awaiting(StrEnum):
    """What the match waits for next (RULES.md section 9)."""

    START_ROLL = "start_roll"
    ROLL = "roll"
    COUNTERPARTY = "counterparty"
    BID = "bid"
    TOPUP = "topup"
    TIEBREAK_ROLL = "tiebreak_roll"
    NOTHING = "nothing"


class Phase(StrEnum):
    """Finer than :class:`Awaiting`: which tie a ``tiebreak_roll`` breaks."""

    START = "start"
    TURN = "turn"
    COUNTERPARTY = "counterparty"
    AUCTION = "auction"
    AUCTION_TIE = "auction_tie"
    TOPUP = "topup"
    ROLLOFF = "rolloff"
    OVER = "over"


_AWAITING = {
    Phase.START: Awaiting.START_ROLL,
    Phase.TURN: Awaiting.ROLL,
    Phase.COUNTERPARTY: Awaiting.COUNTERPARTY,
    Phase.AUCTION: Awaiting.BID,
    Phase.AUCTION_TIE: Awaiting.TIEBREAK_ROLL,
    Phase.TOPUP: Awaiting.TOPUP,
    Phase.ROLLOFF: Awaiting.TIEBREAK_ROLL,
    Phase.OVER: Awaiting.NOTHING,
}


@dataclass(frozen=True, slots=True)
class Transfer:
    """Stones that moved: ``payer`` and ``payee`` are player names or ``"central"``."""

    payer: str
    payee: str
    stones: int


@dataclass(frozen=True, slots=True)
class StonesLeft:
    """The stones as a roll's payments left them, and the unicorn where the roll left it:
    before a game's end moves the game stones into the stashes and takes the unicorn back
    (4.9, 5.1, 5.2). What the table shows under the roll that ended a game."""

    central: int
    #: Each player's game stones, in seat order.
    game_stones: tuple[int, ...]
    #: The unicorn's owner (a name), or None where nobody owns it.
    unicorn: str | None


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What one turn did, for the screen and the statistics."""

    player: str
    dice: Dice
    category: Category
    call: Category | None
    #: The table's amount (positive: the player receives), or ``"win"``.
    amount: Amount
    transfers: tuple[Transfer, ...]
    #: The stones and the unicorn as the roll left them, before any game's end.
    left: StonesLeft
    #: True when the unicorn owner rolled Einhorn and nothing happened (4.5).
    owner_einhorn: bool = False
    #: The player who took the unicorn with this roll, if any.
    unicorn_to: str | None = None
    game_over: bool = False
    match_over: bool = False

    @property
    def short_by(self) -> int:
        """How many stones of the amount were not paid because the payer had no more
        (4.7); 0 when it was paid in full. The amount is settled by the first transfer
        (an amount of 0 by none: the transfer then is a new owner's pass stone, 4.8)."""
        if (not isinstance(self.amount, int) or self.amount == 0 or not self.transfers
                or self.owner_einhorn):
            return 0
        return abs(self.amount) - self.transfers[0].stones


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """The auction once every bid is in: the bids revealed and who took the unicorn."""

    bids: tuple[tuple[str, int], ...]
    #: The winner, or None while tied players still roll for it.
    winner: str | None
    tied: tuple[str, ...]


Outcome = TurnResult | AuctionResult | None


class MatchState:
    """Central stash, game stones, stashes, the unicorn and whose input comes next."""

    __slots__ = (
        "_bids",
        "_call",
        "_contenders",
        "_index",
        "_pending",
        "_rolloff_pos",
        "_round",
        "_topped_up",
        "central",
        "current",
        "game",
        "game_stones",
        "games",
        "games_played",
        "names",
        "phase",
        "stash",
        "target",
        "unicorn",
        "variant",
        "winner",
    )

    def __init__(self, setup: Setup) -> None:
        variant, games, target, central = setup.resolve()
        names = setup.players
        self._check_setup(variant, names, games, target, central)
        self.variant: Variant = variant
        self.names: tuple[str, ...] = names
        self._index: dict[str, int] = {name: i for i, name in enumerate(names)}
        self.games = games
        #: Games whose turns are over (the counter ``game`` moves on before the
        #: deal, so a match that ends in the deal played one game fewer).
        self.games_played = 0
        self.target = target
        n = len(names)
        # 3.2: each player takes game stones from the central stash.
        self.central = central - variant.deal * n
        self.game_stones = [variant.deal] * n
        self.stash = [0] * n
        self.unicorn: int | None = None
        self.game = 1
        self.winner: int | None = None
        self.current = 0
        self.phase = Phase.START
        self._call: Category | None = None
        self._pending: tuple[Category, Category | None, Dice, int] | None = None
        # 3.3, 5.5 and 6: the players still in a tie, and this round's rolls.
        self._contenders: list[int] = list(range(n))
        self._round: dict[int, int] = {}
        self._bids: dict[int, int] = {}
        self._topped_up: set[int] = set()
        self._rolloff_pos = 0

    @staticmethod
    def _check_setup(variant: Variant, names: tuple[str, ...], games: int, target: int | None,
                     central: int) -> None:
        n = len(names)
        variant.check_players(n)
        # (A name typed with its accents as separate marks is the same name.)
        if len({unicodedata.normalize("NFC", name) for name in names}) != n:
            raise RuleViolation("two players have the same name; give each a different one",
                                rule="3.1")
        if CENTRAL in names:
            raise RuleViolation(f'"{CENTRAL}" names the central stash; choose another name',
                                rule="8")
        if any(not name.strip() for name in names):
            raise RuleViolation("every player needs a name", rule="3.1")
        for name in names:
            if not _is_text(name):
                raise RuleViolation(f"the name {name!r} holds a character that cannot be "
                                    "shown; type it again in plain letters", rule="3.1")
        if games < 1:
            raise RuleViolation("a match has at least one game", rule="2")
        if target is not None and target < 1:
            raise RuleViolation(f"a target is at least 1 stone, not {target}", rule="2")
        # 7: no count is ever negative (a setup line refuses these; one made in code too).
        for what, value, least in (("deal", variant.deal, 1),
                                   ("start_bonus", variant.start_bonus, 0),
                                   ("pass_stone", variant.pass_stone, 0)):
            if type(value) is not int or value < least:
                raise RuleViolation(f"{what} must be a whole number of stones, at least "
                                    f"{least}, not {value!r}", rule="2")
        if central <= variant.deal * n:
            raise RuleViolation(
                f"the central stash must hold more than {variant.deal} stones per player "
                f"(more than {variant.deal * n}), not {central}",
                rule="8",
            )

    # --- reading the state ---------------------------------------------------

    @property
    def awaiting(self) -> Awaiting:
        return _AWAITING[self.phase]

    @property
    def to_act(self) -> int | None:
        """Whose input comes next; of several owing one at once, the first in seat order."""
        phase = self.phase
        if phase is Phase.TURN or phase is Phase.COUNTERPARTY:
            return self.current
        if phase is Phase.START or phase is Phase.AUCTION_TIE:
            return next(i for i in self._contenders if i not in self._round)
        if phase is Phase.AUCTION:
            return next(i for i in range(len(self.names)) if i not in self._bids)
        if phase is Phase.TOPUP:
            return next(i for i in range(len(self.names)) if i not in self._topped_up)
        if phase is Phase.ROLLOFF:
            return self._contenders[self._rolloff_pos]
        return None

    @property
    def call(self) -> Category | None:
        """The call the player to roll has made so far (None: silent)."""
        return self._call if self.phase is Phase.TURN else None

    @property
    def contenders(self) -> tuple[int, ...]:
        """The players in the current tie (start, auction, roll-off); else empty."""
        if self.phase in (Phase.START, Phase.AUCTION_TIE, Phase.ROLLOFF):
            return tuple(self._contenders)
        return ()

    def owing(self) -> tuple[int, ...]:
        """Every player who still owes an input now, in seat order."""
        phase = self.phase
        if phase is Phase.START or phase is Phase.AUCTION_TIE:
            return tuple(i for i in self._contenders if i not in self._round)
        if phase is Phase.AUCTION:
            return tuple(i for i in range(len(self.names)) if i not in self._bids)
        if phase is Phase.TOPUP:
            return tuple(i for i in range(len(self.names)) if i not in self._topped_up)
        actor = self.to_act
        return () if actor is None else (actor,)

    @property
    def pending_amount(self) -> int | None:
        """While the unicorn owner chooses a counterparty: the amount at stake."""
        return self._pending[3] if self._pending is not None else None

    def has_bid(self, player: int) -> bool:
        return player in self._bids

    def total_stones(self) -> int:
        """Central + all game stones + all stashes: the same at every moment (7)."""
        return self.central + sum(self.game_stones) + sum(self.stash)

    # --- applying inputs ----------------------------------------------------

    def apply(self, item: Input) -> Outcome:
        """Apply one input; refuse it (changing nothing) if the rules do not allow it."""
        handler = _HANDLERS.get(type(item))
        if handler is None:
            raise RuleViolation(f"a {item.type} line can only come first", rule="8")
        if self.phase is Phase.OVER:
            winner = self.names[self.winner] if self.winner is not None else "nobody"
            raise RuleViolation(
                f"the match is over ({winner} won); nothing more can be entered, only undo",
                rule="6",
            )
        return handler(self, item)

    def _player(self, name: str) -> int:
        index = self._index.get(name)
        if index is None:
            raise RuleViolation(
                f"{name!r} does not play in this match; the players are {', '.join(self.names)}",
                rule="3.1",
            )
        return index

    def _expect(self, item: Input, *phases: Phase) -> None:
        if self.phase not in phases:
            actor = self.to_act
            who = f"{self.names[actor]}'s " if actor is not None else ""
            raise RuleViolation(
                f"a {item.type} is not expected now; the match waits for {who}"
                f"{self.awaiting.value}",
                rule=_RULE_OF_AWAITING[self.awaiting],
            )

    def _expect_turn_of(self, player: int, item: Input) -> None:
        if player != self.current:
            raise RuleViolation(
                f"it is {self.names[self.current]}'s turn, not {self.names[player]}'s",
                rule="3.1",
            )

    # 3.3: starting rolls ----------------------------------------------------

    def _start_roll(self, item: StartRoll) -> Outcome:
        self._expect(item, Phase.START)
        player = self._player(item.player)
        categorize(item.dice)
        self._tie_roll(player, item.dice, "3.3", "the starting roll")
        if len(self._round) == len(self._contenders):
            starter = self._settle_tie()
            if starter is not None:
                bonus = min(self.variant.start_bonus, self.central)
                self.central -= bonus
                self.game_stones[starter] += bonus
                self._begin_turn(starter)
        return None

    def _tie_roll(self, player: int, dice: Dice, rule: str, what: str) -> None:
        if player not in self._contenders:
            tied = " and ".join(self.names[i] for i in self._contenders)
            raise RuleViolation(
                f"{self.names[player]} is not in {what}; only {tied} roll now", rule=rule
            )
        if player in self._round:
            raise RuleViolation(
                f"{self.names[player]} has already rolled in this round of {what}", rule=rule
            )
        self._round[player] = sum(dice)

    def _settle_tie(self) -> int | None:
        """The highest sum of a finished round, or None after narrowing to a new round."""
        best = max(self._round.values())
        tied = [i for i in self._contenders if self._round[i] == best]
        self._round = {}
        if len(tied) == 1:
            return tied[0]
        self._contenders = tied
        return None

    # 4: a turn ----------------------------------------------------------------

    def _begin_turn(self, player: int) -> None:
        self.phase = Phase.TURN
        self.current = player
        self._call = None

    def _close_topups(self, item: Input) -> None:
        """5.7 and 8: the unicorn owner's first call or roll closes the top-ups."""
        assert self.unicorn is not None
        player = self._player(item.player) if isinstance(item, Call | Roll) else -1
        if player != self.unicorn:
            owner = self.names[self.unicorn]
            raise RuleViolation(
                f"the top-ups are still open: {self.names[player]} cannot roll or call yet; "
                f"{owner} (the unicorn owner) rolls first",
                rule="5.8",
            )
        self._begin_turn(self.unicorn)

    def _call_input(self, item: Call) -> Outcome:
        self._expect(item, Phase.TURN, Phase.TOPUP)
        if item.call is not None and not isinstance(item.call, Category):
            raise RuleViolation(f"{item.call!r} is not a call; call a Category, or None for "
                                "silent", rule="4.1")
        if self.phase is Phase.TOPUP:
            self._close_topups(item)
        player = self._player(item.player)
        self._expect_turn_of(player, item)
        self._call = item.call
        return None

    def _roll(self, item: Roll) -> Outcome:
        self._expect(item, Phase.TURN, Phase.TOPUP)
        player = self._player(item.player)
        dice = item.dice
        category = categorize(dice)
        if self.phase is Phase.TOPUP:
            self._close_topups(item)
        self._expect_turn_of(player, item)
        call = self._call
        self._call = None
        owner = self.unicorn
        # 4.5: the unicorn owner rolls Einhorn: nothing happens.
        if owner == player and category is Category.EINHORN:
            return self._finish_turn(player, dice, category, call, 0, (), owner_einhorn=True)
        amount = self.variant.payout(category, call)
        if amount == WIN:
            return self._win(player, dice, category, call)
        assert isinstance(amount, int)
        # 4.6: the owner chooses a counterparty for a non-zero amount.
        if owner == player and amount != 0:
            self.phase = Phase.COUNTERPARTY
            self._pending = (category, call, dice, amount)
            return None
        return self._finish_turn(player, dice, category, call, amount,
                                 self._settle(player, amount, BANK))

    def _counterparty(self, item: Counterparty) -> Outcome:
        self._expect(item, Phase.COUNTERPARTY)
        player = self._player(item.player)
        if player != self.current:
            raise RuleViolation(
                f"{self.names[self.current]} owns the unicorn and chooses the counterparty, "
                f"not {self.names[player]}",
                rule="4.6",
            )
        if item.party == CENTRAL:
            party = BANK
        else:
            party = self._player(item.party)
            if party == player:
                raise RuleViolation(
                    f"{item.party} cannot be their own counterparty; choose central or another "
                    "player",
                    rule="4.6",
                )
        assert self._pending is not None
        category, call, dice, amount = self._pending
        self._pending = None
        return self._finish_turn(player, dice, category, call, amount,
                                 self._settle(player, amount, party))

    def _holding(self, party: int) -> int:
        return self.central if party == BANK else self.game_stones[party]

    def _move(self, payer: int, payee: int, stones: int) -> Transfer:
        """4.7: nobody pays more than they hold."""
        stones = min(stones, self._holding(payer))
        if payer == BANK:
            self.central -= stones
        else:
            self.game_stones[payer] -= stones
        if payee == BANK:
            self.central += stones
        else:
            self.game_stones[payee] += stones
        return Transfer(self._party_name(payer), self._party_name(payee), stones)

    def _party_name(self, party: int) -> str:
        return CENTRAL if party == BANK else self.names[party]

    def _settle(self, player: int, amount: int, party: int) -> tuple[Transfer, ...]:
        if amount > 0:
            return (self._move(party, player, amount),)
        if amount < 0:
            return (self._move(player, party, -amount),)
        return ()

    def _win(self, player: int, dice: Dice, category: Category, call: Category | None) -> Outcome:
        """4.4: the player takes all game stones of every other player; the game ends."""
        transfers = tuple(
            self._move(other, player, self.game_stones[other])
            for other in range(len(self.names))
            if other != player and self.game_stones[other] > 0
        )
        left = self._stones_left()
        match_over = self._end_game()
        return TurnResult(self.names[player], dice, category, call, WIN, transfers, left,
                          game_over=True, match_over=match_over)

    def _stones_left(self) -> StonesLeft:
        """The central stash, the game stones and the unicorn as they stand now."""
        unicorn = None if self.unicorn is None else self.names[self.unicorn]
        return StonesLeft(self.central, tuple(self.game_stones), unicorn)

    def _finish_turn(
        self,
        player: int,
        dice: Dice,
        category: Category,
        call: Category | None,
        amount: int,
        transfers: tuple[Transfer, ...],
        *,
        owner_einhorn: bool = False,
    ) -> TurnResult:
        unicorn_to = None
        # 4.8: the unicorn passes to a roller of Einhorn who did not own it.
        if category is Category.EINHORN and self.unicorn != player:
            old = self.unicorn
            self.unicorn = player
            unicorn_to = self.names[player]
            if old is not None and self.variant.pass_stone:
                transfers += (self._move(old, player, self.variant.pass_stone),)
        left = self._stones_left()
        # 4.9: end checks, in this order.
        game_over = match_over = False
        if self.central == 0:
            game_over = True
            match_over = self._end_game(central_empty=True)
        elif 0 in self.game_stones:
            game_over = True
            match_over = self._end_game()
        else:
            self._begin_turn((player + 1) % len(self.names))
        return TurnResult(self.names[player], dice, category, call, amount, transfers, left,
                          owner_einhorn, unicorn_to, game_over, match_over)

    # 5: between games ------------------------------------------------------------

    def _end_game(self, *, central_empty: bool = False) -> bool:
        """5.1 to 5.4; returns whether the match ended."""
        self.games_played += 1
        self._bank_game_stones()
        if (
            central_empty
            or self.central == 0
            or self.game >= self.games
            or (self.target is not None and max(self.stash) >= self.target)
        ):
            self._end_match()
            return True
        self.game += 1
        self.phase = Phase.AUCTION
        self._bids = {}
        return False

    def _bank_game_stones(self) -> None:
        """5.1, 5.2 and 6: game stones into the stashes; the unicorn returns."""
        for i, stones in enumerate(self.game_stones):
            self.stash[i] += stones
            self.game_stones[i] = 0
        self.unicorn = None

    def _bid(self, item: Bid) -> Outcome:
        self._expect(item, Phase.AUCTION)
        player = self._player(item.player)
        if player in self._bids:
            raise RuleViolation(f"{item.player} has already bid in this auction", rule="5.5")
        _check_stones(item.stones, f"{item.player}'s bid", "5.5")
        if item.stones > self.stash[player]:
            raise RuleViolation(
                f"{item.player} bids {item.stones} but has only {self.stash[player]} in their "
                "stash",
                rule="5.5",
            )
        self._bids[player] = item.stones
        if len(self._bids) < len(self.names):
            return None
        # Every bid is in: all are paid into the central stash.
        for i, stones in self._bids.items():
            self.stash[i] -= stones
            self.central += stones
        best = max(self._bids.values())
        tied = [i for i in range(len(self.names)) if self._bids[i] == best]
        bids = tuple((self.names[i], self._bids[i]) for i in range(len(self.names)))
        if len(tied) == 1:
            self._unicorn_won(tied[0])
            return AuctionResult(bids, self.names[tied[0]], ())
        self.phase = Phase.AUCTION_TIE
        self._contenders = tied
        self._round = {}
        return AuctionResult(bids, None, tuple(self.names[i] for i in tied))

    def _unicorn_won(self, player: int) -> None:
        self.unicorn = player
        self._deal(player)

    def _deal(self, first: int) -> None:
        """5.6: one stone at a time round the table, starting with the unicorn owner."""
        n = len(self.names)
        needed = self.variant.deal * n
        order = [(first + k) % n for k in range(n)]
        if self.central >= needed:
            for i in order:
                self.game_stones[i] += self.variant.deal
            self.central -= needed
            self.phase = Phase.TOPUP
            self._topped_up = set()
            return
        rounds, extra = divmod(self.central, n)
        for k, i in enumerate(order):
            self.game_stones[i] += rounds + (1 if k < extra else 0)
        self.central = 0
        self._bank_game_stones()
        self._end_match()

    def _topup(self, item: Topup) -> Outcome:
        self._expect(item, Phase.TOPUP)
        player = self._player(item.player)
        if player in self._topped_up:
            raise RuleViolation(f"{item.player} has already topped up in this game", rule="5.7")
        _check_stones(item.stones, f"{item.player}'s top-up", "5.7")
        if item.stones > self.stash[player]:
            raise RuleViolation(
                f"{item.player} tops up {item.stones} but has only {self.stash[player]} in "
                "their stash",
                rule="5.7",
            )
        self.stash[player] -= item.stones
        self.game_stones[player] += item.stones
        self._topped_up.add(player)
        if len(self._topped_up) == len(self.names):
            assert self.unicorn is not None
            self._begin_turn(self.unicorn)
        return None

    def _tiebreak_roll(self, item: TiebreakRoll) -> Outcome:
        self._expect(item, Phase.AUCTION_TIE, Phase.ROLLOFF)
        player = self._player(item.player)
        category = categorize(item.dice)
        if self.phase is Phase.AUCTION_TIE:
            self._tie_roll(player, item.dice, "5.5", "the tie-break for the unicorn")
            if len(self._round) == len(self._contenders):
                winner = self._settle_tie()
                if winner is not None:
                    self._unicorn_won(winner)
            return None
        # 6: the roll-off, one after another in seat order, until an Einhorn.
        expected = self._contenders[self._rolloff_pos]
        if player != expected:
            if player not in self._contenders:
                tied = " and ".join(self.names[i] for i in self._contenders)
                reason = f"{item.player} is not in the roll-off; only {tied} roll"
            else:
                reason = f"it is {self.names[expected]}'s roll in the roll-off, not {item.player}'s"
            raise RuleViolation(reason, rule="6")
        if category is Category.EINHORN:
            self.winner = player
            self.phase = Phase.OVER
        else:
            self._rolloff_pos = (self._rolloff_pos + 1) % len(self._contenders)
        return None

    # 6: the winner ---------------------------------------------------------------

    def _end_match(self) -> None:
        self._bank_game_stones()
        best = max(self.stash)
        tied = [i for i, stones in enumerate(self.stash) if stones == best]
        if len(tied) == 1:
            self.winner = tied[0]
            self.phase = Phase.OVER
        else:
            self._contenders = tied
            self._rolloff_pos = 0
            self.phase = Phase.ROLLOFF



def _is_text(name: str) -> bool:
    """Whether ``name`` is text a screen can show: no control character (a tab, a line
    break) and no lone surrogate (a byte that is not UTF-8, as the command line passes
    it on). Accents, other scripts and emoji are all welcome."""
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in name)


def _check_stones(stones: object, what: str, rule: str) -> None:
    """Refuse a count of stones that is not a whole number of 0 or more (section 7)."""
    if not isinstance(stones, int) or isinstance(stones, bool) or stones < 0:
        raise RuleViolation(f"{what} must be a whole number of stones, 0 or more, not "
                            f"{stones!r}", rule=rule)

_HANDLERS: dict[type[Input], Callable[[MatchState, Any], Outcome]] = {
    StartRoll: MatchState._start_roll,
    Call: MatchState._call_input,
    Roll: MatchState._roll,
    Counterparty: MatchState._counterparty,
    Bid: MatchState._bid,
    Topup: MatchState._topup,
    TiebreakRoll: MatchState._tiebreak_roll,
}

_RULE_OF_AWAITING = {
    Awaiting.START_ROLL: "3.3",
    Awaiting.ROLL: "4",
    Awaiting.COUNTERPARTY: "4.6",
    Awaiting.BID: "5.5",
    Awaiting.TOPUP: "5.7",
    Awaiting.TIEBREAK_ROLL: "5.5, 6",
    Awaiting.NOTHING: "6",
}
