"""What the screen tells the players against what the table does: the resume question
names everyone the match waited for, the help names the moment, the hints say what a
button does at that die, an undo takes back what the screen shows."""

from __future__ import annotations

import json

import pytest
from table_helpers import BLUE, RED, MemoryRecorder, chord, reading, tap

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import Roll, StartRoll, replay
from einhorn_table.screen.resume_view import resume_view
from einhorn_table.screen.view_model import _SHORT, ScreenKind, build_view
from einhorn_table.stations.gesture_table import Context, intent_for
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import MotionStarted, Settled
from einhorn_table.table.resume import Interrupted, ResumePrompt

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
WHITE = (240, 240, 240)
THREE = ["Ana", "Ben", "Cem"]


def setup_line(games: int = 10) -> str:
    return json.dumps({"v": 1, "type": "setup", "variant": "einhorn", "players": THREE,
                       "games": games})


def line(kind: str, player: str, **more: object) -> str:
    return json.dumps({"type": kind, "player": player, **more})


START = [line("start_roll", "Ana", dice=[6, 6, 5]), line("start_roll", "Ben", dice=[1, 1, 2]),
         line("start_roll", "Cem", dice=[1, 2, 2])]
#: Ben takes the unicorn, then pays his last stone: game 1 ends, the auction begins.
AUCTION = [setup_line(), *START, line("roll", "Ana", dice=[2, 2, 3]),
           line("call", "Ben", call="dreifaltigkeit"), line("roll", "Ben", dice=[1, 3, 5]),
           line("roll", "Cem", dice=[2, 2, 3]), line("roll", "Ana", dice=[2, 2, 3]),
           line("call", "Ben", call="einhorn"), line("roll", "Ben", dice=[2, 2, 3]),
           line("counterparty", "Ben", party="central")]


def table(lines: list[str]) -> tuple[TableController, MemoryRecorder]:
    match = replay(lines)
    recorder = MemoryRecorder()
    seats = [Seat(n, (RED, BLUE, WHITE)[i]) for i, n in enumerate(match.names)]
    return TableController(match, recorder, seats), recorder


def roll(c: TableController, values: list[int | None], colour: tuple[int, int, int] = RED,
         t: float = 0.0) -> None:
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading(values, colour)))


def resume_lines(lines: list[str]) -> tuple[str, list[bool]]:
    """The resume question's second line (whom the match waited for, the stashes), and
    which cards it frames."""
    match = replay(lines)
    prompt = ResumePrompt(Interrupted("7", "2026-11-22 19:40", match,
                                      tuple(Seat(n) for n in match.names)), match.names)
    view = resume_view(prompt, 0.0)
    assert view.kind is ScreenKind.RESUME
    return view.lines[1], [card.active for card in view.players]


# ---------------------------------------------------------------- the resume question


def test_the_resume_question_during_the_auction_names_everyone_still_to_bid() -> None:
    stood, framed = resume_lines([*AUCTION, line("bid", "Ana", stones=0)])
    assert stood.startswith("The auction for the unicorn was under way: Ben and Cem still "
                            "to bid. Stashes: Ana 5, Ben 0, Cem 5.")
    assert "was to play" not in stood
    assert framed == [False, True, True]


def test_the_resume_question_during_the_top_ups_names_everyone_still_to_top_up() -> None:
    bids = [line("bid", "Ana", stones=0), line("bid", "Ben", stones=0),
            line("bid", "Cem", stones=2), line("topup", "Cem", stones=0)]
    stood, framed = resume_lines([*AUCTION, *bids])
    assert stood.startswith("The top-ups were under way: Ana and Ben still to top up.")
    assert framed == [True, True, False]


def test_the_resume_question_at_the_start_names_everyone_still_to_roll() -> None:
    stood, framed = resume_lines([setup_line(), START[0]])
    assert stood.startswith("Who starts: Ben and Cem still to roll.")
    assert framed == [False, True, True]


def test_the_resume_question_in_the_owners_choice_says_what_was_to_be_chosen() -> None:
    stood, framed = resume_lines(AUCTION[:-1])
    assert stood.startswith("Ben was to choose who pays or is paid.")
    assert framed == [False, True, False]
    stood, _ = resume_lines([setup_line(), *START])
    assert stood == "Ana was to play. Stashes: Ana 0, Ben 0, Cem 0."


# ---------------------------------------------------------------- the help of the moment


def test_the_help_of_a_player_who_owes_a_starting_roll_says_to_roll() -> None:
    c, _ = table([setup_line(), START[0]])
    assert [c.context(p) for p in range(3)] == [Context.WAIT, Context.ROLL, Context.ROLL]
    c.on_gesture(chord(1, W, E, 1.0))
    assert build_view(c, 1.5).help_title == (
        "Ben, it's your roll: throw your three dice into the tray")
    c.on_gesture(chord(0, W, E, 2.0))  # Ana rolled already
    assert build_view(c, 2.5).help_title == "Ana, it's not your turn yet"


