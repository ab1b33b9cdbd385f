"""The demo as a first-time visitor meets it (third review): the line that says how to go
on with a match left unfinished, run as printed, goes on with the same bots (headless
too); a match a bots-only run drops is named in the terminal; the screen says which
keys throw and call where a person at the keyboard is to roll, and the help which keys
are the player's buttons (SDL's dummy video driver, key events posted as a keyboard
would)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_rig import open_store  # noqa: E402
from test_demo_review import (  # noqa: E402
    at_the_keyboard,
    quit_demo,
    roll_then_quit,
    steps_until,
    tap,
)

from einhorn_table.adapters.pygame_screen import PygameScreen  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.screen.view_model import ScreenKind, ScreenView  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402

DEMO = ["demo", "--fast", "--size", "400x240"]


@pytest.fixture(autouse=True)
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("EINHORN_COMMAND", raising=False)
    yield


def go_on_line(out: str) -> list[str]:
    """The command the terminal's "Go on with it:" line gives, as arguments after the
    program's name (and the environment it sets before it)."""
    line = next(line for line in out.splitlines() if line.startswith("Go on with it: "))
    command = line.removeprefix("Go on with it: ").split(" (")[0]
    words = shlex.split(command)
    while "=" in words[0]:
        words.pop(0)
    assert words[0] == "einhorn-table"
    return words[1:]


def seen(runs: list[TableLoop]) -> frozenset[int]:
    bots = runs[-1].bots
    assert bots is not None
    return bots.seats


