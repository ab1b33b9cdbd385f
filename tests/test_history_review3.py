"""The match history as a game club uses it: names typed two ways, practice matches taken
to another table, a history folder that may not be written, a long `list --all`."""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO
from history_helpers import bot_match, open_store

import einhorn_table.cli.history as history_cli
from einhorn_table.cli import main
from einhorn_table.history import MatchStore, schema
from einhorn_table.history.paths import DATABASE
from einhorn_table.history.stats import format_statistics, gather
from einhorn_table.rules import Match, format_input

ZOE_ONE = unicodedata.normalize("NFC", "Zoë")  # "ë" as one letter (a Mac keyboard, most phones)
ZOE_TWO = unicodedata.normalize("NFD", "Zoë")  # "e" and its two dots (some Linux input)


def history(state: Path, *args: str) -> int:
    return main(["history", "--state-dir", str(state), *args])


def _keep(store: MatchStore, match: Match, *, practice: bool = False) -> str:
    recorder = store.begin(match.setup, practice=practice)
    for item in match.record:
        recorder.append(item)
    return recorder.match_id


# --- one player, whichever way the name was typed -------------------------------------


def _zoe_twice(folder: Path) -> MatchStore:
    store = open_store(folder)
    _keep(store, bot_match(1, (ZOE_ONE, "Ana", "Ben")))
    _keep(store, bot_match(2, (ZOE_TWO, "Ana", "Ben")))
    return store


def test_a_name_typed_in_two_unicode_forms_is_one_player(tmp_path: Path) -> None:
    assert ZOE_ONE != ZOE_TWO
    with _zoe_twice(tmp_path) as store:
        stats = gather(store)
    zoe = [p for p in stats.players if unicodedata.normalize("NFC", p.name) == ZOE_ONE]
    assert len(zoe) == 1 and zoe[0].matches == 2
    assert sum(p.matches for p in stats.players) == 6
    assert [d.dice for d in stats.dice].count(f"{ZOE_ONE}'s dice") == 1
    assert format_statistics(stats).count("Zo") == 2  # her player row and her dice


@pytest.mark.parametrize("typed", [ZOE_ONE, ZOE_TWO])
def test_one_players_statistics_whichever_way_the_name_is_typed(tmp_path: Path,
                                                                 typed: str) -> None:
    with _zoe_twice(tmp_path) as store:
        stats = gather(store, typed)
        everyone = gather(store)
    assert stats.matches == 2
    assert [(p.matches, p.wins) for p in stats.players] == [
        (p.matches, p.wins) for p in everyone.players if p.name == ZOE_ONE]
    assert sum(c.made for c in stats.calls) > 0
    assert [d.rolls for d in stats.dice] == [
        d.rolls for d in everyone.dice if d.dice == f"{ZOE_ONE}'s dice"]


# --- a practice match stays practice on another table ------------------------------------


def test_a_practice_match_stays_practice_through_export_and_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    with open_store(here) as store:
        _keep(store, bot_match(3))
        practice_id = _keep(store, bot_match(4), practice=True)
    file = tmp_path / "practice.jsonl"
    assert history(here, "export", practice_id, "-o", str(file)) == 0
    assert history(there, "import", str(file)) == 0
    capsys.readouterr()
    with open_store(there) as store:
        (row,) = store.matches()
        assert row.practice
        assert gather(store).matches == 0 and not gather(store).dice
    assert history(there, "list") == 0
    assert "finished (practice, imported)" in capsys.readouterr().out
    # Taken back to the table it was played on, it is known as the match kept there.
    assert history(here, "import", str(file)) == 1
    assert f"kept already, as match {practice_id}" in capsys.readouterr().err
    # And exported again from the other table, it is still practice.
    again = tmp_path / "again.jsonl"
    assert history(there, "export", row.match_id, "-o", str(again)) == 0
    assert again.read_text() == file.read_text()


