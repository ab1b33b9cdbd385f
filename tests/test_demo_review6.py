"""The demo as someone trying the product for the first time meets it (sixth review):
started over SSH or in a container with ``SDL_VIDEODRIVER=dummy`` and people at the
keyboard, it says at once that no key can reach it and what to run instead, rather
than waiting for ever without a word; the number pad's digits are the players' keys
the screen names; a window size with a slip of the finger and a misspelt ``--bots``
are answered with what to type."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_rig import open_store  # noqa: E402
from test_demo_review import dummy_display  # noqa: E402, F401

import einhorn_table.cli.table_app as table_app  # noqa: E402
from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.adapters.keyboard_controls import KeyboardControls  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.ports import Button  # noqa: E402
from einhorn_table.simulation.strategies import Strategy, make_strategy  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402


@pytest.fixture
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A demo that gets as far as its match fails the test instead of waiting for keys."""

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        raise AssertionError("the headless demo waited for keys nobody can press")

    monkeypatch.setattr(TableLoop, "run", run)


# ------------------------------------------------- headless, with people at the keyboard


@pytest.mark.usefixtures("no_waiting")
def test_a_headless_demo_with_people_at_the_keyboard_stops_and_says_what_to_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--bots", "1", "--state-dir", str(state)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("einhorn-table: SDL_VIDEODRIVER=dummy shows no window, and no "
                          "key can reach it: the demo would wait for ever for Ana and Ben, "
                          "the players at the keyboard.")
    # What to run instead: the same demo with bots in every seat, headless ...
    assert (f"To watch bots play a whole match here: SDL_VIDEODRIVER=dummy einhorn-table "
            f"demo --bots all --state-dir {state}.") in err
    # ... or the demo where there is a window.
    assert "run the demo on a computer with a desktop" in err
    assert "Traceback" not in err
    assert not state.exists()  # (no match begun that nobody could play)