def test_the_go_on_line_keeps_the_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """./start's demo (Ana at the keyboard, Ben and Cem bots) left with ESC: the line it
    prints goes on with Ben and Cem still bots, not three seats at one keyboard."""

    def leave(loop: TableLoop, done: Callable[[], bool]) -> None:
        tap(loop, " ")
        steps_until(loop, lambda: len(loop.controller.match.inputs) >= 2)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, leave)
    state = tmp_path / "demo state"  # (a folder name a shell must have quoted)
    assert main([*DEMO, "--bots", "2", "--strategy", "bidder", "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    again = go_on_line(out)
    assert again[:2] == ["demo", "--continue"]
    assert "(or run the demo again: it asks)" in out  # (a person plays: asked on screen)

    runs = at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main([*again, "--fast", "--size", "400x240"]) == 0
    assert seen(runs) == frozenset({1, 2})
    assert runs[-1].controller.match.names == ("Ana", "Ben", "Cem")
    assert len(runs[-1].controller.match.inputs) >= 2  # the same match, where it stood
    assert [type(s).__name__ for s in runs[-1].bots.strategies] == ["ShareBidder"] * 3  # type: ignore[union-attr]


def test_a_headless_bots_match_goes_on_headless_with_its_bots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """./start without a screen (four bots, headless) stopped with Ctrl-C: the line goes
    on headless with every seat a bot, and does not promise a question the bots-only
    demo never asks; run as printed, it plays the same match to its end."""

    def interrupt(loop: TableLoop, done: Callable[[], bool]) -> None:
        steps_until(loop, lambda: len(loop.controller.match.inputs) >= 6)
        raise KeyboardInterrupt

    at_the_keyboard(monkeypatch, interrupt)
    state = tmp_path / "state"
    assert main([*DEMO, "--players", "4", "--bots", "all", "--games", "1",
                 "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    assert f"Go on with it: SDL_VIDEODRIVER=dummy einhorn-table demo --continue --state-dir " \
           f"{state} --bots all" in out
    assert "it asks" not in out
    again = go_on_line(out)

    finished: list[TableLoop] = []

    def play_on(loop: TableLoop, done: Callable[[], bool]) -> None:
        finished.append(loop)
        steps_until(loop, done, limit=100_000)

    at_the_keyboard(monkeypatch, play_on)
    assert main(again) == 0
    assert seen(finished) == frozenset(range(4))
    store = open_store(state)
    assert [(r.match_id, r.state) for r in store.matches()] == [("1", "finished")]
    store.close()


def test_a_bots_only_run_says_it_drops_the_unfinished_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    at_the_keyboard(monkeypatch, roll_then_quit)
    assert main([*DEMO, "--players", "2", "--bots", "1", "--state-dir", str(state)]) == 0
    capsys.readouterr()
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main([*DEMO, "--players", "2", "--bots", "all", "--state-dir", str(state)]) == 0
    err = capsys.readouterr().err
    assert "Match 1 (Ana and Ben) was not finished; it is kept in the history as " \
           "abandoned" in err


def shown_views(monkeypatch: pytest.MonkeyPatch) -> list[ScreenView]:
    shown: list[ScreenView] = []
    original = PygameScreen.show

    def show(self: PygameScreen, view: ScreenView, now: float,
             key_: tuple[object, ...] | None = None) -> None:
        shown.append(view)
        original(self, view, now, key_)

    monkeypatch.setattr(PygameScreen, "show", show)
    return shown


def test_the_screen_says_space_throws_where_a_person_is_to_roll(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's screen says "roll" (real dice): at the keyboard, where Ana is to
    throw, it says SPACE throws (and which keys call); not while a bot is to throw."""
    shown = shown_views(monkeypatch)
    marks: dict[str, int] = {}

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        c = loop.controller
        loop.step()
        marks["start"] = len(shown)
        tap(loop, " ")
        steps_until(loop, lambda: c.roller() == 1 and not c.tray_busy)
        marks["ben"] = len(shown)
        loop.step()
        steps_until(loop, lambda: c.context(0).value == "call" and not c.tray_busy
                    and loop.view is not None and loop.view.kind is ScreenKind.TURN,
                    limit=20_000)
        marks["turn"] = len(shown)
        loop.step()
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    assert main([*DEMO, "--players", "2", "--bots", "1", "--seed", "3",
                 "--state-dir", str(tmp_path / "state")]) == 0
    start = shown[marks["start"] - 1]
    assert start.kind is ScreenKind.START_ROLLS and start.focus == 0
    assert start.subtitle.endswith("(SPACE throws the dice)")
    ben = shown[marks["ben"]]
    assert "SPACE" not in ben.subtitle
    turn = shown[marks["turn"]]
    assert turn.kind is ScreenKind.TURN and turn.title == "Ana's turn"
    assert turn.subtitle.endswith("(keys 1 2 3 4 call, SPACE throws)")


def test_the_help_says_which_keys_are_the_buttons(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shown = shown_views(monkeypatch)

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        loop.step()
        tap(loop, "2", "3")  # Ana's middle two keys: the help
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    assert main([*DEMO, "--players", "2", "--bots", "1",
                 "--state-dir", str(tmp_path / "state")]) == 0
    helped = [view for view in shown if view.help]
    assert helped, "the help never showed"
    first = helped[-1].help[0]
    assert (first.gesture, first.does) == ("keys 1 2 3 4",
                                           "Ana's buttons, left to right; SPACE throws")
    # Its last line closes it with those keys, not with "the middle two buttons".
    assert helped[-1].help_close == "Keys 2 + 3 together: close this help"


def test_the_help_says_space_throws_only_where_it_does() -> None:
    """In the auction or the top-up SPACE throws nothing: their help says only which keys
    are the player's buttons."""
    from types import SimpleNamespace

    from einhorn_table.cli.table_app import KeyboardScreen
    from einhorn_table.stations.gesture_table import Context, HelpLine
    from einhorn_table.table.controller import HelpRequest

    view = ScreenView(ScreenKind.AUCTION, game=1, games=10, central=50, unicorn=None,
                      players=(), title="Auction", help=(HelpLine("tap +", "bid one more"),))

    def first_line(context: Context) -> str:
        controller = SimpleNamespace(help=HelpRequest(0, context, 0.0), tray_busy=False)
        screen = KeyboardScreen(SimpleNamespace(quit_requested=False),
                                ["Ana", "Ben"], frozenset({1}),
                                lambda: controller,
                                lambda: None)
        return screen.with_keys(view).help[0].does

    assert first_line(Context.BID) == "Ana's buttons, left to right"
    assert first_line(Context.TOPUP) == "Ana's buttons, left to right"
    assert first_line(Context.CALL) == "Ana's buttons, left to right; SPACE throws"