def test_a_match_not_practice_is_exported_as_it_is_kept(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        match_id = _keep(store, bot_match(3))
        assert store.export_lines(match_id) == store.lines(match_id)
        assert '"practice"' not in store.notation(match_id)


# --- reading a history that may not be written ---------------------------------------------


def _as_a_user(command: list[str]) -> list[str]:
    """``command`` run so that what chmod forbids is refused: root's power to write
    anything is dropped (with capsh)."""
    if os.geteuid() != 0:
        return command
    capsh = shutil.which("capsh")
    if capsh is None:
        pytest.skip("chmod does not stop root, and capsh is not here to drop that")
    return [capsh, "--drop=cap_dac_override,cap_dac_read_search,cap_fowner", "--",
            "-c", shlex.join(command)]


def _without_write_access(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `einhorn-table ARGS` as a user who may not write the locked folder."""
    folder = Path(args[args.index("--state-dir") + 1])
    probe = subprocess.run(_as_a_user(["test", "-w", str(folder)]), check=False)
    if probe.returncode != 1:
        pytest.skip("cannot run a command here that chmod stops from writing")
    env = {**os.environ, "PYTHONPATH": str(REPO), "EINHORN_COMMAND": "einhorn-table"}
    return subprocess.run(_as_a_user([sys.executable, "-m", "einhorn_table", *args]),
                          capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A folder, made read-only (with what is in it) once the test filled it."""
    folder = tmp_path / "copied-off-the-pi"
    folder.mkdir()
    yield folder
    for path in (folder, *folder.iterdir()):
        path.chmod(0o700)


def _lock(folder: Path) -> list[str]:
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)
    return sorted(p.name for p in folder.iterdir())


def test_a_read_only_history_folder_can_be_listed_shown_and_counted(locked: Path) -> None:
    with open_store(locked) as store:
        first = _keep(store, bot_match(1, (ZOE_ONE, "Ana", "Ben")))
        _keep(store, bot_match(2))
    before = _lock(locked)
    assert before == [DATABASE]  # closed cleanly: no -wal or -shm beside it
    state = ["history", "--state-dir", str(locked)]

    listed = _without_write_access([*state, "list"])
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[2].startswith(f"{first} ")
    shown = _without_write_access([*state, "show", first])
    assert shown.returncode == 0 and "Match over" in shown.stdout
    counted = _without_write_access([*state, "stats", "--player", ZOE_TWO])
    assert counted.returncode == 0 and "1 finished match" in counted.stdout
    exported = _without_write_access([*state, "export", first])
    assert exported.returncode == 0 and exported.stdout.count("\n") > 20
    assert sorted(p.name for p in locked.iterdir()) == before


def test_a_read_only_folder_whose_last_changes_wait_in_the_wal_says_what_to_do(
        tmp_path: Path, locked: Path) -> None:
    store = open_store(tmp_path / "live")
    _keep(store, bot_match(1))
    # Copied while the table had it open (the plug pulled, the card copied as it was).
    for name in (DATABASE, f"{DATABASE}-wal"):
        shutil.copy(tmp_path / "live" / name, locked / name)
    store.close()
    assert (locked / f"{DATABASE}-wal").stat().st_size > 0
    _lock(locked)
    listed = _without_write_access(["history", "--state-dir", str(locked), "list"])
    assert listed.returncode == 1
    assert "Copy the whole folder somewhere you may write" in listed.stderr
    assert "restart the table" not in listed.stderr


def test_an_old_read_only_history_says_it_must_be_updated(locked: Path) -> None:
    conn = sqlite3.connect(locked / DATABASE, isolation_level=None)
    schema.migrate(conn, upto=1)
    conn.execute("INSERT INTO matches (started, updated, players, variant, setup, state) "
                 "VALUES ('2026-01-01T18:00:00+00:00', '2026-01-01T18:00:00+00:00', "
                 "'[\"Ana\", \"Ben\"]', 'einhorn', ?, 'playing')",
                 (format_input(bot_match(1).setup),))
    conn.close()
    _lock(locked)
    listed = _without_write_access(["history", "--state-dir", str(locked), "list"])
    assert listed.returncode == 1
    assert "written by an older Einhorn Table" in listed.stderr
    assert "Copy the whole folder somewhere you may write" in listed.stderr


# --- `list --all` over a club's thousands of matches -----------------------------------------


def test_list_measures_each_cell_once_and_plain_text_by_its_length(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(tmp_path) as store:
        for seed in range(4):
            _keep(store, bot_match(seed))
        _keep(store, bot_match(9, ("李雷", ZOE_TWO, "Ana")))
    measured: list[str] = []
    real = history_cli.shown_width

    def counting(text: str) -> int:
        measured.append(text)
        return real(text)

    monkeypatch.setattr(history_cli, "shown_width", counting)
    assert history(tmp_path, "list", "--all") == 0
    lines = capsys.readouterr().out.splitlines()
    # Only the cells that are not plain ASCII are measured, each once (it was every cell,
    # twice: a listing of 10,000 matches took over a second): that match's players and
    # perhaps its winner.
    assert measured[0] == f"李雷, {ZOE_TWO}, Ana"
    assert len(measured) <= 2 and not any(text.isascii() for text in measured)
    # And the columns still line up on the screen, wide letters and accents too.
    starts = {real(line[: line.index("einhorn")]) for line in lines[1:]}
    assert len(starts) == 1 and real(lines[0][: lines[0].index("variant")]) in starts


# --- a match file cut short --------------------------------------------------------------


def test_a_match_file_cut_short_says_so_and_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = bot_match(5).notation()
    file = tmp_path / "copied-to-a-full-stick.jsonl"
    file.write_text(whole[: len(whole) - 30])
    assert history(tmp_path / "state", "import", str(file)) == 1
    said = capsys.readouterr().err
    assert f"line {whole.count(chr(10))}:" in said and "nothing of this file was imported" in said
    assert "cut short" in said and "delete that last line" in said
    # A whole file refused for another reason is not called cut short.
    file.write_text(whole.replace('"players": ["Ana"', '"players": ["Ana", "Ana"', 1))
    assert history(tmp_path / "state", "import", str(file)) == 1
    assert "cut short" not in capsys.readouterr().err


# --- an export to a stick that fills up ------------------------------------------------


def test_an_export_that_cannot_be_written_whole_leaves_nothing_half_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    with open_store(state) as store:
        match_id = _keep(store, bot_match(5))
        whole = "".join(line + "\n" for line in store.export_lines(match_id))
    out = tmp_path / "stick" / "match.jsonl"
    out.parent.mkdir()
    out.write_text("last week's match\n")
    real_write = Path.write_text

    def fills_up(path: Path, text: str, *args: object, **kwargs: object) -> int:
        real_write(path, text[: len(text) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", fills_up)
    assert history(state, "export", match_id, "-o", str(out)) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert out.read_text() == "last week's match\n"
    assert sorted(p.name for p in out.parent.iterdir()) == ["match.jsonl"]
    monkeypatch.undo()
    assert history(state, "export", match_id, "-o", str(out)) == 0
    assert out.read_text() == whole
    assert sorted(p.name for p in out.parent.iterdir()) == ["match.jsonl"]


def test_an_export_keeps_the_file_s_permissions_follows_a_link_and_writes_to_a_pipe(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    with open_store(state) as store:
        match_id = _keep(store, bot_match(6))
        whole = "".join(line + "\n" for line in store.export_lines(match_id))
    kept = tmp_path / "kept.jsonl"
    kept.write_text("old\n")
    kept.chmod(0o600)
    link = tmp_path / "latest.jsonl"
    link.symlink_to(kept)
    assert history(state, "export", match_id, "-o", str(link)) == 0
    assert link.is_symlink() and kept.read_text() == whole
    assert kept.stat().st_mode & 0o777 == 0o600
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = subprocess.Popen(["cat", str(pipe)], stdout=subprocess.PIPE, text=True)
    assert history(state, "export", match_id, "-o", str(pipe)) == 0
    assert reader.communicate(timeout=30)[0] == whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "kept.jsonl", "latest.jsonl", "pipe", "state"]
