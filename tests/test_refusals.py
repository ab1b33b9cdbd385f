"""Inputs the rules do not allow are refused, name their line and rule, and change nothing."""

from __future__ import annotations

import json

import pytest

from einhorn_table.rules import (
    Bid,
    Call,
    Category,
    MatchState,
    Roll,
    RuleViolation,
    Setup,
    Topup,
    replay,
    replay_steps,
)

SETUP2 = '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 2}'
ANA_STARTS = [
    SETUP2,
    '{"type": "start_roll", "player": "Ana", "dice": [4, 4, 5]}',
    '{"type": "start_roll", "player": "Ben", "dice": [1, 2, 3]}',
]
# Ana calls and rolls Dreifaltigkeit: game 1 ends, Ana's stash 13, Ben's 0; game 2's auction.
AUCTION = [
    *ANA_STARTS,
    '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
    '{"type": "roll", "player": "Ana", "dice": [1, 1, 1]}',
]
ANA_BID = [*AUCTION, '{"type": "bid", "player": "Ana", "stones": 2}']
TOPUPS = [*ANA_BID, '{"type": "bid", "player": "Ben", "stones": 0}']
ANA_TOPPED = [*TOPUPS, '{"type": "topup", "player": "Ana", "stones": 1}']
OWED = [*ANA_TOPPED, '{"type": "roll", "player": "Ana", "dice": [2, 3, 4]}']
TIE3 = [
    '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben", "Cem"]}',
    '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 1]}',
    '{"type": "start_roll", "player": "Ben", "dice": [5, 5, 3]}',
    '{"type": "start_roll", "player": "Cem", "dice": [1, 1, 2]}',
]
ROLLOFF = [
    '{"v": 1, "type": "setup", "variant": "wuerfeln", "players": ["Ana", "Ben", "Cem"], '
    '"games": 1}',
    '{"type": "start_roll", "player": "Ana", "dice": [2, 6, 3]}',
    '{"type": "start_roll", "player": "Ben", "dice": [1, 3, 3]}',
    '{"type": "start_roll", "player": "Cem", "dice": [6, 5, 5]}',
    '{"type": "roll", "player": "Cem", "dice": [5, 6, 3]}',
    '{"type": "call", "player": "Ana", "call": "unvermeidlich"}',
    '{"type": "roll", "player": "Ana", "dice": [4, 2, 6]}',
    '{"type": "roll", "player": "Ben", "dice": [6, 2, 4]}',
]
OVER = [*ROLLOFF, '{"type": "tiebreak_roll", "player": "Ben", "dice": [1, 3, 5]}']