@pytest.mark.usefixtures("no_waiting")
def test_the_advice_keeps_the_options_given_and_names_one_person_as_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")  # (no window either)
    state = tmp_path / "state"
    assert main(["demo", "--names", "Zoë,Ümit", "--bots", "Ümit", "--games", "2",
                 "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert "SDL_VIDEODRIVER=offscreen shows no window" in err
    assert "the demo would wait for ever for Zoë, the player at the keyboard." in err
    assert ("SDL_VIDEODRIVER=dummy einhorn-table demo --names 'Zoë,Ümit' --bots all "
            f"--games 2 --state-dir {state}.") in err
    assert not state.exists()


def test_bots_in_every_seat_still_play_headless_and_say_so_as_they_begin(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing else shows until the final standings, a minute or more later on a small
    computer: the terminal says at once what is going on."""
    state = tmp_path / "state"
    assert main(["demo", "--players", "2", "--bots", "all", "--games", "1", "--size",
                 "400x240", "--state-dir", str(state)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Final standings after 1 game:")
    assert err.splitlines()[0] == (
        "Without a window, bots play a match of 1 game for Ana and Ben; the final "
        "standings are printed at its end (Ctrl-C stops it and keeps the match).")
    assert "shows no window" not in err


# ------------------------------------------------------------------ the number pad


@pytest.mark.parametrize(("key", "scancode", "player"), [
    ("K_KP1", "KSCAN_KP1", 0), ("K_KP4", "KSCAN_KP4", 0), ("K_KP7", "KSCAN_KP7", 4),
    ("K_KP0", "KSCAN_KP0", 4)])
def test_the_number_pads_digits_are_the_keys_the_screen_names(key: str, scancode: str,
                                                               player: int) -> None:
    """The screen says "key 1: less"; the 1 of the number pad is that key too (before,
    the demo answered it with "Key 1 is not a key of the game: Ana, your keys are 1 2 3
    4")."""
    keyboard = KeyboardControls(FakeClock(0.0), players=6, read_event_queue=False)
    down = pygame.event.Event(pygame.KEYDOWN, key=getattr(pygame, key),
                              scancode=getattr(pygame, scancode), mod=0,
                              unicode=key[-1])
    digit = "1234".find(key[-1]) if player == 0 else "7890".find(key[-1])
    assert keyboard.button_of(down) == (player, list(Button)[digit])
    assert keyboard.handle(down)


def test_a_number_pad_digit_pressed_and_let_go_is_a_tap() -> None:
    clock = FakeClock(0.0)
    keyboard = KeyboardControls(clock, players=2, read_event_queue=False)
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        keyboard.handle(pygame.event.Event(kind, key=pygame.K_KP2, scancode=pygame.KSCAN_KP2,
                                           mod=0, unicode="2"))
        clock.advance(0.1)
    clock.advance(1.0)
    gestures = keyboard.poll()
    assert [(g.player, g.buttons) for g in gestures] == [(0, (Button.WUNSCH,))]


# ------------------------------------------------------------ options mistyped


def test_a_window_size_with_a_digit_too_many_is_said_as_such(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, SDL's refusal read as if this computer had no screen at all."""
    state = tmp_path / "state"
    assert main(["demo", "--bots", "all", "--size", "80000x480", "--state-dir",
                 str(state)]) == 1
    err = capsys.readouterr().err
    assert err == ("einhorn-table: --size 80000x480: a window can be at most 7680x4320 "
                   "pixels; --fullscreen fills the whole screen\n")
    assert not state.exists()


def test_a_misspelt_bots_says_all_and_a_number_are_there_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--bots", "al", "--state-dir", str(tmp_path / "state")]) == 1
    assert capsys.readouterr().err == (
        "einhorn-table: --bots: 'al' is not a player; players: Ana, Ben, Cem (or --bots "
        "all; --bots 2: the last two seats)\n")


# ------------------------------------------------ Ctrl-C as the match is being begun


def interrupted(name: str) -> Strategy:
    """The bots' strategy ``name``, getting ready when Ctrl-C is pressed."""
    strategy = make_strategy(name)

    def prepare(*_: object) -> None:
        raise KeyboardInterrupt

    strategy.prepare = prepare  # type: ignore[method-assign]
    return strategy


def test_ctrl_c_just_after_the_match_is_begun_says_it_is_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C while the bots get ready (the match already in the history, its first
    frame not drawn): nobody rolled, so the match is not kept (as ``play`` does), and
    the terminal says so instead of how to go on with it."""
    monkeypatch.setattr(table_app, "make_strategy", interrupted)
    state = tmp_path / "state"
    assert main(["demo", "--players", "2", "--bots", "all", "--size", "400x240",
                 "--state-dir", str(state)]) == 0
    out, err = capsys.readouterr()
    assert out == ("Nobody rolled in match 1 yet: it is not kept, and the next demo begins "
                   "a new match.\n")
    assert "history" not in err and "--continue" not in out
    store = open_store(state)
    assert store.matches() == []
    store.close()


def rolled_then_interrupted(loop: TableLoop, done: Callable[[], bool]) -> None:
    """Ctrl-C once the bots' match has its first roll (a match kept, to go on with)."""
    for _ in range(5000):
        if loop.controller.match.inputs:
            raise KeyboardInterrupt
        loop.step()
    raise AssertionError("nobody rolled")


def test_a_headless_fast_demo_with_people_goes_on_for_posted_keys_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With --fast (a fake clock) the demo is driven by a program posting key events, as
    the tests here do; a person who typed it is told why nothing happens."""
    monkeypatch.setattr(TableLoop, "run", lambda self, done, max_steps=None: None)
    assert main(["demo", "--bots", "1", "--fast", "--state-dir", str(tmp_path / "s")]) == 0
    err = capsys.readouterr().err
    assert err.startswith("SDL_VIDEODRIVER=dummy shows no window: the demo takes only the "
                          "key events a program posts to it, and waits for them (Ctrl-C "
                          "stops it).\n")


@pytest.mark.usefixtures("no_waiting")
def test_the_advice_for_continue_goes_on_with_the_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    with monkeypatch.context() as patched:  # (a match left unfinished, as by Ctrl-C)
        patched.setattr(TableLoop, "run", lambda self, done, max_steps=None:
                        rolled_then_interrupted(self, done))
        assert main(["demo", "--players", "2", "--bots", "all", "--state-dir",
                     str(state)]) == 0
    capsys.readouterr()
    assert main(["demo", "--continue", "--bots", "Ben", "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert "the demo would wait for ever for Ana, the player at the keyboard." in err
    assert (f"SDL_VIDEODRIVER=dummy einhorn-table demo --continue --bots all --state-dir "
            f"{state}.") in err


@pytest.mark.usefixtures("no_waiting")
@pytest.mark.parametrize(("mistake", "said"), [
    (["--variant", "wurfeln"], "there is no variant called 'wurfeln'"),
    (["--strategy", "smart"], "there is no strategy called 'smart'"),
    (["--size", "800"], "--size '800': write it as WIDTHxHEIGHT")])
def test_a_mistyped_option_is_said_before_the_missing_window(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], mistake: list[str],
        said: str) -> None:
    """The person fixes the typo first; the advice about the window comes next."""
    assert main(["demo", *mistake, "--state-dir", str(tmp_path / "state")]) == 1
    err = capsys.readouterr().err
    assert said in err and "shows no window" not in err
