"""``einhorn-table simulate``: many whole matches played by simple bots."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from einhorn_table.cli.arguments import PLAYER_NAMES, whole_number
from einhorn_table.errors import EinhornError
from einhorn_table.rules import VARIANTS, Setup, find_variant
from einhorn_table.rules.variants import Variant
from einhorn_table.simulation.simulate import format_summary, simulate
from einhorn_table.simulation.strategies import (
    CALL_OPTIONS,
    STRATEGIES,
    expected_stones,
    make_strategy,
    win_chances,
)
from einhorn_table.words import counted


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many matches with bots and print what a game designer wants to know",
        description="Plays whole matches with simple strategies (seats rotate every match; "
        "at fewer seats than strategies every line-up plays in turn) "
        "and prints turns per game, games per match, how often the starting player and each "
        "strategy win, how often the central stash runs dry and a roll-off decides the "
        "winner, what the unicorn is worth to its owner, and the stones each call earns. "
        "Seeded: the same arguments always print the same numbers.",
    )
    parser.add_argument("--matches", type=whole_number(1), default=1000,
                        help="how many (default 1000)")
    parser.add_argument("--players", type=whole_number(2, len(PLAYER_NAMES)), default=4,
                        help="2 to 6 (default 4)")
    parser.add_argument(
        "--variant", default="einhorn",
        help=f"{' or '.join(VARIANTS)}, or a house variant's TOML file (default einhorn)",
    )
    parser.add_argument("--games", type=whole_number(1), default=None,
                        help="games per match (default: the variant's: "
                        f"{', '.join(f'{v.games} for {v.name}' for v in VARIANTS.values())})")
    parser.add_argument("--target", type=whole_number(1), default=None,
                        help="end a match as soon as a stash holds this many stones")
    parser.add_argument(
        "--strategies", action="append", default=None,
        help=f"comma-separated, from {', '.join(STRATEGIES)} (default: all of them); "
        "given more than once, all those named play",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    # (--strategies given twice: both lists play, not the last alone.)
    named = ",".join(args.strategies) if args.strategies else ",".join(STRATEGIES)
    strategies = [make_strategy(name.strip()) for name in named.split(",") if name.strip()]
    if not strategies:
        raise EinhornError(f"--strategies names none; choose from {', '.join(STRATEGIES)}")
    setup = Setup.for_variant(variant, PLAYER_NAMES[: args.players], games=args.games,
                              target=args.target)
    started = time.perf_counter()
    summary = simulate(setup, strategies, args.matches, args.seed)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({
            "matches": summary.matches,
            "turns": summary.turns,
            # The median, as the table says it (of an even count: the mean of the middle two).
            "turns_per_game": statistics.median(summary.turns_per_game),
            "games_per_match_mean": sum(summary.games_per_match) / summary.matches,
            "starter_wins": summary.starter_wins,
            # Every strategy that played, those that never won with 0.
            "wins": {name: summary.wins[name] for name in summary.seats},
            "seats": dict(summary.seats),
            "central_dry": {"turn": summary.dry_in_turn, "deal": summary.dry_in_deal},
            "rolloffs": summary.rolloffs,
            "unicorn_worth": summary.unicorn_worth(),
            "stones_per_turn": {
                ("silent" if k is None else k.value): (v[1] / v[0] if v[0] else None)
                for k, v in summary.earnings.items()
            },
        }))
        return 0
    _, games, target, _ = setup.resolve()
    aim = "" if target is None else f" or a stash of {counted(target, 'stone')}"
    shared = "" if len(strategies) == args.players else f" taking the {args.players} seats in turn"
    title = (
        f"{counted(summary.matches, 'simulated match', 'simulated matches')} of "
        f"{variant.name}: {args.players} players, {counted(games, 'game')}{aim}, "
        f"seed {args.seed}\n"
        f"seats: {', '.join(s.name for s in strategies)}{shared} "
        f"(moving one seat on every match); {summary.turns} turns in {seconds:.1f} s"
    )
    print(format_summary(summary, title))
    print()
    print(odds_lines(variant))
    return 0


def odds_lines(variant: Variant) -> str:
    """What each call is worth with fair dice, worked out from the payouts: for a player
    without the unicorn and for its owner (whose Einhorn moves nothing, rule 4.5). The
    measured table above mixes both, and counts each WIN at the stones it took."""
    columns = [(expected_stones(variant, 0, owner=owner), win_chances(variant, owner=owner))
               for owner in (False, True)]
    lines = ["stones per turn expected with fair dice",
             "call                      without the unicorn   the unicorn's owner"]
    for option in CALL_OPTIONS:
        cells = [f"{odds[option]:+.3f}" + (f", WIN {100 * wins[option]:.1f} %"
                                            if wins[option] else "")
                 for odds, wins in columns]
        label = "silent" if option is None else option.value
        lines.append(f"{label:<25} {cells[0]:>19}   {cells[1]:>19}")
    if any(columns[0][1].values()):
        lines.append("(a WIN takes every other player's game stones and ends the game: "
                     "left out here,\n counted in the table above at the stones it took)")
    return "\n".join(lines)
