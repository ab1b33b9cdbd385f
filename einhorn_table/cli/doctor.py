"""``einhorn-table doctor``: check the camera, the buttons, the screen and the state directory.

Prints a plain report with what to do for each failure; exits 0 when every
essential check passed. On a desktop it says what is simulated (synthetic
camera, keyboard, window). ``--buttons`` asks for every button in turn.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from einhorn_table.cli.arguments import existing_file, more_than_zero, whole_number
from einhorn_table.stations import MAX_STATIONS
from einhorn_table.table.config import TableConfig

if TYPE_CHECKING:
    from einhorn_table.adapters.source_base import CameraView
    from einhorn_table.doctor.report import CheckResult

DESCRIPTION = """\
Check this table: the camera, the button stations, the screen, the folder for the
match history, the table's file (table.toml) and its calibration. Each line says
ok, warn, FAIL or skip, and what to do about a warning or a failure; the command
exits 0 when every essential check passed. On a computer that is not a Raspberry
Pi it says what stands in for the real thing (the synthetic table for the camera,
the keyboard for the buttons, a window for the screen). Stop the table's service
first (sudo systemctl stop einhorn-table): while it runs it holds the camera, the
buttons and the screen. --buttons asks for every button in turn."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check the camera, buttons, screen and state directory of this table",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source",
        help="the camera to check (default: the table file's camera, else picamera2 on a Pi "
        "and synth:seed=0 elsewhere); "
        "e.g. opencv:0, dir:frames/, synth:seed=3,players=4",
    )
    parser.add_argument(
        "--pins", type=Path,
        help="the pin map to check (default: the table file's, else hardware/pins.toml)"
    )
    parser.add_argument(
        "--table", type=existing_file, default=None,
        help="the table's file to check (default ./table.toml; on a Raspberry Pi without "
        "one there, the one in the companion's folder, which the table's service plays)",
    )
    parser.add_argument(
        "--profile", type=Path,
        help="a calibration profile (TOML) to check (default: the one the table's file "
        "names, else the state directory's)",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="where match histories go (default: the table file's 'state', else "
        "$EINHORN_STATE_DIR, $STATE_DIRECTORY, ~/.local/state/einhorn-table)",
    )
    parser.add_argument(
        "--buttons",
        action="store_true",
        help="ask for every button in turn and see it pressed (someone must press them)",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=range(1, MAX_STATIONS + 1),
        metavar="N",
        help="check only the stations of players 1 to N (default: the stations the "
        "table's file seats players at, else all)",
    )
    parser.add_argument(
        "--frames", type=whole_number(1), default=30,
        help="frames to read to measure the camera (default 30)"
    )
    parser.add_argument(
        "--timeout", type=more_than_zero, default=10.0,
        help="seconds to wait for each button (default 10)"
    )


