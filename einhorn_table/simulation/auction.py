"""What a bot bids for the unicorn: its worth for one game, measured by playing.

Every bid is paid, the winner's and the losers' (5.5): an all-pay auction. The
unicorn's worth for a game, :func:`unicorn_worth`, is measured by simulated matches
of best-odds players: the stones a game begun as the owner gains over the mean of
the other players' gains (taking stones from the rivals instead of the central
stash, rolling first, an Einhorn that costs nothing). Bidding more than that is a
loss even when the bid wins.

:func:`auction_bid` bids as in the all-pay auction's equilibrium for ``bidders``
players who all value the unicorn at ``worth`` (Baye, Kovenock and de Vries, 1996):
a bid below ``worth`` drawn so that its chance to be at most ``b`` is
``(b / worth) ** (1 / (bidders - 1))``. No bid then does better on average against
the others', so a person at the table cannot count on taking the unicorn with one
stone; and the bots together pay about what the unicorn is worth, not more.
"""

from __future__ import annotations

import random

from einhorn_table.rules.engine import MatchState
from einhorn_table.rules.notation import Setup
from einhorn_table.rules.variants import Variant
from einhorn_table.simulation.simulate import Summary, play_match
from einhorn_table.simulation.strategies import Chance, OddsCaller

#: Games begun with an owner behind a worth: a standard error of 0.2 to 0.4 stones
#: (0.5 for the first draft's two players), measured in about a fifth of a second on
#: the development machine (more on a Raspberry Pi), once per variant and number of
#: players (the demo does it before its window opens: ``Strategy.prepare``).
WORTH_GAMES = 300
#: Matches are played with a central stash this many times the variant's: one that
#: runs dry ends a match after a game or two (the first draft's 50 stones among six
#: players), and games with the central stash short are few at the table anyway.
CENTRAL_FACTOR = 20
#: At most this many matches (a house variant's target may end each in its first game),
#: and turns (a house variant that pays every roll may run a game until the central
#: stash is dry): about a second here.
MAX_MATCHES = 300
MAX_TURNS = 50_000

#: The worths measured: (variant, players, worth). Found by the variant's value: each
#: match of a house variant resolves its setup into a variant of its own.
_WORTH: list[tuple[Variant, int, float]] = []


class _NoBids(OddsCaller):
    """Best-odds calls and no bids, so every auction goes to a roll-off: each seat
    owns the unicorn as often as the others."""

    def bid(self, state: MatchState, player: int, chance: Chance) -> int:
        return 0


def unicorn_worth(variant: Variant, players: int, games: int = WORTH_GAMES) -> float:
    """The stones owning the unicorn for a game is worth, over the mean rival.

    Measured once per variant and number of players, with a fixed seed: the same
    variant always gives the same worth.
    """
    if games == WORTH_GAMES:
        for known, seats, worth in _WORTH:
            if seats == players and known == variant:
                return worth
    names = [f"P{seat + 1}" for seat in range(players)]
    setup = Setup.for_variant(variant, names,
                              central=CENTRAL_FACTOR * variant.central_for(players))
    chance = random.Random(f"unicorn worth, {players} players")
    bots = [_NoBids() for _ in range(players)]
    summary = Summary()
    while (len(summary.owner_edges) < games and summary.matches < MAX_MATCHES
           and summary.turns < MAX_TURNS):
        summary.add(play_match(setup, bots, chance))
    worth = summary.unicorn_worth() or 0.0
    if games == WORTH_GAMES:
        _WORTH.append((variant, players, worth))
    return worth


def auction_bid(worth: float, bidders: int, chance: Chance) -> int:
    """A bid in stones for a unicorn worth ``worth`` to each of ``bidders`` players."""
    if worth <= 0 or bidders < 2:
        return 0
    return int(worth * chance.random() ** (bidders - 1) + 0.5)
