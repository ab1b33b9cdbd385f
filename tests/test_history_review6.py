"""The match history read as a family and a club read it: names in Chinese and Japanese
in the charts, how an abandoned match ended, a practice match that was imported, the
photo folder listed once a photo, and SQLite's failures known by their codes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from history_helpers import bot_match, open_store

from einhorn_table.cli import main
from einhorn_table.history import HistoryError, MatchStore, StoreFull, StoreReadOnly
from einhorn_table.history.errors import StoreUnreadable, explain
from einhorn_table.history.photos import PhotoShelf
from einhorn_table.history.stats import gather
from einhorn_table.history.store import connect_file
from einhorn_table.rules import Match, format_input

FAMILY = ("王芳", "さくら", "Zoë", "Ben")


def history(state: Path, *args: str) -> int:
    return main(["history", "--state-dir", str(state), *args])


def _keep(store: MatchStore, match: Match, upto: int | None = None) -> str:
    recorder = store.begin(match.setup)
    for item in match.record[:upto]:
        recorder.append(item)
    return recorder.match_id


# --- the charts: names in scripts matplotlib's font lacks -----------------------------------


def _cjk_font(path: Path, letters: str) -> Path:
    """A small real TrueType font, family "Family Test CJK", with a glyph (a square) for
    each of ``letters`` and the ASCII letters: a CJK font as the Pi's fonts-noto-cjk is."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = sorted(set(letters) | {chr(c) for c in range(32, 127)})
    names = [".notdef", *(f"u{ord(c):04X}" for c in chars)]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(c): f"u{ord(c):04X}" for c in chars})
    glyphs = {}
    for name in names:
        pen = TTGlyphPen(None)
        pen.moveTo((100, 0))
        pen.lineTo((100, 700))
        pen.lineTo((800, 700))
        pen.lineTo((800, 0))
        pen.closePath()
        glyphs[name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (900, 100) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Family Test CJK", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    builder.save(str(path))
    return path


@pytest.fixture
def family_stats(tmp_path: Path) -> Any:
    with open_store(tmp_path / "state") as store:
        _keep(store, bot_match(2, FAMILY))
        return gather(store)


def _drawn(stats: Any, folder: Path, monkeypatch: pytest.MonkeyPatch
           ) -> tuple[list[Any], list[str]]:
    """The figures the charts were drawn as, and matplotlib's warnings meanwhile."""
    from einhorn_table.history import charts

    figures: list[Any] = []
    real_save = charts._save

    def keeping(plt: Any, fig: Any, path: Path) -> Path:
        fig.canvas.draw()  # (the letters are looked up in the fonts as it is drawn)
        figures.append(fig)
        return real_save(plt, fig, path)

    monkeypatch.setattr(charts, "_save", keeping)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        charts.write_charts(stats, folder)
    return figures, [str(w.message) for w in caught]


def test_chinese_and_japanese_names_are_drawn_with_a_font_that_has_them(
        family_stats: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """王芳 and さくら were boxes (matplotlib's DejaVu Sans has no CJK letters): they are
    drawn with the font the screen would use for them, installed on the machine; one
    without bold (Droid Sans Fallback) draws the titles in its regular, quietly."""
    pytest.importorskip("matplotlib")
    pytest.importorskip("fontTools")
    from einhorn_table.history import charts

    font = _cjk_font(tmp_path / "cjk.ttf", "王芳さくら")
    monkeypatch.setattr(charts, "_fallback_fonts", lambda: (str(font),), raising=False)
    figures, said = _drawn(family_stats, tmp_path / "charts", monkeypatch)
    assert not [w for w in said if "missing from font" in w]
    legend = [t.get_text() for t in figures[0].axes[0].get_legend().get_texts()]
    assert any(label.startswith("王芳 (won") for label in legend)
    assert any(label.startswith("さくら (won") for label in legend)
    titles = [ax.get_title() for ax in figures[2].axes]
    assert any(title.startswith("王芳's dice") for title in titles)
    names = charts.chart_names(family_stats)
    assert names.stand_ins == {} and "Family Test CJK" in names.families
    assert "findfont" not in caplog.text


def test_names_no_font_here_can_draw_are_told_apart_in_the_charts_and_named_in_the_terminal(
        family_stats: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """On a Pi with no CJK font, the charts said nothing but boxes: 王芳's and さくら's lines
    looked alike. They are "player A" and "player B" there, and the command says who."""
    pytest.importorskip("matplotlib")
    from einhorn_table.history import charts

    monkeypatch.setattr(charts, "_fallback_fonts", lambda: (), raising=False)
    figures, said = _drawn(family_stats, tmp_path / "charts", monkeypatch)
    assert not [w for w in said if "missing from font" in w]
    legend = [t.get_text() for t in figures[0].axes[0].get_legend().get_texts()]
    shown = {label.split(" (won")[0] for label in legend}
    assert shown == {"player A", "player B", "Zoë", "Ben"}
    titles = {ax.get_title().split("\n")[0] for ax in figures[2].axes if ax.get_title()}
    assert {"player A's dice", "player B's dice"} <= titles
    names = charts.chart_names(family_stats)
    who = {names.stand_ins["王芳"], names.stand_ins["さくら"]}
    assert who == {"player A", "player B"}

    assert history(tmp_path / "state", "stats", "--charts", str(tmp_path / "more")) == 0
    out = capsys.readouterr().out
    assert f"{names.stand_ins['王芳']} = 王芳" in out and "fonts-noto-cjk" in out
    assert "'s dice =" not in out  # (player A's dice tell themselves)


def test_latin_names_change_nothing_in_the_charts(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from einhorn_table.history import charts

    with open_store(tmp_path / "state") as store:
        _keep(store, bot_match(3))
        names = charts.chart_names(gather(store))
    assert names == charts.ChartNames()


# --- `history show` of a match not finished --------------------------------------------------


def test_show_says_how_and_when_an_abandoned_match_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    match = bot_match(5)
    with open_store(state) as store:
        match_id = _keep(store, match, upto=len(match.record) // 2)
        store.abandon(match_id)
        row = store.get(match_id)
        ledger = store.replay(match_id).ledger()
    assert history(state, "show", match_id) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    from einhorn_table.history.view import local_minute

    assert last.startswith(f"Abandoned {local_minute(row.updated)}, in game {ledger.game} "
                           f"of {ledger.games}, before its end: nobody won")
    first = ledger.players[0]
    assert f"{first.name} {first.stash}" in last


def test_show_of_an_imported_unfinished_match_and_one_being_played_close_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    cut = bot_match(6)
    lines = [format_input(cut.setup), *(format_input(i) for i in cut.record[:30])]
    with open_store(state) as store:
        imported = store.import_notation(lines).match_id
        playing = _keep(store, bot_match(7), upto=12)
    assert history(state, "show", imported) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(
        "The match file stops here, in game ")
    assert history(state, "show", playing) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Not finished yet: last input ")


def test_show_of_a_finished_match_still_ends_with_its_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    with open_store(state) as store:
        match_id = _keep(store, bot_match(8))
    assert history(state, "show", match_id) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Match over")


def test_an_imported_practice_match_lists_as_one_phrase(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It read "abandoned (practice) (imported)"."""
    state = tmp_path / "state"
    cut = bot_match(9)
    setup = replace(cut.setup, extra={**cut.setup.extra, "practice": True})
    lines = [format_input(setup), *(format_input(i) for i in cut.record[:30])]
    with open_store(state) as store:
        store.import_notation(lines)
    assert history(state, "list") == 0
    out = capsys.readouterr().out
    assert "abandoned (practice, imported)" in out and ") (" not in out


# --- roll photos: the folder listed once a photo ---------------------------------------------


def test_a_photo_saved_lists_the_photo_folder_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in range(5):
        (folder / f"000001-{n:05d}.jpg").write_bytes(b"x" * 100)
        os.utime(folder / f"000001-{n:05d}.jpg", ns=(n * 10**9, n * 10**9))
    (folder / "000001-00009.jpg.part").write_bytes(b"half")
    shelf = PhotoShelf(folder, limit_bytes=350)
    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path: Any = ".") -> Any:
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting)
    shelf.save("000002-00001.jpg", b"y" * 100)
    assert listed.count(str(folder)) == 1
    # And as before: the half photo left behind is gone, the oldest go to keep the limit.
    left = sorted(path.name for path in folder.iterdir())
    assert left == ["000001-00003.jpg", "000001-00004.jpg", "000002-00001.jpg"]


def test_a_photo_folder_that_may_not_be_listed_still_takes_the_photo(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "photos"
    shelf = PhotoShelf(folder)
    real_scandir = os.scandir

    def refusing(path: Any = ".") -> Any:
        if str(path) == str(folder):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    assert shelf.save("a.jpg", b"z").read_bytes() == b"z"


# --- SQLite's failures, known by their codes ---------------------------------------------------


def _raised(action: Any) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as raised:
        action()
    return raised.value


def test_a_full_disk_is_told_as_full(tmp_path: Path) -> None:
    def small_disk(path: str) -> sqlite3.Connection:
        conn = connect_file(path)
        conn.execute("PRAGMA max_page_count = 40")
        return conn

    match = bot_match(10)
    with open_store(tmp_path / "state", connect=small_disk) as store:
        recorder = store.begin(match.setup)
        with pytest.raises(StoreFull, match="is full"):
            for _ in range(40):
                for item in match.record:
                    recorder.append(item)
                recorder = store.begin(match.setup)


def test_real_failures_are_known_by_their_code_not_their_words(tmp_path: Path) -> None:
    kept = tmp_path / "kept.db"
    sqlite3.connect(kept).execute("CREATE TABLE t (x)")
    read_only = sqlite3.connect(f"file:{kept}?mode=ro", uri=True)
    error = _raised(lambda: read_only.execute("INSERT INTO t VALUES (1)"))
    assert isinstance(explain(error, kept, "save"), StoreReadOnly)
    # The words SQLite gives may change; the code stays: the same error in other words.
    error.args = ("something else went wrong",)
    assert isinstance(explain(error, kept, "save"), StoreReadOnly)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a history " * 500)
    error = _raised(lambda: sqlite3.connect(garbage).execute("SELECT * FROM sqlite_master"))
    error.args = ("",)
    assert isinstance(explain(error, garbage, "read"), StoreUnreadable)


def test_words_are_still_read_where_there_is_no_code(tmp_path: Path) -> None:
    error = sqlite3.OperationalError("attempt to write a readonly database")
    assert isinstance(explain(error, tmp_path, "save"), StoreReadOnly)


@pytest.fixture
def locked_history(tmp_path: Path) -> Iterator[Path]:
    state = tmp_path / "state"
    with open_store(state) as store:
        _keep(store, bot_match(11), upto=5)
    holder = sqlite3.connect(state / "history.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    yield state
    holder.execute("ROLLBACK")
    holder.close()


def test_a_locked_history_is_told_as_locked(locked_history: Path) -> None:
    def impatient(path: str) -> sqlite3.Connection:
        return sqlite3.connect(path, isolation_level=None, timeout=0)

    with (pytest.raises(HistoryError, match=r"holds .* locked"),
          open_store(locked_history, connect=impatient) as store):
        store.begin(bot_match(12).setup)


def test_a_corrupt_history_is_told_as_damaged(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with open_store(state) as store:
        for seed in range(3):
            _keep(store, bot_match(seed))
    path = state / "history.sqlite3"
    data = bytearray(path.read_bytes())
    data[4096 * 3: 4096 * 6] = b"\xa5" * (4096 * 3)
    path.write_bytes(bytes(data))
    with pytest.raises(StoreUnreadable, match="damaged"), open_store(state) as store:
        gather(store)
        for row in store.matches(limit=None):
            store.lines(row.match_id)


_FAILING_CARD = """
import resource, signal, sys
from pathlib import Path
from history_helpers import bot_match, open_store
from einhorn_table.history import HistoryError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
match = bot_match(1)
with open_store(Path(sys.argv[1])) as store:
    recorder = store.begin(match.setup)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, resource.RLIM_INFINITY))
    try:
        for item in match.record:
            recorder.append(item)
    except HistoryError as error:
        print(error)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a write refused by the kernel (EFBIG)")
def test_a_card_that_refuses_a_write_is_not_told_to_move_the_history_aside(
        tmp_path: Path) -> None:
    """A write the card refuses (here a file size limit: SQLite's "disk I/O error", as a
    failing or pulled card gives) said "move the file aside and restart": the history
    is fine, the card is not."""
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'tests'}"}
    done = subprocess.run([sys.executable, "-c", _FAILING_CARD, str(tmp_path / "state")],
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    said = done.stdout
    assert "could not be read or written" in said and "df -h" in said
    assert "move the file aside" not in said


def test_the_stash_chart_of_no_finished_match_has_no_scale_of_tenths_of_a_stone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It drew an empty chart with stones from 0.0 to 1.0 and a note on its points."""
    pytest.importorskip("matplotlib")
    with open_store(tmp_path / "state") as store:
        _keep(store, bot_match(13), upto=20)
        stats = gather(store)
    assert not stats.players
    figures, _ = _drawn(stats, tmp_path / "charts", monkeypatch)
    ax = figures[0].axes[0]
    assert list(ax.get_yticks()) == [] and list(ax.get_xticks()) == []
    notes = " ".join(text.get_text() for text in figures[0].texts)
    assert "Each point" not in notes
