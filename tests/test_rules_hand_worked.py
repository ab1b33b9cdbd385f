"""Rules the golden matches leave open, each as a short match in the notation with
the ledger worked out by hand from the text of RULES.md (not from the engine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from einhorn_table.rules import (
    Awaiting,
    Match,
    RuleViolation,
    TurnResult,
    VariantError,
    load_variant,
    parse_line,
    replay,
)


def _setup(variant: str, players: list[str], **more: object) -> str:
    return json.dumps({"v": 1, "type": "setup", "variant": variant, "players": players, **more})


def _start(player: str, dice: list[int]) -> str:
    return json.dumps({"type": "start_roll", "player": player, "dice": dice})


def _call(player: str, call: str | None) -> str:
    return json.dumps({"type": "call", "player": player, "call": call})


def _roll(player: str, dice: list[int]) -> str:
    return json.dumps({"type": "roll", "player": player, "dice": dice})


def _party(player: str, party: str) -> str:
    return json.dumps({"type": "counterparty", "player": player, "party": party})


def _bid(player: str, stones: int) -> str:
    return json.dumps({"type": "bid", "player": player, "stones": stones})


def _tiebreak(player: str, dice: list[int]) -> str:
    return json.dumps({"type": "tiebreak_roll", "player": player, "dice": dice})


def _stones(match: Match) -> list[tuple[str, int, int]]:
    """Each player's (name, game stones, stash)."""
    return [(p.name, p.game_stones, p.stash) for p in match.ledger().players]


def _apply(match: Match, line: str) -> object:
    return match.apply(parse_line(line))


# --- ties at the end of game 10 (sections 5.3 and 6) -------------------------------

def _ten_level_games() -> list[str]:
    """Two players, 150 stones, ten games; the match ends level on 60 stones each.

    Setup: 150 - 2 x 6 = 138, Ana starts (+1): Ana 7, Ben 6, central 137.
    Game 1: Ana silent Wunsch (-1): Ana 6, central 138; Ben calls and rolls
    Dreifaltigkeit and takes Ana's 6 (4.4): stashes Ana 0, Ben 12.
    Games 2 to 10: both bid 0, the tie-break gives the unicorn to Ana in the even
    games and Ben in the odd ones; the deal takes 12 from the central stash; the
    owner calls Dreifaltigkeit on the first roll (a call on the game's last turn) and
    takes the other's 6: 12 stones into that owner's stash.
    After game 10: Ana 0 + 5 x 12 = 60, Ben 12 + 4 x 12 = 60, central 138 - 9 x 12 = 30.
    """
    lines = [
        _setup("einhorn", ["Ana", "Ben"], games=10, central=150),
        _start("Ana", [6, 6, 6]),
        _start("Ben", [1, 1, 2]),
        _roll("Ana", [1, 2, 2]),
        _call("Ben", "dreifaltigkeit"),
        _roll("Ben", [3, 3, 3]),
    ]
    for game in range(2, 11):
        owner, other = ("Ana", "Ben") if game % 2 == 0 else ("Ben", "Ana")
        lines += [
            _bid("Ana", 0),
            _bid("Ben", 0),
            _tiebreak(owner, [6, 6, 6]),
            _tiebreak(other, [1, 1, 2]),
            _call(owner, "dreifaltigkeit"),
            _roll(owner, [2, 2, 2]),
        ]
    return lines


def test_a_tie_at_the_end_of_game_ten_goes_to_the_roll_off() -> None:
    match = replay(_ten_level_games())
    ledger = match.ledger()
    assert _stones(match) == [("Ana", 0, 60), ("Ben", 0, 60)]
    assert ledger.central == 30 and ledger.game == 10 and ledger.games_played == 10
    assert ledger.unicorn is None and ledger.winner is None
    # 6: the tied roll round and round in seat order, starting with the first tied.
    assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and ledger.to_act == "Ana"
    with pytest.raises(RuleViolation, match="Ana's roll in the roll-off"):
        _apply(match, _tiebreak("Ben", [1, 3, 5]))
    _apply(match, _tiebreak("Ana", [1, 2, 3]))  # no Einhorn
    assert match.ledger().to_act == "Ben"
    _apply(match, _tiebreak("Ben", [1, 1, 1]))  # Dreifaltigkeit is no Einhorn either
    assert match.ledger().to_act == "Ana"
    _apply(match, _tiebreak("Ana", [4, 4, 6]))
    _apply(match, _tiebreak("Ben", [1, 3, 5]))  # the first Einhorn wins
    ledger = match.ledger()
    assert ledger.winner == "Ben" and ledger.awaiting is Awaiting.NOTHING
    assert _stones(match) == [("Ana", 0, 60), ("Ben", 0, 60)] and ledger.central == 30


