"""Pulled plugs: a companion killed (SIGKILL) at random points loses nothing it had shown."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO
from history_helpers import open_store

from einhorn_table.rules import replay

KILLS = 14


def _companion(state: Path, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "einhorn_table.history.soak", "--state-dir", str(state),
         "--seed", str(seed)],
        stdout=subprocess.PIPE, text=True, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_killed_companion_resumes_with_everything_it_showed(tmp_path: Path) -> None:
    rng = random.Random(2026)
    state = tmp_path / "state"
    started = time.monotonic()
    resumed = 0
    for trial in range(KILLS):
        proc = _companion(state, seed=trial)
        assert proc.stdout is not None
        wanted = rng.randint(0, 260)
        shown: list[str] = []
        while len(shown) < wanted:
            line = proc.stdout.readline()
            if not line:
                break
            shown.append(line)
        if rng.random() < 0.5:
            time.sleep(rng.random() * 0.05)
        proc.send_signal(signal.SIGKILL)
        shown += proc.stdout.readlines()  # printed before the kill: shown as well
        proc.wait()
        proc.stdout.close()

        store = open_store(state)
        last: dict[str, tuple[int, dict[str, object]]] = {}
        for text in shown:
            word, match_id, seq, ledger = text.rstrip("\n").split(" ", 3)
            assert word == "shown"
            last[match_id] = (int(seq), json.loads(ledger))
        for match_id, (seq, ledger) in last.items():
            lines = store.lines(match_id)
            stored = len(lines) - 1
            # Every input shown is stored; at most one more was stored but not yet shown.
            assert stored in (seq, seq + 1), (trial, match_id, seq, stored)
            if stored == seq:
                assert replay(lines).ledger().to_json() == ledger
        row = store.unfinished()
        if row is not None:
            resumed += 1
            assert store.resume(row.match_id).ledger() == replay(
                store.lines(row.match_id)).ledger()
        store.close()

    # The last companion runs undisturbed: it finishes the match it finds.
    proc = _companion(state, seed=999)
    proc.communicate(timeout=60)
    assert proc.returncode == 0
    store = open_store(state)
    assert store.unfinished() is None
    for row in store.matches():
        assert row.state == "finished"
        assert replay(store.lines(row.match_id)).ledger().winner == row.winner
    assert resumed >= KILLS // 3
    assert time.monotonic() - started < 60
