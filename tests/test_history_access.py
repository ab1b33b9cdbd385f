"""What the history commands say where a part of the history may not be read or changed
(its folder, its file, SQLite's files beside it), and where the matches played at the
table are kept when a parent runs `history` by hand on the Pi."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO
from history_helpers import NOBODY, bot_match, open_store
from test_history_review3 import _as_a_user

from einhorn_table.cli import main
from einhorn_table.history.access import Refusal, refused_words
from einhorn_table.history.paths import DATABASE

# --- which part refuses, and why -------------------------------------------------------


def test_a_history_left_to_root_by_sudo_is_given_back_with_chown(tmp_path: Path) -> None:
    """`sudo einhorn-table play` once leaves a history file root's own in pi's folder:
    not "run the command as the user it belongs to" (root: sudo again, and again), but
    give it back to pi."""
    file = tmp_path / DATABASE
    said = refused_words(Refusal(file, False, True, "root", "pi"), tmp_path,
                         as_another="einhorn-table history list", service_user="einhorn")
    assert said == (
        f"you may not read the history file {file}: it belongs to root, not to you (pi), "
        "most likely since einhorn-table was run with sudo. Give the history back: "
        f"`sudo chown -R pi: {tmp_path}`, then run the command again.")


def test_root_s_file_in_the_service_s_folder_goes_back_to_the_service_s_user(
        tmp_path: Path) -> None:
    said = refused_words(Refusal(tmp_path / DATABASE, False, False, "root", "pi",
                                 changing=True), tmp_path,
                         as_another="x", service_user="einhorn", service="It is the ...")
    assert f"`sudo chown -R einhorn: {tmp_path}`" in said
    assert said.startswith(f"you may not change the history file {tmp_path / DATABASE}: "
                           "it belongs to root, not to the service (einhorn)")


def test_a_card_mounted_read_only_is_said_so_for_a_change(tmp_path: Path) -> None:
    said = refused_words(Refusal(tmp_path, True, False, "pi", "pi", read_only_disk=True,
                                 changing=True), tmp_path, as_another="x",
                         service_user="einhorn")
    assert said.startswith(f"you may not write in the history's folder {tmp_path}: it lies "
                           "on a disk (an SD card, a USB stick) mounted read-only. Mount it")


def test_another_user_s_history_is_not_offered_as_a_copy_to_change(tmp_path: Path) -> None:
    """A copy of the history changed (practice, import) is not the table's history."""
    part = Path(f"{tmp_path / DATABASE}-wal")
    said = refused_words(Refusal(part, False, False, "ana", "pi", changing=True), tmp_path,
                         as_another="einhorn-table history practice 2", service_user="e")
    assert said == (
        f"you may not change {part}, which SQLite keeps beside the history file: it belongs "
        "to ana, not to you (pi). Run the command as ana: `sudo -u ana einhorn-table history "
        "practice 2`.")
    reading = refused_words(Refusal(part, False, True, "ana", "pi"), tmp_path,
                            as_another="einhorn-table history list", service_user="e")
    assert reading.endswith("or ask them to copy the whole folder for you and name that "
                            "copy with --state-dir.")


# --- the commands, run by a user whom chmod stops -------------------------------------


