"""How fast `history list` and `history stats` answer over 10,000 stored matches.

    .venv/bin/python benchmarks/history.py [--matches 10000] [--runs 7]
    .venv/bin/python benchmarks/history.py --demo-fill 40 --state-dir DIR   # a store to look at

Bot matches (play_recorded) on a few seeds are stored once each; their lines and
summaries are then reused under new ids, so filling takes seconds, not hours.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from einhorn_table.cli import main as cli
from einhorn_table.history.store import MatchStore, write_summary
from einhorn_table.history.summary import summarize
from einhorn_table.rules import Match, Roll, Setup, StartRoll, TiebreakRoll, format_input
from einhorn_table.simulation.simulate import play_recorded
from einhorn_table.simulation.strategies import make_strategy

NAMES = ("Ana", "Ben", "Cem", "Dora", "Emil")
STRATEGIES = ("odds", "random", "bidder", "silent", "odds")
COLORS = {"Ana": "red", "Ben": "blue", "Cem": "green", "Dora": "yellow", "Emil": "white"}


def bot_matches(seeds: int) -> list[Match]:
    """Whole bot matches of 3 to 5 players, each throw marked with its player's dice colour."""
    played = []
    for seed in range(seeds):
        players = NAMES[: 3 + seed % 3]
        setup = Setup(players=players)
        raw = play_recorded(setup, [make_strategy(STRATEGIES[i]) for i in range(len(players))],
                            random.Random(seed))
        match = Match(setup)
        for item in raw.record:
            if isinstance(item, Roll | StartRoll | TiebreakRoll):
                item = replace(item, extra={"dice_color": COLORS[item.player]})
            match.apply(item)
        played.append(match)
    return played


def fill(store: MatchStore, count: int, seeds: int = 8) -> None:
    """Store ``count`` finished matches, reusing the lines of ``seeds`` bot matches."""
    played = bot_matches(seeds)
    prepared = [(m, [format_input(x) for x in m.record], summarize(m)) for m in played]
    start = datetime(2025, 1, 1, 18, 0, tzinfo=UTC)
    with store.transaction("fill the benchmark store") as conn:
        for n in range(count):
            match, lines, summary = prepared[n % len(prepared)]
            when = (start + timedelta(hours=n)).isoformat(timespec="seconds")
            cursor = conn.execute(
                "INSERT INTO matches (started, updated, finished, players, variant, setup, "
                "state, winner, games) VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, ?)",
                (when, when, when, json.dumps(list(match.names)), "einhorn",
                 format_input(match.setup), summary.winner, summary.games))
            match_id = cursor.lastrowid
            assert match_id is not None
            conn.executemany("INSERT INTO inputs VALUES (?, ?, ?)",
                             [(match_id, seq, line) for seq, line in enumerate(lines, 1)])
            write_summary(conn, match_id, summary)


def time_command(args: list[str], runs: int) -> float:
    """Median seconds of ``einhorn-table ARGS`` run in this process (output discarded)."""
    times = []
    for _ in range(runs):
        sink = io.StringIO()
        began = time.perf_counter()
        with contextlib.redirect_stdout(sink):
            status = cli(args)
        times.append(time.perf_counter() - began)
        assert status == 0, sink.getvalue()
    return statistics.median(times)


def time_process(args: list[str], runs: int) -> float:
    """Median seconds of ``python -m einhorn_table ARGS`` as a new process."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "einhorn_table", *args], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--demo-fill", type=int, default=None, metavar="N",
                        help="only fill --state-dir with N bot matches and stop")
    parser.add_argument("--state-dir", default=None)
    args = parser.parse_args()
    if args.demo_fill is not None:
        if not args.state_dir:
            parser.error("--demo-fill needs --state-dir")
        with MatchStore(Path(args.state_dir), now=lambda: datetime.now(UTC)) as store:
            fill(store, args.demo_fill, seeds=args.demo_fill)
        print(f"{args.demo_fill} bot matches stored in {args.state_dir}")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        with MatchStore(Path(folder), now=lambda: datetime.now(UTC)) as store:
            fill(store, args.matches)
            size = store.path.stat().st_size
        filled = time.perf_counter() - began
        base = ["history", "--state-dir", folder]
        rows = [
            ("history list", [*base, "list"]),
            ("history list --all", [*base, "list", "--all"]),
            ("history stats", [*base, "stats"]),
            ("history stats --player Ana", [*base, "stats", "--player", "Ana"]),
        ]
        print(f"{args.matches} matches stored in {filled:.1f} s; database {size / 1e6:.1f} MB; "
              f"median of {args.runs} runs")
        print(f"{'command':<28} {'in process':>11} {'new process':>12} {'limit':>6}  verdict")
        for label, argv in rows:
            inside = time_command(argv, args.runs)
            outside = time_process(argv, max(3, args.runs // 2))
            verdict = "ok" if inside < 0.200 else "TOO SLOW"
            print(f"{label:<28} {inside * 1000:>8.1f} ms {outside * 1000:>9.1f} ms "
                  f"{'200 ms':>6}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
