"""``einhorn-table calibrate``: make this table's calibration profile.

Guided, on the table's screen with the players' buttons (the keyboard on a
desktop): the tray, the light, the empty tray, each player's dice colour, the
dice sizes, then a few test rolls. The profile is saved in the state
directory ($STATE_DIRECTORY, $EINHORN_STATE_DIR, else
~/.local/state/einhorn-table) unless --out names a file.

Without a screen, from labelled photos of one setup (labels.jsonl beside
images/, as in the shared datasets):

    einhorn-table calibrate --from-labelled DIR --out PROFILE
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from einhorn_table.cli.arguments import existing_file
from einhorn_table.vision.profile import READ_DIE_PX, UNKNOWN_TABLE_DIE_PX, ReaderProfile

#: How long the last screen ("Calibration saved") stays before the command ends.
SAVED_SECONDS = 3.0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="calibrate the camera for this table (guided, with the buttons)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default=None,
                        help="the camera (default: picamera2 on a Pi, synth:seed=0 elsewhere)")
    parser.add_argument("--controls", choices=("auto", "gpio", "keyboard"), default="auto",
                        help="the players' buttons (default: GPIO on a Pi, else the keyboard)")
    parser.add_argument("--players", type=int, default=None,
                        help="how many players register their dice colour (default: the "
                        "table file's players, else 2)")
    parser.add_argument("--names", default=None,
                        help="the players' names, comma separated (e.g. Anna,Ben,Clara; "
                        "default: the table file's, so that play uses the colours measured)")
    parser.add_argument("--config", type=existing_file, default=Path("table.toml"),
                        help="the table's file whose players register their dice "
                        "(default ./table.toml, where it exists)")
    parser.add_argument("--rolls", type=int, default=5, help="test rolls at the end (default 5)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to save the profile (default: the calibration the "
                        "table's file names, else the state directory)")
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="save each screen as calibration-NN-NAME.png in this folder")
    parser.add_argument("--size", default="800x480", help="window size (default 800x480)")
    parser.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    parser.add_argument("--autopilot", action="store_true",
                        help="synthetic table only: press the buttons by itself (a demo)")
    parser.add_argument("--from-labelled", type=Path, default=None, metavar="DIR",
                        help="make the profile from labelled photos, without the screen")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run(args: argparse.Namespace) -> int:
    from einhorn_table.calibration.paths import default_profile_path

    out: Path = args.out or named_calibration(args.config) or default_profile_path()
    if args.from_labelled is not None:
        made_by = f"einhorn-table calibrate --from-labelled {args.from_labelled}"
        return _from_labelled(args.from_labelled, out, made_by)
    return _guided(args, out)


def _from_labelled(folder: Path, out: Path, made_by: str) -> int:
    import cv2
    import numpy as np

    from einhorn_table.calibration.from_labelled import calibrate_from_labelled
    from einhorn_table.calibration.profile import ProfileError, save_profile
    from einhorn_table.vision.labelled import LabelledPhoto, load_set

    if not (folder / "labels.jsonl").is_file():
        raise ProfileError(
            f"{folder} holds no labels.jsonl: pass a folder of labelled photos "
            "(labels.jsonl beside images/)"
        )

    def load(photo: LabelledPhoto) -> Any:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        return None if image is None else np.asarray(image, dtype=np.uint8)

    photos = load_set(folder)
    profile = calibrate_from_labelled(photos, load, made_by=made_by, made_at=_now())
    save_profile(profile, out)
    reader = profile.reader
    print(
        f"Saved {out} from {len(photos)} photos: {_die_sizes(reader)}, "
        f"{reader.pip_polarity} pips, min_confidence {reader.min_confidence:g}."
    )
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
    import cv2
    import pygame

    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.adapters.controls import create_controls
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.adapters.synth_source import SynthSource
    from einhorn_table.calibration.autopilot import Autopilot, GestureQueue
    from einhorn_table.calibration.camera_lock import lock_for
    from einhorn_table.calibration.eyes import CameraEyes
    from einhorn_table.calibration.fit import CalibrationError
    from einhorn_table.calibration.flow import CalibrationFlow, FlowSettings
    from einhorn_table.calibration.paths import default_profile_path
    from einhorn_table.calibration.profile import save_profile
    from einhorn_table.calibration.renderer import CalibrationRenderer, ScreenshotWriter
    from einhorn_table.calibration.session import SynthRoller, run_flow
    from einhorn_table.calibration.view import CalibrationView
    from einhorn_table.doctor.checks import default_source
    from einhorn_table.doctor.machine import detect_machine
    from einhorn_table.ports import Controls

    names = _names(args.names, args.players, args.config)
    width, height = _size(args.size)
    machine = detect_machine()
    clock = SystemClock()
    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if args.fullscreen else 0
    screen = pygame.display.set_mode((0, 0) if args.fullscreen else (width, height), flags)
    pygame.display.set_caption("Einhorn Table: calibration")
    renderer = CalibrationRenderer(screen)
    shots = ScreenshotWriter(args.screenshots) if args.screenshots else None
    settings = FlowSettings(players=names, test_rolls=args.rolls,
                            reference_name=out.stem + "-empty-tray.jpg",
                            saved=who_reads_with(out, args.config, default_profile_path()))
    source_text = args.source or default_source(machine)
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
                pilot = Autopilot(queue.tap, roller.thrown, chord=queue.chord)
                controls = queue
            else:
                controls = create_controls(args.controls, clock, on_pi=machine.is_pi,
                                           players=len(names))
            flow = CalibrationFlow(CameraEyes(), lock_for(source), settings,
                                   made_by=made_by, made_at=_now())

            def show(view: CalibrationView) -> None:
                for event in pygame.event.get(pygame.QUIT):
                    if event.type == pygame.QUIT:
                        raise KeyboardInterrupt
                renderer.draw(view)
                pygame.display.flip()
                if shots is not None:
                    shots.update(view.screen, screen)
                if pilot is not None:
                    pilot.act(view)

            try:
                run_flow(flow, source, controls, show=show, roller=roller)
                if pilot is None:
                    clock.sleep(SAVED_SECONDS)  # let the parent read "Calibration saved"
            finally:
                controls.close()
    finally:
        if shots is not None:
            shots.finish()
        pygame.quit()
    assert flow.profile is not None
    save_profile(flow.profile, out)
    if flow.reference is not None:
        cv2.imwrite(str(out.parent / settings.reference_name), flow.reference,
                    [cv2.IMWRITE_JPEG_QUALITY, 95])
    check = flow.profile.check
    print(f"Saved {out}: {check.right} of {check.dice} test dice read right. {settings.saved}")
    return 0


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


def who_reads_with(out: Path, config: Path | None,
                   default: Path) -> str:
    """Whether ``play`` will read the dice with the profile saved at ``out``, in words.

    ``play`` reads the profile its table file names, else the one at ``default``.
    """
    named = named_calibration(config)
    if named is not None and named.resolve() == out.resolve():
        return f"{config} names it: the table reads the dice with it from now on."
    if named is not None:
        return (f"{config} names another calibration, {named}: to play with this one, "
                f'write calibration = "{out}" there.')
    if out.resolve() == default.resolve():
        return "The table reads the dice with it from now on."
    return (f'To play with it, write calibration = "{out}" in the table\'s file '
            "(table.toml).")


def _names(names: str | None, players: int | None, config: Path | None = None) -> tuple[
        str, ...]:
    """The players who register their dice: as named, else the table file's (its names
    are the ones ``play`` looks up in the profile), else Player 1, Player 2..."""
    from einhorn_table.calibration.fit import CalibrationError
    from einhorn_table.table.config import load_config

    if not names and players is None and config is not None and config.is_file():
        configured = tuple(p.name for p in load_config(config).players)
        print(f"Players from {config}: {', '.join(configured)}")
        return configured
    if names:
        listed = tuple(n.strip() for n in names.split(",") if n.strip())
        if players is not None and players != len(listed):
            raise CalibrationError(f"--players {players} but {len(listed)} --names given")
        return listed
    count = 2 if players is None else players
    if not 1 <= count <= 6:
        raise CalibrationError(f"--players must be 1 to 6, not {count}")
    return tuple(f"Player {k + 1}" for k in range(count))


def _size(text: str) -> tuple[int, int]:
    from einhorn_table.calibration.fit import CalibrationError

    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CalibrationError(f"--size {text!r}: write WIDTHxHEIGHT, e.g. 800x480") from None
    return width, height
