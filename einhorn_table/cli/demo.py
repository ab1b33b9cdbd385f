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
from datetime import datetime
from pathlib import Path
from typing import Any

from einhorn_table.errors import EinhornError

NAMES = ("Ana", "Ben", "Cem", "Dora", "Emil", "Fay")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="the table companion on this computer: synthetic camera, keyboard, bots",
        description="Runs the companion with a synthetic dice tray as camera and the "
        "keyboard as the players' buttons (player 1: keys 1 2 3 4, player 2: Q W E R, "
        "player 3: A S D F ...; SPACE throws the dice; ESC quits).",
    )
    parser.add_argument("--players", type=int, default=3, help="2 to 6 (default 3)")
    parser.add_argument("--names", default=None, help="comma-separated player names")
    parser.add_argument("--games", type=int, default=10, help="games in the match (default 10)")
    parser.add_argument("--bots", default="none",
                        help="seats played by bots: all, a number (the last N seats), "
                        "or comma-separated names (default none)")
    parser.add_argument("--strategy", default="odds",
                        help="the bots' strategy: silent, random, odds, bidder (default odds)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--size", default="800x480", help="window size (default 800x480)")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="save a PNG of every new screen in this folder")
    parser.add_argument("--state", type=Path, default=Path("einhorn-state"),
                        help="folder for match files and roll photos (default ./einhorn-state)")
    parser.add_argument("--fast", action="store_true",
                        help="run on a fake clock, as fast as possible (default when headless "
                        "with all seats played by bots)")
    parser.set_defaults(handler=run)


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise EinhornError(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 800x480") from None
    if width < 320 or height < 240:
        raise EinhornError(f"--size {text}: the screen needs at least 320x240 pixels")
    return width, height


def bot_seats(spec: str, names: list[str]) -> frozenset[int]:
    """Which seats the bots play, from ``--bots``."""
    spec = spec.strip()
    if spec in ("", "none"):
        return frozenset()
    if spec == "all":
        return frozenset(range(len(names)))
    if spec.isdigit():
        count = int(spec)
        if count > len(names):
            raise EinhornError(f"--bots {count}: there are only {len(names)} players")
        return frozenset(range(len(names) - count, len(names)))
    seats = set()
    for name in spec.split(","):
        if name.strip() not in names:
            raise EinhornError(f"--bots: {name.strip()!r} is not a player; players: "
                               f"{', '.join(names)}")
        seats.add(names.index(name.strip()))
    return frozenset(seats)


def run(args: argparse.Namespace) -> int:
    from einhorn_table.cli.table_app import DemoOptions, run_demo

    names = [n.strip() for n in args.names.split(",")] if args.names else \
        list(NAMES[: args.players])
    if not 2 <= len(names) <= 6:
        raise EinhornError("a match needs 2 to 6 players (--players or --names)")
    seats = bot_seats(args.bots, names)
    headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"
    fast = args.fast or (headless and len(seats) == len(names))
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    options = DemoOptions(
        names=names, games=args.games, bots=seats, strategy=args.strategy,
        chance=random.Random(args.seed), seed=args.seed, size=parse_size(args.size),
        fullscreen=args.fullscreen, screenshots=args.screenshots,
        match_file=args.state / "matches" / f"demo-{stamp}.jsonl",
        photos=args.state / "photos" / f"demo-{stamp}", fast=fast,
    )
    result = run_demo(options)
    print(result.standings)
    print(f"match file: {options.match_file}", file=sys.stderr)
    return 0
