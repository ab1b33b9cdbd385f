"""The bots and the simulator."""

from __future__ import annotations

import random
import statistics

import pytest

from einhorn_table.rules import EINHORN, WUERFELN, Category, MatchState, Setup
from einhorn_table.simulation.auction import auction_bid, unicorn_worth
from einhorn_table.simulation.simulate import owner_edge, simulate
from einhorn_table.simulation.strategies import (
    Chance,
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


def test_a_game_as_owner_counts_what_the_owner_gained_over_the_mean_rival() -> None:
    assert owner_edge(1, [10, 4, 7], [12, 9, 5]) == 5 - (2 - 2) / 2
    assert owner_edge(0, [3, 3], [1, 6]) == -2 - 3


def test_simulated_matches_measure_the_unicorn_worth_a_few_stones_to_its_owner() -> None:
    # Two players, published rules: the owner takes from the rival instead of the
    # central stash, so what one gains the other loses.
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben"])
    summary = simulate(setup, [OddsCaller()], 300, seed=2)
    worth = summary.unicorn_worth()
    assert worth is not None and 3 < worth < 5.5
    # Every game after the first begins with an owner, unless the deal ran dry.
    games_after_first = sum(g - 1 for g in summary.games_per_match)
    assert games_after_first - summary.dry_in_deal <= len(summary.owner_edges) <= games_after_first
    # Random callers call Einhorn as owner too, which costs them the unicorn's edge.
    random_worth = simulate(setup, [RandomCaller()], 300, seed=2).unicorn_worth()
    assert random_worth is not None and random_worth < worth


def test_worth_and_bids_fall_as_more_players_share_the_table() -> None:
    worths = [unicorn_worth(EINHORN, n) for n in (2, 4, 6)]
    assert worths[0] > worths[1] > worths[2] > 0
    assert unicorn_worth(EINHORN, 4) == worths[1]  # measured once, seeded


def test_auction_bids_are_the_all_pay_equilibrium_for_the_worth() -> None:
    chance = random.Random(7)
    for bidders, worth in ((2, 4.0), (4, 1.5), (6, 0.9)):
        bids = [auction_bid(worth, bidders, chance) for _ in range(4000)]
        assert min(bids) >= 0 and max(bids) <= int(worth + 0.5)
        # Each bid's mean is the worth shared among the bidders: together they pay it.
        assert abs(statistics.fmean(bids) - worth / bidders) < 0.12 * worth / bidders + 0.05
    assert auction_bid(-1.0, 4, chance) == 0 and auction_bid(3.0, 1, chance) == 0


def test_odds_bots_bid_for_the_unicorn_within_their_stash_and_win_more_than_non_bidders() -> None:
    state = MatchState(Setup.for_variant(EINHORN, ["Ana", "Ben"]))
    chance = random.Random(3)
    state.stash[:] = [0, 20]
    assert {OddsCaller().bid(state, 0, chance) for _ in range(50)} == {0}
    # Ana cannot bid: one stone is sure to take the unicorn, worth about 4.
    assert {OddsCaller().bid(state, 1, chance) for _ in range(50)} == {1}
    state.stash[:] = [2, 20]
    bids = [OddsCaller().bid(state, 1, chance) for _ in range(400)]
    assert 0 < statistics.fmean(bids) < 3 and max(bids) == 3  # Ana's whole stash, and 1
    state.stash[:] = [30, 20]
    bids = [OddsCaller().bid(state, 1, chance) for _ in range(400)]
    assert 1 < statistics.fmean(bids) < 3 and max(bids) <= 5

    class NoBids(OddsCaller):
        name = "no bids"

        def bid(self, state: MatchState, player: int, chance: Chance) -> int:
            return 0

    summary = simulate(Setup.for_variant(EINHORN, ["Ana", "Ben"]), [OddsCaller(), NoBids()],
                       600, seed=4)
    assert summary.wins["odds"] > 1.5 * summary.wins["no bids"]


def test_a_prepared_bot_bids_without_playing_a_match_at_the_auction(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import einhorn_table.simulation.auction as auction

    monkeypatch.setattr(auction, "_WORTH", [])  # no worth measured yet
    bot = OddsCaller()
    bot.prepare(WUERFELN, 3)  # the demo does this before its window opens

    def no_play(*args: object) -> None:
        raise AssertionError("a match was played at the auction")

    monkeypatch.setattr(auction, "play_match", no_play)
    state = MatchState(Setup.for_variant(WUERFELN, ["Ana", "Ben", "Cem"]))
    state.stash[:] = [5, 5, 5]
    assert all(0 <= bot.bid(state, 0, random.Random(k)) <= 5 for k in range(20))
    with pytest.raises(AssertionError, match="a match was played"):
        OddsCaller().bid(MatchState(Setup.for_variant(WUERFELN, ["A", "B", "C", "D"])), 0,
                         random.Random(0))


def test_each_match_of_a_house_variant_bids_by_the_worth_measured_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import einhorn_table.simulation.auction as auction
    from einhorn_table.rules.variants import variant_from_mapping

    monkeypatch.setattr(auction, "_WORTH", [])
    house = variant_from_mapping({"name": "grandma", "base": "wuerfeln", "target": 40,
                                  "payouts": {"einhorn": {"correct": 6}}})
    setup = Setup.for_variant(house, ["Ana", "Ben", "Cem"])
    first, second = MatchState(setup), MatchState(setup)
    assert first.variant is not second.variant  # each match resolves its own
    first.stash[:] = second.stash[:] = [5, 5, 5]
    OddsCaller().bid(first, 0, random.Random(1))

    def no_play(*args: object) -> None:
        raise AssertionError("the worth was measured again")

    monkeypatch.setattr(auction, "play_match", no_play)
    OddsCaller().bid(second, 0, random.Random(1))