def test_no_eleventh_game_follows_the_tenth() -> None:
    match = replay(_ten_level_games())
    with pytest.raises(RuleViolation):
        _apply(match, _bid("Ana", 0))
    assert match.ledger().game == 10


# --- an auction with equal bids above 0 (5.5) ---------------------------------------

#: Three players, einhorn, 75 stones: 75 - 18 = 57, Ana starts: Ana 7, central 56.
#: Ana calls Wunsch, rolls an Einhorn: -5: Ana 2, central 61, Ana takes the unicorn.
#: Ben calls Einhorn, rolls a Wunsch: -2: Ben 4, central 63.
#: Cem is silent on a Wunsch: -1: Cem 5, central 64.
#: Ana (the owner) calls Unvermeidlich, rolls a Wunsch: -2, and pays Ben: she has 2,
#: pays both: Ana 0, Ben 6. The game ends: stashes Ana 0, Ben 6, Cem 5, central 64.
GAME_ONE = [
    _setup("einhorn", ["Ana", "Ben", "Cem"], games=3),
    _start("Ana", [6, 6, 6]),
    _start("Ben", [1, 1, 2]),
    _start("Cem", [1, 1, 3]),
    _call("Ana", "wunsch"),
    _roll("Ana", [1, 3, 5]),
    _call("Ben", "einhorn"),
    _roll("Ben", [2, 2, 5]),
    _roll("Cem", [1, 1, 2]),
    _call("Ana", "unvermeidlich"),
    _roll("Ana", [6, 6, 1]),
    _party("Ana", "Ben"),
]


def test_the_owner_paying_a_player_their_last_stones_ends_the_game() -> None:
    match = replay(GAME_ONE[:-1])
    assert match.ledger().awaiting is Awaiting.COUNTERPARTY
    outcome = _apply(match, GAME_ONE[-1])
    assert isinstance(outcome, TurnResult) and outcome.amount == -2 and outcome.short_by == 0
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [("Ana", "Ben", 2)]
    assert outcome.game_over and not outcome.match_over
    ledger = match.ledger()
    assert _stones(match) == [("Ana", 0, 0), ("Ben", 0, 6), ("Cem", 0, 5)]
    assert ledger.central == 64 and ledger.game == 2 and ledger.awaiting is Awaiting.BID


def test_equal_bids_above_0_are_all_paid_and_only_the_tied_roll_until_one_is_highest() -> None:
    match = replay(GAME_ONE)
    for line in (_bid("Cem", 3), _bid("Ana", 0)):
        _apply(match, line)
    # Until the last bid is in, no stash shows a bid.
    assert _stones(match) == [("Ana", 0, 0), ("Ben", 0, 6), ("Cem", 0, 5)]
    _apply(match, _bid("Ben", 3))
    # Every bid is paid into the central stash, the losers' too: 64 + 3 + 3 = 70.
    ledger = match.ledger()
    assert _stones(match) == [("Ana", 0, 0), ("Ben", 0, 3), ("Cem", 0, 2)]
    assert ledger.central == 70 and ledger.unicorn is None
    assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and ledger.to_act == "Ben"
    with pytest.raises(RuleViolation, match="only Ben and Cem roll now"):
        _apply(match, _tiebreak("Ana", [6, 6, 6]))
    _apply(match, _tiebreak("Cem", [6, 5, 6]))  # 17
    _apply(match, _tiebreak("Ben", [6, 6, 5]))  # 17: a tie again, the two roll again
    ledger = match.ledger()
    assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and ledger.to_act == "Ben"
    assert ledger.unicorn is None and ledger.central == 70
    _apply(match, _tiebreak("Ben", [1, 1, 1]))  # 3
    _apply(match, _tiebreak("Cem", [2, 1, 1]))  # 4: Cem takes the unicorn
    ledger = match.ledger()
    # 5.6: 6 each from the central stash: 70 - 18 = 52.
    assert ledger.unicorn == "Cem" and ledger.central == 52
    assert _stones(match) == [("Ana", 6, 0), ("Ben", 6, 3), ("Cem", 6, 2)]
    assert ledger.awaiting is Awaiting.TOPUP and ledger.game == 2


