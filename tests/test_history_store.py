"""The match store: every input kept, exported as notation that replays, resumed, migrated."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import golden_matches, needs_golden
from history_helpers import bot_match, open_store, undated

from einhorn_table.history import HistoryError, TableLog, UnknownMatch, schema
from einhorn_table.history.paths import DATABASE, state_dir
from einhorn_table.history.store import ImportedMatch
from einhorn_table.rules import (
    Roll,
    RuleViolation,
    Setup,
    StartRoll,
    format_input,
    parse_line,
    replay,
)


def test_state_dir_follows_flag_then_environment_then_xdg_then_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert state_dir("x", {"EINHORN_STATE_DIR": "y"}, home) == Path("x")
    assert state_dir(None, {"EINHORN_STATE_DIR": "y", "STATE_DIRECTORY": "z"}, home) == Path("y")
    assert state_dir(None, {"STATE_DIRECTORY": "/a:/b", "XDG_STATE_HOME": "q"}, home) == Path("/a")
    assert state_dir(None, {"XDG_STATE_HOME": "/q"}, home) == Path("/q/einhorn-table")
    assert state_dir(None, {}, home) == home / ".local/state/einhorn-table"


def test_database_is_wal_with_full_sync_and_latest_version(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.close()
    conn = sqlite3.connect(tmp_path / DATABASE)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.LATEST
    assert conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    store = open_store(tmp_path)
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("seed", [1, 2])
def test_recorded_match_exports_as_notation_that_replays_to_the_same_ledger(
    tmp_path: Path, seed: int
) -> None:
    played = bot_match(seed)
    store = open_store(tmp_path)
    recorder = store.begin(played.setup)
    for item in played.record:
        recorder.append(item)
    row = store.get(recorder.match_id)
    assert row.state == "finished"
    assert row.winner == played.ledger().winner
    assert replay(store.lines(recorder.match_id)).ledger() == played.ledger()
    assert undated(store.lines(recorder.match_id)) == played.notation().splitlines()


@needs_golden
@pytest.mark.parametrize("path", golden_matches(), ids=lambda p: p.stem)
def test_golden_matches_are_stored_line_for_line(tmp_path: Path, path: Path) -> None:
    text = path.read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    store = open_store(tmp_path)
    recorder = store.begin(parse_line(lines[0]))  # type: ignore[arg-type]
    for line in lines[1:]:
        recorder.append(parse_line(line))
    stored = undated(store.lines(recorder.match_id))
    assert [parse_line(s) for s in stored] == [parse_line(s) for s in lines]
    assert replay(stored).ledger() == replay(lines).ledger()
    expected = path.with_name(path.stem + ".expected.jsonl").read_text().splitlines()
    last = json.loads(expected[-1])
    got = replay(stored).ledger().to_json()
    assert {k: got[k] for k in last} == last


def test_extras_are_kept_exactly(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    recorder = store.begin(Setup(players=("Ana", "Ben")))
    roll = StartRoll(player="Ana", dice=(6, 6, 5),
                     extra={"photo": "photos/x.jpg", "confidence": 0.97, "color": [200, 10, 10]})
    recorder.append(roll)
    assert store.lines(recorder.match_id)[1] == format_input(roll)
    assert parse_line(store.lines(recorder.match_id)[1]) == roll


def test_a_refused_input_is_not_stored(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    recorder = store.begin(Setup(players=("Ana", "Ben")))
    with pytest.raises(RuleViolation):
        recorder.append(Roll(player="Ana", dice=(1, 2, 3)))  # start rolls first
    assert undated(store.lines(recorder.match_id)) == [format_input(Setup(players=("Ana", "Ben")))]
    recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))
    assert len(store.lines(recorder.match_id)) == 2


@pytest.mark.parametrize("cut", [1, 7, 60, 150])
def test_resume_rebuilds_the_match_where_it_stood(tmp_path: Path, cut: int) -> None:
    played = bot_match(5)
    store = open_store(tmp_path)
    recorder = store.begin(played.setup)
    for item in played.record[:cut]:
        recorder.append(item)
    store.close()
    expected = replay([format_input(x) for x in played.lines()[: cut + 1]]).ledger()

    store = open_store(tmp_path)
    row = store.unfinished()
    assert row is not None and row.match_id == recorder.match_id
    resumed = store.resume(row.match_id)
    ledger = resumed.ledger()
    assert ledger == expected
    assert (ledger.to_act, ledger.unicorn, ledger.awaiting) == (
        expected.to_act, expected.unicorn, expected.awaiting)
    # The table goes on recording into the same match, to its end.
    log = TableLog(store)
    match = log.resume(row.match_id)
    for item in played.record[cut:]:
        match.apply(item)
        log.append(item)
    assert store.get(row.match_id).state == "finished"
    assert store.unfinished() is None
    assert replay(store.lines(row.match_id)).ledger() == played.ledger()


def test_abandon_keeps_the_match_marked(tmp_path: Path) -> None:
    played = bot_match(6)
    store = open_store(tmp_path)
    recorder = store.begin(played.setup)
    for item in played.record[:40]:
        recorder.append(item)
    store.abandon(recorder.match_id)
    row = store.get(recorder.match_id)
    assert row.state == "abandoned"
    assert store.unfinished() is None
    assert len(store.lines(recorder.match_id)) == 41
    with pytest.raises(HistoryError, match="abandoned"):
        store.resume(recorder.match_id)


def test_table_log_offers_begin_append_close(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = TableLog(store, practice=True)
    match_id = log.begin(Setup(players=("Ana", "Ben")))
    log.append(StartRoll(player="Ana", dice=(1, 1, 2)))
    log.close()
    assert store.get(match_id).practice
    with pytest.raises(HistoryError, match="closed"):
        log.append(StartRoll(player="Ben", dice=(1, 1, 2)))


def test_unknown_match_is_a_clear_error(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    with pytest.raises(UnknownMatch, match="keeps no matches yet"):  # (list shows none)
        store.lines("99")
    store.import_notation(bot_match(1).notation().splitlines())
    with pytest.raises(UnknownMatch, match="history list"):
        store.lines("99")
    with pytest.raises(UnknownMatch, match="numbers"):
        store.get("abc")


def test_an_old_version_database_is_migrated_and_summarised(tmp_path: Path) -> None:
    played = bot_match(8)
    conn = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    assert schema.migrate(conn, upto=1) == 1
    conn.execute(
        "INSERT INTO matches (id, started, updated, finished, players, variant, setup, state, "
        "winner, games) VALUES (1, '2025-01-01T18:00:00+00:00', '2025-01-01T19:00:00+00:00', "
        "'2025-01-01T19:00:00+00:00', ?, 'einhorn', ?, 'finished', ?, 7)",
        (json.dumps(list(played.names)), format_input(played.setup), played.ledger().winner))
    conn.executemany("INSERT INTO inputs VALUES (1, ?, ?)",
                     [(i, format_input(x)) for i, x in enumerate(played.record, start=1)])
    conn.close()

    store = open_store(tmp_path)
    assert schema.version(store._conn) == schema.LATEST
    assert store.get("1").winner == played.ledger().winner
    players = store.query("SELECT name, stash, won FROM match_players ORDER BY seat")
    assert [(n, s) for n, s, _ in players] == [
        (p.name, p.stash) for p in played.ledger().players]
    assert sum(w for _, _, w in players) == 1
    totals = dict(store.query("SELECT name, wins FROM totals_players"))
    assert totals == {p.name: int(p.name == played.ledger().winner) for p in
                      played.ledger().players}


def test_import_is_all_or_nothing_and_names_the_bad_line(tmp_path: Path) -> None:
    played = bot_match(9)
    lines = played.notation().splitlines()
    bad = [*lines[:30], '{"type": "roll", "player": "Nobody", "dice": [1, 2, 3]}', *lines[30:]]
    store = open_store(tmp_path)
    with pytest.raises(RuleViolation, match="line 31"):
        store.import_notation(bad)
    assert store.count() == 0
    assert store.query("SELECT count(*) FROM inputs")[0][0] == 0
    partial = store.import_notation(lines[:20])
    assert partial.held_lines == 0 and store.get(partial.match_id).state == "abandoned"
    whole = store.import_notation(lines)
    assert whole == ImportedMatch(partial.match_id, 20)
    assert store.lines(whole.match_id) == lines and store.count() == 1
    assert store.get(whole.match_id).state == "finished"


def test_photos_are_small_jpegs_and_the_oldest_go_first(tmp_path: Path) -> None:
    store = open_store(tmp_path, photo_limit_bytes=20_000)
    recorder = store.begin(Setup(players=("Ana", "Ben")))
    rng = np.random.default_rng(0)
    paths = []
    for n in range(8):
        # A camera-like frame: a lit tray (a gradient) with sensor noise.
        tray = np.linspace(40, 200, 1280)[None, :, None] + rng.normal(0, 4, (960, 1280, 3))
        frame = np.clip(tray, 0, 255).astype(np.uint8)
        photo = recorder.save_photo(frame)
        # Ties on 6 6 6 keep the starting rolls going: one photo a roll.
        recorder.append(StartRoll(player=("Ana", "Ben")[n % 2], dice=(6, 6, 6),
                                  extra={"photo": photo}))
        paths.append(tmp_path / photo)
    kept = [p for p in paths if p.exists()]
    assert kept and all(p.read_bytes()[:2] == b"\xff\xd8" for p in kept)
    assert all(p.stat().st_size < 40_000 for p in kept)
    assert store.photos.used_bytes() <= 20_000
    assert paths[-1].exists() and not paths[0].exists()
    assert json.loads(store.lines(recorder.match_id)[-1])["photo"] == str(
        paths[-1].relative_to(tmp_path))


def test_an_imported_match_keeps_the_date_it_was_played_on(tmp_path: Path) -> None:
    played = bot_match(4)
    there = open_store(tmp_path / "there")  # its clock starts at 2026-11-22 18:00 UTC
    recorder = there.begin(played.setup)
    for item in played.inputs:
        recorder.append(item)
    setup_line = json.loads(there.lines(recorder.match_id)[0])
    assert setup_line["started"] == there.get(recorder.match_id).started
    exported = there.lines(recorder.match_id)

    here = open_store(tmp_path / "here")
    here.now.now = here.now.now.replace(year=2027)  # a year later, on another table
    newer = here.begin(Setup(players=("Ana", "Ben")))
    moved = here.import_notation(exported)
    assert here.get(moved.match_id).started == setup_line["started"]
    assert [row.match_id for row in here.matches()] == [newer.match_id, moved.match_id]
    assert here.lines(moved.match_id) == exported  # the file as written, date and all


@pytest.mark.parametrize("started", ['"last Tuesday"', '"2026-11-20T19:00:00"', "20261120",
                                     '"2031-01-01T00:00:00+00:00"'])
def test_an_import_without_a_usable_date_is_dated_at_the_import(tmp_path: Path,
                                                                started: str) -> None:
    lines = bot_match(5).notation().splitlines()
    lines[0] = lines[0][:-1] + f', "started": {started}}}'
    store = open_store(tmp_path)
    moved = store.import_notation(lines)
    row = store.get(moved.match_id)
    assert row.started == row.updated  # no offset, not a date, or after today: now


def test_a_match_begun_from_an_earlier_ones_setup_is_dated_now(tmp_path: Path) -> None:
    """The setup read back from a stored match (played again with the same players and
    settings) carries that match's date: the new match's line says its own."""
    store = open_store(tmp_path)
    first = store.begin(Setup(players=("Ana", "Ben")))
    earlier = parse_line(store.lines(first.match_id)[0])
    assert isinstance(earlier, Setup) and "started" in earlier.extra
    store.now.now = store.now.now.replace(year=2027)  # (the test clock, a year on)
    again = store.begin(earlier)
    line = json.loads(store.lines(again.match_id)[0])
    assert line["started"] == store.get(again.match_id).started
    assert line["started"] != earlier.extra["started"]
