"""Simple players: how a bot calls, bids, tops up and picks a counterparty.

A strategy sees the match state and a source of chance (``random.Random`` or
anything with its ``randint``/``choice``/``random`` methods), never a global.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from einhorn_table.rules.categories import PROBABILITY, Category
from einhorn_table.rules.engine import MatchState
from einhorn_table.rules.errors import RulesError
from einhorn_table.rules.notation import CENTRAL
from einhorn_table.rules.variants import WIN, Variant

T = TypeVar("T")

#: What a player can do before a roll: stay silent (None) or call a category.
CALL_OPTIONS: tuple[Category | None, ...] = (None, *Category)


class Chance(Protocol):
    """The part of ``random.Random`` the bots use; tests pass other sources in."""

    def randint(self, a: int, b: int) -> int: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def random(self) -> float: ...


class Strategy:
    """Stays silent, bids nothing, tops up nothing, deals with the central stash."""

    name = "silent"
    description = "always silent, never bids"

    def prepare(self, variant: Variant, players: int) -> None:
        """Work done once before a match, so that no move waits for it (none here)."""

    def call(self, state: MatchState, player: int, chance: Chance) -> Category | None:
        return None

    def bid(self, state: MatchState, player: int, chance: Chance) -> int:
        return 0

    def topup(self, state: MatchState, player: int, chance: Chance) -> int:
        return 0

    def counterparty(self, state: MatchState, player: int, amount: int, chance: Chance) -> str:
        return CENTRAL


class RandomCaller(Strategy):
    """Calls any category at random; bids and picks counterparties at random."""

    name = "random"
    description = "a random call every turn, small random bids"

    def call(self, state: MatchState, player: int, chance: Chance) -> Category | None:
        return chance.choice(CALL_OPTIONS)

    def bid(self, state: MatchState, player: int, chance: Chance) -> int:
        return chance.randint(0, min(3, state.stash[player]))

    def counterparty(self, state: MatchState, player: int, amount: int, chance: Chance) -> str:
        others = [n for i, n in enumerate(state.names) if i != player]
        return chance.choice([CENTRAL, *others])


def _odds_of(
    variant: Variant, owner: bool
) -> tuple[dict[Category | None, float], dict[Category | None, float]]:
    """Per call: the mean stones of the number cells, and the chance of a WIN cell.

    The unicorn owner's Einhorn moves no stones, whatever was called (4.5).
    """
    stones: dict[Category | None, float] = {}
    win_chance: dict[Category | None, float] = {}
    for called in CALL_OPTIONS:
        stones[called] = win_chance[called] = 0.0
        for rolled, chance in PROBABILITY.items():
            if owner and rolled is Category.EINHORN:
                continue
            amount = variant.payout(rolled, called)
            if amount == WIN:
                win_chance[called] += chance
            else:
                stones[called] += chance * amount
    return stones, win_chance


_Odds = tuple[dict[Category | None, float], dict[Category | None, float]]
_ODDS: dict[tuple[int, bool], tuple[Variant, _Odds]] = {}


def expected_stones(
    variant: Variant, win_worth: int = 0, *, owner: bool = False
) -> dict[Category | None, float]:
    """The mean stones of each call (None: silent) for fair dice; a WIN counts ``win_worth``.

    ``owner``: for the unicorn owner, whose Einhorn moves no stones.
    """
    key = (id(variant), owner)
    cached = _ODDS.get(key)
    if cached is None or cached[0] is not variant:
        cached = _ODDS[key] = (variant, _odds_of(variant, owner))
    stones, win_chance = cached[1]
    return {option: stones[option] + win_chance[option] * win_worth for option in CALL_OPTIONS}


def win_chances(variant: Variant, *, owner: bool = False) -> dict[Category | None, float]:
    """The chance of each call (None: silent) to end in a WIN with fair dice: the part
    of a turn that :func:`expected_stones` counts as ``win_worth`` stones."""
    return _odds_of(variant, owner)[1]


_BEST: dict[tuple[int, int, bool], tuple[Variant, Category | None]] = {}


def best_call(variant: Variant, win_worth: int, *, owner: bool = False) -> Category | None:
    """The call with the most expected stones for the roll odds (silent on a tie)."""
    key = (id(variant), win_worth, owner)
    cached = _BEST.get(key)
    if cached is not None and cached[0] is variant:
        return cached[1]
    table = expected_stones(variant, win_worth, owner=owner)
    best = max(CALL_OPTIONS, key=table.__getitem__)
    _BEST[key] = (variant, best)
    return best


class OddsCaller(Strategy):
    """Makes the call with the best expected stones; takes from the richest rival; bids
    for the unicorn by what it is worth (``simulation.auction``)."""

    name = "odds"
    description = "best-odds calls, bids what the unicorn is worth"

    def prepare(self, variant: Variant, players: int) -> None:
        # Measuring the unicorn's worth takes a moment: not at the first auction.
        from einhorn_table.simulation.auction import unicorn_worth

        unicorn_worth(variant, players)

    def bid(self, state: MatchState, player: int, chance: Chance) -> int:
        # The worth is measured by playing matches with this strategy's calls.
        from einhorn_table.simulation.auction import auction_bid, unicorn_worth

        worth = unicorn_worth(state.variant, len(state.names))
        rivals = [stones for i, stones in enumerate(state.stash) if i != player and stones]
        if rivals:
            # Bidding against those who can bid, and never more than outbids them all.
            stones = min(auction_bid(worth, len(rivals) + 1, chance), max(rivals) + 1)
        else:
            # Nobody else can bid: one stone takes the unicorn, where that is worth more
            # than a share of the roll-off that follows when everybody bids 0.
            stones = 1 if worth - 1 > worth / len(state.names) else 0
        return min(state.stash[player], stones)

    def call(self, state: MatchState, player: int, chance: Chance) -> Category | None:
        # A WIN is worth every other player's game stones.
        worth = sum(state.game_stones) - state.game_stones[player]
        return best_call(state.variant, worth, owner=state.unicorn == player)

    def counterparty(self, state: MatchState, player: int, amount: int, chance: Chance) -> str:
        if amount < 0:
            return CENTRAL
        rivals = [i for i in range(len(state.names)) if i != player]
        richest = max(rivals, key=lambda i: (state.game_stones[i] + state.stash[i], -i))
        if state.game_stones[richest] >= amount or state.central < amount:
            return state.names[richest]
        return CENTRAL


class ShareBidder(OddsCaller):
    """Calls like :class:`OddsCaller` and bids a share of their stash for the unicorn."""

    name = "bidder"
    description = "best-odds calls, bids a third of the stash"

    def __init__(self, share: float = 1 / 3) -> None:
        self.share = share

    def prepare(self, variant: Variant, players: int) -> None:
        """Nothing: its bids do not weigh the unicorn's worth."""

    def bid(self, state: MatchState, player: int, chance: Chance) -> int:
        return int(state.stash[player] * self.share)


STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Strategy, RandomCaller, OddsCaller, ShareBidder)
}
#: The bots' strategy in the demo when ``--strategy`` names none.
DEFAULT_STRATEGY = OddsCaller.name


def make_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(STRATEGIES)
        raise RulesError(f"there is no strategy called {name!r}; choose from {known}") from None
