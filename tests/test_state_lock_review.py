"""The state folder's lock as a person at the terminal meets it: a demo kept out of a
folder given as "." still names a folder of its own to use; a full card that takes
not even the lock's words keeps nobody from playing (the history says it is full)."""

from __future__ import annotations

import errno
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("pygame")

from einhorn_table.cli import main
from einhorn_table.history.state_lock import DEMO, PLAY, STATE_LOCK, free_folder, held_by, holding

SINCE = datetime(2026, 11, 27, 15, 5, tzinfo=UTC)


def test_a_demo_kept_out_of_the_folder_it_runs_in_names_one_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    state = tmp_path / "kept"
    state.mkdir()
    monkeypatch.chdir(state)  # (the demo started in its state directory: --state-dir .)
    with holding(state, DEMO, lambda: SINCE):
        assert main(["demo", "--players", "2", "--bots", "all", "--games", "1",
                     "--size", "400x240", "--state-dir", "."]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("einhorn-table: another demo is playing in . (process ")
    assert err.endswith(f"give this demo a state directory of its own: add --state-dir "
                        f"{tmp_path / 'kept-2'}\n")


def test_a_free_folder_beside_a_folder_named_by_dots_or_the_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "a" / "b")
    assert free_folder(Path(".")) == tmp_path / "a" / "b-2"
    assert free_folder(Path("..")) == tmp_path / "a-2"
    assert free_folder(Path("c/..")) == tmp_path / "a" / "b-2"
    assert free_folder(Path("/")).parent == Path("/")
    assert free_folder(Path("kept")) == Path("kept-2")
    assert os.path.isabs(free_folder(Path("/")))


def test_a_card_too_full_for_the_lock_s_words_still_lets_the_table_play_holding_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "kept"
    with holding(state, PLAY, lambda: SINCE) as playing:  # (an earlier table's words)
        playing("6")
    earlier = (state / STATE_LOCK).read_text(encoding="utf-8")

    def full(*_: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    with holding(state, PLAY, lambda: SINCE) as playing:  # (no OSError: it plays)
        playing("7")
        holder = held_by(state)
        assert holder is not None and holder.program == PLAY  # held all the same
    assert (state / STATE_LOCK).read_text(encoding="utf-8") == earlier  # as they were
