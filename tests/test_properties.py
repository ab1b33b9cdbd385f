"""Properties that hold for every legal match of every variant and 2 to 6 players."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from einhorn_table.rules import (
    CENTRAL,
    EINHORN,
    WUERFELN,
    Awaiting,
    Ledger,
    Match,
    MatchEnd,
    Outcome,
    Setup,
    TurnResult,
    Undo,
    match_end,
    replay,
    replay_steps,
)
from einhorn_table.rules.variants import variant_from_mapping
from einhorn_table.simulation.bots import next_inputs
from einhorn_table.simulation.strategies import STRATEGIES, Chance

T = TypeVar("T")

HOUSE = variant_from_mapping(
    {
        "name": "house",
        "base": "wuerfeln",
        "central_per_player": 12,
        "start_bonus": 2,
        "pass_stone": 2,
        "deal": 4,
        "payouts": {"einhorn": {"correct": "win"}, "wunsch": {"silent": 1}},
    }
)
VARIANTS = [EINHORN, WUERFELN, HOUSE]
NAMES = ["Ana", "Ben", "Cem", "Dora", "Emil", "Fay"]
#: After this many drawn steps the rest of a match is played from a drawn seed.
DRAWN_STEPS = 150


class DrawnChance:
    """Chance drawn by hypothesis, so that failures shrink to small matches."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def randint(self, a: int, b: int) -> int:
        return self.data.draw(st.integers(a, b))

    def choice(self, seq: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(seq))

    def random(self) -> float:
        return self.data.draw(st.floats(0, 1, exclude_max=True))


def check_invariants(match: Match, total: int) -> None:
    state = match.state
    assert state.total_stones() == total, "stones were made or lost"
    assert state.central >= 0
    assert all(n >= 0 for n in state.game_stones)
    assert all(n >= 0 for n in state.stash)
    ledger = match.ledger()
    if ledger.awaiting is Awaiting.NOTHING:
        assert ledger.to_act is None and ledger.winner is not None
    else:
        assert ledger.to_act in match.names and ledger.winner is None


def check_payment(before: Ledger, outcome: Outcome) -> None:
    """4.7: the amount is paid in full, or the payer pays all they held, and
    ``short_by`` says how many stones were missing."""
    if not isinstance(outcome, TurnResult) or not isinstance(outcome.amount, int):
        return
    if not outcome.transfers or outcome.owner_einhorn:
        assert outcome.short_by == 0
        return
    paid = outcome.transfers[0]
    held = before.central if paid.payer == CENTRAL else before.player(paid.payer).game_stones
    assert paid.stones == min(abs(outcome.amount), held)
    assert outcome.short_by == abs(outcome.amount) - paid.stones >= 0


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    variant = draw(st.sampled_from(VARIANTS))
    players = draw(st.integers(2, 6))
    games = draw(st.integers(1, 3))
    target = draw(st.none() | st.integers(8, 40))
    floor = variant.deal * players + 1
    central = draw(st.none() | st.integers(floor, floor + 60))
    return Setup.for_variant(variant, NAMES[:players], games=games, target=target, central=central)


def play(match: Match, data: st.DataObject) -> None:
    """Play to the end with drawn bots, drawn dice and drawn undos, checking as we go."""
    total = match.state.total_stones()
    seats = [STRATEGIES[data.draw(st.sampled_from(sorted(STRATEGIES)))]() for _ in match.names]
    drawn = DrawnChance(data)
    chance: Chance = drawn
    steps = 0
    while not match.over:
        steps += 1
        if steps == DRAWN_STEPS:
            chance = random.Random(data.draw(st.integers(0, 2**32)))
        for item in next_inputs(match.state, seats, chance, spell_out=True):
            before = match.ledger()
            check_payment(before, match.apply(item))
            check_invariants(match, total)
            if chance is drawn and drawn.random() < 0.05:
                after = match.ledger()
                match.apply(Undo())
                assert match.ledger() == before, "undo did not restore the ledger"
                match.apply(item)
                assert match.ledger() == after, "undo then the same input gave another ledger"
        assert steps < 100_000


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups(), data=st.data())
def test_random_legal_matches(setup: Setup, data: st.DataObject) -> None:
    match = Match(setup)
    check_invariants(match, match.state.total_stones())
    play(match, data)
    ledger = match.ledger()
    # Every match ends with a winner, whose stash is the biggest.
    assert ledger.winner is not None
    assert ledger.player(ledger.winner).stash == max(p.stash for p in ledger.players)
    assert all(p.game_stones == 0 for p in ledger.players) and ledger.unicorn is None
    # Its games, its target or its central stash ended it (5.3, 4.9).
    end = match_end(ledger)
    games = setup.resolve()[1]
    assert 1 <= ledger.games_played <= min(ledger.game, games)
    if end is MatchEnd.GAMES_PLAYED:
        assert ledger.games_played == games
        assert ledger.game == games and ledger.central > 0
    elif end is MatchEnd.TARGET_REACHED:
        assert ledger.target is not None and ledger.central > 0
        assert max(p.stash for p in ledger.players) >= ledger.target
    else:
        assert end is MatchEnd.CENTRAL_EMPTY and ledger.central == 0
    # The same file always gives the same ledger, after every line.
    text = match.notation()
    again = replay(text.splitlines())
    assert again.ledger() == ledger
    assert again.notation() == text
    first = [m.ledger() for _, m, _ in replay_steps(text.splitlines())]
    second = [m.ledger() for _, m, _ in replay_steps(text.splitlines())]
    assert first == second


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       variant=st.sampled_from(VARIANTS))
def test_whole_ten_game_matches_end_with_a_winner(seed: int, players: int, variant: object) -> None:
    from einhorn_table.simulation.simulate import play_match

    setup = Setup.for_variant(variant, NAMES[:players])  # type: ignore[arg-type]
    seats = [cls() for cls in STRATEGIES.values()]
    seats = [seats[i % len(seats)] for i in range(players)]
    report = play_match(setup, seats, random.Random(seed))
    assert 0 <= report.winner < players
    assert 1 <= report.games <= setup.resolve()[1]
