"""Review 7 of the history: roll photos written off the table's loop (a slow SD card no
longer freezes the screen and buttons, no photo is lost at a normal stop, a failing card
is still reported), and the history as a family reads it."""

from __future__ import annotations

import errno
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from table_helpers import BLUE, RED, reading
from table_rig import open_store

from einhorn_table.adapters.history_log import HistoryRecorder
from einhorn_table.history import HistoryError, MatchStore, TableLog
from einhorn_table.history.photo_writer import PhotoWriter
from einhorn_table.history.photos import PhotoShelf, encode_jpeg
from einhorn_table.rules import EINHORN, Match, Setup, StartRoll
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import MotionStarted, Settled

TWO = ("Ana", "Ben")


def _frame(n: int) -> np.ndarray:
    rng = np.random.default_rng(n)
    tray = np.linspace(40, 200, 640)[None, :, None] + rng.normal(0, 4, (480, 640, 3))
    return np.clip(tray, 0, 255).astype(np.uint8)


class Gate:
    """An encoder that waits until it is opened: a card that takes as long as a test wants."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.started = threading.Event()

    def __call__(self, frame: Any) -> bytes:
        self.started.set()
        assert self.opened.wait(10), "the gate was never opened"
        return encode_jpeg(frame)


# --- photos off the loop -------------------------------------------------------------------


def test_the_table_takes_a_roll_while_its_photo_is_still_being_written(tmp_path: Path) -> None:
    """On the Pi's SD card a photo took 100 ms and more on the table's loop: the screen
    and buttons froze meanwhile. Now the roll is taken and stored while the photo waits."""
    store = open_store(tmp_path)
    log = TableLog(store, background_photos=True)
    gate = Gate()
    assert store.photo_writer is not None
    store.photo_writer.encode = gate
    recorder, match_id = HistoryRecorder.begin(log, Setup.for_variant(EINHORN, list(TWO)))
    c = TableController(Match(Setup.for_variant(EINHORN, list(TWO))), recorder,
                        [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")], recorder)
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([6, 6, 5], RED), _frame(1)))  # returns: nothing waited
    assert c.halted is None and len(c.match.inputs) == 1
    assert gate.started.wait(10)  # the photo is being written, not done
    (line,) = store.lines(match_id)[1:]
    assert '"photo": "photos/000001-00001.jpg"' in line
    photo = tmp_path / "photos" / "000001-00001.jpg"
    assert not photo.exists()
    gate.opened.set()
    recorder.close()  # the table's normal stop: the photo is written first
    assert photo.read_bytes()[:2] == b"\xff\xd8"
    store.close()


def test_every_photo_arrives_and_the_oldest_go_first_as_before(tmp_path: Path) -> None:
    """The same files, the same pruning as photos written on the loop."""
    kept: dict[str, list[str]] = {}
    for how in ("loop", "thread"):
        store = MatchStore(tmp_path / how, now=lambda: datetime(2026, 11, 27, tzinfo=UTC),
                           photo_limit_bytes=40_000)
        log = TableLog(store, background_photos=how == "thread")
        recorder = log.begin(Setup(players=TWO))
        assert log.recorder is not None
        for n in range(8):
            photo = log.recorder.save_photo(_frame(n))
            log.append(StartRoll(player=TWO[n % 2], dice=(6, 6, 6), extra={"photo": photo}))
        assert len(store.lines(recorder)) == 9
        log.close()  # (the table's normal stop)
        store.close()
        kept[how] = sorted(p.name for p in (tmp_path / how / "photos").iterdir())
    assert kept["thread"] == kept["loop"]
    assert "000001-00008.jpg" in kept["thread"] and "000001-00001.jpg" not in kept["thread"]


def test_photos_still_waiting_are_written_when_the_history_is_closed(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    writer = store.write_photos_in_background()
    gate = Gate()
    writer.encode = gate
    recorder = store.begin(Setup(players=TWO))
    paths = [recorder.save_photo(_frame(n)) for n in range(3)]
    assert writer.pending() == 3
    gate.opened.set()
    store.close()
    assert all((tmp_path / p).is_file() for p in paths)
    assert writer.pending() == 0


def test_a_card_too_slow_for_the_rolls_leaves_photos_out_rather_than_wait(
        tmp_path: Path) -> None:
    gate = Gate()
    writer = PhotoWriter(PhotoShelf(tmp_path / "photos"), encode=gate, capacity=2)
    writer.submit("a.jpg", _frame(1))
    assert gate.started.wait(10)  # "a" is being written; "b" and "c" wait
    writer.submit("b.jpg", _frame(2))
    writer.submit("c.jpg", _frame(3))
    with pytest.raises(HistoryError, match=r"d\.jpg was left out: 2 photos are still waiting"):
        writer.submit("d.jpg", _frame(4))
    gate.opened.set()
    assert writer.close()
    assert sorted(p.name for p in (tmp_path / "photos").iterdir()) == ["a.jpg", "b.jpg", "c.jpg"]


def test_a_photo_the_card_refused_once_is_said_once_and_the_next_photos_are_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A write that failed on the thread was told by the next photo, which was left out
    for it (that roll lost a photo the card would have taken). Now every photo the card
    takes is written, and each one it refuses is said once, in the journal."""
    store = open_store(tmp_path)
    log = TableLog(store, background_photos=True)
    recorder, _ = HistoryRecorder.begin(log, Setup(players=TWO))
    writer = store.photo_writer
    assert writer is not None
    fails = [1]  # the card refuses one write, then takes every one again

    def save(name: str, data: bytes) -> Path:
        if fails[0]:
            fails[0] -= 1
            raise OSError(errno.ENOSPC, "No space left on device")
        return PhotoShelf.save(store.photos, name, data)

    writer.shelf = type("Full", (), {"save": staticmethod(save),
                                     "folder": store.photos.folder})()  # type: ignore[assignment]
    paths = []
    for n, (player, dice) in enumerate((("Ana", (6, 6, 6)), ("Ben", (6, 6, 6)),
                                         ("Ana", (1, 2, 3)))):  # (a tie: rolled again)
        paths.append(recorder.save(_frame(n)))  # (the card's answer comes later)
        recorder.append(StartRoll(player=player, dice=dice,
                                  extra={"photo": paths[-1]}))
        assert writer.flush()
    assert paths == [f"photos/000001-0000{n}.jpg" for n in (1, 2, 3)]
    said = capsys.readouterr().err.splitlines()
    assert said == ["einhorn-table: could not save the roll photo 000001-00001.jpg (No "
                    "space left on device); the match goes on without it"]
    recorder.close()
    assert capsys.readouterr().err == ""  # said once, not again at the stop
    store.close()
    kept = sorted(p.name for p in (tmp_path / "photos").iterdir())
    assert kept == ["000001-00002.jpg", "000001-00003.jpg"]  # all after the failure


