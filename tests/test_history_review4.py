"""The match history as a game club keeps it for a year: `list --all` over thousands of
matches, photos half written when the power went, a teaching game marked practice after
the fact, and an undo after a match's end on a long history."""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path

import pytest
from history_helpers import bot_match, open_store

import einhorn_table.history.store as store_module
from einhorn_table.cli import main
from einhorn_table.history import MatchStore
from einhorn_table.history.photos import PhotoShelf
from einhorn_table.history.stats import gather
from einhorn_table.history.totals import TABLES, rebuild_totals
from einhorn_table.history.view import history_line
from einhorn_table.rules import Match, Undo, format_input
from einhorn_table.words import pad, shown_width


def history(state: Path, *args: str) -> int:
    return main(["history", "--state-dir", str(state), *args])


def _keep(store: MatchStore, match: Match, *, cut: int | None = None,
          practice: bool = False) -> str:
    recorder = store.begin(match.setup, practice=practice)
    for item in match.record[:cut]:
        recorder.append(item)
    return recorder.match_id


def _totals(store: MatchStore) -> dict[str, list[tuple[object, ...]]]:
    return {table: sorted(store.query(f"SELECT * FROM {table}")) for table in TABLES}


def _rebuilt(store: MatchStore) -> dict[str, list[tuple[object, ...]]]:
    """The totals worked out afresh from the summaries (and put back as they were)."""
    running = _totals(store)
    with store.transaction("rebuild") as conn:
        rebuild_totals(conn)
    rebuilt = _totals(store)
    with store.transaction("put back") as conn:
        for table, rows in running.items():
            conn.execute(f"DELETE FROM {table}")
            for row in rows:
                conn.execute(f"INSERT INTO {table} VALUES ({', '.join('?' * len(row))})", row)
    return rebuilt


# --- history list --all: the same words, worked out once for rows alike ---------------


def _club(folder: Path) -> MatchStore:
    """Matches of every kind a list shows: wide and two-form names, practice, imported,
    set aside, still being played."""
    store = open_store(folder)
    _keep(store, bot_match(1))
    _keep(store, bot_match(2, ("Zoë", "李小龍", "Ana")), practice=True)
    _keep(store, bot_match(3, ("Zoe\u0308", "Ben", "Ana")), cut=40)
    store.abandon(_keep(store, bot_match(4), cut=30))
    imported = bot_match(5)
    store.import_notation([format_input(imported.setup),
                           *(format_input(x) for x in imported.record)])
    return store


def test_list_all_prints_each_column_lined_up_as_a_terminal_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with _club(tmp_path) as store:
        rows = store.matches()
    assert history(tmp_path, "list", "--all") == 0
    printed = capsys.readouterr().out.splitlines()
    # Each cell padded to its column's shown width (李小龍 takes six columns, Zoë with
    # its dots typed apart three), two spaces between, nothing after the last word.
    cells = [("id", "date", "players", "variant", "winner", "games", "state")]
    for row in rows:
        x = history_line(row)
        cells.append((x.match_id, x.date, x.players, x.variant, x.winner, x.games, x.state))
    widths = [max(shown_width(c) for c in column) for column in zip(*cells, strict=True)]
    expected = ["  ".join(pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip()
                for row in cells]
    assert printed == expected
    assert [line.split("  ")[0].strip() for line in printed[1:]] == ["5", "4", "3", "2", "1"]
    assert "finished (imported)" in printed[1] and "game 2 of 10" in printed[2]
    assert "李小龍  10 games" in printed[4] and printed[4].endswith("finished (practice)")


def test_list_all_reads_each_line_up_of_players_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A club's year: thousands of matches in a few line-ups. Each row's players were
    parsed from JSON, its date converted through a time zone object and each cell
    measured one by one, 600 ms for 10,000 matches; the line-ups repeat."""
    store = open_store(tmp_path)
    line_ups = [["Ana", "Ben", "Cem"], ["Ana", "Ben", "Cem", "Dora"], ["Zoë", "Ana", "Ben"]]
    setup = format_input(bot_match(1).setup)
    with store.transaction("fill") as conn:
        conn.executemany(
            "INSERT INTO matches (started, updated, finished, players, variant, setup, state, "
            "winner, games, summarized) VALUES (?, ?, ?, ?, 'einhorn', ?, 'finished', ?, ?, 1)",
            [(f"2026-{1 + n // 300 % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:00:00+01:00",) * 3
             + (json.dumps(line_ups[n % 3], ensure_ascii=False), setup, "Ana", 1 + n % 10)
             for n in range(3000)])
    store.close()
    parsed: list[str] = []
    real_loads = json.loads

    def counting_loads(text: str) -> object:
        parsed.append(text)
        return real_loads(text)

    monkeypatch.setattr(store_module.json, "loads", counting_loads)
    assert history(tmp_path, "list", "--all") == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 3001
    # (At most: a line-up read before, by another test, is known already.)
    assert len([text for text in parsed if text.startswith("[")]) <= 3


# --- half-written roll photos ----------------------------------------------------------


def test_a_photo_half_written_when_the_power_went_is_deleted_by_the_next_save(
    tmp_path: Path
) -> None:
    shelf = PhotoShelf(tmp_path / "photos")
    shelf.folder.mkdir()
    left = shelf.folder / "000003-00041.jpg.part"
    left.write_bytes(b"\xff\xd8 half a photo")
    shelf.save("000004-00001.jpg", b"\xff\xd8 a whole photo")
    assert sorted(p.name for p in shelf.folder.iterdir()) == ["000004-00001.jpg"]


def test_a_photo_being_written_by_another_table_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables on one folder: the first is writing its photo (between write and rename)
    when the second saves one; the first's `.part` must survive and become its photo."""
    folder = tmp_path / "photos"
    writing, go_on = threading.Event(), threading.Event()
    real_fsync = os.fsync

    def slow_first_fsync(fd: int) -> None:
        if not writing.is_set():
            writing.set()
            assert go_on.wait(10)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_first_fsync)
    first = threading.Thread(target=PhotoShelf(folder).save, args=("a.jpg", b"A" * 5000))
    first.start()
    assert writing.wait(10)
    assert (folder / "a.jpg.part").stat().st_size == 5000
    second = threading.Thread(target=PhotoShelf(folder).save, args=("b.jpg", b"B" * 10))
    second.start()
    second.join(0.3)
    assert (folder / "a.jpg.part").exists()  # the second save waits; it deletes nothing
    go_on.set()
    first.join(10)
    second.join(10)
    assert (folder / "a.jpg").read_bytes() == b"A" * 5000
    assert (folder / "b.jpg").read_bytes() == b"B" * 10
    assert sorted(p.name for p in folder.iterdir()) == ["a.jpg", "b.jpg"]