CASES = [
    # (name, lines before, the refused line, rule, words in the message)
    ("wrong player rolls", ANA_STARTS, '{"type": "roll", "player": "Ben", "dice": [1, 2, 3]}',
     "3.1", "Ana's turn"),
    ("wrong player calls", ANA_STARTS, '{"type": "call", "player": "Ben", "call": "wunsch"}',
     "3.1", "Ana's turn"),
    ("unknown player", ANA_STARTS, '{"type": "roll", "player": "Zoe", "dice": [1, 2, 3]}',
     "3.1", "does not play"),
    ("die showing 7", ANA_STARTS, '{"type": "roll", "player": "Ana", "dice": [1, 2, 7]}',
     "1", "1 to 6"),
    ("two dice", ANA_STARTS, '{"type": "roll", "player": "Ana", "dice": [1, 2]}', "1", "three"),
    ("call that is no category", ANA_STARTS,
     '{"type": "call", "player": "Ana", "call": "pasch"}', "4.1", "not a call"),
    ("bid before the game ends", ANA_STARTS, '{"type": "bid", "player": "Ana", "stones": 0}',
     "4", "not expected"),
    ("bid above stash", AUCTION, '{"type": "bid", "player": "Ana", "stones": 14}',
     "5.5", "only 13"),
    ("bid above an empty stash", AUCTION, '{"type": "bid", "player": "Ben", "stones": 1}',
     "5.5", "only 0"),
    ("negative bid", AUCTION, '{"type": "bid", "player": "Ana", "stones": -1}', "8", "at least 0"),
    ("bid twice", ANA_BID, '{"type": "bid", "player": "Ana", "stones": 1}', "5.5", "already"),
    ("roll during the auction", AUCTION, '{"type": "roll", "player": "Ana", "dice": [1, 2, 3]}',
     "5.5", "not expected"),
    ("top-up above stash", TOPUPS, '{"type": "topup", "player": "Ben", "stones": 1}',
     "5.7", "only 0"),
    ("top-up twice", ANA_TOPPED, '{"type": "topup", "player": "Ana", "stones": 1}',
     "5.7", "already"),
    ("non-owner rolls before the owner", TOPUPS,
     '{"type": "roll", "player": "Ben", "dice": [1, 2, 3]}', "5.8", "rolls first"),
    ("counterparty when none is owed", ANA_STARTS,
     '{"type": "counterparty", "player": "Ana", "party": "Ben"}', "4", "not expected"),
    ("counterparty by another player", OWED,
     '{"type": "counterparty", "player": "Ben", "party": "central"}', "4.6", "Ana owns"),
    ("owner as own counterparty", OWED,
     '{"type": "counterparty", "player": "Ana", "party": "Ana"}', "4.6", "own counterparty"),
    ("counterparty nobody knows", OWED,
     '{"type": "counterparty", "player": "Ana", "party": "bank"}', "3.1", "does not play"),
    ("roll while a counterparty is owed", OWED,
     '{"type": "roll", "player": "Ben", "dice": [1, 2, 3]}', "4.6", "counterparty"),
    ("start roll by a player not tied", TIE3,
     '{"type": "start_roll", "player": "Cem", "dice": [6, 6, 6]}', "3.3", "only Ana and Ben"),
    ("start roll twice in a round", TIE3[:2],
     '{"type": "start_roll", "player": "Ana", "dice": [1, 1, 1]}', "3.3", "already rolled"),
    ("roll-off out of turn", ROLLOFF,
     '{"type": "tiebreak_roll", "player": "Cem", "dice": [1, 3, 5]}', "6", "Ben's roll"),
    ("roll-off by a player not tied", ROLLOFF,
     '{"type": "tiebreak_roll", "player": "Ana", "dice": [1, 3, 5]}', "6", "not in the roll-off"),
    ("input after the match ended", OVER,
     '{"type": "roll", "player": "Ana", "dice": [1, 2, 3]}', "6", "match is over"),
    ("malformed JSON", ANA_STARTS, '{"type": "roll", "player": "Ana", "dice": [1, 2, 3]',
     "8", "not JSON"),
    ("not an object", ANA_STARTS, '[1, 2, 3]', "8", "JSON object"),
    ("unknown line type", ANA_STARTS, '{"type": "pass", "player": "Ana"}', "8", "unknown line"),
    ("line without a type", ANA_STARTS, '{"player": "Ana", "dice": [1, 2, 3]}', "8", 'no "type"'),
    ("second setup", ANA_STARTS, SETUP2, "8", "one setup"),
    ("roll without dice", ANA_STARTS, '{"type": "roll", "player": "Ana"}', "8", "dice"),
    ("a type that is not a word", ANA_STARTS,
     '{"type": ["roll"], "player": "Ana", "dice": [1, 2, 3]}', "8", "unknown line type"),
    ("a call line without its call", ANA_STARTS, '{"type": "call", "player": "Ana"}', "4.1",
     'needs "call"'),
    ("a name that is no text", ANA_STARTS,
     '{"type": "roll", "player": "An\\ud800", "dice": [1, 2, 3]}', "8", "not a character"),
]


@pytest.mark.parametrize(("before", "bad", "rule", "words"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_refused_with_line_and_rule_and_nothing_changes(
    before: list[str], bad: str, rule: str, words: str
) -> None:
    match = replay(before)
    ledger, record = match.ledger(), list(match.record)
    with pytest.raises(RuleViolation) as caught:
        list(replay_steps([*before, bad]))
    error = caught.value
    assert error.line == len(before) + 1
    assert f"line {len(before) + 1}:" in str(error)
    assert f"RULES.md section {rule}" in str(error)
    assert words in str(error)
    # Applying it to the live match changes nothing either.
    from einhorn_table.rules import parse_line

    try:
        match.apply(parse_line(bad))
    except RuleViolation:
        pass
    else:
        pytest.fail("the live match accepted it")
    assert match.ledger() == ledger
    assert match.record == record


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"players": ["Ana"]}, "2 to 6 players"),
        ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "2 to 6 players"),
        ({"players": ["Ana", "Ana"]}, "same name"),
        ({"players": ["Zo\u00eb", "Zoe\u0308"]}, "same name"),
        ({"players": ["Ana", "central"]}, "central stash"),
        ({"players": ["Ana", "Ben"], "central": 12}, "more than 6 stones per player"),
        ({"players": ["Ana", "Ben"], "variant": "yahtzee"}, "no variant"),
        ({"players": ["Ana", "Ben"], "games": 0}, "at least 1"),
        ({"players": ["Ana", "Ben"], "v": 2}, "version 2"),
        ({"players": ["Ana", "Ben"], "v": True}, "version True"),
        ({"players": ["Ana", "Ben"], "v": 1.0}, "version 1.0"),
        ({"players": ["Ana", "B\ud800"]}, "not a character"),
        ({"players": ["Ana", "Ben\tLi"]}, "cannot be shown"),
        ({"players": ["Ana", "Ben"], "payouts": {"wunsch": {"correct": "lots"}}}, "wunsch.correct"),
    ],
)
def test_bad_setups_are_refused_on_line_1(setup: dict[str, object], words: str) -> None:
    line = json.dumps({"v": 1, "type": "setup", **setup})
    with pytest.raises(RuleViolation) as caught:
        replay([line])
    assert caught.value.line == 1
    assert words in str(caught.value)


