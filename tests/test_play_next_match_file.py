"""Two matches in a row at the real table (``play``), a player changed in the table's
file between them: holding OK at the final standings starts the next match with the
players as the file now names them, no restart needed; the screens and the history
name them. A file that no longer reads keeps the players of the match before, and
the terminal says why."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml
from table_rig import open_store, press

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.cli import main
from einhorn_table.cli.play import NextMatch, next_match_setup
from einhorn_table.cli.table_app import direct_performer, throw_into
from einhorn_table.history.view import history_summary
from einhorn_table.ports import Button
from einhorn_table.rules import EINHORN, Setup
from einhorn_table.screen.view_model import build_view
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.stations.gesture_table import NEXT_MATCH_AFTER_SECONDS
from einhorn_table.table.bots import BotDriver
from einhorn_table.table.config import DICE_COLOURS, load_config
from einhorn_table.table.loop import TableLoop

HEAD = """
games = 1
camera = "synth:seed=3,players=3"
[screen]
width = 400
height = 240
fullscreen = false
"""
BEFORE = HEAD + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"), ("Cem", 3, "blue"))
#: Ben has gone home; Bea sits at his station with his dice.
AFTER = HEAD + players_toml(("Ana", 1, "white"), ("Bea", 2, "red"), ("Cem", 3, "blue"))


def bots_at(loop: TableLoop) -> None:
    camera = loop.tray.source  # type: ignore[attr-defined]
    count = len(loop.controller.names)
    loop.bots = BotDriver(frozenset(range(count)),
                          [make_strategy("odds") for _ in range(count)], random.Random(3))
    loop.perform = direct_performer(loop.controller, throw_into(camera), loop.clock)
    loop.tray_idle = lambda: not camera.frames_queued


def two_matches(monkeypatch: pytest.MonkeyPatch, factory: MockFactory, config: Path,
                between: str, whole: bool = False,
                notices: list[str] | None = None) -> list[TableLoop]:
    """``play`` for a first match to its end; ``between`` written to the table's file
    at its final standings, Ben holds OK; the second match for a few throws (``whole``:
    to its end). ``notices``: gets what each match's screen notes as it starts."""
    import einhorn_table.adapters.clock as clocks

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setattr(clocks, "SystemClock", FakeClock)
    original = TableLoop.run
    runs: list[TableLoop] = []

    def club(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        runs.append(self)
        bots_at(self)
        clock = self.clock
        assert isinstance(clock, FakeClock)
        if notices is not None:
            notices.append(self.controller.notice_at(clock.monotonic()))
        if len(runs) == 1:
            original(self, lambda: self.controller.match.over, max_steps=100_000)
            config.write_text(between, encoding="utf-8")  # (edited over ssh meanwhile)
            clock.advance(NEXT_MATCH_AFTER_SECONDS)
            self.step()
            press(factory, clock, 1, (Button.EINHORN,), long=True)
            self.step()
            assert done()
        elif whole:
            original(self, lambda: self.controller.match.over, max_steps=100_000)
        else:
            original(self, lambda: len(self.controller.match.record) >= 4, max_steps=20_000)

    monkeypatch.setattr(TableLoop, "run", club)
    assert main(["play", str(config), "--state-dir", str(config.parent / "state")]) == 0
    assert len(runs) == 2
    return runs


def test_the_next_match_seats_the_players_the_table_file_names_now(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The file was read once, at the start: the next match still said "Ben" on every
    # card and in the history, though Bea sat at his station.
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    first, second = two_matches(monkeypatch, mock_factory, config, AFTER, whole=True)
    assert first.controller.match.names == ("Ana", "Ben", "Cem")
    assert second.controller.match.names == ("Ana", "Bea", "Cem")
    view = build_view(second.controller, second.clock.monotonic())
    assert [card.name for card in view.players] == ["Ana", "Bea", "Cem"]
    assert view.players[1].dice_colour == first.controller.seats[1].dice_colour  # his dice
    assert "Bea" in capsys.readouterr().err
    store = open_store(tmp_path / "state")
    rows = {row.match_id: row for row in store.matches()}
    assert rows["1"].players == ("Ana", "Ben", "Cem")
    assert rows["2"].players == ("Ana", "Bea", "Cem")
    leaders = {leader.name: leader.matches for leader in history_summary(store).leaders}
    store.close()
    assert leaders == {"Ana": 2, "Ben": 1, "Bea": 1, "Cem": 2}
    # ``history list`` and ``history stats`` say so too.
    state = str(tmp_path / "state")
    assert main(["history", "--state-dir", state, "list"]) == 0
    listed = capsys.readouterr().out
    assert "Ana, Bea, Cem" in listed and "Ana, Ben, Cem" in listed
    assert main(["history", "--state-dir", state, "stats"]) == 0
    stats = capsys.readouterr().out
    assert "Bea" in stats and "Ben" in stats


def test_a_table_file_that_no_longer_reads_keeps_the_players_and_says_why(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    broken = AFTER.replace('name = "Bea"', 'name = "Bea')  # (a quote forgotten)
    _, second = two_matches(monkeypatch, mock_factory, config, broken)
    assert second.controller.match.names == ("Ana", "Ben", "Cem")
    err = capsys.readouterr().err
    assert "the same players as before" in err and str(config) in err


def test_a_player_moved_to_a_station_not_wired_up_keeps_the_players(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The buttons of a station nobody sat at were not opened: a restart opens them."""
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    moved = HEAD + players_toml(("Ana", 1, "white"), ("Bea", 4, "red"), ("Cem", 3, "blue"))
    notices: list[str] = []
    _, second = two_matches(monkeypatch, mock_factory, config, moved, notices=notices)
    assert second.controller.match.names == ("Ana", "Ben", "Cem")
    err = capsys.readouterr().err
    assert "restart" in err and "station 4" in err
    # The family at the table is told too, not only the service's journal: Bea's name
    # was nowhere on the screen, Ben's on every card.
    assert notices[0] == ""
    assert "Bea" in notices[1] and "Restart the table" in notices[1]


def test_a_table_file_that_no_longer_reads_is_told_on_the_screen(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    notices: list[str] = []
    two_matches(monkeypatch, mock_factory, config, AFTER.replace("games = 1", "games = ("),
                notices=notices)
    assert "table.toml has a mistake" in notices[1]


def test_a_player_left_out_for_a_match_plays_again_at_the_station_open_since_the_start(
        tmp_path: Path) -> None:
    # Each match compared the file with the match before's: Cem, left out of the second
    # match, was refused for the third ("whose buttons were not in use when the table
    # started", though they were), and only a restart let him play again.
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    start = load_config(config)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben", "Cem"], games=1)
    config.write_text(HEAD + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")),
                      encoding="utf-8")
    second = next_match_setup(config, start, start, setup)
    assert second.setup.players == ("Ana", "Ben")
    config.write_text(BEFORE, encoding="utf-8")
    third = next_match_setup(config, start, second.config, second.setup)
    assert third.setup.players == ("Ana", "Ben", "Cem")
    assert "restart" not in third.journal and third.screen == ""


@pytest.mark.parametrize(("old", "new", "what"), [
    ('camera = "synth:seed=3,players=3"', 'camera = "picamera2"', "the camera"),
    ("height = 240", "height = 240\nrotate = 180", "the screen"),
    ("games = 1", 'games = 1\ncalibration = "calibration.toml"', "the calibration"),
    ("games = 1", 'games = 1\npins = "pins.toml"', "the pins"),
])
def test_what_is_taken_up_only_at_the_start_is_said_to_need_a_restart(
        tmp_path: Path, old: str, new: str, what: str) -> None:
    # The next match read the file again and said nothing of a new camera or screen:
    # the installer waited for a change that never came.
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    start = load_config(config)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben", "Cem"], games=1)
    config.write_text(BEFORE.replace(old, new, 1), encoding="utf-8")
    after = next_match_setup(config, start, start, setup)
    assert after.setup.players == ("Ana", "Ben", "Cem")
    assert what in after.journal and "restart" in after.journal, after.journal
    assert after.screen == f"Restart the table to use the new {what.removeprefix('the ')}."
    config.write_text(BEFORE, encoding="utf-8")
    assert next_match_setup(config, start, start, setup) == NextMatch(start, setup)


def calibrated_for(config: Path, *names: str) -> str:
    """The head of a table's file whose calibration (beside ``config``) measured the
    dice colours of ``names``, as the synthetic table shows its players' dice."""
    import re

    profile = (Path(__file__).parent.parent / "calibration" / "synth.toml").read_text()
    for k, name in enumerate(names, start=1):
        profile = re.sub(rf'"Player {k}" = ', f'"{name}" = ', profile)
    (config.parent / "cal.toml").write_text(profile, encoding="utf-8")
    return 'calibration = "cal.toml"\n' + HEAD


def test_a_new_player_s_dice_colour_not_measured_is_told_as_at_the_start(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The calibration measured Ana's, Ben's and Cem's dice. Bea, in Ben's place for the
    # next match, got the file's "red" and not a word of it: at the start the journal
    # says whose colours are measured; the next match said nothing, on the screen
    # neither. Dice of hers that the file's name fits badly (teal ones called "green"
    # beside Cem's blue) made the table doubt each of her rolls.
    config = tmp_path / "table.toml"
    head = calibrated_for(config, "Ana", "Ben", "Cem")
    config.write_text(head + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"),
                                          ("Cem", 3, "blue")), encoding="utf-8")
    after = head + players_toml(("Ana", 1, "white"), ("Bea", 2, "red"), ("Cem", 3, "blue"))
    notices: list[str] = []
    first, second = two_matches(monkeypatch, mock_factory, config, after, notices=notices)
    err = capsys.readouterr().err
    profile = tmp_path / "cal.toml"
    assert f"Dice colours as calibrated in {profile}: Ana, Ben, Cem." in err
    assert f"Dice colours as calibrated in {profile}: Ana, Cem; from the table's file: " \
           "Bea." in err
    # What to do, with the command that measures her dice colour.
    told = err[err.index("from the table's file: Bea."):]
    assert "To measure Bea's dice colour" in told and "calibrate" in told, told
    assert str(config) in told.splitlines()[0]
    # The same fallback as at the start: measured colours by name, else the file's.
    assert [s.dice_colour for s in second.controller.seats] == [
        first.controller.seats[0].dice_colour, DICE_COLOURS["red"],
        first.controller.seats[2].dice_colour]
    assert first.controller.seats[1].dice_colour != DICE_COLOURS["red"]  # (Ben's measured)
    # The family at the table is told too.
    assert notices[0] == ""
    assert notices[1] == ('Bea\'s dice colour is not measured: the table goes by "red" '
                          "until it is calibrated again.")


def test_a_player_kept_from_the_match_before_is_not_told_again_on_the_screen(
        tmp_path: Path) -> None:
    from einhorn_table.cli.play import dice_colours_said

    config = tmp_path / "table.toml"
    head = calibrated_for(config, "Ana", "Ben")
    config.write_text(head + players_toml(("Ana", 1, "white"), ("Bea", 2, "red"),
                                          ("Dan", 3, "blue")), encoding="utf-8")
    players = load_config(config).players
    measured = {"Ana": (242, 240, 235), "Ben": (208, 38, 46)}
    said = dice_colours_said(config, tmp_path / "cal.toml", players, measured, "AGAIN",
                             ("Ana", "Ben", "Dan"))
    assert said.screen.startswith("Bea's dice colour is not measured")
    assert "the dice colours of Bea and Dan" in said.journal and "AGAIN" in said.journal
    both = dice_colours_said(config, tmp_path / "cal.toml", players, measured, "AGAIN",
                             ("Ana", "Ben"))
    assert both.screen.startswith("The dice colours of Bea and Dan are not measured")
    # The table's first match: the journal only (the doctor names them at install).
    assert dice_colours_said(config, tmp_path / "cal.toml", players, measured,
                             "AGAIN").screen == ""
    # Everyone measured: nothing to do.
    everyone = dice_colours_said(config, tmp_path / "cal.toml", players[:1], measured,
                                 "AGAIN", ())
    assert everyone == type(everyone)(f"Dice colours as calibrated in {tmp_path / 'cal.toml'}"
                                      ": Ana.")


#: A table's file that changes everything only a restart takes up.
EVERYTHING_AT_START = ('games = 1\ncalibration = "c.toml"\npins = "p.toml"\nstate = "elsewhere"\n'
                       'camera = "picamera2"\n[screen]\nwidth = 400\nheight = 240\n'
                       "fullscreen = false\nrotate = 180\n")


def fits_its_reading_time(words: str) -> bool:
    """Whether ``words`` can be read aloud in the time a notice stays (15 s at most)."""
    from einhorn_table.table.notice_time import (
        LETTERS_PER_SECOND,
        LOOK_UP_SECONDS,
        NOTICE_MOST_SECONDS,
    )

    return LOOK_UP_SECONDS + len(words) / LETTERS_PER_SECOND <= NOTICE_MOST_SECONDS


@pytest.mark.parametrize("players", [
    (("Ana", 1, "white"), ("Bea", 4, "red"), ("Cem", 3, "blue")),
    (("Ana", 1, "white"), ("Bea", 4, "red"), ("Dan", 5, "blue")),
])
def test_the_words_of_stations_not_in_use_and_a_restart_are_read_in_their_time(
        tmp_path: Path, players: tuple[tuple[str, int, str], ...]) -> None:
    # Bea at a station not opened at the start, and the camera, screen, calibration,
    # pins and history's folder changed: 232 letters, three lines at 800x480, cut short
    # at 15 s with a third unread. The journal keeps the details.
    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    start = load_config(config)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben", "Cem"], games=1)
    config.write_text(EVERYTHING_AT_START + players_toml(*players), encoding="utf-8")
    after = next_match_setup(config, start, start, setup)
    assert after.setup.players == ("Ana", "Ben", "Cem")
    assert "Restart the table to play with" in after.screen
    assert fits_its_reading_time(after.screen), (len(after.screen), after.screen)
    assert "the camera, the screen, the calibration, the pins and the history's folder" \
        in after.journal


@pytest.mark.parametrize("new", [
    (("Bea", 2, "red"), ("Cem", 3, "blue")),
    (("Bea", 2, "red"), ("Dan", 3, "blue")),
])
def test_a_restart_and_new_players_dice_colours_are_read_in_their_time(
        tmp_path: Path, new: tuple[tuple[str, int, str], ...]) -> None:
    # The words of the next match's start together: the settings only a restart takes
    # up, and the new players' dice colours not measured (before: 232 letters).
    from einhorn_table.cli.play import dice_colours_said

    config = tmp_path / "table.toml"
    config.write_text(BEFORE, encoding="utf-8")
    start = load_config(config)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben", "Cem"], games=1)
    config.write_text(EVERYTHING_AT_START + players_toml(("Ana", 1, "white"), *new),
                      encoding="utf-8")
    after = next_match_setup(config, start, start, setup)
    assert after.setup.players == ("Ana", *(name for name, _, _ in new))
    measured = {"Ana": (242, 240, 235), "Ben": (208, 38, 46), "Cem": (40, 60, 200)}
    said = dice_colours_said(config, tmp_path / "cal.toml", after.config.players, measured,
                             "AGAIN", setup.players)
    told = f"{after.screen} {said.screen}"
    assert "restart" in after.screen.lower() and "not measured" in said.screen
    assert fits_its_reading_time(told), (len(told), told)
