"""``einhorn-table demo``: the companion on any computer, with a synthetic table.

The camera is the synthetic tray, the keyboard stands in for the button
stations (docs/buttons.md), SPACE throws the dice for whoever is to roll, and
bots may play some seats. With ``SDL_VIDEODRIVER=dummy`` and ``--bots all`` it
plays whole matches headless as fast as it can and prints the final standings.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from einhorn_table.cli.arguments import PLAYER_NAMES, ROTATE_HELP, turn_degrees, whole_number
from einhorn_table.errors import EinhornError
from einhorn_table.rules import find_variant
from einhorn_table.simulation.strategies import DEFAULT_STRATEGY, make_strategy
from einhorn_table.words import command_name, counted, joined


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="the table companion on this computer: synthetic camera, keyboard, bots",
        description="Runs the companion with a synthetic dice tray as camera and the "
        "keyboard as the players' buttons (player 1: keys 1 2 3 4, player 2: Q W E R, "
        "player 3: A S D F ...; SPACE throws the dice; ESC quits).",
    )
    parser.add_argument("--players", type=whole_number(2, len(PLAYER_NAMES)), default=None,
                        help="2 to 6 (default 3, or as many as --names gives)")
    parser.add_argument("--names", default=None,
                        help="comma-separated player names (with --players, as many)")
    parser.add_argument("--variant", default="einhorn",
                        help="einhorn, wuerfeln, or a house variant's TOML file "
                        "(default einhorn)")
    parser.add_argument("--games", type=whole_number(1), default=None,
                        help="games in the match (default: the variant's, 10 for einhorn)")
    parser.add_argument("--bots", default="none",
                        help="seats played by bots: all, a number (the last N seats), "
                        "or comma-separated names, in any case (default none; without a window, "
                        "SDL_VIDEODRIVER=dummy, give all: nobody can press keys)")
    parser.add_argument("--strategy", default=DEFAULT_STRATEGY,
                        help="the bots' strategy: silent, random, odds, bidder "
                        f"(default {DEFAULT_STRATEGY})")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed the dice and the bots' choices come from: the same "
                        "seed, the same dice (default: with a person at the keyboard a new "
                        "one each run, said as the demo opens; with bots alone 1)")
    parser.add_argument("--size", default="800x480", help="window size (default 800x480)")
    parser.add_argument("--fullscreen", action="store_true",
                        help="fill the whole screen instead of a window (ESC quits)")
    parser.add_argument("--rotate", type=turn_degrees, default=None, metavar="{0,90,180,270}",
                        help=ROTATE_HELP)
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="save a PNG of every new screen in this folder")
    parser.add_argument("--state-dir", "--state", dest="state_dir", type=Path,
                        default=Path("einhorn-state"),
                        help="the demo's state directory: its match history and roll photos, "
                        "one demo at a time (default ./einhorn-state; read it with `"
                        f"{command_name()} history --state-dir einhorn-state stats`)")
    unfinished = parser.add_mutually_exclusive_group()
    unfinished.add_argument("--continue", dest="resume", action="store_true",
                            help="go on with the unfinished match in the state directory "
                            "(one left with ESC) without asking; without --continue or --new "
                            "the screen asks, where people play at the keyboard")
    unfinished.add_argument("--new", action="store_true",
                            help="keep an unfinished match as abandoned and start a new one "
                            "without asking (bots alone always start a new one)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="calibration profile to read the dice with, as `play` does (in "
                        "its tray outline, with its settings), e.g. calibration/synth.toml "
                        "(default: the whole picture, the reader's general settings)")
    parser.add_argument("--mount", action="store_true",
                        help="the synthetic camera set up as the mount guide says, with table "
                        "around the tray (calibrate it with --source synth:mount=1); by "
                        "default it looks from far above at a tray filling the picture")
    parser.add_argument("--fast", action="store_true",
                        help="run on a fake clock, as fast as possible (default when headless "
                        "with all seats played by bots)")
    parser.set_defaults(handler=run)


#: The largest window ``--size`` asks for (a typo such as 80000x480 is said as such,
#: not as a screen that is missing).
LARGEST_WINDOW = (7680, 4320)


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise EinhornError(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 800x480") from None
    if width < 320 or height < 240:
        raise EinhornError(f"--size {text}: the screen needs at least 320x240 pixels")
    if width > LARGEST_WINDOW[0] or height > LARGEST_WINDOW[1]:
        raise EinhornError(f"--size {text}: a window can be at most "
                           f"{LARGEST_WINDOW[0]}x{LARGEST_WINDOW[1]} pixels; --fullscreen "
                           "fills the whole screen")
    return width, height


def bot_seats(spec: str, names: list[str]) -> frozenset[int]:
    """Which seats the bots play, from ``--bots``."""
    spec = spec.strip()
    if spec.lower() in ("", "none"):
        return frozenset()
    if spec.lower() == "all":
        return frozenset(range(len(names)))
    if spec.isdigit():
        count = int(spec)
        if count > len(names):
            raise EinhornError(f"--bots {count}: there are only {len(names)} players")
        return frozenset(range(len(names) - count, len(names)))
    return frozenset(player_seat(name.strip(), names) for name in spec.split(","))


def loose(name: str) -> str:
    """``name`` as typed in a hurry: without case and accents ("zoe" for "Zoë")."""
    parts = unicodedata.normalize("NFKD", name.casefold())
    return "".join(part for part in parts if not unicodedata.combining(part))


def player_seat(name: str, names: list[str]) -> int:
    """The seat of the player ``--bots`` names: exactly as ``--names`` gives them, else
    regardless of case and accents where that fits one player alone."""
    written = unicodedata.normalize("NFC", name)
    if written in names:
        return names.index(written)
    for fold in (str.casefold, loose):
        seats = [seat for seat, player in enumerate(names) if fold(player) == fold(written)]
        if len(seats) == 1:
            return seats[0]
        if seats:
            raise EinhornError(f"--bots: {name!r} could be {' or '.join(names[s] for s in seats)}"
                               "; write the name as --names gives it")
    raise EinhornError(f"--bots: {name!r} is not a player; players: {', '.join(names)} "
                       "(or --bots all; --bots 2: the last two seats)")


def run(args: argparse.Namespace) -> int:
    from einhorn_table.adapters.pygame_screen import no_window
    from einhorn_table.cli.table_app import (
        DemoOptions,
        reader_warning,
        run_demo,
    )
    from einhorn_table.history.state_lock import DEMO, refuse_if_held

    names = players_named(args.names, args.players)
    refuse_if_held(args.state_dir, DEMO)  # (before a window opens)
    if args.resume:
        names = players_going_on(args, names)
    seats = bot_seats(args.bots, names)
    headless = no_window()
    fast = args.fast or (headless and len(seats) == len(names))
    calibration = None
    if args.profile is not None:
        from einhorn_table.calibration.profile import load_profile

        calibration = load_profile(args.profile)
    command = command_name()
    # (The one randomness the demo draws itself: a new seed where a person plays.)
    people = len(seats) < len(names)
    seed = demo_seed(args.seed, people, random.SystemRandom())
    options = DemoOptions(
        names=names, games=args.games, variant=find_variant(args.variant), bots=seats,
        strategy=args.strategy,
        chance=random.Random(seed), seed=seed, size=parse_size(args.size),
        fullscreen=args.fullscreen, rotate=args.rotate, screenshots=args.screenshots,
        state=args.state_dir,
        wall=lambda: datetime.now(UTC), fast=fast, resume=args.resume, new=args.new,
        mount=args.mount, calibration=calibration, calibration_path=args.profile,
        command=command, same_dice=same_dice_words(args, seed, people),
    )
    # (After the options' own mistakes, which the person fixes first.)
    if headless and len(seats) < len(names):
        make_strategy(args.strategy)  # (a misspelt one is said first too)
        if not args.fast:
            raise EinhornError(no_keys_words(args, [name for seat, name in enumerate(names)
                                                    if seat not in seats]))
        # (What drives the demo by posting key events, as its tests do, goes on.)
        print(f"SDL_VIDEODRIVER={os.environ.get('SDL_VIDEODRIVER')} shows no window: the "
              "demo takes only the key events a program posts to it, and waits for them "
              "(Ctrl-C stops it).", file=sys.stderr)
    warning = reader_warning(None if calibration is None else calibration.reader_profile())
    if warning:
        print(warning, file=sys.stderr)
    sideways = sideways_words(options.size, options.rotate, options.fullscreen)
    if sideways:
        print(f"einhorn-table: {sideways}", file=sys.stderr)
    result = run_demo(options)
    print(result.standings)
    if result.kept:
        print(f"match {result.match_id} kept in {args.state_dir}; see it with `{command} "
              f"history --state-dir {args.state_dir} show {result.match_id}`",
              file=sys.stderr)
    return 0


#: The seed of a demo that bots alone play, where ``--seed`` is not given: the same
#: match every run (headless showcases, the tests, the README's figures).
BOTS_SEED = 1
#: The seeds a demo with a person at the keyboard draws from: a new one each run, short
#: enough to type again after ``--seed`` (never the bots' own).
FRESH_SEEDS = range(2, 1_000_000)


def demo_seed(given: int | None, people: bool, fresh: random.Random) -> int:
    """The seed the demo's dice and its bots' choices come from: ``--seed`` where it is
    given; else, with a person at the keyboard, one drawn from ``fresh`` (other dice each
    run), and with bots alone :data:`BOTS_SEED` (the same match each run)."""
    if given is not None:
        return given
    if not people:
        return BOTS_SEED
    return fresh.choice(FRESH_SEEDS)


def same_dice_words(args: argparse.Namespace, seed: int, people: bool) -> str | None:
    """What the terminal says as the demo opens where it drew its seed (no ``--seed``, a
    person at the keyboard, no ``--continue``): the seed, and the command that throws
    the same dice again. None where ``--seed`` was given, bots play every seat (seed
    :data:`BOTS_SEED`) or ``--continue`` goes on with a match (its dice begun before)."""
    if args.seed is not None or not people or args.resume:
        return None
    again = argparse.Namespace(**{**vars(args), "seed": seed})
    return (f"This run's dice come from seed {seed} (a new one each run); to throw the same "
            f"dice again: {demo_command(again, bots=args.bots)}")


def sideways_words(size: tuple[int, int], rotate: int | None, fullscreen: bool) -> str | None:
    """What to say where ``--rotate`` turns a landscape window's picture portrait (the
    table drawn small, with room left over): a quarter turn is for a portrait screen on
    its side, whose own size ``--size`` gives. None where the turn fits the window (or
    the whole screen is filled: its size is the screen's own)."""
    width, height = size
    if fullscreen or not rotate or rotate % 180 == 0 or height >= width:
        return None
    return (f"--rotate {rotate} turns the {width}x{height} window's picture on its side: "
            f"the table is drawn portrait, {height}x{width}, small and with room left over. "
            "A quarter turn is for a portrait screen mounted on its side: give that "
            "screen's own size, e.g. --size 720x1280 for a Touch Display 2 (or leave "
            "--rotate out).")


def no_keys_words(args: argparse.Namespace, people: list[str]) -> str:
    """Why a headless demo with people at the keyboard does not start, and what to run
    instead: bots in every seat, or a screen to play at."""
    driver = os.environ.get("SDL_VIDEODRIVER", "dummy")
    who = "the player" if len(people) == 1 else "the players"
    return (f"SDL_VIDEODRIVER={driver} shows no window, and no key can reach it: the demo "
            f"would wait for ever for {joined(people)}, {who} at the keyboard. To watch "
            f"bots play a whole match here: {demo_command(args, bots='all', resume=args.resume)}"
            ". To play "
            "yourself, run the demo on a computer with a desktop (or on the Pi's own "
            f"screen and keyboard), without SDL_VIDEODRIVER={driver}.")


def players_named(names_given: str | None, players: int | None) -> list[str]:
    """The players, from ``--names`` or ``--players`` (both: they must agree)."""
    if not names_given:
        return list(PLAYER_NAMES[: players or 3])
    # (Each in one Unicode form, as the match file's names are read: see Setup.)
    names = [unicodedata.normalize("NFC", n.strip()) for n in names_given.split(",")]
    if "" in names:  # (",," or a comma at the end: the rules would see two alike names)
        raise EinhornError(f"--names {names_given!r}: a name is missing; write the names with "
                           "one comma between each two, e.g. Ana,Ben,Cem")
    if players is not None and players != len(names):
        raise EinhornError(f"--players {players} but --names gives {len(names)} "
                           f"({', '.join(names)}): give as many names as players, or leave "
                           "out --players")
    if not 2 <= len(names) <= 6:
        raise EinhornError(f"--names gives {counted(len(names), 'player')}; a match needs 2 "
                           "to 6")
    return names


def players_going_on(args: argparse.Namespace, names: list[str]) -> list[str]:
    """The players of the unfinished match ``--continue`` goes on with; where there is
    none, the demo stops and says how to start one (it does not start one unasked)."""
    from einhorn_table.history import MatchStore
    from einhorn_table.history.paths import CHOOSE_DEMO_STATE, DATABASE

    state: Path = args.state_dir
    row = None
    latest = []
    if (state / DATABASE).is_file():
        with MatchStore(state, now=lambda: datetime.now(UTC), choose=CHOOSE_DEMO_STATE) as store:
            # (One nobody rolled in is none to go on with: the demo forgets it as it starts.)
            row = store.unfinished(begun=True)
            latest = [r for r in store.matches() if r.state != "playing"][:1]
    if row is None:
        where = (f"the last match in {state} (match {latest[0].match_id}) is "
                 f"{latest[0].state}" if latest else f"no match is kept in {state}")
        raise EinhornError(f"--continue: there is no unfinished match to go on with; {where}. "
                           f"Start a new one: {new_match_command(args)}")
    going_on = list(row.players)
    given = args.names is not None or args.players is not None
    if given and going_on != names:
        print(f"Going on with match {row.match_id}, played by {joined(going_on)} "
              "(--names and --players are for a new match).", file=sys.stderr)
    return going_on


#: The demo's options that a new match's command keeps where given: (option, its
#: attribute, its default).
KEPT_OPTIONS: tuple[tuple[str, str, object], ...] = (
    ("--variant", "variant", "einhorn"), ("--games", "games", None),
    ("--strategy", "strategy", DEFAULT_STRATEGY), ("--seed", "seed", None),
    ("--size", "size", "800x480"), ("--rotate", "rotate", None),
    ("--screenshots", "screenshots", None),
    ("--state-dir", "state_dir", Path("einhorn-state")), ("--profile", "profile", None))
#: The demo's switches that a new match's command keeps where given.
KEPT_SWITCHES = (("--fullscreen", "fullscreen"), ("--mount", "mount"), ("--fast", "fast"))


def new_match_command(args: argparse.Namespace) -> str:
    """The demo's command line as given, without ``--continue``: a new match (the same
    variant, games, window and state directory). Without a window (and without
    ``--fast``), bots play every seat: a person at the keyboard would be refused."""
    from einhorn_table.adapters.pygame_screen import no_window

    bots = args.bots
    if no_window() and not args.fast:
        names = players_named(args.names, args.players)
        if len(bot_seats(bots, names)) < len(names):
            bots = "all"
    return demo_command(args, bots=bots)


def demo_command(args: argparse.Namespace, *, bots: str, resume: bool = False) -> str:
    """The demo's command line as given, with ``bots`` for ``--bots`` and ``--continue``
    only where ``resume`` (headless, ``SDL_VIDEODRIVER=dummy`` first, where it was)."""
    from einhorn_table.adapters.pygame_screen import no_window

    words = ["demo", *(["--continue"] if resume else [])]
    if args.names:
        words += ["--names", args.names]
    elif args.players is not None:
        words += ["--players", str(args.players)]
    if bots.strip().lower() not in ("", "none", "0"):  # (no bots: no --bots)
        words += ["--bots", bots]
    for option, name, default in KEPT_OPTIONS:
        value = getattr(args, name, default)
        if value != default:
            words += [option, str(value)]
    words += [switch for switch, name in KEPT_SWITCHES if getattr(args, name, False)]
    from einhorn_table.cli.table_app import demo_command_line

    return demo_command_line(command_name(), words, no_window())
