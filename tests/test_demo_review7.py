"""The demo and the doctor as a first-time user and a parent meet them (seventh review):
Ctrl-C in the first instant stops quietly; ``--bots ben`` finds Ben; the keys the
screen shows are the keys that work on a French or German keyboard too; a second demo
in the same state directory is refused instead of abandoning the first one's match;
the doctor says which calibration it checked, where the example table file is from
where the person stands, and what the keyboard is on a desktop."""

from __future__ import annotations

import importlib.abc
import os
import runpy
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from table_helpers import players_toml  # noqa: E402
from table_rig import open_store  # noqa: E402
from test_demo_review import dummy_display  # noqa: E402, F401
from test_demo_review6 import interrupted, rolled_then_interrupted  # noqa: E402

import einhorn_table.cli as cli  # noqa: E402
import einhorn_table.cli.table_app as table_app  # noqa: E402
from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.adapters.keyboard_controls import (  # noqa: E402
    KEY_ROWS,
    KeyboardControls,
    button_key,
)
from einhorn_table.cli import demo as demo_cli  # noqa: E402
from einhorn_table.cli import doctor as doctor_cli  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.doctor import system_checks, table_check  # noqa: E402
from einhorn_table.errors import EinhornError  # noqa: E402
from einhorn_table.history import state_lock  # noqa: E402
from einhorn_table.ports import Button  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------- Ctrl-C in the first instant


