"""The demo's keys as a first-time visitor meets them (fourth review): every question's
button tiles say which key presses them (the auction, the top-ups, whom to settle with,
the dice, the final standings, whether to go on); a key that does nothing at the moment
is answered with a line saying what the keys do now; ``--names`` and ``--players`` that
disagree, and ``--continue`` with nothing to go on with, are refused with what to type."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_helpers import BLUE, RED, chord, controller, reading, tap  # noqa: E402
from test_demo_review import (  # noqa: E402
    answer_the_question,
    at_the_keyboard,
    leave_a_match,
    options,
    quit_demo,
)
from test_demo_review import tap as press  # noqa: E402
from test_demo_review3 import shown_views  # noqa: E402

from einhorn_table.cli import main  # noqa: E402
from einhorn_table.cli.table_app import DemoKeys, KeyboardScreen, run_demo  # noqa: E402
from einhorn_table.ports import Button, Gesture, GestureKind  # noqa: E402
from einhorn_table.rules import Awaiting  # noqa: E402
from einhorn_table.screen.view_model import (  # noqa: E402
    ScreenKind,
    ScreenView,
    build_view,
    button_hints,
)
from einhorn_table.stations.gesture_table import Context  # noqa: E402
from einhorn_table.table.controller import TableController  # noqa: E402
from einhorn_table.table.events import MotionStarted, Settled  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
LATER = 100.0  # (seconds on: the roll before is no longer shown)


@pytest.fixture(autouse=True)
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("EINHORN_COMMAND", raising=False)
    yield


# ---------------------------------------------------------------- the table's moments


def roll(c: TableController, values: list[int | None], colour: tuple[int, int, int] = RED,
         ) -> None:
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading(values, colour)))


def started() -> TableController:
    """Ana (at the keyboard) starts; Ben rolled less."""
    c, _ = controller()
    c.archive = lambda: None  # type: ignore[assignment,return-value]  # (the final's +)
    roll(c, [6, 6, 5])
    roll(c, [1, 1, 2], BLUE)
    return c


def at_the_auction() -> TableController:
    c = started()
    c.on_gesture(tap(0, D))  # Ana calls Dreifaltigkeit and rolls it: the game is won
    roll(c, [4, 4, 4])
    assert c.awaiting is Awaiting.BID
    return c


def at_the_topups() -> TableController:
    """Ana took the unicorn (the roll-off of a tie at 0 each) and tops up."""
    c = at_the_auction()
    c.on_gesture(tap(0, E))
    c.on_gesture(tap(1, E))
    if c.awaiting is Awaiting.TIEBREAK_ROLL:
        roll(c, [6, 6, 6])
        roll(c, [1, 1, 2], BLUE)
    assert c.awaiting is Awaiting.TOPUP and c.match.state.unicorn == 0
    return c


def keyboard_view(c: TableController, bots: frozenset[int] = frozenset({1}),
                  now: float = LATER) -> ScreenView:
    """The screen as the demo shows it, Ana at the keyboard (and Ben, if no bot)."""
    shown: list[ScreenView] = []
    inner = SimpleNamespace(quit_requested=False,
                            show=lambda view, now, key=None: shown.append(view))
    screen = KeyboardScreen(inner, ["Ana", "Ben"], bots,  # type: ignore[arg-type]
                            lambda: c, lambda: c.roller() if c.roller() not in bots else None)
    screen.show(build_view(c, now), now)
    return shown[-1]


def tiles(view: ScreenView) -> list[str]:
    return [hint.does for hint in view.buttons]


def test_the_auction_tiles_say_anas_keys() -> None:
    view = keyboard_view(at_the_auction())
    assert view.kind is ScreenKind.AUCTION
    assert tiles(view) == ["key 1: less", "key 2: more", "key 3: done", "key 4: from 0"]


def test_with_two_people_at_the_keyboard_each_tile_says_both_keys() -> None:
    view = keyboard_view(at_the_auction(), bots=frozenset())
    assert tiles(view) == ["1/Q: less", "2/W: more", "3/E: done", "4/R: from 0"]


def test_a_tile_is_only_keyed_for_who_is_asked() -> None:
    """Ana sealed her bid: the strip is Ben's (a bot's) now, and says no key of hers."""
    c = at_the_auction()
    c.on_gesture(tap(0, E))
    assert tiles(keyboard_view(c)) == ["less", "more", "done", "from 0"]
    assert tiles(keyboard_view(c, bots=frozenset())) == [
        "key Q: less", "key W: more", "key E: done", "key R: from 0"]


def test_the_topup_tiles_say_the_keys_and_the_owner_calling_is_told_hers() -> None:
    c = at_the_topups()
    assert tiles(keyboard_view(c)) == ["key 1: less", "key 2: more", "key 3: done",
                                       "key 4: to 0"]
    # Ben (a person now) still tops up while Ana, done, may call already: the line under
    # the title says which keys call, and the tiles are Ben's.
    c.on_gesture(tap(0, E))
    assert c.context(0) is Context.CALL and c.context(1) is Context.TOPUP
    view = keyboard_view(c, bots=frozenset())
    assert view.caller == 0
    assert view.subtitle.endswith("(Ana: keys 1 2 3 4 call, SPACE throws)")
    assert tiles(view) == ["key Q: less", "key W: more", "key E: done", "key R: to 0"]


def test_the_counterparty_tiles_say_the_keys() -> None:
    c = started()
    roll(c, [1, 3, 5])  # Ana's Einhorn: the unicorn is hers
    roll(c, [2, 2, 3], BLUE)
    roll(c, [2, 2, 4])
    assert c.context(0) is Context.COUNTERPARTY
    assert tiles(keyboard_view(c)) == ["key 1: back", "key 2: next", "key 3: settle", ""]


def test_the_dice_question_and_the_entry_say_the_keys() -> None:
    c = started()
    roll(c, [2, 3, 4], BLUE)  # Ana's turn, Ben's colour: "are these your dice?"
    view = keyboard_view(c, now=2.0)
    assert view.kind is ScreenKind.DOUBT
    assert tiles(view) == ["", "", "key 3: yes", "key 4: no"]
    c.on_gesture(tap(0, D))
    assert tiles(keyboard_view(c, now=2.0)) == ["key 1: lower", "key 2: higher",
                                                "key 3: next die", "key 4: roll again"]


def test_the_final_standings_say_the_keys() -> None:
    """Over the final standings anyone's keys work: the hints say Ana's."""
    c = started()
    final = ScreenView(ScreenKind.FINAL, game=1, games=1, central=0, unicorn=None,
                       players=(), title="Final standings", buttons=button_hints(Context.FINAL))
    screen = KeyboardScreen(SimpleNamespace(quit_requested=False), ["Ana", "Ben"],
                            frozenset({1}), lambda: c, lambda: None)
    assert tiles(screen.with_keys(final)) == [
        "", "key 2: history", "hold key 3: new match, same players", ""]


def test_the_question_whether_to_go_on_says_the_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    leave_a_match(tmp_path, monkeypatch)
    shown = answer_the_question(monkeypatch, "3")
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    run_demo(options(tmp_path, frozenset({1})))
    asked = next(view for view in shown if view.kind is ScreenKind.RESUME)
    assert tiles(asked) == ["", "key 2: history", "key 3: go on", "key 4: new match"]


# ---------------------------------------------------------------- keys that do nothing


def notes_of(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
             person: Callable[[TableLoop], None]) -> list[str]:
    """The notices the screen showed while ``person`` pressed keys (Ana at the
    keyboard, Ben a bot)."""
    shown = shown_views(monkeypatch)

    def run(loop: TableLoop, done: Callable[[], bool]) -> None:
        loop.step()
        person(loop)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, run)
    run_demo(options(tmp_path, frozenset({1})))
    return [view.notice for view in shown if view.notice]


def test_a_key_that_does_nothing_says_what_the_keys_do_now(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Who starts: Ana taps 2 (nothing: SPACE throws her dice there)."""
    notes = notes_of(monkeypatch, tmp_path, lambda loop: press(loop, "2"))
    assert notes and notes[-1] == "Ana: key 2 does nothing now; SPACE throws your dice."


