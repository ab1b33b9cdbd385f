"""The commands an installer runs (play, history, doctor, record, demo, the smoke test)
on small faults: the commands they suggest name the companion as the person runs it,
a pin map without one of the stations asked for is said, a camera that fails leaves no
empty folder, play and the doctor find the calibration in play's state directory, and
the demo of bots alone offers nothing nobody can do."""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from history_helpers import bot_match
from table_helpers import players_toml
from test_hardware_files import load_smoke

from einhorn_table.adapters.source_base import SourceError
from einhorn_table.cli import main
from einhorn_table.cli import record as record_command
from einhorn_table.cli.table_app import BotsOnlyScreen, DemoOptions, run_demo
from einhorn_table.doctor import checks, system_checks
from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.doctor.tray_check import calibrate_again
from einhorn_table.history import MatchStore
from einhorn_table.rules import get_variant
from einhorn_table.screen.view_model import (
    ScreenKind,
    ScreenView,
    button_hints,
)
from einhorn_table.stations.gesture_table import Context
from einhorn_table.stations.pin_map import default_pin_map_path
from einhorn_table.table.loop import TableLoop

SYNTH = "synth:width=160,height=120,fps=60"


@pytest.fixture(autouse=True)
def _no_running_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system_checks, "service_state", lambda: None)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)


@pytest.fixture
def started_by_start(monkeypatch: pytest.MonkeyPatch) -> str:
    """The companion run as ./start runs it (its .venv's command is on no PATH)."""
    monkeypatch.setenv("EINHORN_COMMAND", "./start")
    return "./start"


def flat(text: str) -> str:
    """The report without its wrapping (it breaks long lines, paths too)."""
    return "".join(text.split())


# The command as the person runs it ------------------------------------------------


