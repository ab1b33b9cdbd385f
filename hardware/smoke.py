#!/usr/bin/env python3
"""Smoke test for a real Einhorn Table: camera, every button, and the screen, by hand.

Run it on the Raspberry Pi, from the project folder, with the companion's
service stopped (it holds the camera, the buttons and the screen)::

    sudo systemctl stop einhorn-table      # if it is installed
    .venv/bin/python hardware/smoke.py     # everything
    .venv/bin/python hardware/smoke.py --only buttons --players 4

It says what to do at each step and ends with a summary; exit status 0 when
everything passed. A snapshot of the tray is saved (``--snapshot``) so focus,
glare and framing can be judged on a computer.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a clone without installing

from einhorn_table.adapters.clock import SystemClock  # noqa: E402
from einhorn_table.cli.arguments import more_than_zero  # noqa: E402
from einhorn_table.doctor import checks  # noqa: E402
from einhorn_table.doctor.machine import Machine, detect_machine  # noqa: E402
from einhorn_table.doctor.report import CheckResult, Status, exit_status, render  # noqa: E402
from einhorn_table.errors import EinhornError  # noqa: E402
from einhorn_table.stations.gesture_table import Context, intent_for  # noqa: E402
from einhorn_table.stations.pin_map import default_pin_map_path  # noqa: E402
from einhorn_table.words import command_name  # noqa: E402

STEPS = ("camera", "buttons", "screen")


def build_parser() -> argparse.ArgumentParser:
    """The smoke test's options (docs/install.md and hardware/README.md quote them)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=STEPS, action="append",
                        help="run only this step (may be given twice)")
    parser.add_argument("--source", default="picamera2", help="camera source (default picamera2)")
    parser.add_argument("--seconds", type=more_than_zero, default=5.0,
                        help="camera measuring time (default 5)")
    parser.add_argument("--snapshot", type=Path, default=Path("/tmp/einhorn-smoke.png"),
                        help="where to save the camera's picture (default "
                             "/tmp/einhorn-smoke.png; the small frame beside it, its name "
                             "ending in -small.png)")
    parser.add_argument("--pins", type=Path, default=default_pin_map_path(),
                        help="the pin map (default hardware/pins.toml)")
    parser.add_argument("--players", type=int, choices=range(1, 7), metavar="N",
                        help="test only the stations of players 1 to N (default: all "
                             "six; e.g. --players 4 where four stations are wired)")
    parser.add_argument("--free-play", type=float, default=15.0,
                        help="seconds to show every gesture after the button walk")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    steps = args.only or list(STEPS)
    machine = detect_machine()
    if not machine.is_pi:
        print("This is not a Raspberry Pi: the smoke test is for the real table. "
              f"Use '{command_name()} doctor' on a desktop.")
    results: list[CheckResult] = []
    service = checks.check_service()  # it holds the camera, the buttons and the screen
    if service is not None:
        results.append(service)
        steps = []
    try:
        if "camera" in steps:
            results.append(camera_step(args))
        if "buttons" in steps:
            results += buttons_step(args, machine)
        if "screen" in steps:
            results.append(screen_step())
    except (KeyboardInterrupt, EOFError):
        results.append(CheckResult("stopped", Status.FAIL, "stopped before the end (Ctrl-C)",
                                   "Run it again to check the rest; --only STEP runs one step."))
    print()
    print(render(machine.describe(), results, title="Einhorn Table smoke test"), end="")
    return exit_status(results)


def camera_step(args: argparse.Namespace) -> CheckResult:
    import cv2

    from einhorn_table.adapters.sources import create_source

    print(f"Camera: reading {args.source} for {args.seconds:g} s ...")
    clock = SystemClock()
    try:
        with create_source(args.source, clock=clock) as source:
            first = source.read()
            start = clock.monotonic()
            count, last = 1, first
            while clock.monotonic() - start < args.seconds:
                frame = source.read()
                if frame is None:
                    break
                count, last = count + 1, frame
            elapsed = clock.monotonic() - start
            locked = getattr(source, "locked", {})
            notes = getattr(source, "notes", [])
    except EinhornError as error:
        return CheckResult("camera", Status.FAIL, str(error))
    except Exception as error:  # an unforeseen library error: say it, go on with the rest
        return CheckResult("camera", Status.FAIL,
                           f"{args.source}: unexpected {type(error).__name__}: {error}",
                           "Run the smoke test again; if this stays, report this line to "
                           "the project.")
    if last is None:
        return CheckResult("camera", Status.FAIL, f"{args.source}: no picture at all",
                           no_picture_todo(args.source))
    cv2.imwrite(str(args.snapshot), last.image)
    if last.small is not None:
        cv2.imwrite(str(args.snapshot.with_name(args.snapshot.stem + "-small.png")), last.small)
    rate = (count - 1) / elapsed if elapsed > 0 else 0.0
    width, height = last.size
    detail = (f"{source.description}: {width}x{height}, {rate:.1f} frames/s over "
              f"{count} frames; locked {locked or 'nothing'}; snapshot {args.snapshot}")
    status = Status.OK if rate >= checks.GOOD_FPS else Status.WARN
    if rate < checks.MIN_FPS:
        status = Status.FAIL
    todo = " ".join(notes) + (" Look at the snapshot: the dice sharp, no bright glare spot, "
                              "the whole tray inside the picture (hardware/camera-mount.md).")
    return CheckResult("camera", status, detail, todo.strip())


