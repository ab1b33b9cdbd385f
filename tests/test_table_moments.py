"""Moments at a real table that go beyond one player's turn: two players undoing the
same slip, an undo while the next dice roll, the owner calling during the top-ups, a
restart in the owner's choice, the roll that ends the match, an undo after the
auction's reveal or after the match's end."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from table_helpers import BLUE, RED, MemoryRecorder, chord, reading, tap

from einhorn_table.history import MatchStore, TableLog
from einhorn_table.history.stats import gather
from einhorn_table.ports import Button
from einhorn_table.rules import (
    EINHORN,
    Awaiting,
    Bid,
    Call,
    Category,
    Counterparty,
    Roll,
    Setup,
    Topup,
    Undo,
    replay,
)
from einhorn_table.screen.view_model import (
    RESULT_SECONDS,
    REVEAL_SECONDS,
    ScreenKind,
    build_view,
)
from einhorn_table.stations.gesture_table import Context
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import MotionStarted, Settled

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
WHITE = (240, 240, 240)
COLOURS = (RED, BLUE, WHITE)


def setup_line(names: list[str], **more: object) -> str:
    return json.dumps({"v": 1, "type": "setup", "variant": "einhorn", "players": names,
                       "games": 10, **more})


def table(lines: list[str], seats: list[Seat] | None = None
          ) -> tuple[TableController, MemoryRecorder]:
    """A table that picks up the match of these lines, as after a restart."""
    match = replay(lines)
    recorder = MemoryRecorder()
    seats = seats or [Seat(n, COLOURS[i]) for i, n in enumerate(match.names)]
    return TableController(match, recorder, seats), recorder


def roll(c: TableController, values: list[int], colour: tuple[int, int, int] = RED,
         t: float = 0.0) -> None:
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(list(values), colour)))


START = ['{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
         '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
         '{"type": "start_roll", "player": "Cem", "dice": [1, 2, 2]}']
THREE = ["Ana", "Ben", "Cem"]


def roll_line(player: str, dice: list[int]) -> str:
    return json.dumps({"type": "roll", "player": player, "dice": dice})


# ---------------------------------------------------------------- undo


def test_two_players_undoing_the_same_slip_at_once_undo_it_once() -> None:
    c, r = table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5])])
    roll(c, [2, 2, 3], BLUE, t=10.0)  # Ben's roll, misread
    c.on_gesture(chord(1, U, D, 12.0))
    c.on_gesture(chord(2, U, D, 12.15))  # Cem saw it too
    assert [type(i) for i in r.items] == [Roll, Undo]
    assert c.match.ledger().to_act == "Ben" and c.match.ledger().unicorn == "Ana"
    # The same player pressing again goes back further, as the buttons' guide says.
    c.on_gesture(chord(1, U, D, 12.3))
    assert [type(i) for i in r.items] == [Roll, Undo, Undo]
    assert c.match.ledger().to_act == "Ana"


def test_another_players_undo_a_while_later_is_a_second_undo() -> None:
    c, r = table([setup_line(THREE), *START, roll_line("Ana", [1, 3, 5])])
    roll(c, [2, 2, 3], BLUE, t=10.0)
    c.on_gesture(chord(1, U, D, 12.0))
    c.on_gesture(chord(2, U, D, 14.0))
    assert [type(i) for i in r.items] == [Roll, Undo, Undo]


def test_dice_thrown_while_an_undo_gives_the_roll_back_count_for_nobody() -> None:
    # One family set of dice: the colour cannot tell whose roll it is.
    c, r = table([setup_line(THREE), *START], [Seat(n) for n in THREE])
    c.on_gesture(tap(0, E, 0.5))
    roll(c, [2, 2, 3], t=1.0)  # Ana's Einhorn, misread
    c.on_gesture(tap(1, W, 3.0))  # Ben calls and throws ...
    c.on_tray(MotionStarted(4.0))
    c.on_gesture(chord(2, U, D, 4.3))  # ... while Cem undoes Ana's roll
    c.on_tray(Settled(5.0, reading([5, 5, 1])))
    assert [type(i) for i in r.items] == [Call, Roll, Undo]  # Ben's dice are nobody's roll
    assert c.awaiting is Awaiting.ROLL and c.match.ledger().to_act == "Ana"
    assert c.notice is not None and "do not count" in c.notice.text and "Ana" in c.notice.text
    assert not c.call_locked and c.call_draft is Category.EINHORN  # her call stands
    roll(c, [2, 4, 6], t=6.0)
    assert r.items[-1] == Roll(player="Ana", dice=(2, 4, 6), extra=r.items[-1].extra)


#: Ben takes the unicorn, then pays his last stone: the first game ends, the auction begins.
AUCTION = [setup_line(THREE), *START, roll_line("Ana", [2, 2, 3]),
           '{"type": "call", "player": "Ben", "call": "dreifaltigkeit"}',
           roll_line("Ben", [1, 3, 5]), roll_line("Cem", [2, 2, 3]), roll_line("Ana", [2, 2, 3]),
           '{"type": "call", "player": "Ben", "call": "einhorn"}', roll_line("Ben", [2, 2, 3]),
           '{"type": "counterparty", "player": "Ben", "party": "central"}']


def test_undoing_the_bid_that_ended_the_auction_takes_back_every_bid() -> None:
    c, r = table(AUCTION)
    assert c.awaiting is Awaiting.BID
    for player, stones in ((2, 4), (1, 0), (0, 3)):
        for _ in range(stones):
            c.on_gesture(tap(player, W, 1.0))
        c.on_gesture(tap(player, E, 1.1))
    assert c.match.ledger().unicorn == "Cem"  # revealed: 3, 0, 4
    c.on_gesture(chord(2, U, D, 3.0))  # Cem pressed one too many
    assert [type(i) for i in r.items] == [Bid, Bid, Bid, Undo, Undo, Undo]
    assert c.awaiting is Awaiting.BID and sorted(c.match.state.owing()) == [0, 1, 2]
    assert c.notice is not None and "everybody bids again" in c.notice.text


def test_an_undo_while_bids_are_secret_takes_back_one_bid() -> None:
    c, r = table(AUCTION)
    c.on_gesture(tap(2, E, 1.0))
    c.on_gesture(tap(1, E, 1.1))
    c.on_gesture(chord(2, U, D, 3.0))
    assert [type(i) for i in r.items] == [Bid, Bid, Undo]
    assert sorted(c.match.state.owing()) == [0, 1]


def test_an_undo_after_the_end_puts_the_match_back_in_play_in_the_history(
        tmp_path: Path) -> None:
    store = MatchStore(tmp_path, now=lambda: datetime(2026, 11, 26, tzinfo=UTC))
    log = TableLog(store)
    match_id = log.begin(Setup.for_variant(EINHORN, ["Ana", "Ben"], games=1))
    assert log.recorder is not None
    c = TableController(replay([store.notation(match_id).splitlines()[0]]), log.recorder,
                        [Seat("Ana", RED), Seat("Ben", BLUE)])
    roll(c, [6, 6, 5], RED, 0.0)
    roll(c, [1, 1, 2], BLUE, 2.0)
    c.on_gesture(tap(0, D, 3.0))
    roll(c, [4, 4, 4], RED, 4.0)  # read 4 4 4: Ana takes every stone and wins
    assert c.match.over and store.get(match_id).state == "finished"
    assert [p.wins for p in gather(store).players] == [1, 0]

    c.on_gesture(chord(1, U, D, 10.0))  # Ben: those were 4 4 2
    row = store.get(match_id)
    assert (row.state, row.winner, row.finished) == ("playing", None, None)
    assert store.unfinished() is not None and store.unfinished().match_id == match_id
    assert gather(store).players == ()  # no longer counted as won

    roll(c, [4, 4, 2], RED, 12.0)
    while not c.match.over:  # play it out: the same rolls until a player runs out
        player = c.match.state.to_act
        assert player is not None
        roll(c, [2, 2, 3], (RED, BLUE)[player], 20.0)
    row = store.get(match_id)
    assert row.state == "finished" and row.winner == c.match.ledger().winner
    stats = gather(store)
    assert sum(p.matches for p in stats.players) == 2  # two players, counted once
    assert sum(p.wins for p in stats.players) == 1


# ---------------------------------------------------------------- the owner


def test_the_owners_call_during_the_top_ups_stays_when_another_seals_theirs() -> None:
    c, r = table([setup_line(THREE), *START,
                  '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
                  roll_line("Ana", [4, 4, 4]),
                  '{"type": "bid", "player": "Ana", "stones": 3}',
                  '{"type": "bid", "player": "Ben", "stones": 0}',
                  '{"type": "bid", "player": "Cem", "stones": 0}'])
    assert c.awaiting is Awaiting.TOPUP and c.match.ledger().unicorn == "Ana"
    c.on_gesture(tap(0, E, 1.0))  # Ana's top-up: 0
    assert c.context(0) is Context.CALL
    c.on_gesture(tap(0, W, 2.0))  # she calls Wunsch while the others count
    view = build_view(c, 2.5)
    assert view.kind is ScreenKind.TOPUP and view.call is Category.WUNSCH
    assert "Then Ana rolls (Wunsch)" in view.subtitle
    c.on_gesture(tap(1, E, 3.0))  # Ben seals his top-up; Cem still counts
    assert c.call_draft is Category.WUNSCH
    roll(c, [2, 2, 5], RED, t=4.0)
    assert [type(i) for i in r.items] == [Topup, Topup, Call, Roll]
    assert c.match.state.pending_amount == 2  # a Wunsch called and rolled


def test_the_owners_roll_says_a_top_up_counted_but_not_sealed_moves_nothing() -> None:
    call = '{"type": "call", "player": "Ana", "call": "einhorn"}'
    rounds = [call, roll_line("Ana", [2, 2, 3]), roll_line("Ben", [2, 2, 3]),
              roll_line("Cem", [2, 2, 3])]
    c, r = table([setup_line(THREE), *START, *rounds * 3, call, roll_line("Ana", [2, 2, 3]),
                  '{"type": "bid", "player": "Ana", "stones": 0}',
                  '{"type": "bid", "player": "Ben", "stones": 0}',
                  '{"type": "bid", "player": "Cem", "stones": 2}'])  # Ana ran out; Cem owns
    assert c.awaiting is Awaiting.TOPUP and c.match.state.stash[1] >= 3
    c.on_gesture(tap(2, E, 1.0))  # Cem, the owner, tops up 0
    for _ in range(3):
        c.on_gesture(tap(1, W, 2.0))  # Ben counts +3 ...
    roll(c, [2, 2, 3], WHITE, t=3.0)  # ... and Cem rolls before he seals it
    assert [type(i) for i in r.items] == [Topup, Roll]
    assert c.notice is not None
    assert c.notice.text.startswith("Ben's top-up of 3 was counted but not done with OK")


def test_after_a_restart_in_the_owners_choice_the_screen_asks_it_with_the_dice() -> None:
    c, r = table([setup_line(["Ana", "Ben"]), *START[:2], roll_line("Ana", [1, 3, 5]),
                  roll_line("Ben", [2, 2, 3]), roll_line("Ana", [2, 2, 4])])
    assert c.last is None and c.awaiting is Awaiting.COUNTERPARTY
    view = build_view(c, 100.0)
    assert view.kind is ScreenKind.COUNTERPARTY and view.title == "Ana pays 1: to whom?"
    assert [d.value for d in view.dice] == [2, 2, 4] and view.category is Category.WUNSCH
    c.on_gesture(tap(0, E, 101.0))  # OK settles with the one shown
    assert r.items == [Counterparty(player="Ana", party="central")]


def test_the_owners_choice_says_when_taking_from_the_central_stash_ends_the_match() -> None:
    c, _ = table([setup_line(THREE, central=22), *START, roll_line("Ana", [1, 3, 5]),
                  roll_line("Ben", [2, 2, 3]), roll_line("Cem", [2, 2, 3]),
                  roll_line("Ana", [5, 5, 5])])
    assert c.match.state.central == 4 and c.match.state.pending_amount == 5
    view = build_view(c, 1.0)
    assert view.subtitle.startswith("The central stash holds only 4: taking from it "
                                    "empties it and ends the match")


# ---------------------------------------------------------------- the end of the match


def test_the_roll_that_ends_the_match_is_shown_before_the_final_standings() -> None:
    c, _ = table([json.dumps({"v": 1, "type": "setup", "variant": "einhorn",
                              "players": ["Ana", "Ben"], "games": 1}), *START[:2]])
    c.on_gesture(tap(0, D, 1.0))
    roll(c, [4, 4, 4], RED, t=2.0)
    assert c.match.over
    view = build_view(c, 3.1)
    assert view.kind is ScreenKind.RESULT and [d.value for d in view.dice] == [4, 4, 4]
    assert view.lines[0] == "called Dreifaltigkeit - right!"
    assert view.lines[-1] == "The match is over"
    later = build_view(c, 3.0 + max(RESULT_SECONDS, REVEAL_SECONDS))
    assert later.kind is ScreenKind.FINAL and later.subtitle == "Ana wins!"


def test_a_game_that_ends_with_the_match_going_on_says_game_over() -> None:
    c, _ = table([setup_line(["Ana", "Ben"]), *START[:2]])
    c.on_gesture(tap(0, D, 1.0))
    roll(c, [4, 4, 4], RED, t=2.0)
    view = build_view(c, 3.1)
    assert view.kind is ScreenKind.RESULT and view.lines[-1] == "Game over"


# ---------------------------------------------------------------- the call's lock


def test_a_doubtful_rolls_dice_taken_out_keep_the_call_locked() -> None:
    c, r = table([setup_line(["Ana", "Ben"]), *START[:2]])
    c.on_gesture(tap(0, E, 1.0))
    c.on_tray(MotionStarted(2.0))
    c.on_tray(Settled(3.0, reading([2, 2, 3, 5])))  # a fourth die: doubtful
    assert c.pending is not None
    c.on_tray(MotionStarted(5.0))  # Ana takes the dice out to roll again
    c.on_tray(Settled(6.0, reading([])))
    assert c.call_locked
    c.on_gesture(tap(0, W, 6.5))  # she saw the dice: too late to change the call
    assert c.call_draft is Category.EINHORN
    assert c.notice is not None and "thrown once this turn" in c.notice.text
    assert build_view(c, 6.6).subtitle.startswith("Call locked")
    roll(c, [4, 4, 1], t=8.0)
    first = r.items[0]
    assert isinstance(first, Call) and first.call is Category.EINHORN


# ---------------------------------------------------------------- ties


def test_who_rolls_again_in_a_tie_shows_no_sum_of_the_round_before() -> None:
    c, _ = table([setup_line(THREE), *START,
                  '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
                  roll_line("Ana", [4, 4, 4])])
    for player in range(3):  # everybody bids 0: a tie of all three
        c.on_gesture(tap(player, E, 1.0 + player / 10))
    roll(c, [5, 4, 1], RED, 10.0)  # Ana 10
    roll(c, [6, 3, 1], BLUE, 12.0)  # Ben 10
    roll(c, [1, 1, 2], WHITE, 14.0)  # Cem 4: Ana and Ben roll again
    cards = {p.name: p.status for p in build_view(c, 20.0).players}
    assert cards == {"Ana": "", "Ben": "", "Cem": "rolled 4"}


def test_the_winners_roll_off_says_einhorn_or_not_instead_of_a_sum() -> None:
    call = '{"type": "call", "player": "Ana", "call": "einhorn"}'
    rounds = [call, roll_line("Ana", [2, 2, 3]), roll_line("Ben", [2, 2, 3]),
              roll_line("Cem", [2, 2, 3])]
    c, _ = table([json.dumps({"v": 1, "type": "setup", "variant": "einhorn",
                              "players": THREE, "games": 1}), *START, *rounds * 3, call,
                  roll_line("Ana", [2, 2, 3])])  # Ben and Cem tie on 3: the roll-off
    roll(c, [6, 6, 5], BLUE, 10.0)
    view = build_view(c, 11.0)
    assert view.title == "Ben rolled no Einhorn"
    assert {p.name: p.status for p in build_view(c, 20.0).players}["Ben"] == "no Einhorn"
    roll(c, [2, 4, 6], WHITE, 30.0)
    assert c.match.ledger().winner == "Cem"
    assert build_view(c, 31.0).title == "Cem rolled an Einhorn!"
