"""When the history cannot do its job: clear words, no traceback, nothing stored is lost."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from history_helpers import bot_match, open_store, undated

from einhorn_table.cli import main
from einhorn_table.history import (
    MatchStore,
    StoreFull,
    StoreReadOnly,
    StoreRefusing,
    StoreUnreadable,
    schema,
)
from einhorn_table.history.paths import DATABASE
from einhorn_table.history.store import connect_file
from einhorn_table.rules import Call, Roll, format_input, replay


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "einhorn_table", *args], capture_output=True,
                          text=True, cwd=REPO, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_random_bytes_are_refused_and_left_alone(tmp_path: Path) -> None:
    junk = random.Random(4).randbytes(8192)
    (tmp_path / DATABASE).write_bytes(junk)
    with pytest.raises(StoreUnreadable, match="Move it aside"):
        open_store(tmp_path)
    assert (tmp_path / DATABASE).read_bytes() == junk
    result = run_cli("history", "--state-dir", str(tmp_path), "list")
    assert result.returncode == 1
    assert "not a readable match history" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_database_of_another_program_is_refused(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / DATABASE)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Oma')")
    conn.commit()
    conn.close()
    with pytest.raises(StoreUnreadable, match="another program"):
        open_store(tmp_path)
    conn = sqlite3.connect(tmp_path / DATABASE)
    assert conn.execute("SELECT name FROM contacts").fetchall() == [("Oma",)]
    result = run_cli("history", "--state-dir", str(tmp_path), "stats")
    assert result.returncode == 1 and "another program" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_history_from_a_newer_companion_is_refused(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DATABASE)
    conn.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    conn.close()
    with pytest.raises(StoreUnreadable, match="newer"):
        open_store(tmp_path)


def _play_until_refused(store: MatchStore, seed: int) -> tuple[str, int, Exception]:
    """Append a bot match with bulky extras until the store refuses; returns where."""
    played = bot_match(seed)
    recorder = store.begin(played.setup)
    for item in played.record:
        if isinstance(item, Roll):
            item = Roll(player=item.player, dice=item.dice, extra={"note": "x" * 3000})
        try:
            recorder.append(item)
        except StoreFull as error:
            with pytest.raises(StoreRefusing, match="Restart"):
                recorder.append(Call(player=played.names[0], call=None))
            return recorder.match_id, recorder.seq, error
    raise AssertionError("the store never filled up")


def test_a_full_disk_refuses_further_inputs_and_keeps_all_stored(tmp_path: Path) -> None:
    open_store(tmp_path).close()

    def tiny(path: str) -> sqlite3.Connection:
        conn = connect_file(path)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 12}")
        return conn

    store = open_store(tmp_path, connect=tiny)
    match_id, stored, error = _play_until_refused(store, 3)
    assert "disk" in str(error) and "safe" in str(error) and "Free some space" in str(error)
    store.close()
    # Nothing stored was lost: a restart finds the match and every input before the failure.
    store = open_store(tmp_path)
    assert len(store.lines(match_id)) == stored + 1
    row = store.unfinished()
    assert row is not None and row.match_id == match_id
    assert store.resume(match_id).ledger() == replay(store.lines(match_id)).ledger()


def test_a_disk_full_error_from_sqlite_is_explained(tmp_path: Path) -> None:
    """A seam: a connection whose commit fails as a full disk does (SQLITE_FULL)."""

    class FullOnCommit(sqlite3.Connection):
        commits = 0

        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
            if sql == "COMMIT":
                FullOnCommit.commits += 1
                if FullOnCommit.commits > 6:
                    raise sqlite3.OperationalError("database or disk is full")
            return super().execute(sql, *args)  # type: ignore[arg-type]

    def flaky(path: str) -> sqlite3.Connection:
        return sqlite3.connect(path, isolation_level=None, factory=FullOnCommit)

    played = bot_match(2)
    store = open_store(tmp_path, connect=flaky)
    recorder = store.begin(played.setup)
    appended = 0
    with pytest.raises(StoreFull, match="is full"):
        for item in played.record:
            recorder.append(item)
            appended += 1
    store.close()
    store = open_store(tmp_path)
    assert undated(store.lines(recorder.match_id)) == [format_input(x) for x in
                                              played.lines()[: appended + 1]]


def test_a_read_only_history_refuses_writes_and_still_lists(tmp_path: Path) -> None:
    played = bot_match(4)
    store = open_store(tmp_path)
    recorder = store.begin(played.setup)
    for item in played.record[:10]:
        recorder.append(item)
    store.close()

    def read_only(path: str) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)

    store = open_store(tmp_path, connect=read_only)
    assert [r.match_id for r in store.matches()] == [recorder.match_id]
    with pytest.raises(StoreReadOnly, match="read-only"):
        store.begin(played.setup)
    with pytest.raises(StoreReadOnly):
        store.reopen(recorder.match_id).append(played.record[10])
    store.close()
    assert len(open_store(tmp_path).lines(recorder.match_id)) == 11


@pytest.mark.skipif(os.geteuid() == 0, reason="chmod does not stop root")
def test_a_read_only_state_directory_is_explained(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    open_store(folder).close()
    os.remove(folder / DATABASE)
    folder.chmod(0o500)
    try:
        assert main(["history", "--state-dir", str(folder), "list"]) == 1
    finally:
        folder.chmod(0o700)


def test_an_unwritable_state_directory_is_explained(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    match = tmp_path / "match.jsonl"
    match.write_text('{"v": 1, "type": "setup", "variant": "einhorn", "players": ["A", "B"]}\n')
    assert main(["history", "--state-dir", str(blocker / "state"), "import", str(match)]) == 1
    assert "cannot make the state directory" in capsys.readouterr().err