def no_picture_todo(source: str) -> str:
    """What to check where the camera ``source`` opened but gave no picture: the Pi
    camera's ribbon cable, a USB webcam's plug, a recording's contents."""
    from einhorn_table.adapters.source_spec import parse_source

    try:
        kind = parse_source(source).kind
    except EinhornError:
        kind = ""
    if kind == "opencv":
        return ("Check the USB camera's plug and that no other program uses the camera "
                "(close it, or stop the companion); `v4l2-ctl --list-devices` lists the "
                "cameras: try the next number (opencv:1).")
    if kind in ("file", "dir"):
        return ("The recording holds no picture: name one that does "
                f"(`{command_name()} record FOLDER` makes one).")
    return ("Check the camera's ribbon cable at both ends (seated straight, contacts the "
            "right way round), then `rpicam-hello --list-cameras` should list the camera.")


def buttons_step(args: argparse.Namespace, machine: Machine) -> list[CheckResult]:
    clock = SystemClock()
    # (Said where a station of players 1 to --players is not in the map: the walk would
    # leave it out without a word.)
    mapped, pin_map = checks.check_pin_map(args.pins, players=args.players)
    if pin_map is None:
        return [mapped]
    setup, controls = checks.check_buttons(
        machine, pin_map, clock, players=args.players, use_gpio=True
    )
    results = [mapped, setup]
    if controls is None:
        return results
    try:
        print("Buttons: press each button once when asked (10 s each).")
        results.append(checks.walk_buttons(
            controls, pin_map, clock, lambda text: print(text, end="", flush=True),
            players=args.players,
        ))
        if args.free_play > 0:
            print(f"Free play for {args.free_play:g} s: try taps, long presses (hold) and "
                  "chords (two buttons of one station together); each is shown as decoded.")
            end = clock.monotonic() + args.free_play
            while clock.monotonic() < end:
                for gesture in controls.poll():
                    names = " + ".join(b.label for b in gesture.buttons)
                    meaning = intent_for(Context.TOPUP, gesture)
                    shown = meaning.action.value if meaning else "-"
                    print(f"  player {gesture.player + 1}: {gesture.kind.value} {names} "
                          f"(in a top-up: {shown})")
                time.sleep(0.02)
    finally:
        controls.close()
    return results


def screen_step() -> CheckResult:
    os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:
        pygame.display.init()
        pygame.font.init()
        surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    except pygame.error as error:
        return CheckResult(
            "screen", Status.FAIL, f"SDL could not open the screen ({error})",
            "Boot to the console (raspi-config > System Options > Boot), check the HDMI "
            "cable, and that this user is in the video and render groups.",
        )
    try:
        width, height = surface.get_size()
        colours = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0),
                   (255, 0, 255), (255, 0, 0), (0, 0, 255), (128, 128, 128)]
        surface.fill((0, 0, 0))
        bar = width // len(colours)
        for i, colour in enumerate(colours):
            surface.fill(colour, (i * bar, 0, bar, height * 2 // 3))
        surface.fill((40, 90, 60), (0, height * 2 // 3, width, height))
        font = pygame.font.Font(None, max(24, height // 12))
        text = font.render(f"Einhorn Table smoke test: {width}x{height}", True, (255, 255, 255))
        surface.blit(text, (20, height * 2 // 3 + 20))
        pygame.display.flip()
        driver = pygame.display.get_driver()
        answer = input("Screen: do you see eight bars (white, yellow, cyan, green, magenta, "
                       "red, blue, grey) and white text? [y/n] ")
    finally:
        pygame.display.quit()
    if answer.strip().lower().startswith("y"):
        return CheckResult("screen", Status.OK, f"SDL {driver}, {width}x{height}, seen")
    return CheckResult(
        "screen", Status.FAIL, f"SDL {driver} opened {width}x{height}, but nothing was seen",
        "Check that the screen is on and set to the Pi's HDMI input (HDMI 0, next to the "
        "power socket on a Pi 4), then run the step again: --only screen.",
    )


if __name__ == "__main__":
    raise SystemExit(main())
