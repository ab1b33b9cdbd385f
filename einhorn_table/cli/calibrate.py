"""``einhorn-table calibrate``: make this table's calibration profile.

Guided, on the table's screen with the players' buttons (the keyboard on a
desktop): the tray, the light, the empty tray, each player's dice colour, the
dice sizes, then a few test rolls. The profile is saved where --out says,
else as the calibration the table's file (table.toml) names, else as
calibration.toml beside the table's file; without a table's file, in the state
directory ($EINHORN_STATE_DIR, $STATE_DIRECTORY, else
~/.local/state/einhorn-table), where play looks when its table's file names no
calibration (demo and read take a profile with --profile). The camera, the button
stations and the players are the table's file's unless the options say others.

Without a screen, from labelled photos of one setup (labels.jsonl beside
images/, as in the shared datasets):

    einhorn-table calibrate --from-labelled DIR --out PROFILE
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from einhorn_table.cli.arguments import ROTATE_HELP, existing_file, turn_degrees, whole_number
from einhorn_table.vision.profile import READ_DIE_PX, UNKNOWN_TABLE_DIE_PX, ReaderProfile

if TYPE_CHECKING:
    from einhorn_table.calibration.profile import CalibrationProfile
    from einhorn_table.ports import Image
    from einhorn_table.table.config import TableConfig

#: How long the last screen ("Calibration saved") stays before the command ends.
SAVED_SECONDS = 3.0
#: Below this share of labelled dice read right, calibrating from labels warns.
LOW_ACCURACY = 0.8


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="calibrate the camera for this table (guided, with the buttons)",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default=None,
                        help="the camera (default: the table file's, else picamera2 on a Pi "
                        "and synth:seed=0 elsewhere)")
    parser.add_argument("--controls", choices=("auto", "gpio", "keyboard"), default="auto",
                        help="the players' buttons (default: GPIO on a Pi, else the keyboard)")
    parser.add_argument("--players", type=int, default=None,
                        help="how many players register their dice colour (default: the "
                        "table file's players, else 2)")
    parser.add_argument("--names", default=None,
                        help="the players' names, comma separated (e.g. Anna,Ben,Clara; "
                        "default: the table file's, so that play uses the colours measured)")
    parser.add_argument("--table", type=existing_file, default=Path("table.toml"),
                        metavar="FILE",
                        help="the table's file whose players register their dice "
                        "(default ./table.toml, where it exists)")
    # Its name before it was called --table, as the doctor and record call it.
    parser.add_argument("--config", dest="table", type=existing_file,
                        default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument("--rolls", type=whole_number(1), default=5,
                        help="test rolls at the end (default 5)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to save the profile (default: the calibration the "
                        "table's file names, else calibration.toml beside it; without a "
                        "table's file, the state directory; --from-labelled needs it)")
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="save each screen as calibration-NN-NAME.png in this folder")
    parser.add_argument("--size", default="800x480", help="window size (default 800x480)")
    parser.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    parser.add_argument("--rotate", type=turn_degrees, default=None, metavar="{0,90,180,270}",
                        help=ROTATE_HELP + " (default: the table file's rotate; --rotate "
                        "wins where both are given)")
    parser.add_argument("--autopilot", action="store_true",
                        help="synthetic table only: press the buttons by itself (a demo)")
    # For scripts/calibration_screenshots.py: with --autopilot, the dice of this test roll
    # are entered with ✗ though read right, so that the entry screen is shown.
    parser.add_argument("--autopilot-enter", type=int, action="append", default=[],
                        metavar="ROLL", help=argparse.SUPPRESS)
    parser.add_argument("--from-labelled", type=Path, default=None, metavar="DIR",
                        help="make the profile from labelled photos, without the screen")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run(args: argparse.Namespace) -> int:
    from einhorn_table.calibration.fit import CalibrationError

    if args.from_labelled is not None:
        if args.out is None:  # never the table's own calibration, made at the table
            raise CalibrationError(
                "--from-labelled needs --out FILE: where to save the profile made from "
                "the photos")
        writable_out(args.out)
        made_by = f"einhorn-table calibrate --from-labelled {args.from_labelled}"
        return _from_labelled(args.from_labelled, args.out, made_by)
    out = args.out or default_out(args.table)
    writable_out(out)  # before the family rolls for ten minutes, not after
    return _guided(args, out)


def default_out(config: Path | None) -> Path:
    """Where a guided calibration is saved without ``--out``: the calibration the
    table's file names (``play`` reads that one), else ``calibration.toml`` beside
    the table's file (the service cannot read the installer's home), else the state
    directory (where ``play`` looks when its table's file names none)."""
    from einhorn_table.calibration.paths import PROFILE_NAME, default_profile_path

    named = named_calibration(config)
    if named is not None:
        return named
    if config is not None and config.is_file():
        return config.parent / PROFILE_NAME
    return default_profile_path()


def calibrate_command(config: Path | None, profile: Path) -> str:
    """The whole command line that makes the calibration at ``profile`` again, as the
    person runs the companion (``./start``, ``.venv/bin/einhorn-table``...), on the
    table's screen: ``--table`` where the table's file is not ./table.toml (the
    players it asks for, its camera and buttons), ``--out`` where the calibration
    would otherwise be saved elsewhere (``play`` would not read it)."""
    import shlex

    from einhorn_table.words import command_name

    words = [command_name(), "calibrate", "--fullscreen"]
    table = config if config is not None and config.is_file() else None
    if table is not None and table.resolve() != Path("table.toml").resolve():
        words += ["--table", shlex.quote(str(table))]
    if default_out(table).resolve() != profile.resolve():
        words += ["--out", shlex.quote(str(profile))]
    return " ".join(words)


def writable_out(out: Path) -> None:
    """Refuse an ``--out`` that cannot be written, before anything is measured."""
    from einhorn_table.calibration.fit import CalibrationError

    if out.is_dir():
        raise CalibrationError(f"--out {out} is a folder: name the file to save, e.g. "
                               f"{out / 'calibration.toml'}")
    folder = out.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the folder that will hold the new ones
    if not folder.is_dir():
        raise CalibrationError(f"cannot save the calibration as {out}: {folder} is a file, "
                               "not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or (
            out.exists() and not os.access(out, os.W_OK)):
        raise CalibrationError(
            f"cannot save the calibration as {out}: this user may not write in {folder}. "
            "Run the command as the user that owns that folder, or name a place you may "
            "write with --out FILE (and that file in table.toml's calibration line)")
    from einhorn_table.folders import cannot_write_in

    # (Tried for real: root passes the permissions above, yet writes nothing on a
    # read-only card, in /proc or in a network folder that refuses root.)
    if (why := cannot_write_in(out.parent)) is not None:
        raise CalibrationError(
            f"cannot save the calibration as {out}: {why}. Name a place you may write "
            "with --out FILE (and that file in table.toml's calibration line)")


def _from_labelled(folder: Path, out: Path, made_by: str) -> int:
    from einhorn_table.adapters.image_files import picture_or_none
    from einhorn_table.calibration.from_labelled import calibrate_from_labelled
    from einhorn_table.vision.labelled import LabelledPhoto, load_set


    def load(photo: LabelledPhoto) -> Any:
        return picture_or_none(photo.path)

    photos = load_set(folder, strict=True)
    print(f"Reading {len(photos)} labelled photos, each several times: this takes a few "
          "minutes.", flush=True)
    shown = [-1]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // max(1, total)
        if percent // 10 != shown[0] // 10 or done == total:  # every 10 %
            shown[0] = percent
            print(f"  {percent} %", flush=True)

    profile = calibrate_from_labelled(photos, load, made_by=made_by, made_at=_now(),
                                      progress=progress)
    save_calibration(profile, None, out)
    reader = profile.reader
    check = profile.check
    print(
        f"Saved {out} from {len(photos)} photos: {_die_sizes(reader)}, "
        f"{reader.pip_polarity} pips, min_confidence {reader.min_confidence:g}.\n"
        f"With it, {check.right} of {check.dice} labelled dice are read right"
        + (f" ({100 * check.accuracy:.0f} %)." if check.accuracy is not None else ".")
    )
    if check.accuracy is not None and check.accuracy < LOW_ACCURACY:
        print("That is low for photos of one table: check that the labels are right, and "
              "that the photos come from one camera over one tray with the same dice.")
    return 0


def _die_sizes(reader: ReaderProfile) -> str:
    """The die sizes the reader will take, as the profile gives them."""
    sizes = _die_size_range(reader)
    if reader.typical_die_px is not None:
        sizes += (
            f", frames shrunk where needed so that the typical die ({reader.typical_die_px:g}"
            f" px) is {READ_DIE_PX:g} px across"
        )
    return sizes


def _die_size_range(reader: ReaderProfile) -> str:
    low, high = reader.min_die_px, reader.max_die_px
    frame = f"of the frame shrunk to {reader.max_side} px"
    if low is not None and high is not None:
        return f"dice {low:g} to {high:g} px"
    if low is not None:
        return f"dice from {low:g} px (up to {UNKNOWN_TABLE_DIE_PX[1]:g} px {frame})"
    if high is not None:
        return f"dice up to {high:g} px (from {UNKNOWN_TABLE_DIE_PX[0]:g} px {frame})"
    return f"dice {UNKNOWN_TABLE_DIE_PX[0]:g} to {UNKNOWN_TABLE_DIE_PX[1]:g} px {frame}"


def _guided(args: argparse.Namespace, out: Path) -> int:
    import pygame

    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.adapters.controls import create_controls
    from einhorn_table.adapters.pygame_screen import TurnedDisplay, tell_portrait
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.adapters.synth_source import SynthSource
    from einhorn_table.calibration.autopilot import Autopilot, GestureQueue
    from einhorn_table.calibration.camera_lock import lock_for
    from einhorn_table.calibration.eyes import CameraEyes
    from einhorn_table.calibration.fit import CalibrationError
    from einhorn_table.calibration.flow import CalibrationFlow, FlowSettings
    from einhorn_table.calibration.renderer import CalibrationRenderer, ScreenshotWriter
    from einhorn_table.calibration.screens import skipped_line
    from einhorn_table.calibration.session import SynthRoller, run_flow
    from einhorn_table.calibration.view import CalibrationView
    from einhorn_table.cli.demo import sideways_words
    from einhorn_table.doctor.checks import default_source
    from einhorn_table.doctor.machine import detect_machine
    from einhorn_table.ports import Controls

    config = _table_file(args.table)
    names = _names(args.names, args.players, config, args.table)
    width, height = _size(args.size)
    machine = detect_machine()
    clock = SystemClock()
    screen = open_screen((width, height), args.fullscreen)
    # (A screen mounted on its side: drawn landscape, turned as the table file says.)
    rotate = calibration_turn(args.rotate, config, args.table)
    sideways = sideways_words((width, height), args.rotate, args.fullscreen)
    if sideways:
        print(sideways, file=sys.stderr)
    display = TurnedDisplay(pygame, screen, rotate or 0)
    tell_portrait(screen.get_size(), args.fullscreen, rotate,
                  "run the calibration with --rotate 90 (or --rotate 270), and set rotate = "
                  "90 (or 270) in [screen] of the table's file (table.toml) for play")
    renderer = CalibrationRenderer(display.surface)
    shots = ScreenshotWriter(args.screenshots) if args.screenshots else None
    settings = FlowSettings(players=names, test_rolls=args.rolls,
                            reference_name=reference_name(out),
                            saved=who_reads_with(out, args.table))
    source_text = args.source or (config.camera if config is not None else
                                  default_source(machine))
    made_by = f"einhorn-table calibrate --source {source_text}"
    source = create_source(source_text, clock=clock)
    try:
        with source:
            roller = SynthRoller(source) if isinstance(source, SynthSource) else None
            controls: Controls
            pilot: Autopilot | None = None
            if args.autopilot:
                if roller is None:
                    raise CalibrationError("--autopilot works on the synthetic table only")
                queue = GestureQueue()
                pilot = Autopilot(queue.tap, roller.thrown, chord=queue.chord,
                                  enter_by_hand=args.autopilot_enter)
                controls = queue
            else:
                # The table's own stations and pin map, as play sets them up.
                controls = create_controls(
                    args.controls, clock, on_pi=machine.is_pi,
                    players=None if config is not None else len(names),
                    stations=config.stations if config is not None else None,
                    pin_map_path=config.pins if config is not None else None)
            flow = CalibrationFlow(
                CameraEyes(), lock_for(source), settings, made_by=made_by, made_at=_now(),
                camera_view=source.view,
                # Saved on OK on the result screen: "Calibration saved" only once it is.
                save=lambda profile, reference: save_calibration(profile, reference, out))

            def show(view: CalibrationView) -> None:
                if pygame.event.get(pygame.QUIT) or escaped(controls):
                    raise KeyboardInterrupt  # Esc quits, as in play
                renderer.draw(view)
                display.flip()
                if shots is not None:
                    shots.update(view.screen, display.surface)
                if pilot is not None:
                    pilot.act(view)

            try:
                run_flow(flow, source, controls, show=show, roller=roller)
                if pilot is None:
                    clock.sleep(SAVED_SECONDS)  # let the parent read "Calibration saved"
            except KeyboardInterrupt:
                if flow.profile is None:  # (Esc or Ctrl+C before OK saved it)
                    print(stopped_unsaved(out), file=sys.stderr)
                    raise
            finally:
                controls.close()
    finally:
        if shots is not None:
            shots.finish()
        pygame.quit()
    assert flow.profile is not None  # set only once saved
    print(saved_words(flow.profile, out, settings.saved))
    if flow.s.skipped:
        print(skipped_line(flow.s.skipped))
    if machine.is_pi and config is not None:
        print("If you stopped the table to calibrate, start it again: "
              "sudo systemctl start einhorn-table")
    return 0


def saved_words(profile: CalibrationProfile, out: Path, saved: str) -> str:
    """What is printed once the guided calibration saved ``profile`` as ``out`` (``saved``:
    whether the table reads the dice with it); where its test rolls were read poorly,
    that the table will misread rolls, and what to do."""
    from einhorn_table.calibration.flow_state import reads_poorly_tally

    check = profile.check
    words = f"Saved {out}: {check.right} of {check.dice} test dice read right. {saved}"
    if reads_poorly_tally(check.right, check.dice):
        words += ("\nThat is too few: the table will misread rolls with it. Put right what "
                  "the result screen advised (the light, the camera's height, the dice), "
                  "then calibrate again.")
    return words


def calibration_turn(given: int | None, config: TableConfig | None,
                     path: Path | None) -> int | None:
    """How many degrees the calibration's picture is turned: ``--rotate`` (``given``)
    where given, as its other options win over the table's file; else the table file's
    ``[screen] rotate`` (None: not turned). Where the table's file would turn ``play``'s
    picture otherwise, stdout says so and which line to write."""
    written = config.rotate if config is not None else None
    if given is None:
        return written
    if config is not None and (written or 0) != given:
        play = ("has no rotate: play does not turn its picture" if written is None else
                f"says rotate = {written}, which play goes by")
        print(f"--rotate {given} turns the calibration's picture {given} degrees; [screen] in "
              f"{path} {play} (write rotate = {given} there to play turned this way).")
    return given


def stopped_unsaved(out: Path) -> str:
    """What is said where Esc or Ctrl+C stops the calibration before it was saved."""
    kept = (f"{out} is as it was" if out.exists() else f"no calibration was written to {out}")
    return (f"einhorn-table: calibration stopped before it was saved: nothing was saved "
            f"({kept}). Run the same command again to start from the beginning.")


def open_screen(size: tuple[int, int], fullscreen: bool) -> Any:
    """The calibration's window (the whole screen with ``fullscreen``); where none can be
    shown (none found, or one held by the table's service) a CalibrationError says what
    to do, instead of a traceback or a calibration nobody sees waiting for the buttons."""
    import pygame

    from einhorn_table.adapters.pygame_screen import INVISIBLE_DRIVER, fullscreen_size
    from einhorn_table.calibration.fit import CalibrationError

    try:
        pygame.display.init()
        pygame.font.init()
        if (pygame.display.get_driver() == INVISIBLE_DRIVER
                and os.environ.get("SDL_VIDEODRIVER") != INVISIBLE_DRIVER):
            raise pygame.error("no display was found")
        if fullscreen:  # (the size play opens: a 4K television at 1920x1080)
            screen = pygame.display.set_mode(
                fullscreen_size(pygame.display.get_desktop_sizes()), pygame.FULLSCREEN)
        else:
            screen = pygame.display.set_mode(size)
        pygame.display.set_caption("Einhorn Table: calibration")
    except pygame.error as error:
        pygame.quit()
        raise CalibrationError(no_screen(str(error))) from None
    return screen


def no_screen(reason: str) -> str:
    """What to do where the calibration's screen cannot be opened."""
    from einhorn_table.words import command_name

    return (
        f"the calibration's screen could not be opened ({reason}). It shows on the table's "
        "screen, where the players' buttons answer it: if the table's service runs, it "
        "holds the screen, so stop it first (sudo systemctl stop einhorn-table, and start "
        "it again afterwards); run it from the Pi's own console, or over SSH as "
        f"SDL_VIDEODRIVER=kmsdrm {command_name()} calibrate --fullscreen (with the options "
        "you gave). On a computer with a desktop, run it in a terminal on the desktop.")


def save_calibration(profile: CalibrationProfile, reference: Image | None, out: Path) -> None:
    """Write the profile and, beside it, its picture of the empty tray; a failure is a
    ProfileError that says what to do, and leaves the calibration there was (its
    picture too) as it was."""
    import cv2

    from einhorn_table.adapters.image_files import write_picture
    from einhorn_table.calibration.profile import ProfileError, save_profile

    picture = out.parent / reference_name(out)
    fresh = out.parent / f".{picture.stem}.new{picture.suffix}"  # until the profile is in
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if reference is not None:
            write_picture(fresh, reference, [cv2.IMWRITE_JPEG_QUALITY, 95])
        save_profile(profile, out)  # refuses a profile that would not load again
        if reference is not None:
            fresh.replace(picture)
    except OSError as error:
        raise ProfileError(
            f"could not save the calibration as {out} ({error.strerror or error}): check "
            "that the card is not full and that this user may write there") from None
    finally:
        fresh.unlink(missing_ok=True)


def reference_name(out: Path) -> str:
    """The empty tray's picture, saved beside the profile ``out``."""
    return out.stem + "-empty-tray.jpg"


def escaped(controls: object) -> bool:
    """Whether Esc was pressed on a keyboard: the keyboard's buttons read the key events
    and note an Esc; with the GPIO buttons nothing else reads them here."""
    import pygame

    from einhorn_table.adapters.keyboard_controls import KeyboardControls

    if isinstance(controls, KeyboardControls):
        return controls.quit_requested
    return any(event.key == pygame.K_ESCAPE for event in pygame.event.get(pygame.KEYDOWN))


def named_calibration(config: Path | None) -> Path | None:
    """The calibration the table's file names, which ``play`` reads (None: it names
    none, or there is no such file). Calibrating again without ``--out`` replaces it:
    the table's service cannot read a profile saved under the installer's home."""
    from einhorn_table.table.config import ConfigError, load_config

    if config is None or not config.is_file():
        return None
    try:
        return load_config(config).calibration
    except ConfigError:  # the doctor and play say what is wrong with it
        return None


def who_reads_with(out: Path, config: Path | None) -> str:
    """Whether ``play`` will read the dice with the profile saved at ``out``, in words.

    ``play`` reads the profile its table file names, else the state directory's; the
    demo and ``read`` take one only with ``--profile``.
    """
    from einhorn_table.calibration.paths import default_profile_path

    named = named_calibration(config)
    if named is not None and named.resolve() == out.resolve():
        return f"{config} names it: the table reads the dice with it from now on."
    if config is not None and config.is_file():
        line = f'calibration = "{as_named_in(out, config)}"'
        if named is not None:
            return (f"{config} names another calibration, {named}: to play with this one, "
                    f"write {line} there.")
        return (f"{config} names no calibration yet: add the line {line} to it, and the "
                "table reads the dice with it.")
    if out.resolve() == default_profile_path().resolve():
        return ("The table (play) reads the dice with it when its table's file names no other "
                f"calibration; the demo and read take it with --profile {out}.")
    return (f'To play with it, write calibration = "{out.resolve()}" in the table\'s file '
            "(table.toml).")


def as_named_in(out: Path, config: Path) -> str:
    """``out`` as the table's file names it: beside it, relative; elsewhere, in full
    (the table's file reads a relative path from its own folder)."""
    where = out.resolve()
    try:
        return where.relative_to(config.resolve().parent).as_posix()
    except ValueError:
        return str(where)


def _table_file(config: Path | None) -> TableConfig | None:
    """The table's file, read (None where there is none)."""
    from einhorn_table.table.config import load_config

    return load_config(config) if config is not None and config.is_file() else None


def _names(names: str | None, players: int | None, config: TableConfig | None = None,
           path: Path | None = None) -> tuple[str, ...]:
    """The players who register their dice: as named, else the table file's (its names
    are the ones ``play`` looks up in the profile), else Player 1, Player 2..."""
    from einhorn_table.calibration.fit import CalibrationError

    if names:
        listed = tuple(n.strip() for n in names.split(",") if n.strip())
        if players is not None and players != len(listed):
            raise CalibrationError(f"--players {players} but {len(listed)} --names given")
    elif config is not None:
        listed = tuple(p.name for p in config.players)
        if players is not None and players != len(listed):
            raise CalibrationError(
                f"--players {players}, but {path} seats {len(listed)}: leave --players out "
                "to calibrate its players, or give --names")
        print(f"Players from {path}: {', '.join(listed)}")
    else:
        count = 2 if players is None else players
        listed = tuple(f"Player {k + 1}" for k in range(count))
    if not 1 <= len(listed) <= 6:
        raise CalibrationError(f"1 to 6 players register their dice, not {len(listed)}")
    twice = sorted({name for name in listed if listed.count(name) > 1})
    if twice:
        raise CalibrationError(f"{', '.join(twice)} is named twice: give each player a "
                               "different name")
    return listed


def _size(text: str) -> tuple[int, int]:
    from einhorn_table.calibration.fit import CalibrationError

    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CalibrationError(f"--size {text!r}: write WIDTHxHEIGHT, e.g. 800x480") from None
    if width < 320 or height < 240:
        raise CalibrationError(f"--size {text!r}: the screen needs at least 320x240, "
                               "e.g. 800x480")
    return width, height