def test_every_photo_the_card_refuses_is_handed_over_once_in_order(tmp_path: Path) -> None:
    refused = {"b.jpg", "d.jpg"}
    shelf = PhotoShelf(tmp_path / "photos")

    def save(name: str, data: bytes) -> Path:
        if name in refused:
            raise OSError(errno.EIO, "Input/output error")
        return PhotoShelf.save(shelf, name, data)

    writer = PhotoWriter(shelf)
    writer.shelf = type("Flaky", (), {"save": staticmethod(save),
                                      "folder": shelf.folder})()  # type: ignore[assignment]
    for name in ("a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"):
        writer.submit(name, _frame(len(name)))  # none refused for an earlier failure
    assert writer.close()
    assert sorted(p.name for p in shelf.folder.iterdir()) == ["a.jpg", "c.jpg", "e.jpg"]
    told = [str(f) for f in writer.failures()]
    assert told == [f"could not save the roll photo {n} (Input/output error); the match "
                    "goes on without it" for n in ("b.jpg", "d.jpg")]
    assert writer.failures() == []


def test_a_photo_folder_that_cannot_be_made_is_reported_at_once(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = TableLog(store, background_photos=True)
    recorder, match_id = HistoryRecorder.begin(log, Setup.for_variant(EINHORN, list(TWO)))
    (tmp_path / "photos").write_text("a file where the photo folder was")
    c = TableController(Match(Setup.for_variant(EINHORN, list(TWO))), recorder,
                        [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")], recorder)
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([6, 6, 5], RED), _frame(1)))
    assert c.halted is None and len(c.match.inputs) == 1
    (line,) = store.lines(match_id)[1:]
    assert '"dice_color": "red"' in line and '"photo"' not in line
    store.close()


# --- the history as a family reads it -------------------------------------------------------


def _history(state: Path, *args: str) -> int:
    from einhorn_table.cli import main

    return main(["history", "--state-dir", str(state), *args])


def _kept(folder: Path, seeds: range, players: tuple[str, ...] = ("Ana", "Ben", "Cem"),
          upto: int | None = None) -> list[str]:
    from history_helpers import bot_match
    from history_helpers import open_store as history_store

    ids = []
    with history_store(folder) as store:
        for seed in seeds:
            match = bot_match(seed, players)
            recorder = store.begin(match.setup)
            for item in match.record[:upto]:
                recorder.append(item)
            ids.append(recorder.match_id)
    return ids


def test_the_csv_export_names_calls_and_categories_as_the_rule_book_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A family opening the export in a spreadsheet read "unvermeidlich" and
    "dreifaltigkeit"; the rule book's words now, the notation's names beside them."""
    import csv
    import io

    (match_id,) = _kept(tmp_path, range(4, 5))
    assert _history(tmp_path, "export", match_id, "--format", "csv") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    rolled = [r for r in rows if r["type"] == "roll"]
    labels = {"Das Unvermeidliche", "Wunsch", "Einhorn", "Dreifaltigkeit"}
    assert {r["category"] for r in rolled} <= labels
    assert "Das Unvermeidliche" in {r["category"] for r in rolled}
    assert {r["call"] for r in rolled} <= labels | {"silent"}
    codes = {"unvermeidlich", "wunsch", "einhorn", "dreifaltigkeit"}
    assert {r["category_code"] for r in rolled} <= codes
    assert {r["call_code"] for r in rolled} <= codes | {"silent"}
    for r in rolled:
        assert r["category"] == {"unvermeidlich": "Das Unvermeidliche"}.get(
            r["category_code"], r["category_code"].capitalize())


def test_a_csv_export_of_before_the_code_columns_is_still_known_to_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old.csv"
    old.write_text("seq,game,type,player,call,dice,category,amount,stones,party,central,"
                   "unicorn,to_act,Ana game stones,Ana stash\n1,1,start_roll,Ana,,1 2 3,"
                   "unvermeidlich,,,,50,,Ben,6,0\n")
    assert _history(tmp_path / "state", "import", str(old)) == 1
    assert "this is a match exported for a spreadsheet" in capsys.readouterr().err


def test_a_match_left_before_its_end_is_abandoned_in_every_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`list` and `show` said "abandoned", `stats` and `import` "set aside": one word."""
    (match_id,) = _kept(tmp_path / "state", range(1, 2), upto=40)
    from history_helpers import open_store as history_store

    with history_store(tmp_path / "state") as store:
        store.abandon(match_id)
    assert _history(tmp_path / "state", "list") == 0
    assert _history(tmp_path / "state", "stats") == 0
    cut = tmp_path / "cut.jsonl"
    assert _history(tmp_path / "state", "export", match_id, "-o", str(cut)) == 0
    cut.write_text(cut.read_text()[:-20])
    assert _history(tmp_path / "other", "import", str(cut)) == 1
    said = capsys.readouterr()
    words = said.out + said.err
    assert "1 abandoned before the end" in words and "kept as abandoned" in words
    assert "set aside" not in words


def test_a_demo_s_history_that_cannot_be_made_names_the_demo_s_own_option(
        tmp_path: Path) -> None:
    """The demo reads no EINHORN_STATE_DIR: telling its player to set it changed nothing."""
    from einhorn_table.history.paths import CHOOSE_DEMO_STATE, CHOOSE_TABLE_STATE

    (tmp_path / "einhorn-state").write_text("a file, not a folder")
    clock = lambda: datetime(2026, 11, 27, tzinfo=UTC)  # noqa: E731
    with pytest.raises(HistoryError) as demo:
        MatchStore(tmp_path / "einhorn-state", now=clock, choose=CHOOSE_DEMO_STATE)
    assert "with the demo's --state-dir" in str(demo.value)
    assert "EINHORN_STATE_DIR" not in str(demo.value)
    with pytest.raises(HistoryError) as table:
        MatchStore(tmp_path / "einhorn-state", now=clock, choose=CHOOSE_TABLE_STATE)
    assert "`state` in the table file" in str(table.value)
    with pytest.raises(HistoryError) as history:
        MatchStore(tmp_path / "einhorn-state", now=clock)
    assert "--state-dir or EINHORN_STATE_DIR" in str(history.value)


def test_a_read_only_history_names_the_option_of_the_command_run(tmp_path: Path) -> None:
    import sqlite3

    from einhorn_table.history.errors import explain
    from einhorn_table.history.paths import CHOOSE_DEMO_STATE

    said = str(explain(sqlite3.OperationalError("attempt to write a readonly database"),
                       tmp_path / "history.sqlite3", "save the roll", CHOOSE_DEMO_STATE))
    assert "choose another with the demo's --state-dir" in said
    assert "EINHORN_STATE_DIR" not in said


def test_names_in_scripts_no_chart_font_has_say_what_to_install_in_the_charts_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """สมชาย (Thai) became "player A" with no word of how to see his name; the hint named
    only the CJK fonts, and only in the terminal: the family looks at the pictures."""
    pytest.importorskip("matplotlib")
    from einhorn_table.history import charts

    monkeypatch.setattr(charts, "_fallback_fonts", lambda: ())
    figures: list[Any] = []
    real_save = charts._save

    def keeping(plt: Any, fig: Any, path: Path) -> Path:
        figures.append([t.get_text() for t in fig.texts])
        return real_save(plt, fig, path)

    monkeypatch.setattr(charts, "_save", keeping)
    _kept(tmp_path / "state", range(2, 3), players=("สมชาย", "Ana", "Ben"))
    assert _history(tmp_path / "state", "stats", "--charts", str(tmp_path / "c")) == 0
    out = capsys.readouterr().out
    assert "player A = สมชาย" in out and "sudo apt install fonts-freefont-ttf" in out
    assert "fonts-noto-cjk" not in out  # (no CJK name here)
    stash, _, faces = ("\n".join(texts).replace("\n", " ") for texts in figures)
    assert "sudo apt install fonts-freefont-ttf" in stash
    assert "player A's dice: names no font" in faces
    assert "sudo apt install fonts-freefont-ttf" in faces


def test_the_unicorn_of_a_match_still_being_played_is_not_said_never_owned(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first evening, mid-match: "nobody has owned the unicorn yet" while Ana held it
    on the table; like the dice, it counts once the match ends."""
    _kept(tmp_path, range(3, 4), players=("Ana", "Ben"), upto=40)
    assert _history(tmp_path, "stats") == 0
    out = capsys.readouterr().out
    unicorn = out[out.index("The unicorn's worth"):out.index("Dice:")]
    assert "none counted yet: a match being played counts once it ends" in unicorn
    assert "nobody has owned" not in unicorn
