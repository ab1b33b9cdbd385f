"""The replay and simulate commands, run as a player would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GOLDEN, REPO, needs_golden

from einhorn_table.cli import main

GOOD = (
    '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 1}\n'
    '{"type": "start_roll", "player": "Ana", "dice": [4, 4, 5]}\n'
    '{"type": "start_roll", "player": "Ben", "dice": [6, 2, 3]}\n'
    '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}\n'
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "einhorn_table", *args], capture_output=True,
                          text=True, cwd=REPO, check=False)


def test_replay_table_is_readable(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(GOOD)
    result = run("replay", str(path))
    assert result.returncode == 0
    out = result.stdout
    assert "game 1 of 1" in out
    assert "Ana" in out and "7" in out
    assert "next: Ana to roll (called Dreifaltigkeit)" in out


def test_refused_line_goes_to_stderr_and_other_files_still_print(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(GOOD + '{"type": "roll", "player": "Ben", "dice": [1, 2, 3]}\n')
    good = tmp_path / "good.jsonl"
    good.write_text(GOOD)
    result = run("replay", "--json", str(bad), str(good), str(tmp_path / "missing.jsonl"))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["to_act"] == "Ana"
    assert f"{bad}: line 5: refused: it is Ana's turn, not Ben's (RULES.md section 3.1)" in (
        result.stderr
    )
    assert "missing.jsonl: cannot read this file" in result.stderr
    assert "Traceback" not in result.stderr


def test_bundled_example_match_replays() -> None:
    example = REPO / "einhorn_table" / "examples" / "family-evening.jsonl"  # a short output
    result = run("replay", "--json", str(example))
    assert result.returncode == 0, result.stderr
    ledger = json.loads(result.stdout)
    assert ledger["awaiting"] == "nothing" and ledger["winner"]


def test_simulate_is_seeded_and_reports_what_a_designer_wants(capsys: object) -> None:
    args = ["simulate", "--matches", "40", "--players", "3", "--seed", "7", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out  # type: ignore[attr-defined]
    assert main(args) == 0
    second = capsys.readouterr().out  # type: ignore[attr-defined]
    assert first == second
    data = json.loads(first)
    assert data["matches"] == 40
    assert sum(data["wins"].values()) == 40
    assert set(data["stones_per_turn"]) == {"silent", "unvermeidlich", "wunsch", "einhorn",
                                            "dreifaltigkeit"}
    assert isinstance(data["unicorn_worth"], float)


def test_simulate_table() -> None:
    result = run("simulate", "--matches", "32", "--variant", "wuerfeln", "--players", "5")
    assert result.returncode == 0, result.stderr
    for words in ("turns per game", "games per match", "central stash ran dry",
                  "starting player won", "the unicorn's worth", "wins per seat",
                  "stones per turn"):
        assert words in result.stdout
    # 32 matches do not share out evenly among 5 players; the fair share still is 1 in 5.
    assert "(a fair share is 20.0 %)" in result.stdout


def test_simulate_unknown_strategy_is_a_clear_error() -> None:
    result = run("simulate", "--matches", "1", "--strategies", "cheater")
    assert result.returncode == 1
    assert "no strategy called 'cheater'" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_demo_prints_the_table_s_words_and_not_pygame_s_greeting(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    result = subprocess.run(
        [sys.executable, "-m", "einhorn_table", "demo", "--bots", "all", "--players", "2",
         "--games", "1", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=REPO, check=False, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Final standings after 1 game:")
    assert "pygame" not in result.stdout + result.stderr


@pytest.mark.parametrize(("words", "message"), [
    (["simulate", "--matches", "0"], "argument --matches: must be 1 or more, not 0"),
    (["simulate", "--target", "-3", "--variant", "wuerfeln"], "must be 1 or more, not -3"),
    (["simulate", "--players", "7"], "argument --players: must be 2 to 6, not 7"),
    (["demo", "--players", "7"], "argument --players: must be 2 to 6, not 7"),
    (["demo", "--games", "ten"], "argument --games: 'ten' is not a whole number"),
    (["history", "list", "--limit", "0"], "argument --limit: must be 1 or more, not 0"),
    (["record", "--seconds", "0", "frames"], "argument --seconds: must be more than 0, not 0"),
    (["doctor", "--frames", "0"], "argument --frames: must be 1 or more, not 0"),
])
def test_a_number_out_of_range_stops_the_command_and_says_why(
        words: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(words)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_simulate_without_a_strategy_says_which_there_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--strategies", ",", "--matches", "3"]) == 1
    assert "--strategies names none; choose from silent, random, odds, bidder" in \
        capsys.readouterr().err


@needs_golden
def test_replay_of_a_finished_match_says_how_many_games_were_played_and_why_it_ended() -> None:
    # The central stash runs dry in game 2's deal: one game of nine was played.
    result = run("replay", str(GOLDEN / "central-dry-in-deal.jsonl"))
    lines = result.stdout.splitlines()
    assert lines[0].endswith("(einhorn, over after 1 of 9 games)")
    assert lines[-2:] == ["  match over: Dora wins with 25 stones",
                          "  The match ended when the central stash ran dry dealing for game 2."]
    # In a turn, the stash simply ran dry.
    turn = run("replay", str(GOLDEN / "central-dry-in-turn.jsonl")).stdout.splitlines()
    assert turn[-1] == "  The match ended when the central stash ran dry."


def test_output_piped_into_a_reader_that_stops_early_ends_quietly() -> None:
    # As `einhorn-table history show 1 | head -1` does: the pipe closes before the end.
    example = REPO / "einhorn_table" / "examples" / "family-evening.jsonl"  # a short output
    process = subprocess.Popen([sys.executable, "-m", "einhorn_table", "replay", str(example)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait() == 141
    assert errors == ""


@pytest.mark.parametrize("argv", [["doctor", "--table"], ["calibrate", "--config"]])
def test_a_table_file_named_but_not_there_is_refused(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*argv, str(tmp_path / "tabel.toml")])
    assert stop.value.code == 2
    assert "tabel.toml is not there; name the file" in capsys.readouterr().err
