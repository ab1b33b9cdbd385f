"""Turns per second of whole simulated matches on one core.

    python benchmarks/rules.py [--matches 300] [--repeats 5]

Prints a table: for each setting, the median over the repeats of turns per
second with the bots deciding (what ``einhorn-table simulate`` does), and of
the rules engine alone replaying the same matches' recorded inputs. A turn is
one roll of a player's three dice. The bar (issue 2): 50,000 turns a second.

Seconds are the process's CPU time (``time.process_time``): on a shared
machine the wall clock also counts the time other programs had the core. The
wall-clock figure of the bots' runs is printed beside it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from one_core import pin_to_one_core

from einhorn_table.rules import EINHORN, WUERFELN, MatchState, Roll, Setup, Variant
from einhorn_table.simulation.simulate import play_match, play_recorded
from einhorn_table.simulation.strategies import STRATEGIES, Strategy

NAMES = ("Ana", "Ben", "Cem", "Dora", "Emil", "Fay")
SETTINGS: list[tuple[Variant, int]] = [(EINHORN, 2), (EINHORN, 4), (EINHORN, 6), (WUERFELN, 5)]
BAR = 50_000


def seats(players: int) -> list[Strategy]:
    kinds = list(STRATEGIES.values())
    return [kinds[i % len(kinds)]() for i in range(players)]


def with_bots(setup: Setup, matches: int, seed: int) -> tuple[float, float]:
    """Turns per CPU second and per wall-clock second."""
    rng = random.Random(seed)
    bots = seats(len(setup.players))
    wall, cpu = time.perf_counter(), time.process_time()
    turns = sum(play_match(setup, bots, rng).turns for _ in range(matches))
    return turns / (time.process_time() - cpu), turns / (time.perf_counter() - wall)


def engine_only(setup: Setup, matches: int, seed: int) -> float:
    rng = random.Random(seed)
    bots = seats(len(setup.players))
    recorded = [play_recorded(setup, bots, rng).inputs for _ in range(matches)]
    turns = sum(type(item) is Roll for inputs in recorded for item in inputs)
    started = time.process_time()
    for inputs in recorded:
        state = MatchState(setup)
        apply = state.apply
        for item in inputs:
            apply(item)
    return turns / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    core = pin_to_one_core()
    print(f"rules engine: turns per CPU second, median of {args.repeats} runs of "
          f"{args.matches} whole matches, {core}")
    print()
    print(f"{'variant':<10} {'players':>7} {'with bots':>12} {'(wall clock)':>13} "
          f"{'engine only':>12}  bar {BAR:,}")
    lowest = float("inf")
    for variant, players in SETTINGS:
        setup = Setup.for_variant(variant, NAMES[:players])
        runs = [with_bots(setup, args.matches, seed) for seed in range(args.repeats)]
        bots = statistics.median(cpu for cpu, _ in runs)
        wall = statistics.median(w for _, w in runs)
        engine = statistics.median(
            engine_only(setup, args.matches, seed) for seed in range(args.repeats)
        )
        lowest = min(lowest, bots)
        verdict = "met" if bots >= BAR else "NOT met"
        print(f"{variant.name:<10} {players:>7} {bots:>12,.0f} {wall:>13,.0f} "
              f"{engine:>12,.0f}  {verdict}")
    print()
    print(f"lowest median with bots: {lowest:,.0f} turns/s "
          f"({'meets' if lowest >= BAR else 'misses'} the bar of {BAR:,})")


if __name__ == "__main__":
    main()