def run(args: argparse.Namespace) -> int:
    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.calibration.paths import state_profile, unreadable_state_words
    from einhorn_table.doctor import checks
    from einhorn_table.doctor.machine import detect_machine
    from einhorn_table.doctor.report import CheckResult, Status, exit_status, render
    from einhorn_table.stations.pin_map import default_pin_map_path

    machine = detect_machine()
    if args.table is None:
        args.table = default_table(machine.is_pi)
    clock = SystemClock()
    results: list[CheckResult] = []
    # What play would use: the table file's camera, pin map, state directory and
    # calibration (else the state directory's), unless the options name others.
    config = _table_config(args.table)
    pins = args.pins or (config.pins if config is not None else None) or default_pin_map_path()
    # The stations the table's file seats players at (all, without one or with --players).
    stations = config.stations if config is not None and args.players is None else None
    pin_result, pin_map = checks.check_pin_map(pins, players=args.players, stations=stations)
    state = args.state_dir or (config.state if config is not None else None)
    # (As play finds one its table's file names none: in its state directory first.)
    try:
        default_profile = state_profile(state)
    except PermissionError as error:  # (the service's folder, for another user)
        default_profile = None
        results.append(CheckResult("profile", Status.FAIL,
                                   *unreadable_state_words(error, "doctor")))
    state = state.expanduser() if state is not None else checks.default_state_dir()
    table_result, table = checks.check_table_file(args.table, pin_map, default_profile,
                                                  service=machine.is_pi)
    # The calibration play reads: the one the table's file names, else the state
    # directory's (also without a table's file: play run with another one reads it).
    named = table.calibration if table is not None else None
    if named is None:
        named = default_profile
    named_file = named if named is not None and named.is_file() else None
    profile = args.profile or named_file
    profile_result, settings = checks.check_profile(profile)
    if args.profile is not None:
        profile_result = replace(profile_result, detail=profile_result.detail + " " + (
            other_profile_words(args.profile, named_file, args.table, table is not None)))
    # (A table's file that does not load may still name its camera: that one is checked.)
    named_camera = table.camera if table is not None else _camera_named(args.table)
    source = args.source or named_camera or checks.default_source(machine)
    guessed = args.source is None and named_camera is None and args.table.is_file()
    frames = max(2, args.frames)
    pictures: list[Any] = []
    views: list[CameraView] = []
    # The table's service holds the camera, the buttons and the screen while it runs:
    # checking them then would fail with the wrong advice.
    service_result = checks.check_service()
    if service_result is not None:
        results.append(service_result)
        results.append(_held_by_the_service("camera"))
    else:
        camera_result = checks.check_camera(source, clock, frames=frames, settings=settings,
                                            seen=pictures.append, viewed=views.append)
        if args.source is None and named_camera is not None \
                and camera_result.status is Status.FAIL:
            camera_result = replace(camera_result, detail=f"{camera_result.detail} (the "
                                    f"camera {args.table} names: camera = \"{named_camera}\")")
        if guessed:
            camera_result = replace(
                camera_result, detail=f"{camera_result.detail} (the default camera: "
                f"{args.table} names none that could be read, see the table file line)")
        results.append(camera_result)
    results.append(pin_result)
    controls = None
    if service_result is not None:
        button_result = _held_by_the_service("buttons")
        screen_result = _held_by_the_service("screen")
    else:
        button_result, controls = checks.check_buttons(
            machine, pin_map, clock, players=args.players, stations=stations)
        if button_result.simulated and button_result.status is Status.OK:
            button_result = replace(button_result, detail=keyboard_words(
                args.players or (len(table.players) if table is not None else None)))
        screen_result = checks.check_screen(
            machine, rotate=table.rotate if table is not None else None,
            fullscreen=table.fullscreen if table is not None else True)
    results.append(button_result)
    results.append(screen_result)
    results.append(checks.check_state_dir(state))
    results.append(table_result)
    names_result = checks.check_names_shown([p.name for p in table.players] if table else [])
    if names_result is not None:
        results.append(names_result)
    again = calibrate_again_command(args.table, profile) if profile is not None else ""
    # (A player added to the table's file since the calibration: no dice colour measured.)
    results.append(checks.check_calibrated_players(profile_result, profile, table, args.table,
                                                   again))
    size_result = (checks.check_picture_size(pictures[-1], profile, again) if pictures
                   else None)
    if size_result is not None:
        results.append(size_result)
    view = views[-1] if views else None
    view_note = checks.check_camera_view(view, profile, again)
    tray_result = None
    if pictures and (size_result is None or size_result.status is not Status.FAIL) and (
            view_note is None or view_note.status is not Status.FAIL):
        # (On pictures of another shape or view the tray would only look "otherwise
        # shaped", as if the camera had been moved.)
        tray_result = checks.check_tray_place(pictures[-1], profile, again)
    # (Whether a calibration that keeps no view still fits shows in the tray's place;
    # where it does, the view is kept in it, and play stops warning.)
    view_result = checks.check_camera_view(view, profile, again, tray_result, keep=True)
    results.extend(r for r in (view_result, tray_result) if r is not None)
    results.append(checks.check_reader())
    groups = checks.check_groups(machine)
    if groups is not None:
        results.append(groups)

    def say(text: str) -> None:
        print(text, end="", flush=True)

    try:
        if args.buttons and pin_map is not None:
            if controls is not None:
                say("Button test: press each button when asked.\n")
                results.append(
                    checks.walk_buttons(
                        controls, pin_map, clock, say, players=args.players, stations=stations,
                        timeout=args.timeout,
                    )
                )
            elif button_result.simulated and not screen_result.simulated:
                results.append(_keyboard_walk(pin_map, clock, say, args, stations))
            elif button_result.simulated:
                results.append(
                    CheckResult(
                        "button test",
                        Status.SKIP,
                        "no window for the keyboard here (no display)",
                        essential=False,
                    )
                )
    finally:
        if controls is not None:
            controls.close()
    if any(r.name == "button test" and r.status is not Status.SKIP for r in results):
        say("\n")
    sys.stdout.write(render(machine.describe(), results))
    return exit_status(results)


def other_profile_words(given: Path, played: Path | None, table: Path,
                        table_loads: bool) -> str:
    """Which calibration the doctor checked (``given`` with --profile) beside the one
    play reads (``played``: the table's file's, else the state directory's)."""
    if played is not None and given.resolve() == played.resolve():
        return "(given with --profile; play reads this one too)"
    if played is not None:
        return (f"(given with --profile; play reads {played} instead, and the tray and "
                "camera view lines here are of the one given)")
    if table_loads:
        return (f"(given with --profile; play reads none: to play with it, write "
                f'calibration = "{given}" in {table})')
    return "(given with --profile)"