def test_history_names_the_command_as_the_person_runs_it(
        tmp_path: Path, started_by_start: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    with MatchStore(state, now=lambda: datetime.now(UTC)) as store:  # one match kept
        store.import_notation(bot_match(1).notation().splitlines())
    listing = f"`./start history --state-dir {state} list`"  # (the folder named)
    assert main(["history", "--state-dir", str(state), "show", "7"]) == 1
    assert f"{listing} shows the matches kept" in capsys.readouterr().err
    assert main(["history", "--state-dir", str(state), "show", "seven"]) == 1
    assert f"as {listing} shows them" in capsys.readouterr().err
    assert main(["history", "--state-dir", str(state), "export", "7"]) == 1
    assert listing in capsys.readouterr().err
    assert main(["history", "--state-dir", str(state), "stats", "--player", "Zoe"]) == 1
    assert "the players kept are Ana, Ben, Cem, Dora" in capsys.readouterr().err
    monkeypatch.setenv("EINHORN_STATE_DIR", str(state))  # (no folder named: none told)
    assert main(["history", "show", "7"]) == 1
    assert "`./start history list` shows the matches kept" in capsys.readouterr().err


def test_stats_of_a_player_in_an_empty_history_says_it_keeps_no_matches(
        tmp_path: Path, started_by_start: str, capsys: pytest.CaptureFixture[str]) -> None:
    # It sent the person to `history list`, which answers "No matches kept yet", as
    # `show` and `export` no longer do.
    state = tmp_path / "state"
    MatchStore(state, now=lambda: datetime.now(UTC)).close()  # a history, empty
    assert main(["history", "--state-dir", str(state), "stats", "--player", "Zoe"]) == 1
    err = capsys.readouterr().err
    assert f"the history in {state} keeps no matches yet" in err
    assert "shows who played" not in err


def test_the_doctor_names_the_command_as_the_person_runs_it(
        tmp_path: Path, started_by_start: str) -> None:
    table = tmp_path / "table.toml"
    table.write_text('calibration = "cal.toml"\n'
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    result, _ = checks.check_table_file(table, None)
    # (calibrate saves where the table's file names its calibration: no --out needed)
    assert f"Run ./start calibrate --fullscreen --table {table}, or fix" in result.todo
    # A calibration in the installer's home, which the service never reads.
    table.write_text(players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    profile = tmp_path / "home" / "calibration.toml"
    profile.parent.mkdir()
    profile.write_text("version = 1\n", encoding="utf-8")
    result, _ = checks.check_table_file(table, None, profile, home=tmp_path / "home")
    assert result.status is Status.WARN and "./start calibrate --fullscreen" in result.todo
    assert calibrate_again() == "Run ./start calibrate again (the tray's step is the first)."


def test_the_demos_help_and_the_smoke_test_name_the_command_as_the_person_runs_it(
        tmp_path: Path, started_by_start: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "`./starthistory--state-direinhorn-statestats`" in flat(capsys.readouterr().out)
    load_smoke().main(["--only", "camera", "--source", SYNTH, "--seconds", "0.1",
                       "--snapshot", str(tmp_path / "tray.png")])
    assert "Use './start doctor' on a desktop." in capsys.readouterr().out


# A pin map without a station asked for --------------------------------------------


def pins_without_station_3(folder: Path) -> Path:
    """hardware/pins.toml with station 3 left out (1, 2, 4, 5 and 6 wired)."""
    text = default_pin_map_path().read_text(encoding="utf-8")
    head, *stations = text.split("[[station]]")
    kept = [s for s in stations if not re.search(r"^player = 3$", s, re.MULTILINE)]
    path = folder / "pins.toml"
    path.write_text(head + "".join("[[station]]" + s for s in kept), encoding="utf-8")
    return path


def test_the_doctor_says_which_station_of_players_asked_for_the_pin_map_lacks(
        tmp_path: Path) -> None:
    pins = pins_without_station_3(tmp_path)
    result, pin_map = checks.check_pin_map(pins, players=4)
    assert pin_map is not None and result.status is Status.FAIL
    assert "station 3 is not in" in result.detail and "--players 4" in result.detail
    assert "--players 2" in result.todo
    result, _ = checks.check_pin_map(pins, players=2)  # stations 1 and 2: both there
    assert result.status is Status.OK
    # The table's file's stations are the table check's to say (play refuses those).
    result, _ = checks.check_pin_map(pins, stations=frozenset({0, 2}))
    assert result.status is Status.OK


def test_doctor_players_n_fails_on_a_station_the_pin_map_lacks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.cli import doctor as doctor_cli

    monkeypatch.chdir(tmp_path)  # (no table.toml here)
    pins = pins_without_station_3(tmp_path)
    status = doctor_cli.main(["--source", SYNTH, "--frames", "3", "--state-dir",
                              str(tmp_path / "state"), "--pins", str(pins), "--players", "4"])
    out = flat(capsys.readouterr().out)
    assert status == 1 and "FAILpinmapstation3isnotin" in out


def test_the_smoke_test_says_which_station_of_players_asked_for_the_pin_map_lacks(
        tmp_path: Path, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    smoke = load_smoke()
    walked: list[int | None] = []

    def walk(controls: Any, pin_map: Any, clock: Any, say: Any, *, players: int | None = None,
             **more: Any) -> CheckResult:
        walked.append(len(pin_map.chosen(players)))
        return CheckResult("button test", Status.OK, "all answered")

    monkeypatch.setattr(checks, "walk_buttons", walk)
    args = argparse.Namespace(pins=pins_without_station_3(tmp_path), players=4, free_play=0)
    results = smoke.buttons_step(args, Machine(True, "Raspberry Pi 4 Model B"))
    pin_map = next(r for r in results if r.name == "pin map")
    assert pin_map.status is Status.FAIL and "station 3 is not in" in pin_map.detail
    assert walked == [3]  # the stations it has are still walked


# record ---------------------------------------------------------------------------


class _Unplugged:
    description = "the test camera"

    def __enter__(self) -> _Unplugged:
        raise SourceError("the camera did not open: check its cable")

    def __exit__(self, *exc: object) -> None:
        pass


def _record(folder: Path, monkeypatch: pytest.MonkeyPatch, camera: Any) -> int:
    import einhorn_table.adapters.sources as sources

    monkeypatch.setattr(sources, "create_source", lambda *a, **k: camera)
    parser = argparse.ArgumentParser(prog="einhorn-table")
    record_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["record", str(folder), "--source", "synth", "--seconds", "1"])
    status: int = args.handler(args)
    return status


def test_a_camera_that_does_not_open_leaves_no_recording_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recordings" / "tuesday"
    with pytest.raises(SourceError, match="did not open"):
        _record(folder, monkeypatch, _Unplugged())
    assert not (tmp_path / "recordings").exists()  # the folders it made, gone again
    # A folder that was there, empty, stays.
    folder.mkdir(parents=True)
    with pytest.raises(SourceError):
        _record(folder, monkeypatch, _Unplugged())
    assert folder.is_dir()


def test_a_camera_that_gives_no_frame_leaves_no_recording_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    class Silent:
        description = "the test camera"

        def __enter__(self) -> Silent:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def read(self) -> None:
            return None

    assert _record(tmp_path / "rec", monkeypatch, Silent()) == 1
    assert "nothing was saved" in capsys.readouterr().err
    assert not (tmp_path / "rec").exists()


# The calibration in play's state directory ----------------------------------------


@pytest.fixture
def table_with_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     mock_factory: MockFactory) -> Path:
    """A table's file whose ``state`` is its own folder (``kept``), no calibration named;
    the environment's state directory is another."""
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "from-env"))
    monkeypatch.setattr(TableLoop, "run", lambda self, done, max_steps=None: None)
    table = tmp_path / "table.toml"
    table.write_text('state = "kept"\ncamera = "synth:seed=3,players=2"\n'
                     "[screen]\nwidth = 400\nheight = 240\nfullscreen = false\n"
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    return table


def a_calibration(folder: Path) -> Path:
    shipped = Path(__file__).resolve().parent.parent / "calibration" / "synth.toml"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "calibration.toml"
    path.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_play_reads_the_calibration_in_the_state_directory_it_keeps_the_history_in(
        table_with_state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = a_calibration(table_with_state.parent / "kept")
    from_env = a_calibration(table_with_state.parent / "from-env")
    assert main(["play", str(table_with_state)]) == 0
    assert f"file: {kept} has none for Ana, Ben" in capsys.readouterr().err  # (read, named)
    # --state-dir names the state directory: its calibration, else the environment's.
    other = table_with_state.parent / "other"
    assert main(["play", str(table_with_state), "--state-dir", str(other)]) == 0
    assert f"file: {from_env} has" in capsys.readouterr().err
    mine = a_calibration(other)
    # (--new: the run before left its match unfinished, and the question would wait.)
    assert main(["play", str(table_with_state), "--state-dir", str(other), "--new"]) == 0
    assert f"file: {mine} has" in capsys.readouterr().err


def test_the_doctor_checks_the_calibration_play_reads(
        table_with_state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = a_calibration(table_with_state.parent / "kept")
    from einhorn_table.cli import doctor as doctor_cli

    status = doctor_cli.main(["--frames", "3", "--table", str(table_with_state)])
    out = flat(capsys.readouterr().out)
    assert f"calibration{kept}(thestatedirectory's)" in out
    # (Measured for "Player 1" to "Player 4": Ana's and Ben's dice go by their colour
    # names, which the profile line warns of.)
    assert f"warnprofile{kept}:version1;itmeasurednodicecolourforAnaandBen," in out
    assert status in (0, 1)  # (the synthetic camera's picture against the shipped profile)


# The demo of bots alone -----------------------------------------------------------


def test_the_bots_demo_s_final_standings_offer_no_new_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from einhorn_table.adapters.pygame_screen import PygameScreen

    shown: list[ScreenView] = []
    show = PygameScreen.show

    def seen(self: PygameScreen, view: ScreenView, now: float,
             key: tuple[object, ...] | None = None) -> None:
        shown.append(view)
        show(self, view, now, key)

    monkeypatch.setattr(PygameScreen, "show", seen)
    options = DemoOptions(
        names=["Ana", "Ben"], games=1, variant=get_variant("einhorn"),
        bots=frozenset({0, 1}), strategy="odds", chance=random.Random(0), seed=0,
        size=(400, 240), fullscreen=False, screenshots=None, state=tmp_path / "state",
        wall=lambda: datetime.now(UTC), fast=True, camera_size=(320, 240))
    run_demo(options)
    finals = [view for view in shown if view.kind is ScreenKind.FINAL]
    assert finals
    for view in finals:
        assert [hint.does for hint in view.buttons if hint.does] == ["history"]


def test_only_the_bots_demo_s_screen_leaves_the_new_match_out() -> None:
    class Screen:
        quit_requested = False

        def __init__(self) -> None:
            self.views: list[ScreenView] = []

        def show(self, view: ScreenView, now: float,
                 key: tuple[object, ...] | None = None) -> None:
            self.views.append(view)

    inner = Screen()
    screen = BotsOnlyScreen(inner)
    final = ScreenView(ScreenKind.FINAL, 1, 1, 0, None, (), "Final standings",
                       buttons=button_hints(Context.FINAL))
    history = dataclasses.replace(final, kind=ScreenKind.HISTORY,
                                  buttons=button_hints(Context.HISTORY))
    screen.show(final, 0.0)
    screen.show(history, 0.0)
    assert [h.does for h in inner.views[0].buttons] == ["", "history", "", ""]
    assert inner.views[1] == history
    inner.quit_requested = True
    assert screen.quit_requested


# Options and messages of the same kind ---------------------------------------------


def test_a_button_wait_of_0_seconds_is_refused_as_the_other_times_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.cli import doctor as doctor_cli

    with pytest.raises(SystemExit):
        doctor_cli.main(["--buttons", "--timeout", "0"])
    assert "argument --timeout: must be more than 0, not 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        load_smoke().main(["--only", "camera", "--seconds", "-1"])
    assert "argument --seconds: must be more than 0, not -1" in capsys.readouterr().err


def test_a_name_left_out_of_the_demos_names_is_said_as_such(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--names", "Ana,,Ben", "--bots", "all",
                 "--state-dir", str(tmp_path / "s")]) == 1
    err = capsys.readouterr().err
    assert "--names 'Ana,,Ben': a name is missing" in err and "same name" not in err
    assert not (tmp_path / "s").exists()


def test_a_file_where_a_folder_should_be_is_said_plainly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("shopping\n", encoding="utf-8")
    assert main(["history", "--state-dir", str(a_file), "import", "x.jsonl"]) == 1
    err = capsys.readouterr().err
    assert f"cannot make the state directory {a_file} (a file has that name)" in err
    pytest.importorskip("matplotlib")
    state = tmp_path / "state"
    MatchStore(state, now=lambda: datetime.now(UTC)).close()
    assert main(["history", "--state-dir", str(state), "stats", "--charts", str(a_file)]) == 1
    assert f"cannot make the chart folder {a_file} (a file has that name)" in \
        capsys.readouterr().err