# --- the unicorn owner's turn with the central stash empty (4.6, 4.7, 4.9) ------------

#: Two players, 25 stones: 25 - 12 - 1 = 12 after setup; Ana calls and rolls
#: Dreifaltigkeit: her stash 13, Ben's 0, central 12. Both bid 0; Ben wins the roll
#: for the unicorn; the deal takes the last 12: central 0, 6 game stones each.
EMPTY_AFTER_DEAL = [
    _setup("einhorn", ["Ana", "Ben"], games=3, central=25),
    _start("Ana", [6, 6, 6]),
    _start("Ben", [1, 1, 2]),
    _call("Ana", "dreifaltigkeit"),
    _roll("Ana", [3, 3, 3]),
    _bid("Ana", 0),
    _bid("Ben", 0),
    _tiebreak("Ana", [1, 1, 1]),
    _tiebreak("Ben", [6, 6, 6]),
    _roll("Ben", [4, 4, 4]),  # silent Dreifaltigkeit: +5, the owner chooses
]


def test_the_owner_taking_from_a_player_with_the_central_stash_empty_ends_the_match() -> None:
    before = replay(EMPTY_AFTER_DEAL[:-1]).ledger()
    assert before.central == 0 and before.unicorn == "Ben" and before.awaiting is Awaiting.TOPUP
    match = replay(EMPTY_AFTER_DEAL)
    assert match.ledger().awaiting is Awaiting.COUNTERPARTY
    outcome = _apply(match, _party("Ben", "Ana"))
    assert isinstance(outcome, TurnResult) and outcome.short_by == 0
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [("Ana", "Ben", 5)]
    # 4.9: the central stash is still empty, so the game and the match end.
    assert outcome.match_over
    ledger = match.ledger()
    assert _stones(match) == [("Ana", 0, 13 + 1), ("Ben", 0, 11)]
    assert ledger.central == 0 and ledger.winner == "Ana" and ledger.game == 2


def test_the_owner_taking_from_the_empty_central_stash_gets_nothing() -> None:
    match = replay(EMPTY_AFTER_DEAL)
    outcome = _apply(match, _party("Ben", "central"))
    assert isinstance(outcome, TurnResult) and outcome.short_by == 5
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [("central", "Ben", 0)]
    assert outcome.match_over
    assert _stones(match) == [("Ana", 0, 13 + 6), ("Ben", 0, 6)]
    assert match.ledger().central == 0 and match.ledger().winner == "Ana"


# --- wuerfeln: the pass stone comes before the end checks (4.8, 4.9) ------------------

def test_a_new_owner_who_paid_their_last_stone_takes_the_pass_stone_and_plays_on() -> None:
    # wuerfeln, 50 stones: 50 - 12 = 38; Ana starts, no extra stone.
    lines = [
        _setup("wuerfeln", ["Ana", "Ben"]),
        _start("Ana", [5, 5, 6]),
        _start("Ben", [1, 2, 2]),
        _roll("Ana", [1, 2, 4]),  # silent Unvermeidlich: -1: Ana 5, central 39
        _roll("Ben", [1, 2, 4]),  # -1: Ben 5, central 40
        _roll("Ana", [1, 3, 5]),  # silent Einhorn: -2: Ana 3, central 42; Ana's unicorn
        _call("Ben", "wunsch"),
    ]
    match = replay(lines)
    # Ben calls wrong on an Einhorn: -5 to the central stash: Ben 0, central 47; then
    # he takes the unicorn and 1 stone of Ana's: Ben 1, Ana 2. Nobody has 0: play on.
    outcome = _apply(match, _roll("Ben", [2, 4, 6]))
    assert isinstance(outcome, TurnResult) and outcome.unicorn_to == "Ben"
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [
        ("Ben", "central", 5), ("Ana", "Ben", 1)]
    assert not outcome.game_over
    ledger = match.ledger()
    assert _stones(match) == [("Ana", 2, 0), ("Ben", 1, 0)]
    assert ledger.central == 47 and ledger.unicorn == "Ben"
    assert ledger.awaiting is Awaiting.ROLL and ledger.to_act == "Ana" and ledger.game == 1


# --- faults found in this review --------------------------------------------------


