"""`einhorn-table history`, as a family would run it."""

from __future__ import annotations

from pathlib import Path

import pytest
from history_helpers import bot_match

from einhorn_table.cli import main
from einhorn_table.rules import replay


def history(state: Path, *args: str) -> int:
    return main(["history", "--state-dir", str(state), *args])


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    paths = []
    for seed in (1, 2, 3):
        path = tmp_path / f"match{seed}.jsonl"
        path.write_text(bot_match(seed).notation())
        paths.append(path)
    return paths


def test_import_list_show_export(tmp_path: Path, files: list[Path],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert history(state, "import", *map(str, files)) == 0
    assert "imported as match 3 (finished" in capsys.readouterr().out

    assert history(state, "list") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["id", "date", "players", "variant", "winner", "games", "state"]
    assert out[1].startswith("3 ") and "Ana, Ben, Cem, Dora" in out[1] and "finished" in out[1]

    assert history(state, "show", "2") == 0
    shown = capsys.readouterr().out
    assert "Game 1 · " in shown and "Match over" in shown and " wins with " in shown

    out_file = tmp_path / "out.jsonl"
    assert history(state, "export", "1", "--output", str(out_file)) == 0
    assert out_file.read_text() == files[0].read_text()
    assert replay(out_file.read_text().splitlines()).ledger() == replay(
        files[0].read_text().splitlines()).ledger()
    capsys.readouterr()
    assert history(state, "export", "1", "--format", "csv") == 0
    assert capsys.readouterr().out.startswith("seq,game,type,player")


def test_the_state_dir_may_come_after_the_action(tmp_path: Path, files: list[Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert main(["history", "import", str(files[0]), "--state-dir", str(state)]) == 0
    capsys.readouterr()
    assert main(["history", "list", "--state-dir", str(state)]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1 ")
    assert history(state, "stats") == 0 and "1 finished match" in capsys.readouterr().out


def test_a_bad_file_is_refused_naming_the_line_and_nothing_is_imported(
    tmp_path: Path, files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    lines = files[0].read_text().splitlines()
    lines[11] = '{"type": "bid", "player": "Ana", "stones": -3}'
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    state = tmp_path / "state"
    assert history(state, "import", str(bad)) == 1
    err = capsys.readouterr().err
    assert "line 12" in err and "nothing of this file was imported" in err
    assert history(state, "list") == 0
    assert "No matches kept yet" in capsys.readouterr().out


def test_a_match_kept_already_is_not_imported_twice(
    tmp_path: Path, files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    assert history(state, "import", str(files[0]), str(files[1])) == 0
    again = tmp_path / "again.jsonl"
    again.write_text(files[1].read_text())
    assert history(state, "import", str(again), str(files[2])) == 1
    words = capsys.readouterr()
    assert f"{again}: this match is kept already, as match 2; nothing of this file was " \
        "imported" in words.err
    assert f"{files[2]}: imported as match 3" in words.out
    # A copy of its beginning (exported before it ended) is kept already too.
    shorter = tmp_path / "shorter.jsonl"
    shorter.write_text("".join(line + "\n" for line in files[0].read_text().splitlines()[:-1]))
    assert history(state, "import", str(shorter)) == 1
    assert "match 1 keeps all of this file and how the match went on" in \
        capsys.readouterr().err


def test_a_match_exported_before_it_ended_is_completed_not_counted_twice(
    tmp_path: Path, files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup made mid-match, imported, then the finished match: one match, its dice
    counted once."""
    lines = files[0].read_text().splitlines()
    begun = tmp_path / "begun.jsonl"
    begun.write_text("".join(line + "\n" for line in lines[:12]))
    once, twice = tmp_path / "once", tmp_path / "twice"
    assert history(once, "import", str(files[0])) == 0
    assert history(twice, "import", str(begun), str(files[0])) == 0
    words = capsys.readouterr().out
    assert f"{begun}: imported as match 1 (abandoned" in words
    assert (f"{files[0]}: completed match 1, whose first 12 lines were kept already "
            "(finished") in words
    shown = []
    for state in (once, twice):
        assert history(state, "stats") == 0
        shown.append(capsys.readouterr().out)
    assert shown[0] == shown[1] and shown[0].startswith("Statistics: 1 finished match")
    assert history(twice, "list") == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # the header and match 1


def test_stats_with_player_and_charts(tmp_path: Path, files: list[Path],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    history(state, "import", *map(str, files))
    capsys.readouterr()
    charts = tmp_path / "charts"
    assert history(state, "stats", "--charts", str(charts)) == 0
    out = capsys.readouterr().out
    assert "3 finished matches" in out and "Das Unvermeidliche" in out
    assert "Ana's dice: " in out
    assert sorted(p.name for p in charts.iterdir()) == [
        "calls-vs-odds.png", "dice-faces.png", "stash-over-games.png"]
    assert history(state, "stats", "--player", "Ben") == 0
    assert "Statistics for Ben" in capsys.readouterr().out
    assert history(state, "stats", "--player", "Zed") == 1
    assert ("no matches of a player called 'Zed' are kept; the players kept are Ana, Ben, "
            "Cem, Dora") in capsys.readouterr().err
    assert history(state, "stats", "--player", "ben") == 1
    assert "did you mean 'Ben'?" in capsys.readouterr().err



def test_stats_of_matches_not_finished_say_what_counts(
    tmp_path: Path, files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """One match being played and one set aside: the statistics say what they hold,
    and a player of the match being played is not 'unknown'."""
    state = tmp_path / "state"
    lines = files[0].read_text().splitlines()
    begun = tmp_path / "begun.jsonl"
    begun.write_text("".join(line + "\n" for line in lines[:15]))
    assert history(state, "import", str(begun)) == 0  # kept as set aside
    from history_helpers import open_store

    from einhorn_table.rules import Setup, parse_line

    store = open_store(state)
    recorder = store.begin(Setup(players=("Eve", "Fay")))
    recorder.append(parse_line('{"type": "start_roll", "player": "Eve", "dice": [6, 6, 5]}'))
    store.close()
    capsys.readouterr()
    assert history(state, "stats") == 0
    out = capsys.readouterr().out
    assert out.startswith("Statistics: 0 finished matches (practice left out)\n  Also kept: "
                          "1 abandoned before the end (their calls and dice count); 1 still "
                          "being played (counted once it ends)")
    assert history(state, "stats", "--player", "Eve") == 0
    out = capsys.readouterr().out
    assert "Also kept: 1 still being played" in out
    assert "(no rolls counted yet: a match being played counts once it ends)" in out
    # The list says how far each got, not "1 game".
    assert history(state, "list") == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [row.split("  ")[-2].strip() for row in rows] == ["game 1 of 10"] * 2


def test_unknown_match_is_an_error_not_a_traceback(tmp_path: Path, files: list[Path],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert history(tmp_path, "import", str(files[0])) == 0
    assert history(tmp_path, "show", "7") == 1
    assert "there is no match 7" in capsys.readouterr().err
    assert history(tmp_path, "show", "9" * 23) == 1  # more than SQLite's ids hold
    assert f"there is no match {'9' * 23}" in capsys.readouterr().err


def test_looking_where_no_history_is_says_so_and_leaves_nothing_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "einhorn-stat"
    for action in (["list"], ["show", "1"], ["export", "1"], ["stats"]):
        assert history(typo, *action) == 1
        assert f"no match history in {typo}" in capsys.readouterr().err
    assert not typo.exists()


def test_a_match_file_saved_by_notepad_is_imported_and_replayed(
    tmp_path: Path, files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Windows editors put a byte-order mark first; the file is still the match."""
    marked = tmp_path / "notepad.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + files[0].read_bytes())
    assert history(tmp_path / "state", "import", str(marked)) == 0
    assert f"{marked}: imported as match 1 (finished" in capsys.readouterr().out
    assert main(["replay", str(marked)]) == 0
    assert "match over:" in capsys.readouterr().out
