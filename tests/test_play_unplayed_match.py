"""A match nobody played is no match to go on with, at the real table (``play``, mock
pins, fake clock, synthetic camera): after a held OK at the final standings, or any
start where nobody rolls before the power goes or the table stops, the next start
begins a new match as the table's file says, without asking; the empty record is not
kept as abandoned, nor listed, nor counted. A match with a starting roll is offered
as before."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from table_rig import open_store, press
from test_play_next_match_file import AFTER, BEFORE, bots_at

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.cli import main
from einhorn_table.ports import Button
from einhorn_table.stations.gesture_table import NEXT_MATCH_AFTER_SECONDS
from einhorn_table.table.loop import TableLoop
from einhorn_table.table.resume import Choice, ResumePrompt

#: The table's file, and the same with Bea at Ben's station (Ben has gone home).
TABLE, BEA = BEFORE, AFTER

#: One match at the table, as the script plays it: the loop, and which match of this
#: start it is (0: the first).
Script = Callable[[TableLoop, int], None]


#: The table's own loop (the tests' starts put the scripts in its place).
RUN = TableLoop.run


class PowerCut(Exception):
    """The plug pulled: nothing more is written, nothing is said."""


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          mock_factory: MockFactory) -> Path:
    import einhorn_table.adapters.clock as clocks

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setattr(clocks, "SystemClock", FakeClock)
    path = tmp_path / "table.toml"
    path.write_text(TABLE, encoding="utf-8")
    return path


def start(monkeypatch: pytest.MonkeyPatch, table: Path, script: Script,
          *flags: str) -> tuple[int, list[TableLoop], list[str]]:
    """``play`` started with ``flags`` (none: an interrupted match is asked about on
    the screen), each match played by ``script``; its exit status, its matches' loops, and the
    interrupted matches it asked about (✗ answered: a new match)."""
    import einhorn_table.table.resume as resume

    runs: list[TableLoop] = []
    asked: list[str] = []

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        runs.append(self)
        bots_at(self)
        script(self, len(runs) - 1)

    def ask(prompt: ResumePrompt, *rest: object, **more: object) -> Choice:
        asked.append(prompt.interrupted.match_id)
        return Choice.NEW

    monkeypatch.setattr(TableLoop, "run", run)
    monkeypatch.setattr(resume, "ask", ask)  # (play imports it when it runs)
    status = main(["play", str(table), "--state-dir", str(table.parent / "state"),
                   *flags])
    return status, runs, asked


def power_cut(loop: TableLoop, n: int) -> None:
    raise PowerCut


def stopped(loop: TableLoop, n: int) -> None:
    """The window closed (or ``systemctl stop``) before anyone rolled."""


def a_starting_roll(then: Script) -> Script:
    """A player rolls to start (the match's first input), then ``then``."""
    original = RUN

    def script(loop: TableLoop, n: int) -> None:
        original(loop, lambda: len(loop.controller.match.record) >= 1, max_steps=20_000)
        then(loop, n)

    return script


def to_the_end_then(after: Script, factory: MockFactory) -> Script:
    """The first match played to its end, a player holds OK at its final standings;
    the next match ``after``."""
    original = RUN

    def script(loop: TableLoop, n: int) -> None:
        if n > 0:
            after(loop, n)
            return
        original(loop, lambda: loop.controller.match.over, max_steps=100_000)
        clock = loop.clock
        assert isinstance(clock, FakeClock)
        clock.advance(NEXT_MATCH_AFTER_SECONDS)
        loop.step()
        press(factory, clock, 1, (Button.EINHORN,), long=True)  # Ben holds OK
        loop.step()
        assert loop.controller.next_match_asked is not None

    return script


def history(table: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    capsys.readouterr()
    assert main(["history", "--state-dir", str(table.parent / "state"), *words]) == 0
    return capsys.readouterr().out


def kept(table: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every match the history file holds, newest first (listed or not)."""
    store = open_store(table.parent / "state")
    try:
        return [(str(i), state, tuple(json.loads(players))) for i, state, players in
                store.query("SELECT id, state, players FROM matches ORDER BY id DESC")]
    finally:
        store.close()


def test_a_start_nobody_rolled_in_is_not_offered_after_the_power_cut(
        table: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PowerCut):  # the power goes at "Who starts?"
        start(monkeypatch, table, power_cut)
    # Before the table starts again: nobody played match 1, which is not offered.
    shown = history(table, capsys, "show", "1")
    assert "the table offers to continue it" not in shown
    assert "Nobody rolled to start it before the table stopped: the table does not " \
        "offer to go on with it, and deletes it when it starts again." in shown
    table.write_text(BEA, encoding="utf-8")  # (Bea took Ben's seat meanwhile)
    # As the service starts it (a power cut seconds ago goes on by itself).
    status, runs, asked = start(monkeypatch, table, a_starting_roll(stopped),
                                "--continue-recent", "10")
    assert status == 0
    # Asked "Go on with this match? ... Who starts: Ana, Ben and Cem still to roll."
    assert asked == []
    assert runs[0].controller.match.names == ("Ana", "Bea", "Cem")  # the file's players
    err = capsys.readouterr().err
    assert "nobody rolled in the match begun last before the table stopped: it is not " \
        f"kept, and a new match begins as {table} says." in err
    assert "match 1 started" in err
    assert kept(table) == [("1", "playing", ("Ana", "Bea", "Cem"))]  # (no "abandoned" one)
    listed = history(table, capsys, "list")
    assert "abandoned" not in listed and "Ben" not in listed
    stats = history(table, capsys, "stats")
    assert "Ben" not in stats and "abandoned" not in stats


def test_stopping_right_after_the_held_ok_keeps_no_empty_match(
        table: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, runs, _ = start(monkeypatch, table, to_the_end_then(stopped, mock_factory),
                            "--new")
    assert status == 0 and len(runs) == 2
    out = capsys.readouterr().out
    # Was: "Match not finished (game 1 of 1) ... offers to go on with it".
    assert "not finished" not in out and "go on with it" not in out
    assert "Nobody rolled in match 2 yet: it is not kept" in out
    assert kept(table) == [("1", "finished", ("Ana", "Ben", "Cem"))]
    listed = history(table, capsys, "list")
    assert "finished" in listed and "not finished" not in listed and "abandoned" not in listed
    stats = history(table, capsys, "stats")
    assert stats.startswith("Statistics: 1 finished match (practice left out)\n")
    assert "still being played" not in stats and "abandoned" not in stats
    status, runs, asked = start(monkeypatch, table, a_starting_roll(stopped), "--continue")
    assert status == 0 and asked == []  # (--continue: nothing to go on with, a new one)
    assert "match 2 started" in capsys.readouterr().err
    assert [state for _, state, _ in kept(table)] == ["playing", "finished"]


def test_a_power_cut_after_the_held_ok_starts_a_new_match_unasked(
        table: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PowerCut):
        start(monkeypatch, table, to_the_end_then(power_cut, mock_factory), "--new")
    assert kept(table) == [("2", "playing", ("Ana", "Ben", "Cem")),
                           ("1", "finished", ("Ana", "Ben", "Cem"))]
    status, _, asked = start(monkeypatch, table, stopped)  # (asks where there is a match)
    assert status == 0 and asked == []
    assert "match 2 started" in capsys.readouterr().err
    assert kept(table) == [("1", "finished", ("Ana", "Ben", "Cem"))]
    assert "abandoned" not in history(table, capsys, "list")
    shown = history(table, capsys, "show", "1")
    assert "Ana" in shown
    capsys.readouterr()
    assert main(["history", "--state-dir", str(table.parent / "state"), "show", "2"]) != 0
    assert "there is no match 2" in capsys.readouterr().err


def test_a_match_with_a_starting_roll_is_offered_as_before(
        table: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = start(monkeypatch, table, a_starting_roll(stopped), "--new")
    assert status == 0
    assert "Match not finished (game 1 of 1); it is kept." in capsys.readouterr().out
    with pytest.raises(PowerCut):  # the next start goes on with it, and the power goes
        start(monkeypatch, table, power_cut, "--continue")
    assert "match 1 continued" in capsys.readouterr().err
    # Started by hand: asked about it; ✗ keeps it as abandoned, a new one begins.
    status, _, asked = start(monkeypatch, table, a_starting_roll(stopped))
    assert status == 0 and asked == ["1"]
    assert "match 2 started" in capsys.readouterr().err
    assert [state for _, state, _ in kept(table)] == ["playing", "abandoned"]
    assert "abandoned" in history(table, capsys, "list")


def test_a_card_that_takes_no_write_still_offers_no_empty_match(
        table: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from einhorn_table.history import MatchStore, StoreFull

    with pytest.raises(PowerCut):
        start(monkeypatch, table, power_cut, "--new")

    def full(self: MatchStore, match_id: str | None = None) -> list[str]:
        raise StoreFull("the disk is full")

    monkeypatch.setattr(MatchStore, "forget_unplayed", full)
    status, _, asked = start(monkeypatch, table, stopped)
    assert status == 0 and asked == []  # (the empty match stays, but is not offered)
    said = capsys.readouterr()
    assert "einhorn-table: the disk is full" in said.err and "match 2 started" in said.err
    assert "Nobody rolled in match 2 yet" in said.out and "not finished" not in said.out