def test_a_file_must_start_with_its_setup() -> None:
    with pytest.raises(RuleViolation, match=r"line 1: .*starts with the setup"):
        replay(ANA_STARTS[1:])


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(RuleViolation, match=r"line 2: .*nothing to undo"):
        replay([SETUP2, '{"type": "undo"}'])


def test_undo_after_the_end_brings_the_match_back() -> None:
    match = replay([*OVER, '{"type": "undo"}'])
    assert match.ledger().awaiting.value == "tiebreak_roll"
    assert match.ledger().to_act == "Ben"
    assert match.ledger().winner is None


def test_empty_file() -> None:
    with pytest.raises(RuleViolation, match="empty"):
        replay([])


@pytest.mark.parametrize(("games", "target", "words"), [
    (0, None, "at least one game"), (10, 0, "at least 1 stone, not 0"), (10, -3, "not -3"),
])
def test_a_setup_made_in_code_is_checked_like_a_setup_line(
        games: int, target: int | None, words: str) -> None:
    setup = Setup(players=("Ana", "Ben"), variant="wuerfeln", games=games, target=target)
    with pytest.raises(RuleViolation, match=words):
        MatchState(setup)


@pytest.mark.parametrize(
    ("bad", "words"),
    [(Bid(player="Ben", stones=-50), "Ben's bid must be a whole number"),
     (Bid(player="Ben", stones=True), "Ben's bid must be a whole number")],  # type: ignore[arg-type]
)
def test_the_engine_refuses_a_negative_bid_made_in_code(bad: Bid, words: str) -> None:
    """The notation refuses such a line; the engine itself must too (section 7)."""
    match = replay(AUCTION)
    ledger = match.ledger()
    with pytest.raises(RuleViolation, match=words):
        match.apply(bad)
    assert match.ledger() == ledger


def test_the_engine_refuses_a_negative_top_up_made_in_code() -> None:
    match = replay(TOPUPS)
    ledger = match.ledger()
    with pytest.raises(RuleViolation, match="Ana's top-up must be a whole number"):
        match.apply(Topup(player="Ana", stones=-5))
    assert match.ledger() == ledger


def test_the_engine_refuses_a_call_that_is_not_a_category() -> None:
    """A plain string would never equal the rolled category: a right call paid as wrong."""
    match = replay(ANA_STARTS)
    with pytest.raises(RuleViolation, match="not a call"):
        match.apply(Call(player="Ana", call="wunsch"))  # type: ignore[arg-type]
    match.apply(Call(player="Ana", call=Category.WUNSCH))
    match.apply(Roll(player="Ana", dice=(1, 1, 2)))
    assert match.ledger().player("Ana").game_stones == 6 + 1 + 2


def test_names_in_any_script_are_welcome() -> None:
    setup = Setup(players=("Jürgen", "Zoë Ann", "李娜", "👨\u200d👩\u200d👧"))
    assert MatchState(setup).names == setup.players


def test_a_name_from_a_command_line_byte_that_is_not_utf8_is_refused() -> None:
    """``--names`` passes such a byte on as a lone surrogate; the history could not
    store it."""
    with pytest.raises(RuleViolation, match="cannot be shown"):
        MatchState(Setup(players=("Ana", "B\udcff")))


def test_a_call_refused_during_the_top_ups_leaves_them_open() -> None:
    """The refusal comes before the call would close the top-ups: nothing changes, and
    Ben may still top up."""
    match = replay(ANA_TOPPED)
    ledger = match.ledger()
    with pytest.raises(RuleViolation, match="not a call"):
        match.apply(Call(player="Ana", call="wunsch"))  # type: ignore[arg-type]
    assert match.ledger() == ledger
    match.apply(Topup(player="Ben", stones=0))
