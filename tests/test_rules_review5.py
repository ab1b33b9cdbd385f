"""The rules engine read afresh against RULES.md: each rule as the text states it,
checked on every step of random legal matches, and the edges the text names."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import DrawnChance, setups

from einhorn_table.parsing import loads_json, loads_toml
from einhorn_table.rules import (
    CENTRAL,
    EINHORN,
    WIN,
    AuctionResult,
    Awaiting,
    Category,
    Ledger,
    Match,
    NotationError,
    Outcome,
    Roll,
    RuleViolation,
    Setup,
    TurnResult,
    Undo,
    VariantError,
    categorize,
    format_input,
    load_variant,
    parse_line,
    replay,
)
from einhorn_table.rules.variants import variant_from_mapping
from einhorn_table.simulation.bots import next_inputs
from einhorn_table.simulation.strategies import STRATEGIES, Chance

NAMES = ["Ana", "Ben", "Cem", "Dora", "Emil", "Fay"]


# --- the referee: every step checked against the text ---------------------------


def _holdings(before: Ledger) -> dict[str, int]:
    held = {p.name: p.game_stones for p in before.players}
    held[CENTRAL] = before.central
    return held


def check_turn(match: Match, before: Ledger, outcome: TurnResult) -> None:
    """Sections 4.3 to 4.9 for one settled turn, from the ledger before it."""
    variant = match.state.variant
    names = list(match.names)
    roller = outcome.player
    category = categorize(outcome.dice)
    assert outcome.category is category  # 4.2
    owner = before.unicorn
    held = _holdings(before)
    if owner == roller and category is Category.EINHORN:
        # 4.5: nothing happens, whatever was called; the owner keeps the unicorn.
        assert outcome.owner_einhorn and outcome.transfers == () and outcome.short_by == 0
    else:
        # 4.3: row = rolled, column = correct / wrong / silent.
        assert outcome.amount == variant.payout(category, outcome.call)
        if outcome.amount == WIN:
            # 4.4: all game stones of every other player; stashes untouched.
            takers = {(t.payer, t.payee) for t in outcome.transfers}
            assert takers == {(n, roller) for n in names if n != roller and held[n] > 0}
            assert all(t.stones == held[t.payer] for t in outcome.transfers)
        elif outcome.amount != 0:
            first = outcome.transfers[0]
            party = first.payer if outcome.amount > 0 else first.payee
            other = first.payee if outcome.amount > 0 else first.payer
            assert other == roller
            # 4.6: the central stash, except that the owner may choose one other player.
            assert party == CENTRAL or (owner == roller and party != roller)
            # 4.7: nobody pays more than they hold; else the amount in full.
            payer = first.payer
            assert first.stones == min(abs(outcome.amount), held[payer])
            assert outcome.short_by == abs(outcome.amount) - first.stones >= 0
        else:
            assert outcome.short_by == 0
    after = dict(held)
    for t in outcome.transfers:
        after[t.payer] -= t.stones
        after[t.payee] += t.stones
    # 4.8: an Einhorn rolled by a non-owner takes the unicorn (and, with a pass stone,
    # one stone of the old owner's game stones).
    passes = category is Category.EINHORN and owner != roller and outcome.amount != WIN
    assert (outcome.unicorn_to == roller) if passes else outcome.unicorn_to is None
    settled = 1 if isinstance(outcome.amount, int) and outcome.amount != 0 else 0
    if outcome.amount != WIN and not outcome.owner_einhorn:
        if passes and owner is not None and variant.pass_stone:
            assert len(outcome.transfers) == settled + 1
            last = outcome.transfers[-1]
            assert (last.payer, last.payee) == (owner, roller)
            # The amount was settled with the central stash (4.8 Decision).
            assert last.stones == min(variant.pass_stone, held[owner])
        else:
            assert len(outcome.transfers) == settled
    # 4.9: the end checks, in this order.
    central_empty = after[CENTRAL] == 0
    someone_out = any(after[n] == 0 for n in names)
    assert outcome.game_over == (outcome.amount == WIN or central_empty or someone_out)
    ledger = match.ledger()
    if not outcome.game_over:
        assert ledger.awaiting is Awaiting.ROLL
        assert ledger.to_act == names[(names.index(roller) + 1) % len(names)]
        assert ledger.unicorn == (roller if passes else owner)
        return
    # 5.1, 5.2: game stones into the stashes; the unicorn back to the centre.
    stashes = {p.name: p.stash + after[p.name] for p in before.players}
    assert {p.name: p.stash for p in ledger.players} == stashes
    assert ledger.unicorn is None and all(p.game_stones == 0 for p in ledger.players)
    # 5.3: the match ends after the last game, with the central stash empty, or at
    # the target; otherwise the counter goes up and the auction begins.
    ends = (
        central_empty
        or before.game >= before.games
        or (before.target is not None and max(stashes.values()) >= before.target)
    )
    assert outcome.match_over == ends
    if ends:
        assert ledger.awaiting in (Awaiting.NOTHING, Awaiting.TIEBREAK_ROLL)
        assert ledger.game == before.game
    else:
        assert ledger.awaiting is Awaiting.BID and ledger.game == before.game + 1


def check_auction(match: Match, before: Ledger, outcome: AuctionResult) -> None:
    """5.5 and 5.6 once the last bid is in."""
    bids = dict(outcome.bids)
    assert set(bids) == set(match.names)
    assert all(0 <= bids[p.name] <= p.stash for p in before.players)
    best = max(bids.values())
    tied = tuple(n for n in match.names if bids[n] == best)
    if len(tied) > 1:
        assert outcome.winner is None and outcome.tied == tied
        ledger = match.ledger()
        assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and ledger.to_act == tied[0]
        assert ledger.central == before.central + sum(bids.values())
        return
    assert outcome.winner == tied[0] and outcome.tied == ()
    ledger = match.ledger()
    central = before.central + sum(bids.values())
    deal = match.state.variant.deal * len(match.names)
    if central >= deal:
        # 5.6: six each from the central stash; 5.7: top-ups follow.
        assert ledger.central == central - deal
        assert ledger.awaiting is Awaiting.TOPUP and ledger.unicorn == outcome.winner
        assert all(p.game_stones == match.state.variant.deal for p in ledger.players)
    else:
        # 5.6 (Decision): the central stash runs dry while dealing: the match ends.
        assert ledger.central == 0 and ledger.awaiting in (Awaiting.NOTHING,
                                                           Awaiting.TIEBREAK_ROLL)


def check_waiting(match: Match) -> None:
    """Section 9: who acts is the first in seat order of those who owe an input."""
    state = match.state
    ledger = match.ledger()
    owing = state.owing()
    if ledger.awaiting is Awaiting.NOTHING:
        assert owing == () and ledger.winner is not None
        return
    assert owing == tuple(sorted(owing)) and len(owing) >= 1
    assert ledger.to_act == match.names[owing[0]]
    one = (Awaiting.ROLL, Awaiting.COUNTERPARTY)
    if ledger.awaiting in one or state.phase.value == "rolloff":
        assert len(owing) == 1  # 7: exactly one player to act


def check_step(match: Match, before: Ledger, item: object, outcome: Outcome) -> None:
    if isinstance(outcome, TurnResult):
        check_turn(match, before, outcome)
    elif isinstance(outcome, AuctionResult):
        check_auction(match, before, outcome)
    elif isinstance(item, Roll):
        # 4.6: a roll settles at once unless its owner must choose a counterparty.
        ledger = match.ledger()
        assert ledger.awaiting is Awaiting.COUNTERPARTY and before.unicorn == item.player
        pending = match.state.pending_amount
        assert isinstance(pending, int) and pending != 0
        assert pending == match.state.variant.payout(categorize(item.dice), before.call)
    check_waiting(match)


def referee(match: Match, data: st.DataObject) -> None:
    """Play to the end with drawn bots and dice, checking every step against the text."""
    seats = [STRATEGIES[data.draw(st.sampled_from(sorted(STRATEGIES)))]() for _ in match.names]
    drawn = DrawnChance(data)
    chance: Chance = drawn
    steps = 0
    total = match.state.total_stones()
    while not match.over:
        steps += 1
        if steps == 120:
            chance = random.Random(data.draw(st.integers(0, 2**32)))
        for item in next_inputs(match.state, seats, chance, spell_out=True):
            before = match.ledger()
            outcome = match.apply(item)
            check_step(match, before, item, outcome)
            # 7: stones are never made or lost, no count is ever negative.
            assert match.state.total_stones() == total
            assert min(match.state.game_stones + match.state.stash + [match.state.central]) >= 0
        assert steps < 100_000


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups(), data=st.data())
def test_every_step_of_a_legal_match_follows_the_text(setup: Setup, data: st.DataObject) -> None:
    match = Match(setup)
    referee(match, data)
    ledger = match.ledger()
    # 6: game stones into the stashes first; the most stones wins.
    assert ledger.winner is not None and ledger.unicorn is None
    assert ledger.player(ledger.winner).stash == max(p.stash for p in ledger.players)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups(), data=st.data())
def test_a_refused_input_changes_nothing(setup: Setup, data: st.DataObject) -> None:
    """Section 8: an input the rules do not allow is refused and changes nothing."""
    match = Match(setup)
    seats = [STRATEGIES[data.draw(st.sampled_from(sorted(STRATEGIES)))]() for _ in match.names]
    chance = DrawnChance(data)
    for _ in range(data.draw(st.integers(0, 40))):
        if match.over:
            break
        for item in next_inputs(match.state, seats, chance):
            match.apply(item)
    text = data.draw(st.sampled_from(_WRONG_LINES)).replace("NAME", data.draw(
        st.sampled_from(match.names)))
    before = match.ledger()
    notation = match.notation()
    try:
        match.apply(parse_line(text))
    except RuleViolation as error:
        assert "RULES.md section" in str(error)
        assert match.ledger() == before and match.notation() == notation
    else:
        # Some lines are legal at some moments; then undo gives the same ledger back.
        match.apply(Undo())
        assert match.ledger() == before


_WRONG_LINES = [
    '{"type": "roll", "player": "NAME", "dice": [1, 2, 3]}',
    '{"type": "call", "player": "NAME", "call": "wunsch"}',
    '{"type": "counterparty", "player": "NAME", "party": "central"}',
    '{"type": "counterparty", "player": "NAME", "party": "NAME"}',
    '{"type": "bid", "player": "NAME", "stones": 1000}',
    '{"type": "bid", "player": "NAME", "stones": 0}',
    '{"type": "topup", "player": "NAME", "stones": 1000}',
    '{"type": "topup", "player": "NAME", "stones": 0}',
    '{"type": "tiebreak_roll", "player": "NAME", "dice": [1, 3, 5]}',
    '{"type": "start_roll", "player": "NAME", "dice": [6, 6, 6]}',
    '{"type": "roll", "player": "Zed", "dice": [1, 2, 3]}',
]


# --- the edges the text names, as match lines -----------------------------------


def _lines(*items: dict[str, object]) -> list[str]:
    return [json.dumps(item) for item in items]


def _setup(players: list[str], **more: object) -> dict[str, object]:
    return {"v": 1, "type": "setup", "variant": "einhorn", "players": players, **more}


def _roll(kind: str, player: str, dice: list[int]) -> dict[str, object]:
    return {"type": kind, "player": player, "dice": dice}


def _call(player: str, call: str | None) -> dict[str, object]:
    return {"type": "call", "player": player, "call": call}


def _bid(player: str, stones: int) -> dict[str, object]:
    return {"type": "bid", "player": player, "stones": stones}


def _refusal(match: Match, line: dict[str, object]) -> RuleViolation:
    before, notation = match.ledger(), match.notation()
    with pytest.raises(RuleViolation) as refused:
        match.apply(parse_line(json.dumps(line)))
    assert match.ledger() == before and match.notation() == notation
    return refused.value


#: Einhorn, three players, two games. Game 1 ends with stashes Ana 1, Ben 8, Cem 0.
GAME_ONE = _lines(
    _setup(["Ana", "Ben", "Cem"], games=2),
    _roll("start_roll", "Ana", [2, 5, 4]),
    _roll("start_roll", "Ben", [5, 2, 3]),
    _roll("start_roll", "Cem", [5, 3, 5]),  # Cem starts: 6 + 1
    _call("Cem", "dreifaltigkeit"),
    _roll("roll", "Cem", [2, 2, 6]),  # a Wunsch called wrong: -2, Cem 5
    _call("Ana", "unvermeidlich"),
    _roll("roll", "Ana", [6, 4, 1]),  # an Einhorn called wrong: -5, Ana 1 and the unicorn
    _call("Ben", "unvermeidlich"),
    _roll("roll", "Ben", [5, 2, 6]),  # +2, Ben 8
    _call("Cem", "unvermeidlich"),
    _roll("roll", "Cem", [1, 3, 6]),  # -5: Cem 0, the game ends (4.9)
)


def test_game_one_ends_when_a_player_has_no_game_stones_and_the_auction_opens() -> None:
    match = replay(GAME_ONE)
    ledger = match.ledger()
    assert [(p.game_stones, p.stash) for p in ledger.players] == [(0, 1), (0, 8), (0, 0)]
    assert ledger.unicorn is None and ledger.game == 2 and ledger.games_played == 1
    assert ledger.awaiting is Awaiting.BID and ledger.to_act == "Ana"
    assert ledger.central == 75 - 18 - 1 + 2 + 5 - 2 + 5 == 66


def test_a_bidder_who_cannot_pay_is_refused_naming_the_rule() -> None:
    match = replay(GAME_ONE)
    refused = _refusal(match, _bid("Cem", 1))  # Cem's stash is 0
    assert refused.rule == "5.5" and "only 0" in str(refused)


def test_an_auction_of_three_nothing_bids_ties_again_and_only_the_tied_roll() -> None:
    match = replay(GAME_ONE)
    for name in ("Ben", "Cem", "Ana"):  # bids come in any order
        match.apply(parse_line(json.dumps(_bid(name, 0))))
    ledger = match.ledger()
    # 5.5: all bid 0, so all of them roll; the first in seat order is named.
    assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and ledger.to_act == "Ana"
    match.apply(parse_line(json.dumps(_roll("tiebreak_roll", "Cem", [1, 1, 1]))))
    match.apply(parse_line(json.dumps(_roll("tiebreak_roll", "Ben", [6, 6, 6]))))
    assert _refusal(match, _roll("tiebreak_roll", "Cem", [6, 6, 6])).rule == "5.5"
    match.apply(parse_line(json.dumps(_roll("tiebreak_roll", "Ana", [5, 6, 6]))))
    # Ana 17, Ben 18: Ben's is the highest sum.
    ledger = match.ledger()
    assert ledger.unicorn == "Ben" and ledger.awaiting is Awaiting.TOPUP
    assert ledger.central == 66 - 18


def test_a_tie_for_the_unicorn_that_ties_again_rolls_again_among_the_tied() -> None:
    match = replay(GAME_ONE)
    for name in ("Ana", "Ben", "Cem"):
        match.apply(parse_line(json.dumps(_bid(name, 0))))
    for name, dice in (("Ana", [6, 6, 6]), ("Ben", [6, 6, 6]), ("Cem", [1, 1, 1])):
        match.apply(parse_line(json.dumps(_roll("tiebreak_roll", name, dice))))
    ledger = match.ledger()
    assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and match.state.contenders == (0, 1)
    refused = _refusal(match, _roll("tiebreak_roll", "Cem", [6, 6, 6]))
    assert "only Ana and Ben" in str(refused)
    match.apply(parse_line(json.dumps(_roll("tiebreak_roll", "Ben", [2, 2, 2]))))
    assert _refusal(match, _roll("tiebreak_roll", "Ben", [6, 6, 6])).rule == "5.5"
    match.apply(parse_line(json.dumps(_roll("tiebreak_roll", "Ana", [1, 1, 2]))))
    assert match.ledger().unicorn == "Ben"
    # Undo across the auction: the last tie-break roll is withdrawn, Ana rolls again.
    match.apply(Undo())
    ledger = match.ledger()
    assert ledger.unicorn is None and ledger.to_act == "Ana" and ledger.central == 66


#: Game 2: Ben (the only bid) owns the unicorn and the game ends with all three tied.
GAME_TWO = GAME_ONE + _lines(
    _bid("Ben", 1),
    _bid("Cem", 0),
    _bid("Ana", 0),
    _call("Ben", "unvermeidlich"),  # the owner's call closes the top-ups
    _roll("roll", "Ben", [6, 1, 1]),
    {"type": "counterparty", "player": "Ben", "party": "central"},
    _roll("roll", "Cem", [3, 1, 2]),
    _call("Ana", "unvermeidlich"),
    _roll("roll", "Ana", [2, 5, 6]),
    _call("Ben", "unvermeidlich"),
    _roll("roll", "Ben", [4, 2, 4]),
    {"type": "counterparty", "player": "Ben", "party": "central"},
    _call("Cem", "unvermeidlich"),
    _roll("roll", "Cem", [2, 3, 4]),
    _call("Ana", "unvermeidlich"),
    _roll("roll", "Ana", [1, 5, 5]),
    _call("Ben", "unvermeidlich"),
    _roll("roll", "Ben", [4, 5, 5]),
    {"type": "counterparty", "player": "Ben", "party": "central"},  # Ben's last 2
)


def test_three_tied_for_the_most_roll_off_in_seat_order_round_and_round() -> None:
    match = replay(GAME_TWO)
    ledger = match.ledger()
    # 6: game stones into the stashes first: 7 each.
    assert [p.stash for p in ledger.players] == [7, 7, 7]
    assert ledger.awaiting is Awaiting.TIEBREAK_ROLL and ledger.to_act == "Ana"
    assert ledger.game == 2 and ledger.games_played == 2 and ledger.winner is None
    assert _refusal(match, _roll("tiebreak_roll", "Ben", [1, 3, 5])).rule == "6"
    for name, dice in (("Ana", [1, 2, 3]), ("Ben", [2, 2, 2]), ("Cem", [6, 6, 5]),
                       ("Ana", [4, 4, 1])):
        match.apply(parse_line(json.dumps(_roll("tiebreak_roll", name, dice))))
        assert match.ledger().winner is None
    assert match.ledger().to_act == "Ben"
    match.apply(parse_line(json.dumps(_roll("tiebreak_roll", "Ben", [2, 4, 6]))))
    ledger = match.ledger()
    assert ledger.winner == "Ben" and ledger.awaiting is Awaiting.NOTHING
    # Undo the winning roll: the roll-off goes on with Ben to roll.
    match.apply(Undo())
    assert match.ledger().winner is None and match.ledger().to_act == "Ben"


def test_undo_across_the_end_of_a_game_brings_back_its_last_turn() -> None:
    match = replay(GAME_ONE)
    match.apply(Undo())  # Cem's last roll: game 1 goes on, Cem's call stands
    ledger = match.ledger()
    assert ledger.game == 1 and ledger.games_played == 0 and ledger.awaiting is Awaiting.ROLL
    assert ledger.to_act == "Cem" and ledger.call is Category.UNVERMEIDLICH
    assert ledger.unicorn == "Ana"
    assert [(p.game_stones, p.stash) for p in ledger.players] == [(1, 0), (8, 0), (5, 0)]
    again = replay(GAME_ONE[:-1])
    assert again.ledger() == ledger


# --- faults found in this review --------------------------------------------------


def test_a_zero_amount_with_a_pass_stone_is_not_reported_short() -> None:
    # RULES.md 4.7 and 4.8: a house variant (on wuerfeln) where a silent Einhorn pays 0;
    # the new owner still takes the old owner's stone. Nothing of the amount is short,
    # so nothing may be reported short (the screen said "0 due, all they held").
    house = variant_from_mapping(
        {"name": "quiet", "base": "wuerfeln", "payouts": {"einhorn": {"silent": 0}}}
    )
    match = Match(Setup.for_variant(house, ["Ana", "Ben"]))
    for line in _lines(
        _roll("start_roll", "Ana", [6, 6, 6]),
        _roll("start_roll", "Ben", [1, 1, 1]),
        _roll("roll", "Ana", [1, 3, 5]),  # silent Einhorn: 0; Ana takes the unicorn
    ):
        match.apply(parse_line(line))
    outcome = match.apply(parse_line(json.dumps(_roll("roll", "Ben", [2, 4, 6]))))
    assert isinstance(outcome, TurnResult) and outcome.amount == 0
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [("Ana", "Ben", 1)]
    assert outcome.short_by == 0


DIGITS = "1" + "0" * 5000


def test_a_match_line_with_a_number_too_long_to_read_is_refused_naming_its_line() -> None:
    # RULES.md 8: a line that is not valid notation is refused with its line number;
    # it stopped the replay with a Python traceback instead.
    long_line = '{"type": "start_roll", "player": "Ana", "dice": [1, 2, ' + DIGITS + "]}"
    lines = [*_lines(_setup(["Ana", "Ben"])), long_line]
    with pytest.raises(NotationError) as refused:
        replay(lines)
    assert refused.value.line == 2 and "longer than 4300 digits" in str(refused.value)
    with pytest.raises(json.JSONDecodeError):
        loads_json(DIGITS)


def test_a_house_variant_with_a_number_too_long_to_read_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text(f'name = "long"\ngames = {DIGITS}\n', encoding="utf-8")
    with pytest.raises(VariantError, match=r"is not valid TOML \(it holds a number longer"):
        load_variant(path)
    with pytest.raises(tomllib.TOMLDecodeError):
        loads_toml(f"games = {DIGITS}")



def test_a_name_typed_with_its_accent_apart_on_some_lines_is_the_same_player() -> None:
    # A hand-typed match file: the setup names "Zoë" with the letter and its mark apart
    # (some Linux input methods), the lines name her with the one letter "ë".
    apart, whole = "Zoe\u0308", "Zo\u00eb"
    lines = [
        json.dumps({"v": 1, "type": "setup", "players": [apart, "Ben"]}),
        json.dumps({"type": "start_roll", "player": whole, "dice": [6, 6, 5]}),
        json.dumps({"type": "start_roll", "player": "Ben", "dice": [1, 2, 4]}),
        json.dumps({"type": "call", "player": whole, "call": None}),
        json.dumps({"type": "roll", "player": apart, "dice": [1, 2, 4]}),
    ]
    match = replay(lines)
    assert match.setup.players == (whole, "Ben")
    assert [item.player for item in match.inputs] == [whole, "Ben", whole, whole]


def test_a_setup_made_by_the_table_holds_each_name_in_the_form_its_lines_are_read_in() -> None:
    # The demo's --names or calibrate's names typed apart: the match saved by the table,
    # read back after a restart, must name the same players as the table's seats.
    setup = Setup.for_variant(EINHORN, ["Zoe\u0308", "Ben"])
    assert setup.players == ("Zo\u00eb", "Ben")
    assert replay([format_input(setup)]).setup.players == setup.players