def _history(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    probe = subprocess.run(_as_a_user(["test", "-w", str(folder / DATABASE)]), check=False)
    if probe.returncode != 1:
        pytest.skip("cannot run a command here that chmod stops from writing")
    env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    env.update(PYTHONPATH=str(REPO), EINHORN_COMMAND="einhorn-table")
    return subprocess.run(
        _as_a_user([sys.executable, "-m", "einhorn_table", "history", "--state-dir",
                    str(folder), *args]),
        capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.fixture
def file_not_mine(tmp_path: Path) -> Iterator[Path]:
    """A history in this user's own folder, whose file (readable by all) is another
    user's: it may be read, not changed."""
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    with open_store(tmp_path) as store:
        store.import_notation(bot_match(1).notation().splitlines())
        store.import_notation(bot_match(2).notation().splitlines())
    file = tmp_path / DATABASE
    file.chmod(0o644)
    os.chown(file, NOBODY, -1)
    yield tmp_path
    os.chown(file, 0, -1)


def test_practice_on_a_file_another_user_keeps_names_the_file_not_the_folder(
        file_not_mine: Path) -> None:
    """It said "you may not write FOLDER. It belongs to another user, or lies on a card
    mounted read-only ... (`ls -ld FOLDER` names them)": the folder is this user's own,
    and may be written; the history file is another user's."""
    import pwd

    other = pwd.getpwuid(NOBODY).pw_name
    done = _history(file_not_mine, "practice", "2")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"einhorn-table: match 2 was not marked practice: you may not change the history "
        f"file {file_not_mine / DATABASE}: it belongs to {other}, not to you (root). Run the "
        f"command as {other}: `sudo -u {other} einhorn-table history --state-dir "
        f"{file_not_mine} practice 2`.")
    listed = _history(file_not_mine, "list")  # (reading it is no trouble)
    assert listed.returncode == 0 and listed.stdout.startswith("id ")


# --- the service's history, when a parent runs `history` by hand -----------------------


@pytest.fixture
def two_histories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The service's folder (here in tmp_path) with three matches, and the person's own
    ~/.local/state/einhorn-table with one, from `play` run by hand once."""
    from einhorn_table.calibration import paths

    service = tmp_path / "var-lib-einhorn-table"
    with open_store(service) as store:
        for seed in (1, 2, 3):
            store.import_notation(bot_match(seed).notation().splitlines())
    home = tmp_path / "home"
    own = home / ".local" / "state" / "einhorn-table"
    with open_store(own) as store:
        store.import_notation(bot_match(4).notation().splitlines())
    monkeypatch.setattr(paths, "SERVICE_STATE_DIR", service)
    monkeypatch.setenv("HOME", str(home))
    for name in ("EINHORN_STATE_DIR", "STATE_DIRECTORY", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("EINHORN_COMMAND", "einhorn-table")
    return service, own


def test_list_by_hand_says_it_is_not_the_service_s_history(
        two_histories: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """`history list` run by pi on the Pi read ~/.local/state (one match of a `play`
    run by hand) and said nothing of the service's history, where the family's
    matches are."""
    service, own = two_histories
    assert main(["history", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3  # (the header, the one match, the note)
    assert out[-1] == (
        f"This is the history in {own}, of the table run by hand; the table's service keeps "
        f"its own in {service}: `sudo -u einhorn einhorn-table history --state-dir "
        f"{service} list`.")


def test_a_match_only_the_service_keeps_is_looked_for_there(
        two_histories: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    service, _ = two_histories
    assert main(["history", "show", "3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("einhorn-table: there is no match 3;")
    assert (f"`sudo -u einhorn einhorn-table history --state-dir {service} show 3`."
            in err)
    assert main(["history", "stats", "--player", "Zed"]) == 1
    assert "--state-dir" in capsys.readouterr().err


def test_no_history_of_one_s_own_gives_the_service_s_command(
        two_histories: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """It said "read it as the service's user, sudo -u einhorn": not the command."""
    service, own = two_histories
    (own / DATABASE).unlink()
    assert main(["history", "stats"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"einhorn-table: no match history in {own}. The table's service keeps its matches "
        f"in its own folder, {service}, which only its user einhorn may read: `sudo -u "
        f"einhorn einhorn-table history --state-dir {service} stats`.")


def test_a_history_named_by_hand_is_not_second_guessed(
        two_histories: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    service, own = two_histories
    assert main(["history", "--state-dir", str(own), "list"]) == 0
    assert "service" not in capsys.readouterr().out
    assert main(["history", "--state-dir", str(service), "list"]) == 0
    assert "service" not in capsys.readouterr().out


# --- a full disk ------------------------------------------------------------------------


def _history_at(folder: Path, *args: str) -> int:
    return main(["history", "--state-dir", str(folder), *args])


@pytest.fixture
def full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A history of two matches on a disk with no space left: SQLite cannot make the
    file it reads a history through (it says "disk I/O error"), nor write a line."""
    from einhorn_table.cli import history as history_cli
    from einhorn_table.history import errors
    from einhorn_table.history.store import MatchStore

    with open_store(tmp_path) as store:
        store.import_notation(bot_match(1).notation().splitlines())
        store.import_notation(bot_match(2).notation().splitlines())
    monkeypatch.setattr(errors, "disk_full", lambda folder: True)

    class OnAFullDisk(MatchStore):
        def __init__(self, folder: Path, **kwargs: object) -> None:
            def connect(path: str) -> sqlite3.Connection:
                raise sqlite3.OperationalError("disk I/O error")
            if not kwargs.get("read_only"):  # (read only, as it lies, it may be)
                kwargs["connect"] = connect
            super().__init__(folder, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(history_cli, "MatchStore", OnAFullDisk)
    return tmp_path


def test_a_history_on_a_full_disk_is_still_listed(
        full_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said "could not open the match history: the disk ... could not be read or
    written (disk I/O error) ... a table restarted offers to continue the match": a
    full SD card, whose history can be read as it lies."""
    assert _history_at(full_disk, "list") == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_practice_on_a_full_disk_says_to_run_it_again_not_to_restart_the_table(
        full_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _history_at(full_disk, "practice", "2") == 1
    said = capsys.readouterr().err
    assert said.startswith(f"einhorn-table: match 2 was not marked practice: the disk "
                           f"holding {full_disk} is full; the history is as it was.")
    assert said.rstrip().endswith("then run the command again.")
    assert "restart the table" not in said


def test_an_import_that_fills_the_disk_stops_and_says_which_files_were_not_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """It went on with every file after the disk was full, each refused with the
    table's words ("restart the table; it will offer to continue the match")."""
    from einhorn_table.history.errors import StoreFull
    from einhorn_table.history.store import MatchStore

    files = []
    for seed in (1, 2, 3):
        files.append(tmp_path / f"match{seed}.jsonl")
        files[-1].write_text(bot_match(seed).notation(), encoding="utf-8")
    real = MatchStore.import_notation
    tried: list[int] = []

    def filling(self: MatchStore, lines: list[str], **kwargs: object) -> object:
        tried.append(len(tried))
        if len(tried) == 2:
            raise StoreFull("could not import the match: the disk is full ... restart the "
                            "table; it will offer to continue the match.")
        return real(self, lines, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MatchStore, "import_notation", filling)
    state = tmp_path / "state"
    assert _history_at(state, "import", *map(str, files)) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{files[0]}: imported as match 1")
    assert err.startswith(f"einhorn-table: {files[1]} and the files after it were not "
                          f"imported: the disk holding {state} is full")
    assert "restart the table" not in err and len(tried) == 2


# --- other inputs a parent gives -------------------------------------------------------


def test_a_match_asked_for_in_an_empty_history_says_none_is_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said "`history list` shows the matches kept", which shows none."""
    open_store(tmp_path).close()
    assert _history_at(tmp_path, "show", "1") == 1
    assert capsys.readouterr().err.strip() == (
        f"einhorn-table: there is no match 1: the history in {tmp_path} keeps no matches yet")
    assert _history_at(tmp_path, "export", "1") == 1
    assert "keeps no matches yet" in capsys.readouterr().err


def test_a_damaged_history_gives_the_command_that_moves_it_aside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "My Games"
    folder.mkdir()
    (folder / DATABASE).write_bytes(b"not a database at all, but long enough" * 40)
    assert _history_at(folder, "list") == 1
    file = f"'{folder / DATABASE}'"
    assert f"(`mv {file} {file}.damaged`)" in capsys.readouterr().err


def test_a_match_exported_while_it_is_played_says_the_file_is_not_the_whole_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said only "match 2 written to FILE": imported at another table, that file is
    kept as abandoned."""
    from datetime import UTC, datetime

    from einhorn_table.history.state_lock import PLAY, holding
    from einhorn_table.rules import Setup, parse_line

    lines = bot_match(8).notation().splitlines()
    with open_store(tmp_path) as store:
        store.import_notation(lines)
        setup = parse_line(lines[0])
        assert isinstance(setup, Setup)
        recorder = store.begin(setup)
        for line in lines[1:12]:
            recorder.append(parse_line(line))
    out = tmp_path / "so far.jsonl"
    with holding(tmp_path, PLAY, lambda: datetime(2026, 11, 27, 19, 0, tzinfo=UTC)) as note:
        note(recorder.match_id)
        assert _history_at(tmp_path, "export", recorder.match_id, "-o", str(out)) == 0
        said = capsys.readouterr()
        assert said.out == f"match 2 written to {out}\n"
        assert said.err == (
            "match 2 is being played now on the table: this file holds it as far as it "
            "went, and is kept as abandoned where it is imported; export it again once the "
            "match is over\n")
        assert _history_at(tmp_path, "export", "1") == 0  # (the finished match: nothing)
        assert capsys.readouterr().err == ""
    assert len(out.read_text(encoding="utf-8").splitlines()) == 12


def test_a_folder_above_the_history_that_is_root_s_is_not_given_away(
        tmp_path: Path) -> None:
    """`--state-dir` below a folder of root's that pi may not look into (/root, a stick
    root mounted): it said "most likely since einhorn-table was run with sudo. Give the
    history back: `sudo chown -R pi: FOLDER`", which leaves root's folder above shut."""
    folder = tmp_path / "einhorn-table"
    said = refused_words(Refusal(tmp_path, True, True, "root", "pi"), folder,
                         as_another=f"einhorn-table history --state-dir {folder} list",
                         service_user="einhorn")
    assert said.startswith(f"you may not read the folder {tmp_path}, which holds the "
                           "history's folder: it belongs to root, not to you (pi). Run the command "
                           f"as root: `sudo -u root einhorn-table history --state-dir {folder} "
                           "list`")
    assert "chown" not in said and "was run with sudo" not in said


def test_the_folder_above_named_is_the_one_that_may_not_be_passed_through(
        tmp_path: Path) -> None:
    """A folder above the history one may pass through but not list (mode 311 for its
    owner: x, no r) was named, not the one below it that shuts the way (mode 000)."""
    passable = tmp_path / "passable"
    shut = passable / "shut"
    (shut / "einhorn-table").mkdir(parents=True)
    shut.chmod(0o000)
    passable.chmod(0o311)
    try:
        probe = subprocess.run(_as_a_user(["test", "-x", str(shut)]), check=False)
        if probe.returncode != 1:
            pytest.skip("cannot run a command here that chmod stops")
        env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
        env.update(PYTHONPATH=str(REPO), EINHORN_COMMAND="einhorn-table")
        done = subprocess.run(
            _as_a_user([sys.executable, "-m", "einhorn_table", "history", "--state-dir",
                        str(shut / "einhorn-table"), "list"]),
            capture_output=True, text=True, env=env, timeout=120, check=False)
    finally:
        passable.chmod(0o700)
        shut.chmod(0o700)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(
        f"einhorn-table: you may not read the folder {shut}, which holds the history's folder: ")
