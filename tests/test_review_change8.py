"""Review of the change to the rules, the table and its screens (names read in one
Unicode form, the start rolls' last roll): a table whose file names a player with her
accent typed apart goes on with its match after a restart, as does a match kept before
names were read in one form; the winner's roll-off does not show a sum that does not
count."""

from __future__ import annotations

import json
import tomllib
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

from conftest import GOLDEN, needs_golden
from table_helpers import MemoryRecorder, reading

from einhorn_table.calibration.profile import parse_profile
from einhorn_table.cli.play import seats_for
from einhorn_table.history import MatchStore
from einhorn_table.rules import EINHORN, Setup, replay
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.table.config import load_config
from einhorn_table.table.controller import Seat, TableController

APART = unicodedata.normalize("NFD", "Zoë")  # Z, o, e and the two dots on their own


def table_file(folder: Path) -> Path:
    path = folder / "table.toml"
    path.write_text(f'[[player]]\nname = "{APART}"\n\n[[player]]\nname = "Ben"\n',
                    encoding="utf-8")
    return path


def store(folder: Path) -> MatchStore:
    return MatchStore(folder / "state", now=lambda: datetime(2026, 11, 27, 20, tzinfo=UTC))


def test_a_name_typed_apart_in_the_table_file_keeps_her_seat_after_a_restart(
        tmp_path: Path) -> None:
    config = load_config(table_file(tmp_path))
    history = store(tmp_path)
    recorder = history.begin(Setup.for_variant(EINHORN, [p.name for p in config.players]))
    recorder.close()
    match = history.resume(history.matches()[0].match_id)  # (the plug was pulled)
    seats, stations, blocked = seats_for(match.names, config.players)
    assert blocked == ""  # (it said "Zoë has no station in the table's configuration")
    assert stations == {0: 0, 1: 1}
    TableController(match, MemoryRecorder(), list(seats))  # (the seats are the match's)


def test_a_match_kept_with_the_name_typed_apart_before_goes_on(tmp_path: Path) -> None:
    history = store(tmp_path)
    # Kept before names were read in one form: the setup line spells her apart.
    history.begin(Setup(players=(APART, "Ben"))).close()
    assert APART in history.lines(history.matches()[0].match_id)[0]
    match = history.resume(history.matches()[0].match_id)
    config = load_config(table_file(tmp_path))
    _, _, blocked = seats_for(match.names, config.players)
    assert blocked == ""


def test_the_table_files_names_are_read_in_one_form(tmp_path: Path) -> None:
    config = load_config(table_file(tmp_path))
    assert [p.name for p in config.players] == ["Zo\u00eb", "Ben"]


def rolloff_controller() -> TableController:
    """Cem and Ben tied for the most at the end of a one-game match: the roll-off."""
    # (the golden match up to its last two lines, the roll-off's)
    lines = (GOLDEN / "rolloff-won.jsonl").read_text(encoding="utf-8").splitlines()[:-2]
    match = replay(lines)
    colours = [(200, 30, 40), (30, 60, 200), (240, 240, 240)]
    return TableController(match, MemoryRecorder(), [Seat(n, colours[i])
                                                     for i, n in enumerate(match.names)])


@needs_golden
def test_the_roll_off_says_the_last_roll_was_no_einhorn_not_its_sum() -> None:
    c = rolloff_controller()
    roller = c.match.state.to_act
    assert roller is not None and c.match.state.phase.value == "rolloff"
    name = c.names[roller]
    c._commit_roll(roller, (3, 6, 3), {}, 0.0, reading([3, 6, 3]), None)
    view = build_view(c, 60.0)
    assert view.kind is ScreenKind.START_ROLLS
    assert [d.value for d in view.dice] == [3, 6, 3]
    # (it said "Ben rolled 12": only an Einhorn counts here, never a sum)
    assert view.lines == (f"{name} rolled no Einhorn",)


def test_a_start_roll_still_says_its_sum() -> None:
    match = replay([json.dumps({"v": 1, "type": "setup", "players": ["Ana", "Ben"]})])
    c = TableController(match, MemoryRecorder(), [Seat("Ana"), Seat("Ben")])
    c._commit_roll(0, (2, 3, 4), {}, 0.0, reading([2, 3, 4]), None)
    assert build_view(c, 60.0).lines == ("Ana rolled 9",)


def test_a_calibration_that_names_a_player_with_her_accent_typed_apart_finds_her() -> None:
    # Play looks up each player's calibrated dice colour by name, as table.toml gives it
    # (one form): a calibration file with "Zoe" and the two dots apart missed her.
    profile = parse_profile(tomllib.loads(
        'version = 1\n[players]\n"Zoe\u0308" = [200, 30, 40]\n'))
    assert [p.name for p in profile.players] == ["Zo\u00eb"]
