"""Bots at the table: the next legal inputs for whatever the match awaits.

The same code plays simulated matches (chance: ``random.Random``), the demo's
bot seats, and the property tests (chance drawn by hypothesis).
"""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.rules.categories import ALL_ROLLS
from einhorn_table.rules.engine import Awaiting, MatchState
from einhorn_table.rules.notation import (
    Bid,
    Call,
    Counterparty,
    Input,
    Roll,
    StartRoll,
    TiebreakRoll,
    Topup,
)
from einhorn_table.simulation.strategies import Chance, Strategy


def next_inputs(
    state: MatchState,
    strategies: Sequence[Strategy],
    chance: Chance,
    *,
    spell_out: bool = False,
) -> list[Input]:
    """The inputs that move the match on by one step, as the bots would give them.

    A turn is its call (if any) and its roll. With ``spell_out`` the bots also
    write what may be left out (silent calls, top-ups of 0) now and then, so
    that tests see both forms of the notation.
    """
    awaiting = state.awaiting
    if awaiting is Awaiting.NOTHING:
        return []
    actor = state.to_act
    assert actor is not None
    name = state.names[actor]
    if awaiting is Awaiting.ROLL:
        return _turn(state, actor, strategies[actor], chance, spell_out)
    if awaiting is Awaiting.START_ROLL:
        return [StartRoll(player=name, dice=chance.choice(ALL_ROLLS))]
    if awaiting is Awaiting.TIEBREAK_ROLL:
        return [TiebreakRoll(player=name, dice=chance.choice(ALL_ROLLS))]
    if awaiting is Awaiting.COUNTERPARTY:
        amount = state.pending_amount
        assert amount is not None
        party = strategies[actor].counterparty(state, actor, amount, chance)
        return [Counterparty(player=name, party=party)]
    if awaiting is Awaiting.BID:
        bidder = _any_of(state.owing(), chance)
        stones = strategies[bidder].bid(state, bidder, chance)
        return [Bid(player=state.names[bidder], stones=max(0, min(stones, state.stash[bidder])))]
    # Top-ups: any order; those of 0 may be left out, the owner's turn closes them.
    for player in state.owing():
        stones = min(strategies[player].topup(state, player, chance), state.stash[player])
        if stones > 0 or (spell_out and chance.random() < 0.5):
            return [Topup(player=state.names[player], stones=max(0, stones))]
    owner = state.unicorn
    assert owner is not None
    return _turn(state, owner, strategies[owner], chance, spell_out)


def _any_of(players: Sequence[int], chance: Chance) -> int:
    """Several players owe an input at once: any of them may come first."""
    return players[0] if len(players) == 1 else chance.choice(players)


def _turn(
    state: MatchState, player: int, strategy: Strategy, chance: Chance, spell_out: bool
) -> list[Input]:
    name = state.names[player]
    called = strategy.call(state, player, chance)
    roll = Roll(player=name, dice=chance.choice(ALL_ROLLS))
    if called is None and not (spell_out and chance.random() < 0.3):
        return [roll]
    return [Call(player=name, call=called), roll]