def test_a_photo_that_does_not_fit_on_a_full_card_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    shelf = PhotoShelf(tmp_path / "photos")
    with pytest.raises(OSError):
        shelf.save("000001-00002.jpg", b"\xff\xd8" * 1000)
    assert list(shelf.folder.iterdir()) == []


# --- marking a match practice after the fact -------------------------------------------


def test_a_teaching_game_is_marked_practice_and_counted_again_with_undo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store(tmp_path) as store:
        counted, teaching = _keep(store, bot_match(1)), _keep(store, bot_match(2))
        _keep(store, bot_match(3), cut=60)
        store.abandon(_keep(store, bot_match(4), cut=50))
        both = _totals(store)
    assert gather(open_store(tmp_path)).matches == 2

    assert history(tmp_path, "practice", teaching) == 0
    out = capsys.readouterr().out
    assert out == (f"match {teaching} is practice now: kept, but left out of the statistics "
                   f"(`einhorn-table history --state-dir {tmp_path} practice {teaching} --undo` "
                   "counts it again)\n")
    with open_store(tmp_path) as store:
        assert store.get(teaching).practice and not store.get(counted).practice
        stats = gather(store)
        assert stats.matches == 1 and all(p.matches == 1 for p in stats.players)
        assert _totals(store) == _rebuilt(store) != both
    history(tmp_path, "list")
    assert "finished (practice)" in capsys.readouterr().out

    assert history(tmp_path, "practice", teaching) == 0  # twice: says so, changes nothing
    assert "is practice already" in capsys.readouterr().out
    assert history(tmp_path, "practice", teaching, "--undo") == 0
    assert capsys.readouterr().out == f"match {teaching} counts in the statistics again\n"
    with open_store(tmp_path) as store:
        assert _totals(store) == both and gather(store).matches == 2


def test_a_set_aside_match_marked_practice_leaves_its_calls_and_dice_out(
    tmp_path: Path
) -> None:
    with open_store(tmp_path) as store:
        _keep(store, bot_match(1))
        aside = _keep(store, bot_match(4), cut=50)
        store.abandon(aside)
        before = gather(store)
        assert store.set_practice(aside)
        after = gather(store)
        assert _totals(store) == _rebuilt(store)
    assert sum(c.made for c in after.calls) < sum(c.made for c in before.calls)
    assert sum(d.rolls for d in after.dice) < sum(d.rolls for d in before.dice)
    assert after.abandoned == 0 and after.matches == before.matches == 1


def test_a_match_being_played_marked_practice_is_left_out_when_it_ends(
    tmp_path: Path
) -> None:
    match = bot_match(2)
    with open_store(tmp_path) as store:
        recorder = store.begin(match.setup)
        for item in match.record[:30]:
            recorder.append(item)
        assert store.set_practice(recorder.match_id)
        for item in match.record[30:]:
            recorder.append(item)
        assert store.get(recorder.match_id).state == "finished"
        assert gather(store).matches == 0 and not gather(store).players


