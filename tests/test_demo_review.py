"""The demo as a first-time player meets it at the keyboard: what the terminal says,
which keys act for whom, what Ctrl-C and a second run do (SDL's dummy video driver,
key events posted as a keyboard would)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_rig import open_store  # noqa: E402

from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.adapters.pygame_screen import PygameScreen  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.cli.table_app import DemoOptions, run_demo  # noqa: E402
from einhorn_table.rules import Undo, get_variant  # noqa: E402
from einhorn_table.screen.view_model import ScreenKind, ScreenView  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402

Runner = Callable[[TableLoop, Callable[[], bool]], None]


@pytest.fixture(autouse=True)
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("EINHORN_COMMAND", raising=False)
    yield


def options(tmp_path: Path, bots: frozenset[int], **more: object) -> DemoOptions:
    fields: dict[str, object] = dict(
        names=["Ana", "Ben"], games=None, variant=get_variant("einhorn"), bots=bots,
        strategy="odds", chance=random.Random(0), seed=0, size=(400, 240), fullscreen=False,
        screenshots=None, state=tmp_path / "state", wall=lambda: datetime.now(UTC),
        fast=True, camera_size=(320, 240))
    fields.update(more)
    return DemoOptions(**fields)  # type: ignore[arg-type]


def key(kind: int, char: str) -> None:
    code = {" ": pygame.K_SPACE}.get(char) or pygame.key.key_code(char)
    scan = pygame.KSCAN_SPACE if char == " " else getattr(pygame, f"KSCAN_{char.upper()}")
    pygame.event.post(pygame.event.Event(kind, key=code, scancode=scan, mod=0, unicode=char))


def tap(loop: TableLoop, *chars: str) -> None:
    """Press ``chars`` together (one key: a tap; two of a row: a chord) and let go."""
    clock = loop.clock
    assert isinstance(clock, FakeClock)
    for char in chars:
        key(pygame.KEYDOWN, char)
    loop.step()
    clock.advance(0.1)
    for char in chars:
        key(pygame.KEYUP, char)
    loop.step()
    for _ in range(3):
        loop.step()


def steps_until(loop: TableLoop, done: Callable[[], bool], limit: int = 5000) -> None:
    for _ in range(limit):
        if done():
            return
        loop.step()
    raise AssertionError("the demo never got there")


def quit_demo(loop: TableLoop) -> None:
    assert loop.screen is not None
    loop.screen.quit_requested = True  # ESC


def at_the_keyboard(monkeypatch: pytest.MonkeyPatch, person: Runner) -> list[TableLoop]:
    runs: list[TableLoop] = []

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        runs.append(self)
        person(self, done)

    monkeypatch.setattr(TableLoop, "run", run)
    return runs


def roll_then_quit(loop: TableLoop, done: Callable[[], bool]) -> None:
    """The person throws (the match's first input: a match to keep), then ESC."""
    tap(loop, " ")
    steps_until(loop, lambda: len(loop.controller.match.inputs) >= 1)
    quit_demo(loop)


def undos(loop: TableLoop) -> int:
    return sum(isinstance(item, Undo) for item in loop.controller.match.record)


def test_a_bots_keys_do_not_act_for_the_bot(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana tries Q and R (Ben's outer keys) together: Ben is a bot, so nothing is undone,
    and her own 1 and 4 still undo."""

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        tap(loop, " ")  # Ana throws for who starts; Ben, the bot, then throws too
        steps_until(loop, lambda: len(loop.controller.match.inputs) >= 2)
        steps_until(loop, lambda: loop.controller.pending is None and not
                    loop.controller.tray_busy)
        tap(loop, "q", "r")
        assert undos(loop) == 0 and len(loop.controller.match.inputs) >= 2
        tap(loop, "w", "e")  # Ben's help: no help shown (it would stop the bots)
        assert loop.controller.help is None
        tap(loop, "1", "4")
        assert undos(loop) == 1
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    run_demo(options(tmp_path, frozenset({1})))


def test_ctrl_c_stops_the_demo_as_esc_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        tap(loop, " ")
        steps_until(loop, lambda: len(loop.controller.match.inputs) >= 1)
        raise KeyboardInterrupt

    at_the_keyboard(monkeypatch, person)
    state = tmp_path / "state"
    assert main(["demo", "--players", "2", "--bots", "1", "--fast", "--size", "400x240",
                 "--state-dir", str(state)]) == 0
    out, err = capsys.readouterr()
    assert "Match not finished (game 1 of 10); it is kept." in out
    assert f"Go on with it: einhorn-table demo --continue --state-dir {state}" in out
    assert f"einhorn-table history --state-dir {state} show 1" in err
    store = open_store(state)
    row = store.unfinished()
    store.close()
    assert row is not None and row.match_id == "1"


def test_the_terminal_names_start_when_start_ran_the_demo(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """After ./start the einhorn-table command is on no PATH: the lines say ./start."""
    at_the_keyboard(monkeypatch, roll_then_quit)
    monkeypatch.setenv("EINHORN_COMMAND", "./start")
    state = tmp_path / "state"
    assert main(["demo", "--bots", "2", "--fast", "--size", "400x240",
                 "--state-dir", str(state)]) == 0
    out, err = capsys.readouterr()
    assert f"Go on with it: ./start demo --continue --state-dir {state}" in out
    assert f"`./start history --state-dir {state} show 1`" in err
    assert "einhorn-table" not in out + err


def test_the_terminal_says_every_persons_keys(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Six people at one keyboard: the window's title is cut short, the terminal is not."""
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main(["demo", "--players", "6", "--bots", "0", "--fast", "--size", "400x240",
                 "--state-dir", str(tmp_path / "state")]) == 0
    err = capsys.readouterr().err
    for row in ("Ana: keys 1 2 3 4", "Ben: keys Q W E R", "Cem: keys A S D F",
                "Dora: keys Z X C V", "Emil: keys 7 8 9 0", "Fay: keys U I O P"):
        assert row in err
    assert "SPACE throws the dice" in err and "ESC" in err
    assert "bot" not in err


def test_the_keys_words_name_the_bots_and_nothing_for_bots_alone() -> None:
    from einhorn_table.cli.table_app import keys_words

    words = keys_words(["Ana", "Ben", "Cem"], frozenset({1, 2}))
    assert words.startswith("The demo at the keyboard: Ana: keys 1 2 3 4.\n")
    assert "Ben and Cem are bots" in words
    assert "Das Unvermeidliche (-), Wunsch (+), Einhorn (OK), Dreifaltigkeit (X)" in words
    assert keys_words(["Ana", "Ben"], frozenset({0, 1})) == ""


def answer_the_question(monkeypatch: pytest.MonkeyPatch, char: str | None) -> list[ScreenView]:
    """Whoever sits at the keyboard answers the resume question with ``char`` (None: they
    close the window); the views shown are returned."""
    shown: list[ScreenView] = []
    original = PygameScreen.show

    def show(self: PygameScreen, view: ScreenView, now: float,
             key_: tuple[object, ...] | None = None) -> None:
        shown.append(view)
        asked = [v for v in shown if v.kind is ScreenKind.RESUME]
        if view.kind is ScreenKind.RESUME and len(asked) == 1:
            if char is None:
                pygame.event.post(pygame.event.Event(pygame.QUIT))
            else:
                key(pygame.KEYDOWN, char)
        elif view.kind is ScreenKind.RESUME and len(asked) == 2 and char is not None:
            key(pygame.KEYUP, char)
        original(self, view, now, key_)

    monkeypatch.setattr(PygameScreen, "show", show)
    return shown


def leave_a_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first demo: Ana throws, Ben (a bot) too, then ESC."""

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        tap(loop, " ")
        steps_until(loop, lambda: len(loop.controller.match.inputs) >= 2)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    first = run_demo(options(tmp_path, frozenset({1})))
    assert first.match_id == "1" and not first.ledger.winner


def test_a_second_run_asks_and_ok_goes_on(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    leave_a_match(tmp_path, monkeypatch)
    shown = answer_the_question(monkeypatch, "3")
    runs = at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    again = run_demo(options(tmp_path, frozenset({1})))
    assert shown[0].kind is ScreenKind.RESUME and shown[0].title == "Go on with this match?"
    assert again.match_id == "1" and len(runs) == 1
    assert len(runs[0].controller.match.inputs) >= 2  # where it stood
    store = open_store(tmp_path / "state")
    assert [(r.match_id, r.state) for r in store.matches()] == [("1", "playing")]
    store.close()


def test_a_second_run_asks_and_x_starts_a_new_match(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    leave_a_match(tmp_path, monkeypatch)
    answer_the_question(monkeypatch, "4")
    at_the_keyboard(monkeypatch, roll_then_quit)
    again = run_demo(options(tmp_path, frozenset({1})))
    assert again.match_id == "2"
    store = open_store(tmp_path / "state")
    assert [(r.match_id, r.state) for r in store.matches()] == [
        ("2", "playing"), ("1", "abandoned")]
    store.close()


def test_closing_the_window_at_the_question_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    leave_a_match(tmp_path, monkeypatch)
    answer_the_question(monkeypatch, None)
    runs = at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    again = run_demo(options(tmp_path, frozenset({1})))
    assert again.match_id == "1" and again.loop is None and runs == []
    assert "Go on with it" in again.standings
    store = open_store(tmp_path / "state")
    assert [(r.match_id, r.state) for r in store.matches()] == [("1", "playing")]
    store.close()


@pytest.mark.parametrize("more", [{"new": True}, {"bots": frozenset({0, 1})}])
def test_new_and_bots_alone_start_a_new_match_without_asking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, more: dict[str, object]) -> None:
    leave_a_match(tmp_path, monkeypatch)
    shown = answer_the_question(monkeypatch, "3")
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    fields: dict[str, object] = {"bots": frozenset({1}), **more}
    again = run_demo(options(tmp_path, **fields))  # type: ignore[arg-type]
    assert again.match_id == "2"
    assert all(view.kind is not ScreenKind.RESUME for view in shown)