def test_a_key_of_no_player_says_whose_keys_are_which(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notes = notes_of(monkeypatch, tmp_path, lambda loop: press(loop, "k"))
    assert notes[-1] == ("Key K is not a key of the game: Ana, your keys are 1 2 3 4 "
                         "(SPACE throws, ESC stops).")


def test_a_bots_keys_say_they_are_the_bots(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    notes = notes_of(monkeypatch, tmp_path, lambda loop: press(loop, "w"))
    assert notes[-1] == ("Q W E R are Ben's keys, and Ben is a bot here: Ana, your keys "
                         "are 1 2 3 4.")


def test_the_help_and_undo_chords_leave_no_note(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def person(loop: TableLoop) -> None:
        press(loop, "2", "3")  # the help, and again: closed
        press(loop, "2", "3")

    assert notes_of(monkeypatch, tmp_path, person) == []


def test_keys_pressed_out_of_turn_say_whom_the_table_waits_for() -> None:
    c = started()
    keys = DemoKeys(["Ana", "Ben"], frozenset())
    c.on_gesture(tap(0, E))  # Ana calls Einhorn: her turn, Ben's keys mean nothing
    keys.check(c, tap(1, W, 5.0), open_to=True)
    assert keys.note.at(5.0) == "Ben: key W does nothing now; it is Ana's turn to roll."
    keys.check(c, chord(1, W, E, 6.0), open_to=True)  # (Ben's help: it means something)
    assert keys.note.at(6.0).startswith("Ben: key W")
    # (As long as it takes to read aloud, some 6 seconds for these 55 letters, then gone.)
    assert keys.note.at(5.0 + 5.0).startswith("Ben: key W")
    assert keys.note.at(5.0 + 6.0) == ""


def test_a_key_held_too_long_to_call_says_to_tap_it() -> None:
    """A hold is no tap: held, key 3 calls nothing (it enters dice by hand only while
    the camera is lost), and the screen says so instead of leaving the call unmade."""
    c = started()
    keys = DemoKeys(["Ana", "Ben"], frozenset({1}))
    keys.check(c, Gesture(0, GestureKind.LONG, (E,), 3.0), open_to=True)
    assert keys.note.at(3.0) == ("Ana: holding key 3 does nothing now; it is your turn: "
                                 "tap one of 1 2 3 4 to call, then SPACE throws.")


def test_a_useless_key_in_a_question_lists_the_keys_that_answer() -> None:
    c = at_the_auction()
    keys = DemoKeys(["Ana", "Ben"], frozenset({1}))
    keys.check(c, Gesture(0, GestureKind.LONG, (E,), 3.0), open_to=True)  # a hold of OK
    assert keys.note.at(3.0) == ("Ana: holding key 3 does nothing now; keys now: 1 less, "
                                 "2 more, 3 done, 4 from 0.")


def test_space_where_nobody_is_to_throw_says_why() -> None:
    c = at_the_auction()
    keys = DemoKeys(["Ana", "Ben"], frozenset({1}))
    keys.idle_space(c, 1.0)
    assert keys.note.at(1.0) == ("SPACE throws nothing now: nobody is to roll. Ana's keys "
                                 "now: 1 less, 2 more, 3 done, 4 from 0.")
    c = started()
    c.on_gesture(tap(0, W))
    roll(c, [1, 2, 4])  # Ana's roll: now Ben, the bot, rolls
    assert c.roller() == 1
    keys.idle_space(c, 2.0)
    assert keys.note.at(2.0) == "SPACE throws nothing now: Ben is a bot and throws by itself."


# ---------------------------------------------------------------- the command line


def test_names_and_players_that_disagree_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "4", "--names", "Ana,Ben,Cem", "--bots", "all",
                 "--state-dir", str(tmp_path / "state")]) == 1
    assert "--players 4 but --names gives 3 (Ana, Ben, Cem): give as many names as " \
           "players, or leave out --players" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


def test_names_and_players_that_agree_are_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main(["demo", "--fast", "--size", "400x240", "--players", "2", "--names",
                 "Ida,Jo", "--bots", "1", "--state-dir", str(tmp_path / "state")]) == 0
    assert runs[0].controller.names == ("Ida", "Jo")


def test_continue_with_nothing_to_go_on_with_says_so_and_how_to_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--continue", "--bots", "2", "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert f"--continue: there is no unfinished match to go on with; no match is kept in " \
           f"{state}. Start a new one: SDL_VIDEODRIVER=dummy einhorn-table demo --bots all " \
           f"--state-dir {state}" in err
    assert not state.exists()  # (a typo in --state-dir makes no folder)


def test_continue_after_a_finished_match_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"

    def play_out(loop: TableLoop, done: Callable[[], bool]) -> None:
        for _ in range(100_000):
            if done():
                return
            loop.step()

    at_the_keyboard(monkeypatch, play_out)
    assert main(["demo", "--fast", "--size", "400x240", "--players", "2", "--games", "1",
                 "--bots", "all", "--state-dir", str(state)]) == 0
    capsys.readouterr()
    assert main(["demo", "--continue", "--bots", "all", "--state-dir", str(state)]) == 1
    assert f"the last match in {state} (match 1) is finished" in capsys.readouterr().err


def test_continue_says_when_the_match_has_other_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    leave_a_match(tmp_path, monkeypatch)  # Ana and Ben
    runs = at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main(["demo", "--fast", "--size", "400x240", "--continue", "--players", "4",
                 "--bots", "1", "--state-dir", str(tmp_path / "state")]) == 0
    assert runs[0].controller.names == ("Ana", "Ben")
    assert "Going on with match 1, played by Ana and Ben (--names and --players are for " \
           "a new match)." in capsys.readouterr().err
