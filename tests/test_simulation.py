"""The bots and the simulator."""

from __future__ import annotations

import random

from einhorn_table.rules import EINHORN, WUERFELN, Category, MatchState, Setup
from einhorn_table.simulation.simulate import simulate
from einhorn_table.simulation.strategies import (
    OddsCaller,
    RandomCaller,
    ShareBidder,
    Strategy,
    best_call,
    expected_stones,
)


def test_expected_stones_match_the_odds() -> None:
    odds = expected_stones(EINHORN, 0)
    # Silent: 96/216*-1 + 90/216*-1 + 24/216*1 + 6/216*5
    assert abs(odds[None] - (-96 - 90 + 24 + 30) / 216) < 1e-12
    # Calling Unvermeidlich: 96*2 - 90*2 - 24*5 + 6*1
    assert abs(odds[Category.UNVERMEIDLICH] - (192 - 180 - 120 + 6) / 216) < 1e-12


def test_best_call_depends_on_the_variant_and_what_a_win_is_worth() -> None:
    assert best_call(EINHORN, 0) is Category.UNVERMEIDLICH
    # A Dreifaltigkeit win worth 100 stones makes calling it the best call.
    assert best_call(EINHORN, 100) is Category.DREIFALTIGKEIT
    # First draft: Einhorn called pays (-96 - 90 + 120 + 18) / 216 = -0.222 a turn,
    # better than Unvermeidlich (-0.444) or silence ((-96 + 0 - 48 + 36) / 216 = -0.5).
    assert best_call(WUERFELN, 0) is Category.EINHORN
    assert abs(expected_stones(WUERFELN, 0)[Category.EINHORN] - (-48 / 216)) < 1e-12


def test_simulation_is_reproducible_and_the_odds_player_beats_the_random_one() -> None:
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben"])
    a = simulate(setup, [OddsCaller(), RandomCaller()], 200, seed=3)
    b = simulate(setup, [OddsCaller(), RandomCaller()], 200, seed=3)
    assert a.wins == b.wins and a.turns == b.turns
    assert a.wins["odds"] > 2 * a.wins["random"]


def test_share_bidder_bids_a_third() -> None:
    state = MatchState(Setup.for_variant(EINHORN, ["Ana", "Ben"]))
    state.stash[0] = 10
    assert ShareBidder().bid(state, 0, random.Random(0)) == 3
    assert Strategy().bid(state, 0, random.Random(0)) == 0


def test_the_unicorn_owner_does_not_call_einhorn_since_their_einhorn_pays_nothing() -> None:
    # First draft, as owner: Unvermeidlich called pays (96 - 90 + 0 + 18) / 216 a turn,
    # Einhorn called (-96 - 90 + 0 + 18) / 216: the owner's Einhorn moves no stones (4.5).
    owner_odds = expected_stones(WUERFELN, 0, owner=True)
    assert abs(owner_odds[Category.UNVERMEIDLICH] - 24 / 216) < 1e-12
    assert abs(owner_odds[Category.EINHORN] - (-168 / 216)) < 1e-12
    assert best_call(WUERFELN, 0, owner=True) is Category.UNVERMEIDLICH
    state = MatchState(Setup.for_variant(WUERFELN, ["Ana", "Ben", "Cem"]))
    state.unicorn = 1
    chance = random.Random(0)
    assert OddsCaller().call(state, 0, chance) is Category.EINHORN
    assert OddsCaller().call(state, 1, chance) is Category.UNVERMEIDLICH