def test_practice_names_a_match_that_is_not_kept_and_a_folder_without_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store(tmp_path / "state") as store:
        _keep(store, bot_match(1))
    assert history(tmp_path / "state", "practice", "7") == 1
    assert (f"there is no match 7; `einhorn-table history --state-dir {tmp_path / 'state'} "
            "list` shows the matches kept") in capsys.readouterr().err
    assert history(tmp_path / "elsewhere", "practice", "1") == 1
    assert "no match history in" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere").exists()


def test_history_help_lists_the_practice_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["history", "--help"])
    out = capsys.readouterr().out
    assert "practice" in out and "--undo" in out


# --- the totals follow a match taken out of them, without working them all out -------


def test_an_undo_after_the_end_takes_the_match_out_of_the_totals_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a club's long history, working every total out afresh took seconds (4.8 s on
    10,000 matches) inside the table's own save of the undo: the screen froze and other
    commands found the history locked. Only this match's figures are taken out now."""
    with open_store(tmp_path) as store:
        for seed in (1, 2, 3):
            _keep(store, bot_match(seed))
        match = bot_match(5)
        recorder = store.begin(match.setup)
        for item in match.record:
            recorder.append(item)
        ended = _totals(store)

        def no_full_rebuild(conn: object) -> None:
            raise AssertionError("every total was worked out afresh")

        monkeypatch.setattr(store_module, "rebuild_totals", no_full_rebuild)
        recorder.append(Undo())
        assert store.get(recorder.match_id).state == "playing"
        monkeypatch.undo()
        assert _totals(store) == _rebuilt(store) != ended
        assert gather(store).matches == 3
        monkeypatch.setattr(store_module, "rebuild_totals", no_full_rebuild)
        recorder.append(match.record[-1])
        assert _totals(store) == ended


def test_a_copy_completed_by_an_import_is_counted_once_without_a_full_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = bot_match(6)
    lines = [format_input(match.setup), *(format_input(x) for x in match.record)]
    with open_store(tmp_path) as store:
        _keep(store, bot_match(1))
        store.import_notation(lines[:40])
        monkeypatch.setattr(store_module, "rebuild_totals", None)
        completed = store.import_notation(lines)
        monkeypatch.undo()
        assert completed.held_lines == 40
        assert _totals(store) == _rebuilt(store)
        assert gather(store).matches == 2


# --- match files that are not what they seem --------------------------------------------


def test_a_file_cut_short_in_the_middle_of_a_letter_says_it_was_cut_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stick pulled while a match of Zoë's was copied: the file ends inside her "ë".
    It was called "not a text file of match notation", which sends nobody to copy it
    again."""
    match = bot_match(2, ("Zoë", "Ana", "Ben"))
    data = "".join(format_input(x) + "\n" for x in (match.setup, *match.record)).encode()
    cut = tmp_path / "zoe.jsonl"
    cut.write_bytes(data[: data.rindex("Zoë".encode()) + 3])  # "Zo" and half of "ë"
    assert history(tmp_path / "state", "import", str(cut)) == 1
    said = capsys.readouterr().err
    assert "not a text file" not in said
    assert "The file stops in the middle of that line: it was cut short" in said


def test_a_spreadsheet_export_given_to_import_says_to_export_match_notation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store(tmp_path / "state") as store:
        match_id = _keep(store, bot_match(1))
    sheet = tmp_path / "match.csv"
    assert history(tmp_path / "state", "export", match_id, "--format", "csv",
                   "-o", str(sheet)) == 0
    capsys.readouterr()
    assert history(tmp_path / "other", "import", str(sheet)) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"{sheet}: this is a match exported for a spreadsheet")
    # (the match is in the history of the table the CSV came from, not in this one)
    assert "on the table that played the match" in said
    assert "`einhorn-table history export ID -o FILE`" in said and "other" not in said
    assert "JSON" not in said


def test_the_commands_a_message_gives_look_in_the_folder_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A secretary reading a copied folder (--state-dir) is given commands for that
    folder, not for the table's own history."""
    folder = tmp_path / "club history"
    with open_store(folder) as store:
        _keep(store, bot_match(1))
    quoted = f"'{folder}'"
    assert main(["history", "--state-dir", str(folder), "practice", "1"]) == 0
    assert f"history --state-dir {quoted} practice 1 --undo`" in capsys.readouterr().out
    assert main(["history", "show", "9", "--state-dir", str(folder)]) == 1
    assert f"`einhorn-table history --state-dir {quoted} list` shows" in \
        capsys.readouterr().err