def test_the_help_in_the_winners_roll_off_says_to_roll_to_the_one_rolling() -> None:
    call = line("call", "Ana", call="einhorn")
    rounds = [call, line("roll", "Ana", dice=[2, 2, 3]), line("roll", "Ben", dice=[2, 2, 3]),
              line("roll", "Cem", dice=[2, 2, 3])]
    c, _ = table([setup_line(games=1), *START, *rounds * 3, call,
                  line("roll", "Ana", dice=[2, 2, 3])])  # Ben and Cem tie: the roll-off
    assert [c.context(p) for p in range(3)] == [Context.WAIT, Context.ROLL, Context.WAIT]


def test_the_help_leaves_the_screen_once_its_moment_is_over() -> None:
    c, _ = table([setup_line(), *START])
    c.on_gesture(chord(0, W, E, 1.0))  # Ana reads the help of her turn ...
    c.on_gesture(chord(1, W, E, 1.0))  # (Ben's replaces it: one help at a time)
    c.on_gesture(chord(0, W, E, 1.5))
    assert build_view(c, 2.0).help_title.startswith("Ana, it's your turn")
    roll(c, [2, 2, 3], t=3.0)  # ... and rolls without closing it
    view = build_view(c, 4.5)
    assert view.help == () and view.kind is ScreenKind.RESULT  # her roll is seen
    assert c.help is None  # (and the demo's bots go on)
    c.on_gesture(chord(1, W, E, 5.0))  # Ben's help of his turn stays while it is his turn
    assert build_view(c, 5.5).help_title.startswith("Ben, it's your turn")
    roll(c, [2, 2, 3], BLUE, t=6.0)
    assert c.help is None


# ---------------------------------------------------------------- undo


def test_an_undo_while_the_screen_asks_about_a_roll_takes_back_only_that_roll() -> None:
    c, r = table([setup_line(), *START])
    roll(c, [2, None, 3], t=10.0)  # Ana's roll, a die unclear: the screen asks
    assert c.pending is not None and build_view(c, 11.5).kind is ScreenKind.DOUBT
    c.on_gesture(chord(1, U, D, 12.0))  # Ben: "undo that misread roll"
    c.on_gesture(chord(2, U, D, 12.2))  # Cem saw it too: the same undo
    assert r.items == []  # Cem's starting roll before it stands
    assert len(c.match.inputs) == 3 and c.match.state.to_act == 0
    assert c.pending is None and c.call_locked  # thrown once: Ana rolls again
    assert c.notice_at(12.5) == ("Undone once (Ben and Cem both asked): the dice as read. "
                                 "Ana: roll again")
    roll(c, [2, 2, 3], t=14.0)
    assert [type(i) for i in r.items] == [Roll]


def test_nothing_to_undo_is_said_in_the_tables_words() -> None:
    c, _ = table([setup_line()])
    c.on_gesture(chord(0, U, D, 1.0))
    assert c.notice_at(1.5) == "Not now: nothing to undo yet."
    roll(c, [6, 6, 5], t=2.0)
    assert isinstance(c.match.inputs[-1], StartRoll)


# ---------------------------------------------------------------- the button hints


def test_the_hints_while_entering_dice_say_what_ok_and_x_do_at_that_die() -> None:
    c, r = table([setup_line(), *START])
    roll(c, [2, None, 3], t=10.0)
    hints = [b.does for b in build_view(c, 11.5).buttons]
    assert hints == ["lower", "higher", "next die", "roll again"]
    c.on_gesture(tap(0, E, 12.0))
    assert [b.does for b in build_view(c, 12.1).buttons][2:] == ["next die", "back"]
    c.on_gesture(tap(0, E, 12.2))
    assert [b.does for b in build_view(c, 12.3).buttons][2:] == ["done", "back"]
    c.on_gesture(tap(0, E, 12.4))  # "done" enters the roll
    assert [type(i) for i in r.items] == [Roll] and c.pending is None


def test_x_on_the_first_die_does_what_its_hint_says_roll_again() -> None:
    c, r = table([setup_line(), *START])
    roll(c, [2, None, 3], t=10.0)
    c.on_gesture(tap(0, D, 12.0))
    assert c.pending is None and r.items == []
    assert "roll again" in c.notice_at(12.1)


@pytest.mark.parametrize("context", sorted(_SHORT, key=str))
def test_every_hint_names_a_button_that_does_something_and_only_those(
        context: Context) -> None:
    for button, does in zip((U, W, E, D), _SHORT[context], strict=True):
        means = [intent_for(context, Gesture(0, kind, (button,), 0.0))
                 for kind in (GestureKind.TAP, GestureKind.LONG)]
        assert bool(does) is any(means), (context, button, does)
