"""Every golden match replays to exactly the ledger after each of its lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GOLDEN, REPO, golden_matches, needs_golden

from einhorn_table.rules import format_input, parse_line, replay_steps

MATCHES = golden_matches()


@needs_golden
def test_the_golden_set_is_there() -> None:
    assert len(MATCHES) >= 19


@needs_golden
@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.stem)
def test_ledger_after_every_line(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    expected = [
        json.loads(line)
        for line in path.with_name(path.stem + ".expected.jsonl").read_text().splitlines()
    ]
    steps = 0
    for (number, match, _), want in zip(replay_steps(lines), expected, strict=True):
        got = match.ledger().to_json()
        assert {key: got[key] for key in want} == want, f"{path.name} line {number}"
        steps += 1
    assert steps == len(lines)


@needs_golden
@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.stem)
def test_notation_round_trips_byte_for_byte(path: Path) -> None:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        item = parse_line(line, number)
        assert format_input(item) == line
        assert parse_line(format_input(item)) == item


@needs_golden
def test_replay_command_prints_every_final_ledger() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "einhorn_table", "replay", "--json", *map(str, MATCHES)],
        capture_output=True, text=True, cwd=REPO, check=False,
    )
    assert result.returncode == 0, result.stderr
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(printed) == len(MATCHES)
    for path, ledger in zip(MATCHES, printed, strict=True):
        last = path.with_name(path.stem + ".expected.jsonl").read_text().splitlines()[-1]
        want = json.loads(last)
        assert {key: ledger[key] for key in want} == want, path.name


@needs_golden
def test_replay_of_the_whole_golden_folder_skips_the_ledger_files() -> None:
    everything = sorted(GOLDEN.glob("*.jsonl"))
    result = subprocess.run(
        [sys.executable, "-m", "einhorn_table", "replay", *map(str, everything), "--json"],
        capture_output=True, text=True, cwd=REPO, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == len(MATCHES)
    skipped = [line for line in result.stderr.splitlines() if "skipped: a file of ledgers" in line]
    assert len(skipped) == len(everything) - len(MATCHES)


def test_golden_dir_constant_points_beside_the_repo() -> None:
    assert GOLDEN.parent.name == "shared"
