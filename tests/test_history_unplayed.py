"""A match begun and given no input (nobody rolled to start it) is no match to go on
with: ``unfinished`` passes over it and ``forget_unplayed`` deletes it, deciding by what
the history file holds in its own transaction, so that a match whose first input
another program (the table) stores meanwhile is never lost."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from table_rig import open_store

from einhorn_table.history import MatchStore
from einhorn_table.rules import Setup, StartRoll

SETUP = Setup(players=("Ana", "Ben", "Cem"), games=1)


def held(store: MatchStore) -> list[tuple[str, str]]:
    """Every match the history file holds, newest first (listed or not)."""
    return [(str(i), state) for i, state in
            store.query("SELECT id, state FROM matches ORDER BY id DESC")]


def test_unfinished_passes_over_a_match_nobody_rolled_in(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    played = store.begin(SETUP)
    played.append(StartRoll(player="Ana", dice=(6, 6, 5)))
    empty = store.begin(SETUP)  # (newer: the power went at "Who starts?")
    row = store.unfinished(begun=True)
    assert row is not None and row.match_id == played.match_id != empty.match_id
    assert store.unfinished().match_id == empty.match_id  # type: ignore[union-attr]
    store.close()


def test_forget_unplayed_deletes_only_matches_being_played_without_an_input(
        tmp_path: Path) -> None:
    store = open_store(tmp_path)
    played = store.begin(SETUP)
    played.append(StartRoll(player="Ana", dice=(6, 6, 5)))
    abandoned = store.begin(SETUP)
    store.abandon(abandoned.match_id)  # (kept as it was: a row the table wrote before)
    one, two = store.begin(SETUP), store.begin(SETUP)
    assert store.forget_unplayed(one.match_id) == [one.match_id]  # that one alone
    assert [i for i, _ in held(store)] == [two.match_id, abandoned.match_id,
                                            played.match_id]
    assert store.forget_unplayed() == [two.match_id]
    assert store.forget_unplayed() == []
    assert held(store) == [(abandoned.match_id, "abandoned"), (played.match_id, "playing")]
    assert store.unfinished(begun=True) is not None
    store.close()


def test_a_first_input_stored_meanwhile_by_another_program_keeps_the_match(
        tmp_path: Path) -> None:
    table = open_store(tmp_path)
    other = open_store(tmp_path)  # (a second program on the same history)
    recorder = table.begin(SETUP)
    assert held(other) == [(recorder.match_id, "playing")]  # read before
    forgotten: list[list[str]] = []
    with table.transaction("save this input") as conn:  # the table's first input...
        conn.execute("INSERT INTO inputs (match_id, seq, line) VALUES (?, 1, ?)",
                     (int(recorder.match_id), '{"type": "start_roll", "player": "Ana", '
                      '"dice": [6, 6, 5]}'))
        worker = threading.Thread(target=lambda: forgotten.append(other.forget_unplayed()))
        worker.start()  # ...while the other program forgets the matches nobody played
        time.sleep(0.3)
    worker.join(5)
    assert forgotten == [[]]
    assert held(other) == [(recorder.match_id, "playing")]
    other.close()
    table.close()


def test_history_show_says_nobody_rolled_in_it(tmp_path: Path) -> None:
    from einhorn_table.history.view import closing_line

    store = open_store(tmp_path)
    empty = store.begin(SETUP)
    row = store.get(empty.match_id)
    ledger = store.replay(empty.match_id).ledger()
    assert "offers to continue it" not in str(closing_line(row, ledger, begun=False))
    assert "Nobody rolled to start it" in str(closing_line(row, ledger, begun=False))
    assert "nobody has rolled to start it yet" in str(
        closing_line(row, ledger, played_by="on the table", begun=False))
    assert "offers to continue it" in str(closing_line(row, ledger))
    store.close()


def test_the_photos_of_a_forgotten_match_go_with_it(tmp_path: Path) -> None:
    """A doubted starting roll's photo, written before the power went at "Who starts?":
    the match goes, and its photo with it, so that the next match, which takes the
    forgotten match's id, never finds a roll photo it did not take under its own name."""
    import numpy as np

    store = open_store(tmp_path)
    played = store.begin(SETUP)
    kept = played.save_photo(np.full((60, 80, 3), 90, np.uint8))
    played.append(StartRoll(player="Ana", dice=(6, 6, 5), extra={"photo": kept}))
    empty = store.begin(SETUP)
    doubted = empty.save_photo(np.full((60, 80, 3), 200, np.uint8))
    assert (tmp_path / doubted).is_file()
    assert store.forget_unplayed() == [empty.match_id]
    again = store.begin(SETUP)
    assert again.match_id == empty.match_id  # (SQLite gives the id again)
    assert not (tmp_path / doubted).exists()
    assert (tmp_path / kept).is_file()  # (another match's photo stays)
    store.close()
