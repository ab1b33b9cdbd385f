"""``replay`` of a pipe: ``replay /dev/stdin`` and ``replay <(cat match.jsonl)`` give their
text only once, so replay reads each file once and then decides what it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from einhorn_table.cli import main
from einhorn_table.rules import replay_file

MATCH = REPO / "einhorn_table" / "examples" / "family-evening.jsonl"
GOLDEN = REPO.parent / "shared" / "golden"


def _replay(*args: str, stdin: bytes | None = None,
            pass_fds: tuple[int, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "einhorn_table", "replay", *args],
        input=stdin.decode("utf-8") if stdin is not None else None, capture_output=True,
        text=True, cwd=REPO, pass_fds=pass_fds, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)})


def _expected() -> dict[str, object]:
    return replay_file(MATCH).ledger().to_json()


def test_replay_of_dev_stdin_from_a_pipe_referees_the_whole_match() -> None:
    # Before: "/dev/stdin: line 1: refused: this line is not JSON", exit status 1: the
    # check for a file of ledgers had read the first line off the pipe.
    done = _replay("--json", "/dev/stdin", stdin=MATCH.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == _expected()


def test_replay_of_a_process_substitution_pipe_and_a_normal_file_beside_it() -> None:
    # replay <(cat match.jsonl) match.jsonl: the shell hands over /dev/fd/N, a pipe.
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as writer:
        writer.write(MATCH.read_bytes())  # (small: fits the pipe's buffer)
    try:
        done = _replay("--json", f"/dev/fd/{read_end}", str(MATCH), pass_fds=(read_end,))
    finally:
        os.close(read_end)
    assert done.returncode == 0, done.stderr
    ledgers = [json.loads(line) for line in done.stdout.splitlines()]
    assert ledgers == [_expected(), _expected()]


def test_a_file_of_ledgers_through_a_pipe_is_still_skipped() -> None:
    expected = GOLDEN / "auction-tie.expected.jsonl"
    if not expected.is_file():
        pytest.skip("the shared golden files are not beside this checkout")
    done = _replay("/dev/stdin", stdin=expected.read_bytes())
    assert done.returncode == 1
    assert "skipped: a file of ledgers" in done.stderr
    assert "not JSON" not in done.stderr and done.stdout == ""


def test_a_normal_file_with_windows_line_ends_and_mark_is_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = MATCH.read_text(encoding="utf-8")
    windows = tmp_path / "saved in notepad.jsonl"
    windows.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert main(["replay", "--json", str(windows)]) == 0
    assert json.loads(capsys.readouterr().out) == _expected()