@pytest.mark.parametrize(("change", "words"), [
    ({"deal": -1, "central": 5}, "deal must be a whole number of stones, at least 1, not -1"),
    ({"deal": 0}, "deal must be a whole number of stones, at least 1, not 0"),
    ({"pass_stone": -2}, "pass_stone must be a whole number of stones, at least 0, not -2"),
    ({"start_bonus": -3}, "start_bonus must be a whole number of stones, at least 0, not -3"),
])
def test_a_setup_made_in_code_cannot_deal_or_pass_a_negative_number_of_stones(
        change: dict[str, int], words: str) -> None:
    # RULES.md 7: no count is ever negative. A setup line refuses these values, but a
    # setup made in code was taken: a deal of -1 started both players on -1 game stones,
    # a pass stone of -2 had the new owner pay the old one, and the match file the table
    # wrote then could not be replayed.
    from einhorn_table.rules import MatchState, Setup

    with pytest.raises(RuleViolation, match=words):
        MatchState(Setup(players=("Ana", "Ben"), variant="wuerfeln", **change))


@pytest.mark.parametrize("name", ["wuerfeln", "Einhorn", " einhorn "])
def test_a_house_variant_cannot_take_the_name_of_a_shipped_one(
        tmp_path: Path, name: str) -> None:
    # A house file named "wuerfeln" on an einhorn base, with its own payouts, was
    # simulated, shown and kept in the history as "wuerfeln": its matches counted
    # with the first draft's.
    path = tmp_path / "house.toml"
    path.write_text(f'name = "{name}"\nbase = "einhorn"\n[payouts.wunsch]\ncorrect = 9\n',
                    encoding="utf-8")
    with pytest.raises(VariantError) as refused:
        load_variant(path)
    assert str(path) in str(refused.value)
    assert f'name = "{name.strip()}" is the name of a variant that ships' in str(refused.value)
    assert "give your house variant a name of its own" in str(refused.value)
    path.write_text('name = "Einhorn light"\nbase = "einhorn"\n', encoding="utf-8")
    assert load_variant(path).name == "Einhorn light"


# --- a house variant with "win" on the Einhorn row (4.4, 4.5, docs/rules.md) ---------


def test_a_winning_einhorn_ends_the_game_and_the_owners_own_einhorn_still_moves_nothing() -> None:
    house = {"einhorn": {"correct": "win"}}
    lines = [
        _setup("einhorn", ["Ana", "Ben"], games=2, payouts=house),
        _start("Ana", [6, 6, 6]),
        _start("Ben", [1, 1, 2]),
        _roll("Ana", [1, 3, 6]),  # silent Einhorn: +1: Ana 8, central 36; her unicorn
        _roll("Ben", [2, 2, 3]),  # silent Wunsch: -1: Ben 5, central 37
        _call("Ana", "einhorn"),
    ]
    match = replay(lines)
    outcome = _apply(match, _roll("Ana", [2, 4, 6]))  # 4.5: the owner's Einhorn
    assert isinstance(outcome, TurnResult) and outcome.owner_einhorn
    assert outcome.transfers == () and not outcome.game_over
    assert _stones(match) == [("Ana", 8, 0), ("Ben", 5, 0)] and match.ledger().central == 37
    _apply(match, _call("Ben", "einhorn"))
    outcome = _apply(match, _roll("Ben", [1, 4, 6]))  # Ben's called Einhorn: a win
    assert isinstance(outcome, TurnResult) and outcome.amount == "win"
    assert outcome.game_over and outcome.unicorn_to is None
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [("Ana", "Ben", 8)]
    ledger = match.ledger()
    assert _stones(match) == [("Ana", 0, 0), ("Ben", 0, 13)] and ledger.central == 37
    assert ledger.unicorn is None and ledger.awaiting is Awaiting.BID and ledger.game == 2


# --- eight players (section 2) ------------------------------------------------------


@pytest.mark.parametrize("variant", ["einhorn", "wuerfeln"])
def test_eight_players_are_refused_naming_the_range(variant: str) -> None:
    names = ["Ana", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus", "Hana"]
    with pytest.raises(RuleViolation, match=f"line 1: refused: {variant} is played by 2 to 6 "
                                            "players, not 8"):
        replay([_setup(variant, names)])


def test_a_house_variant_cannot_seat_eight() -> None:
    from einhorn_table.rules.variants import variant_from_mapping

    with pytest.raises(VariantError, match="max_players"):
        variant_from_mapping({"name": "party", "max_players": 8})