def keyboard_words(players: int | None) -> str:
    """The buttons line on a computer without buttons: the keyboard stands in for them,
    each player's four keys in a row (those of ``players``, else the first rows)."""
    from einhorn_table.adapters.keyboard_controls import key_map_text

    rows = (key_map_text(players) if players is not None
            else f"{key_map_text(3)}; and so on, up to six players")
    from einhorn_table.words import command_name

    return ("no buttons here: in the demo and in "
            f"`{command_name()} doctor --buttons` the keyboard stands in for "
            f"them, each player's four keys in a row, left to right ({rows})")


def default_table(pi: bool, here: Path | None = None, project: Path | None = None) -> Path:
    """The table's file the doctor checks without ``--table``: ./table.toml; on a Pi
    without one there, the one in the companion's own folder (the one ``./start`` and
    the table's service play), so that the doctor run from the home folder checks it,
    or says where to make it."""
    local = Path("table.toml")
    if (here or Path.cwd()).joinpath(local).is_file() or not pi:
        return local
    folder = project or Path(__file__).resolve().parents[2]
    # (Only where the companion runs from its own folder, as install.md sets it up.)
    return folder / "table.toml" if (folder / "start").is_file() else local


def calibrate_again_command(table: Path, profile: Path,
                            environ: Mapping[str, str] | None = None) -> str:
    """The whole command that makes the calibration ``play`` reads (``profile``) again,
    for the person who reads it. A calibration in the table's service's own state
    directory (/var/lib/einhorn-table), which only the service's user may write, is
    made anew beside the table's file instead, with the line that names it there."""
    from einhorn_table.calibration.paths import PROFILE_NAME, kept_by_the_service
    from einhorn_table.cli.calibrate import calibrate_command, named_calibration

    if not table.is_file() or not kept_by_the_service(profile, environ):
        return calibrate_command(table, profile)
    beside = table.parent / PROFILE_NAME
    line = f'calibration = "{PROFILE_NAME}"'
    name = (f"then change the calibration line in {table} to {line}"
            if named_calibration(table) is not None
            else f"then write {line} in {table}")
    return f"{calibrate_command(table, beside)}, {name}"


def _held_by_the_service(name: str) -> CheckResult:
    """A check left out while the table's service holds what it checks."""
    from einhorn_table.doctor.report import CheckResult, Status

    return CheckResult(name, Status.SKIP, "not checked: the table's service is using it "
                       "(see the service line)", essential=False)


def _keyboard_walk(pin_map: Any, clock: Any, say: Any, args: argparse.Namespace,
                   stations: frozenset[int] | None) -> Any:
    """The button test on a desktop: a small window takes the players' keys."""
    import pygame

    from einhorn_table.adapters.keyboard_controls import KeyboardControls
    from einhorn_table.doctor import checks

    pygame.display.init()
    try:
        pygame.display.set_mode((480, 120))
        pygame.display.set_caption("Einhorn Table doctor: press the keys asked for")
        keys = KeyboardControls(clock, players=args.players or MAX_STATIONS)
        say("Button test on the keyboard: keep the doctor's window in front.\n")
        return checks.walk_buttons(
            keys, pin_map, clock, say, players=args.players, stations=stations,
            timeout=args.timeout,
        )
    finally:
        pygame.display.quit()


def main(argv: list[str] | None = None) -> int:
    """Run the doctor alone (``python -m einhorn_table.cli.doctor``)."""
    from einhorn_table.errors import EinhornError

    parser = argparse.ArgumentParser(prog="einhorn-table doctor", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except EinhornError as error:
        print(f"einhorn-table doctor: {error}", file=sys.stderr)
        return 1


def _camera_named(path: Path) -> str | None:
    """The camera a table's file names, read from it as TOML alone: where a mistake
    elsewhere in it keeps the whole file from loading, the doctor still checks the
    camera the table uses (a recording's path taken from the file's folder, as the table
    takes it). None where it names none, or is no TOML."""
    from einhorn_table.table.config import ConfigError, beside, read_table_file

    try:
        camera = read_table_file(path).get("camera")
    except (OSError, ConfigError):
        return None
    return beside(camera, path.parent) if isinstance(camera, str) and camera.strip() else None


def _table_config(path: Path) -> TableConfig | None:
    """The table's file, where it loads (the doctor's table check says what is wrong)."""
    from einhorn_table.table.config import ConfigError, load_config

    try:
        return load_config(path) if path.is_file() else None
    except ConfigError:
        return None


if __name__ == "__main__":
    raise SystemExit(main())