def test_ctrl_c_while_the_sub_command_is_imported_stops_quietly(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def build_parser(only: str | None = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", build_parser)
    try:
        assert main(["demo"]) == 130
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C came out of the command: Python prints its traceback")
    out, err = capsys.readouterr()
    assert out == "" and err == ""


class _CtrlC(importlib.abc.MetaPathFinder):
    """Ctrl-C pressed while Python imports ``einhorn_table.cli``."""

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name == "einhorn_table.cli":
            raise KeyboardInterrupt


def test_ctrl_c_while_python_imports_the_command_stops_quietly(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delitem(sys.modules, "einhorn_table.cli")
    monkeypatch.setattr(sys, "meta_path", [_CtrlC(), *sys.meta_path])
    try:
        with pytest.raises(SystemExit) as stopped:
            runpy.run_module("einhorn_table", run_name="__main__")
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C came out of the command: Python prints its traceback")
    assert stopped.value.code == 130
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------ --bots by any case


def test_bots_are_named_regardless_of_case_and_accents() -> None:
    assert demo_cli.bot_seats("ben", ["Ana", "Ben", "Cem"]) == {1}
    assert demo_cli.bot_seats("zoe, UMIT", ["Zoë", "Ümit", "Cem"]) == {0, 1}
    assert demo_cli.bot_seats("ALL", ["Ana", "Ben"]) == {0, 1}
    assert demo_cli.bot_seats("None", ["Ana", "Ben"]) == frozenset()
    # (As typed, the name wins over one that only looks like it.)
    assert demo_cli.bot_seats("Zoe", ["Zoë", "Zoe"]) == {1}


def test_a_bot_name_that_fits_two_players_is_refused_with_both() -> None:
    with pytest.raises(EinhornError) as error:
        demo_cli.bot_seats("zoe", ["Zoë", "Zoé", "Cem"])
    assert str(error.value) == ("--bots: 'zoe' could be Zoë or Zoé; write the name as "
                                "--names gives it")


# ------------------------------------------------------- the keys shown, on any layout


def key_event(kind: int, key: int, scancode: int) -> object:
    return pygame.event.Event(kind, key=key, scancode=scancode, mod=0)


def tapped(keys: KeyboardControls, clock: FakeClock, key: int, scancode: int
           ) -> list[tuple[int, tuple[Button, ...]]]:
    keys.handle(key_event(pygame.KEYDOWN, key, scancode))
    clock.advance(0.1)
    keys.handle(key_event(pygame.KEYUP, key, scancode))
    clock.advance(0.5)
    return [(g.player, g.buttons) for g in keys.poll()]


#: Where a French (AZERTY) keyboard has the letters of the players' rows: the letter
#: the key is printed with, and the key it is on an American keyboard.
AZERTY = {"a": "q", "z": "w", "q": "a", "w": "z"}
#: A German (QWERTZ) keyboard's.
QWERTZ = {"z": "y", "y": "z"}


@pytest.mark.parametrize("layout", [AZERTY, QWERTZ, {}], ids=["azerty", "qwertz", "us"])
def test_every_letter_the_screen_shows_is_that_players_button_on_the_layout(
        layout: dict[str, str]) -> None:
    clock = FakeClock()
    keys = KeyboardControls(clock, read_event_queue=False)
    for player, row in enumerate(KEY_ROWS):
        for letter, button in zip(row, Button, strict=True):
            if letter.isdigit():
                continue
            place = layout.get(letter, letter)
            assert button_key(player, button) == letter.upper()  # what the screen shows
            assert tapped(keys, clock, getattr(pygame, f"K_{letter}"),
                          getattr(pygame, f"KSCAN_{place.upper()}")) == [(player, (button,))]


def test_a_german_keyboards_y_is_no_players_key() -> None:
    """Where an American keyboard has Z, a German one has Y: not a key of the game."""
    clock = FakeClock()
    keys = KeyboardControls(clock, read_event_queue=False)
    assert keys.button_of(key_event(pygame.KEYDOWN, pygame.K_y, pygame.KSCAN_Z)) is None


def test_a_french_keyboards_top_row_is_the_digits_shown() -> None:
    """On AZERTY the key printed 1 types & (the digit with Shift): it is key 1 all the
    same, as it is printed."""
    clock = FakeClock()
    keys = KeyboardControls(clock, read_event_queue=False)
    assert tapped(keys, clock, pygame.K_AMPERSAND, pygame.KSCAN_1) == [
        (0, (Button.UNVERMEIDLICH,))]
    assert tapped(keys, clock, ord("é"), pygame.KSCAN_2) == [
        (0, (Button.WUNSCH,))]
    assert tapped(keys, clock, pygame.K_UNDERSCORE, pygame.KSCAN_8) == [
        (4, (Button.WUNSCH,))]


def test_a_keyboard_without_latin_letters_goes_by_the_keys_places() -> None:
    """A Russian keyboard: the key with Q on it (and Й) is player 2's first button."""
    clock = FakeClock()
    keys = KeyboardControls(clock, read_event_queue=False)
    assert tapped(keys, clock, ord("й"), pygame.KSCAN_Q) == [(1, (Button.UNVERMEIDLICH,))]
    assert keys.button_of(key_event(pygame.KEYDOWN, pygame.K_F1, pygame.KSCAN_Q)) is None


# -------------------------------------------------------- two demos, one state directory


@pytest.fixture
def unfinished_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> Iterator[Path]:
    """A state directory whose match 1 a demo is playing (begun, not finished)."""
    state = tmp_path / "state"
    with monkeypatch.context() as patched:  # (Ctrl-C after the first roll)
        patched.setattr(TableLoop, "run", lambda self, done, max_steps=None:
                        rolled_then_interrupted(self, done))
        assert main(["demo", "--players", "2", "--bots", "all", "--size", "400x240",
                     "--state-dir", str(state)]) == 0
    capsys.readouterr()
    with state_lock.holding(state, state_lock.DEMO,
                            lambda: datetime(2026, 5, 1, 16, 5, tzinfo=UTC)) as note:
        note("1")
        yield state


def still_unfinished(state: Path) -> str | None:
    store = open_store(state)
    try:
        row = store.unfinished()
        return None if row is None else row.match_id
    finally:
        store.close()


def test_a_second_demo_in_the_same_state_directory_is_refused(
        unfinished_match: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = unfinished_match
    assert main(["demo", "--players", "2", "--bots", "all", "--games", "1", "--size",
                 "400x240", "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"einhorn-table: another demo is playing in {state} (process "
                          f"{os.getpid()}, since ")
    assert (", match 1), and two demos cannot share one: this one would take that match "
            "for one left unfinished. Finish it or press ESC in its window first, or give "
            f"this demo a state directory of its own: add --state-dir "
            f"{state.with_name('state-2')}\n") in err
    assert "Traceback" not in err
    assert still_unfinished(state) == "1"  # (not abandoned)


def test_a_second_demo_starting_at_the_same_moment_is_refused_too(
        unfinished_match: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Both looked before either held the folder: the second one stops as it opens
    the history, before it looks at the unfinished match."""
    monkeypatch.setattr(state_lock, "held_by", lambda state: None)
    state = unfinished_match
    assert main(["demo", "--players", "2", "--bots", "all", "--games", "1", "--size",
                 "400x240", "--state-dir", str(state)]) == 1
    assert "another demo is playing in" in capsys.readouterr().err
    assert still_unfinished(state) == "1"


def test_a_demo_lets_go_of_its_state_directory_when_it_stops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_app, "make_strategy", interrupted)
    state = tmp_path / "state"
    for _ in range(2):
        assert main(["demo", "--players", "2", "--bots", "all", "--size", "400x240",
                     "--state-dir", str(state)]) == 0
    assert state_lock.held_by(state) is None


# ---------------------------------------------------------------------------- the doctor


@pytest.fixture
def _no_running_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system_checks, "service_state", lambda: "inactive")


def test_the_example_table_file_is_named_as_found_from_where_the_doctor_runs(
        tmp_path: Path) -> None:
    assert table_check.project_file("docs/table.example.toml", PROJECT) == "docs/table.example.toml"
    assert table_check.project_file("docs/table.example.toml", PROJECT.parent) == \
        f"{PROJECT.name}/docs/table.example.toml"
    assert table_check.project_file("docs/table.example.toml", tmp_path) == \
        str(PROJECT / "docs" / "table.example.toml")


def test_no_table_file_says_where_it_was_looked_for_and_the_example_from_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result, _ = table_check.check_table_file(Path("table.toml"), None, service=False)
    assert result.detail == (
        f"no table.toml in {tmp_path} yet: play needs one (the demo does not); copy "
        f"{PROJECT / 'docs' / 'table.example.toml'} to it and edit it "
        f"({PROJECT / 'docs' / 'install.md'} step 6)")


def test_on_a_pi_the_doctor_run_from_home_checks_the_companions_table_file(
        tmp_path: Path) -> None:
    project, home = tmp_path / "opt", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    # (Not a folder the companion runs from: ./table.toml, as before.)
    assert doctor_cli.default_table(True, home, project) == Path("table.toml")
    (project / "start").write_text("", encoding="utf-8")
    # (None made yet: the doctor says to make it there, where the service reads it.)
    assert doctor_cli.default_table(True, home, project) == project / "table.toml"
    (project / "table.toml").write_text("", encoding="utf-8")
    assert doctor_cli.default_table(True, home, project) == project / "table.toml"
    assert doctor_cli.default_table(False, home, project) == Path("table.toml")
    (home / "table.toml").write_text("", encoding="utf-8")
    assert doctor_cli.default_table(True, home, project) == Path("table.toml")


@pytest.mark.usefixtures("_no_running_service")
def test_a_profile_given_says_which_one_play_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text("version = 1\n", encoding="utf-8")
    (tmp_path / "other.toml").write_text("version = 1\n", encoding="utf-8")
    (tmp_path / "table.toml").write_text(
        'camera = "synth:seed=1"\ncalibration = "mine.toml"\n'
        + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    doctor_cli.main(["--frames", "3", "--state-dir", str(tmp_path / "state"),
                     "--profile", "other.toml"])
    out = " ".join(capsys.readouterr().out.split())
    assert "other.toml: version 1 (given with --profile; play reads mine.toml instead" in out
    # On a desktop the buttons line names the keys of the table's two players.
    assert ("no buttons here: in the demo and in `einhorn-table doctor --buttons` the "
            "keyboard stands in for them, each player's four keys in a row, left to right "
            "(player 1: 1 2 3 4; player 2: Q W E R) [simulated]") in out
    doctor_cli.main(["--frames", "3", "--state-dir", str(tmp_path / "state"),
                     "--profile", "mine.toml"])
    out = " ".join(capsys.readouterr().out.split())
    assert "mine.toml: version 1 (given with --profile; play reads this one too)" in out


def test_the_profile_line_without_a_calibration_played_says_how_to_name_it() -> None:
    assert doctor_cli.other_profile_words(Path("cal.toml"), None, Path("table.toml"), True) \
        == '(given with --profile; play reads none: to play with it, write calibration = ' \
        '"cal.toml" in table.toml)'


def test_the_buttons_line_without_a_table_names_the_first_rows() -> None:
    assert doctor_cli.keyboard_words(None).endswith(
        "(player 1: 1 2 3 4; player 2: Q W E R; player 3: A S D F; and so on, up to six "
        "players)")


# ------------------------------------------------------------ the help at the keyboard


def test_the_help_at_the_keyboard_names_the_players_keys_not_the_buttons() -> None:
    """The help a person at the keyboard opens said "press Das Unvermeidliche (-) +
    Dreifaltigkeit (X) together": which keys those are, the person had to work out."""
    from einhorn_table.stations.gesture_table import GESTURES

    assert table_app.keyed_gesture(
        "press Das Unvermeidliche (−) + Dreifaltigkeit (✗) together", 1) == \
        "press key Q + key R together"
    for lines in GESTURES.values():
        for line in lines:
            said = table_app.keyed_gesture(line.gesture, 2)
            assert not any(button.label in said for button in Button), said
