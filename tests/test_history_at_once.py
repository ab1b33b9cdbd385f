"""Two programs at one match history at the same moment: the table playing while a
``history import`` runs, two imports of one file from two terminals, and two programs
opening a history that is not there yet (the table's first start, an import)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import REPO
from history_helpers import NOBODY, bot_match, open_store, why_not_mine
from test_history_review3 import _as_a_user

from einhorn_table.cli import main
from einhorn_table.history import schema
from einhorn_table.history.errors import AlreadyKept
from einhorn_table.history.paths import DATABASE
from einhorn_table.history.state_lock import DEMO, PLAY, held_by, holding
from einhorn_table.rules import Setup, parse_line

SINCE = datetime(2026, 11, 27, 15, 5, tzinfo=UTC)


def setup_of(lines: list[str]) -> Setup:
    setup = parse_line(lines[0])
    assert isinstance(setup, Setup)
    return setup


def test_two_imports_of_one_file_at_the_same_moment_keep_the_match_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second import runs while the first has looked at what is kept and not yet
    written: it waits for the first, then finds the match kept."""
    lines = bot_match(3).notation().splitlines()
    first, second = open_store(tmp_path), open_store(tmp_path)
    outcome: list[object] = []

    def import_second() -> None:
        try:
            outcome.append(second.import_notation(lines))
        except AlreadyKept as error:
            outcome.append(error)

    looked = first._kept_beginning_of

    def look_then_let_the_second_run(setup: str, inputs: list[str]) -> object:
        found = looked(setup, inputs)
        other = threading.Thread(target=import_second)
        other.start()
        other.join(timeout=1.0)  # (done by now, unless it waits for this one's write)
        threads.append(other)
        return found

    threads: list[threading.Thread] = []
    monkeypatch.setattr(first, "_kept_beginning_of", look_then_let_the_second_run)
    imported = first.import_notation(lines)
    threads[0].join(timeout=10.0)
    assert first.count() == 1
    assert len(outcome) == 1 and isinstance(outcome[0], AlreadyKept)
    assert f"kept already, as match {imported.match_id}" in str(outcome[0])
    first.close()
    second.close()


def test_two_programs_opening_a_new_history_at_once_both_open_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first looks at the file's version (none yet); before it makes its tables,
    the other makes them all. It then finds them made rather than failing with
    SQLite's "table matches already exists"."""
    path = str(tmp_path / DATABASE)
    first = sqlite3.connect(path, isolation_level=None)
    other = sqlite3.connect(path, isolation_level=None)
    version = schema.version
    raced: list[bool] = []

    def the_other_migrates_meanwhile(conn: sqlite3.Connection) -> int:
        found = version(conn)
        if conn is first and not raced:
            raced.append(True)
            schema.migrate(other)
        return found

    monkeypatch.setattr(schema, "version", the_other_migrates_meanwhile)
    assert schema.migrate(first) == schema.LATEST
    assert raced and version(first) == schema.LATEST
    first.close()
    other.close()
    monkeypatch.setattr(schema, "version", version)
    with open_store(tmp_path) as store:
        assert store.count() == 0


def test_an_import_goes_on_while_the_table_plays_and_the_table_goes_on_too(
        tmp_path: Path) -> None:
    """The table holds the folder all the time it runs (the Pi's service: all day), so
    an import does not wait for it or refuse: each of its writes is one transaction
    of SQLite, which the table's inputs wait for and take turns with."""
    playing = bot_match(5).notation().splitlines()
    other = bot_match(6).notation().splitlines()
    with holding(tmp_path, PLAY, lambda: SINCE) as note:
        table = open_store(tmp_path)
        recorder = table.begin(setup_of(playing))
        note(recorder.match_id)
        half = len(playing) // 2
        for line in playing[1:half]:
            recorder.append(parse_line(line))
        with open_store(tmp_path) as importing:
            imported = importing.import_notation(other)
        for line in playing[half:]:
            recorder.append(parse_line(line))
        holder = held_by(tmp_path)
        assert holder is not None and holder.match == recorder.match_id
        assert table.get(recorder.match_id).state == "finished"
        assert table.get(imported.match_id).state == "finished"
        assert table.count() == 2
        table.close()



def test_list_and_show_say_which_match_is_being_played_right_now(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not "the table offers to continue it when it starts again" for the match a
    demo plays at this moment."""
    lines = bot_match(8).notation().splitlines()
    with open_store(tmp_path) as store:
        store.import_notation(lines)  # (match 1: finished)
        recorder = store.begin(setup_of(lines))
        for line in lines[1:12]:
            recorder.append(parse_line(line))
        store.set_practice(recorder.match_id)
    state = ["history", "--state-dir", str(tmp_path)]
    with holding(tmp_path, DEMO, lambda: SINCE) as note:
        note(recorder.match_id)
        assert main([*state, "list"]) == 0
        listed = capsys.readouterr().out.splitlines()
        assert listed[1].startswith("2 ") and listed[1].endswith(
            "being played now (practice)")
        assert listed[2].startswith("1 ") and listed[2].endswith("finished (imported)")
        assert main([*state, "show", recorder.match_id]) == 0
        told = capsys.readouterr().out.splitlines()[-1]
        assert told.startswith("Being played now in a demo: last input ")
        assert "offers to continue" not in told
    assert main([*state, "list"]) == 0  # (the demo stopped: left unfinished)
    assert capsys.readouterr().out.splitlines()[1].endswith("not finished (practice)")
    assert main([*state, "show", recorder.match_id]) == 0
    assert "the table offers to continue it" in capsys.readouterr().out.splitlines()[-1]


def test_a_history_another_user_keeps_in_a_folder_one_may_look_into_says_who_may_read_it(
        tmp_path: Path) -> None:
    """Not "cannot be opened. Check that the state directory exists and is writable":
    it exists, and it is not this user's to read."""
    with open_store(tmp_path) as store:
        store.import_notation(bot_match(2).notation().splitlines())
    file = tmp_path / DATABASE
    file.chmod(0o000)
    if os.geteuid() == 0:  # (root, its power dropped, is the file's owner: give it away)
        os.chown(file, NOBODY, -1)
    try:
        probe = subprocess.run(_as_a_user(["test", "-r", str(file)]), check=False)
        if probe.returncode != 1:
            pytest.skip("cannot run a command here that chmod stops from reading")
        env = {**os.environ, "PYTHONPATH": str(REPO), "EINHORN_COMMAND": "einhorn-table"}
        done = subprocess.run(_as_a_user([sys.executable, "-m", "einhorn_table", "history",
                                          "--state-dir", str(tmp_path), "list"]),
                              capture_output=True, text=True, env=env, timeout=120,
                              check=False)
    finally:
        if os.geteuid() == 0:
            os.chown(file, 0, -1)
        file.chmod(0o644)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    # It said "(`ls -ld FOLDER` names them)": the folder is readable, and may be the
    # person's own; it is the file that is refused.
    assert f"ls -ld {tmp_path}`" not in done.stderr
    assert done.stderr.startswith(
        f"einhorn-table: you may not read the history file {file}: " + why_not_mine(
            file, "list") + (", or ask them to copy the whole folder for you and name that "
                             "copy with --state-dir." if os.geteuid() == 0 else ""))
