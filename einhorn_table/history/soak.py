"""A companion that plays bot matches into the store, for the pulled-plug test.

``python -m einhorn_table.history.soak --state-dir DIR --seed N [--matches M]``

It continues the unfinished match it finds (as the table would after a
restart), else begins a new one, and prints ``shown MATCH SEQ LEDGER-JSON``
after each input's ``append`` returned: what the screen would show by then.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from einhorn_table.history.extras import DICE_COLOR
from einhorn_table.history.store import MatchRecorder, MatchStore
from einhorn_table.rules import Match, Roll, Setup, StartRoll, TiebreakRoll
from einhorn_table.simulation.bots import next_inputs
from einhorn_table.simulation.strategies import make_strategy

PLAYERS = ("Ana", "Ben", "Cem", "Dora")
STRATEGY_NAMES = ("odds", "random", "bidder", "silent")
DICE_COLORS = {"Ana": "red", "Ben": "blue", "Cem": "green", "Dora": "yellow"}


def play_into(store: MatchStore, rng: random.Random) -> str:
    """Play one match to its end (continuing an unfinished one); returns its id."""
    row = store.unfinished()
    recorder: MatchRecorder
    if row is not None:
        recorder = store.reopen(row.match_id)
        match: Match = store.resume(row.match_id)
    else:
        setup = Setup(players=PLAYERS)
        recorder = store.begin(setup)
        match = Match(setup)
    strategies = [make_strategy(name) for name in STRATEGY_NAMES]
    while not match.over:
        for item in next_inputs(match.state, strategies, rng):
            if isinstance(item, Roll | StartRoll | TiebreakRoll):
                item = replace(item, extra={DICE_COLOR: DICE_COLORS[item.player]})
            recorder.append(item)
            match.apply(item)
            ledger = json.dumps(match.ledger().to_json(), sort_keys=True)
            print(f"shown {recorder.match_id} {recorder.seq} {ledger}", flush=True)
    recorder.close()
    return recorder.match_id


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m einhorn_table.history.soak")
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matches", type=int, default=1)
    args = parser.parse_args(argv)
    with MatchStore(Path(args.state_dir), now=lambda: datetime.now(UTC)) as store:
        rng = random.Random(args.seed)
        for _ in range(args.matches):
            play_into(store, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
