"""The hand-run commands read, record and simulate, against what they promise: the
figures simulate prints are the rules engine's and every strategy asked for plays;
a recording is made from the table's camera and says how to replay it, at the
frames' own rate, in words that work where they are pasted; read takes any photo
file name, and drawings that cannot be written are said before any photo is read."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
from conftest import REPO
from test_vision_reader_cli import ROLL, run_read
from vision_helpers import FIXTURES

from einhorn_table.adapters.source_spec import parse_source
from einhorn_table.adapters.sources import create_source
from einhorn_table.cli import main
from einhorn_table.folders import FolderError
from einhorn_table.rules import EINHORN, Setup
from einhorn_table.simulation.simulate import play_match, play_recorded, seating
from einhorn_table.simulation.strategies import STRATEGIES, make_strategy

# simulate ------------------------------------------------------------------------


def test_games_per_match_counts_the_games_played_not_the_one_the_deal_never_began() -> None:
    # A match whose central stash runs dry dealing for game k played k - 1 games
    # (RULES.md 5.6 and 9): the ledger's games_played, not its game counter.
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben", "Cem", "Dora"])
    bots = [make_strategy(name) for name in STRATEGIES]
    dry_in_deal = 0
    for seed in range(12):
        report = play_match(setup, bots, random.Random(seed))
        ledger = play_recorded(setup, bots, random.Random(seed)).ledger()
        assert ledger.players[report.winner].name == ledger.winner  # the same match
        assert report.games == ledger.games_played
        assert report.games == sum(1 for turns in report.turns_per_game if turns)
        dry_in_deal += report.central_dry == "deal"
    assert dry_in_deal > 0  # the case in question was met


def test_every_strategy_asked_for_plays_also_at_a_table_of_fewer_seats(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The default is all four strategies; at two seats, odds and bidder sat at none.
    assert main(["simulate", "--players", "2", "--matches", "8", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["seats"] == {name: 4 for name in STRATEGIES}
    # Every strategy that played is in the wins, also one that never won.
    assert set(figures["wins"]) == set(STRATEGIES)
    assert sum(figures["wins"].values()) == 8
    assert 0 <= figures["rolloffs"] <= 8


def test_strategies_take_every_seat_equally_over_as_many_matches_as_there_are_of_them() -> None:
    names = ["a", "b", "c", "d"]
    for seats in range(2, 7):
        sittings = [seating(names, seats, match) for match in range(len(names))]
        for name in names:
            assert sum(row.count(name) for row in sittings) == seats
        for seat in range(seats):
            assert sorted(row[seat] for row in sittings) == names
    # As many strategies as seats: each moves one seat on after every match.
    assert seating(names, 4, 1) == ["b", "c", "d", "a"]


def test_the_summary_title_says_the_target_and_how_the_strategies_share_the_seats(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "wuerfeln", "--players", "3", "--target", "20",
                 "--matches", "2"]) == 0
    title = capsys.readouterr().out.splitlines()[:2]
    assert title[0] == ("2 simulated matches of wuerfeln: 3 players, 10 games or a stash "
                        "of 20 stones, seed 1")
    assert title[1].startswith("seats: silent, random, odds, bidder taking the 3 seats in turn")


def test_the_json_says_the_same_median_turns_per_game_as_the_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Seven matches of seed 1 play an even number of games: the median is the mean of
    # the middle two, not the upper one of them.
    assert main(["simulate", "--matches", "7"]) == 0
    table = re.search(r"turns per game +median ([\d.]+),", capsys.readouterr().out)
    assert table is not None
    assert main(["simulate", "--matches", "7", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["turns_per_game"] == float(table.group(1)) == 10.5


# record --------------------------------------------------------------------------


def test_the_replay_words_work_pasted_into_table_toml_and_the_shell_from_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(home)
    assert main(["record", "Tuesday evening", "--source", "synth:width=96,height=72",
                 "--seconds", "0.2"]) == 0
    said = capsys.readouterr().out
    toml_line = re.search(r"camera = (\".*?\") in table\.toml", said)
    assert toml_line is not None, said
    camera = tomllib.loads(f"camera = {toml_line.group(1)}")["camera"]
    shell = re.search(r"\(or (--source .*) for the doctor and calibrate\)", said)
    assert shell is not None, said
    words = shlex.split(shell.group(1))
    assert words[0] == "--source" and words[1] == camera and len(words) == 2
    # The table (and its service) runs from another folder: the path still finds it.
    monkeypatch.chdir(tmp_path)
    spec = parse_source(camera)
    assert spec.argument == str(home / "Tuesday evening")
    with create_source(camera) as replay:
        assert replay.read() is not None


def _replay_rate(said: str) -> int:
    found = re.search(r'camera = "dir:.*,fps=(\d+)" in table\.toml', said)
    assert found is not None, said
    return int(found.group(1))


def test_frames_of_a_video_file_replay_at_the_video_s_rate_not_at_the_speed_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2
    import numpy as np

    video = tmp_path / "roll.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 25, (160, 120))
    for step in range(50):  # two seconds of a die moving across
        picture = np.full((120, 160, 3), 40, np.uint8)
        cv2.circle(picture, (10 + 2 * step, 60), 10, (255, 255, 255), -1)
        writer.write(picture)
    writer.release()
    assert main(["record", str(tmp_path / "frames"), "--source", f"file:{video}"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Saved 50 frames from video file")
    assert _replay_rate(said) == 25  # (read unpaced, in well under two seconds)


def test_record_takes_the_camera_the_table_s_file_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("table.toml").write_text(
        'camera = "synth:seed=4,players=2,width=96,height=72"\n'
        '[[player]]\nname = "Ana"\n[[player]]\nname = "Ben"\n', encoding="utf-8")
    assert main(["record", "frames", "--seconds", "0.2"]) == 0
    assert "from synthetic table (seed 4, 2 players" in capsys.readouterr().out
    # --source still chooses; a table's file named but not there is refused.
    assert main(["record", "more", "--seconds", "0.2", "--source", "synth:seed=1"]) == 0
    assert "from synthetic table (seed 1, 1 player" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["record", "again", "--table", "tabel.toml"])
    assert "tabel.toml is not there" in capsys.readouterr().err


# read ----------------------------------------------------------------------------


def test_a_drawings_folder_that_takes_no_file_is_refused_before_any_photo_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from einhorn_table.vision import reader

    drawings = tmp_path / "drawings"
    drawings.mkdir()
    if os.geteuid() == 0:  # (root writes into a read-only folder: a read-only disk, then)
        def read_only(*args: object, **kwargs: object) -> object:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))

        monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    else:
        drawings.chmod(0o555)
    read: list[object] = []
    monkeypatch.setattr(reader, "read_frame", lambda *a, **k: read.append(a))
    try:
        with pytest.raises(FolderError, match=r"cannot write into the folder .*drawings.* "
                                              r"name a folder you may write to"):
            run_read(str(FIXTURES / ROLL), "--debug", str(drawings))
    finally:
        drawings.chmod(0o755)
    assert read == []


def test_a_drawing_that_cannot_be_written_says_why_and_the_other_photos_are_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    drawings = tmp_path / "drawings"
    write_bytes = Path.write_bytes

    def disk_fills(self: Path, data: bytes) -> int:
        if self.parent == drawings:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", disk_fills)
    status = run_read(str(FIXTURES / ROLL), str(FIXTURES / "tomitomi3_crops__1_00000.png"),
                      "--debug", str(drawings), "--json")
    assert status == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2  # both photos read
    said = captured.err.splitlines()
    assert len(said) == 2 and all(os.strerror(errno.ENOSPC) in line for line in said)
    assert f"could not write {drawings / 'matteop65_d6__train_five_25.png'}" in said[0]


def test_a_photo_whose_name_is_not_utf8_is_read_like_any_other(tmp_path: Path) -> None:
    # A name from a Windows zip or an old memory card ("würfel" in Latin-1): OpenCV's
    # imread crashed the whole command on it, and its text line stopped a terminal
    # that takes UTF-8 only. In a process of its own: a crash would take pytest along.
    odd = tmp_path / os.fsdecode(b"w\xfcrfel.jpg")
    odd.write_bytes((FIXTURES / ROLL).read_bytes())
    other = tmp_path / "roll.jpg"
    other.write_bytes((FIXTURES / ROLL).read_bytes())
    drawings = tmp_path / "drawings"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "einhorn_table", "read", str(odd), str(other),
         "--debug", str(drawings)],
        capture_output=True, env=env, cwd=tmp_path, check=False, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode("utf-8").splitlines()
    assert [line.partition(":")[0] for line in lines] == [
        str(odd).encode(errors="surrogateescape").decode("utf-8", "replace"), str(other)]
    # Read alike; each line names its drawing, the name's odd byte written as "_".
    readings = [line.partition(":")[2].partition("  drawing: ") for line in lines]
    assert readings[0][0] == readings[1][0]
    assert [said for _, _, said in readings] == [
        str(drawings / "w_rfel.png"), str(drawings / "roll.png")]
    assert sorted(os.listdir(os.fsencode(drawings))) == [b"roll.png", b"w_rfel.png"]


def test_an_empty_file_is_said_to_be_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "roll.jpg"
    empty.write_bytes(b"")
    assert run_read(str(empty), str(FIXTURES / ROLL)) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"einhorn-table read: {empty}: an empty file (0 bytes); "
                            "copy the photo again\n")
    assert captured.out.startswith(str(FIXTURES / ROLL))
