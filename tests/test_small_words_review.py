"""Small words reviewers found: what a history another user keeps says to ``practice``
and ``import``, the end of a match's lines, the top-up's "done", the final standings'
OK ring, and the held buttons of two stations."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO
from history_helpers import NOBODY, bot_match, open_store, why_not_mine
from table_helpers import RED, tap
from test_game_end_cards import _game_one_ended
from test_history_review3 import _as_a_user
from test_table_moments import START, roll, table

from einhorn_table.history.paths import DATABASE
from einhorn_table.ports import Button
from einhorn_table.screen.view_model import RESULT_SECONDS, ScreenKind, build_view
from einhorn_table.stations.gesture_table import NEXT_MATCH_AFTER_SECONDS
from einhorn_table.stations.gestures import GestureTiming
from einhorn_table.table.controller import TableController

# --- a history file another user keeps --------------------------------------------------


@pytest.fixture
def not_mine(tmp_path: Path) -> Iterator[Path]:
    """A history of two matches in a folder this user may look into, whose file is
    another user's own (no one else may read it); made readable again afterwards."""
    with open_store(tmp_path) as store:
        store.import_notation(bot_match(1).notation().splitlines())
        store.import_notation(bot_match(2).notation().splitlines())
    (tmp_path / DATABASE).chmod(0o000)
    if os.geteuid() == 0:  # (root, its power dropped, is the file's owner: give it away)
        os.chown(tmp_path / DATABASE, NOBODY, -1)
    yield tmp_path
    if os.geteuid() == 0:
        os.chown(tmp_path / DATABASE, 0, -1)
    (tmp_path / DATABASE).chmod(0o644)


def _as_another_user(folder: Path, *args: str,
                     **environ: str) -> subprocess.CompletedProcess[str]:
    probe = subprocess.run(_as_a_user(["test", "-r", str(folder / DATABASE)]), check=False)
    if probe.returncode != 1:
        pytest.skip("cannot run a command here that chmod stops from reading")
    env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    env.update(PYTHONPATH=str(REPO), EINHORN_COMMAND="einhorn-table", **environ)
    return subprocess.run(
        _as_a_user([sys.executable, "-m", "einhorn_table", "history", "--state-dir",
                    str(folder), *args]),
        capture_output=True, text=True, env=env, timeout=120, check=False)


def test_practice_on_a_history_another_user_keeps_says_it_may_not_be_read(
        not_mine: Path) -> None:
    """It said "you may not write FOLDER ... or mount the card so that it may be
    written": the folder is writable, and it is the file that may not be read. Then
    "run the command as the user it belongs to (`ls -ld FILE` names them)": it names
    them now, and gives the command as them (no copy: a copy changed is no help)."""
    done = _as_another_user(not_mine, "practice", "2")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    file = not_mine / DATABASE
    assert done.stderr.strip() == (
        f"einhorn-table: match 2 was not marked practice: you may not read the history "
        f"file {file}: {why_not_mine(file, 'practice 2')}" + (
            "." if os.geteuid() == 0 else ""))


def test_import_into_a_history_another_user_keeps_says_it_may_not_be_read(
        not_mine: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    match = tmp_path_factory.mktemp("files") / "match.jsonl"
    match.write_text(bot_match(3).notation(), encoding="utf-8")
    done = _as_another_user(not_mine, "import", str(match))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(
        f"einhorn-table: nothing was imported: you may not read the history file "
        f"{not_mine / DATABASE}: {why_not_mine(not_mine / DATABASE, f'import {match}')}")
    assert "you may not write" not in done.stderr and "mount the card" not in done.stderr


def test_practice_in_the_service_s_folder_gives_the_service_s_command(
        not_mine: Path) -> None:
    done = _as_another_user(not_mine, "practice", "2", "--undo",
                            STATE_DIRECTORY=str(not_mine))
    assert done.returncode == 1
    assert "match 2 was not counted again: you may not read" in done.stderr
    assert (f"`sudo -u einhorn einhorn-table history --state-dir {not_mine} practice 2 "
            "--undo`") in done.stderr


# --- the game's end, once a bid is taken --------------------------------------------------


def test_the_game_end_after_a_bid_says_what_each_stash_holds() -> None:
    """Where the bids open with the game's end (no `takes_bids_once_shown`), a bid taken
    makes the roll that ended the game no longer the last input: the lines said "Ana
    stash 1" under "Game stones go into each stash" (as if "stash 1" went in)."""
    c = _game_one_ended()
    assert c.auction_opens_after == 0
    at = 100.0 + RESULT_SECONDS + 0.5
    c.on_gesture(tap(0, Button.EINHORN, at))  # Ana bids 0 at once
    over = build_view(c, at + 0.1)
    assert over.kind is ScreenKind.GAME_END
    assert over.subtitle == "The game stones went into the stashes"
    assert over.lines == ("Ana's stash: 1", "Ben's stash: 8", "Cem's stash: 0")
    assert [p.stash for p in over.players] == [1, 8, 0]


# --- the final standings' OK ring -------------------------------------------------------


def _final_standings_held_at(after: float, monkeypatch: pytest.MonkeyPatch,
                             ) -> tuple[list[float | None], list[str], TableController]:
    """A two-player match of one game, over at 3.0 (its last roll still); OK held down
    ``after`` seconds after that, for 1.5 s: the ring's fill on each frame, the words
    on the screen drawn half-way through the hold, and the controller."""
    import json

    from screen_helpers import text_drawing
    from test_camera_lost_entry import Buttons, ScriptedTray

    from einhorn_table.adapters.clock import FakeClock
    from einhorn_table.ports import RawButtonEvent
    from einhorn_table.table.loop import TableLoop
    c, _ = table([json.dumps({"v": 1, "type": "setup", "variant": "einhorn",
                              "players": ["Ana", "Ben"], "games": 1}), *START[:2]])
    c.archive = lambda: None  # type: ignore[assignment,return-value]  # (the hints shown)
    c.on_gesture(tap(0, Button.DREIFALTIGKEIT, 1.0))
    roll(c, [4, 4, 4], RED, t=2.0)
    assert c.last is not None and c.last.time == 3.0
    start = 3.0 + after
    clock = FakeClock(start)
    buttons = Buttons(clock)
    loop = TableLoop(c, ScriptedTray(), buttons, clock)
    assert loop.step().kind is ScreenKind.FINAL
    buttons.edges.append(RawButtonEvent(0, Button.EINHORN, True, clock.now))
    fills: list[float | None] = []
    words: list[str] = []
    while clock.now < start + 1.5:
        view = loop.step()
        assert view.kind is ScreenKind.FINAL
        fills.append(view.held)
        if not words and clock.now >= start + 0.35:
            renderer, texts = text_drawing(monkeypatch, "colour")((800, 480))
            renderer.draw(view)
            words = [text for text, _, _ in texts]
    return fills, words, c


def test_the_ok_ring_stays_empty_while_a_hold_is_not_yet_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two seconds after the end the ring filled and said "keep holding: new match",
    and then the table said "hold again in 8 seconds"."""
    fills, words, c = _final_standings_held_at(RESULT_SECONDS + 1, monkeypatch)
    assert c.next_match_asked is None and c.notice is not None
    assert "hold OK again in" in c.notice.text
    assert fills and all(fill is None for fill in fills)
    assert "keep holding: new match" not in words


def test_the_ok_ring_fills_for_a_hold_that_is_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A hold that counts just after ten seconds after the end is taken.
    after = NEXT_MATCH_AFTER_SECONDS - GestureTiming().long_press + 0.1
    fills, words, c = _final_standings_held_at(after, monkeypatch)
    assert c.next_match_asked is not None
    assert fills[0] is not None and fills[-1] == 1.0
    assert "keep holding: new match" in words


# --- the buttons read pressed as the table starts ---------------------------------------


def test_two_stations_with_all_four_buttons_pressed_are_named_station_by_station() -> None:
    """It said "All four of Ben's and Ana's buttons": four in all, or four each?"""
    from einhorn_table.cli.play import held_buttons_words
    from einhorn_table.table.config import PlayerConfig

    players = [PlayerConfig("Ana", 1, None), PlayerConfig("Ben", 2, None)]
    both = [(1, b) for b in Button] + [(0, b) for b in Button]
    assert held_buttons_words(both, players) == (
        "All four buttons of Ben's station and of Ana's station read pressed with nobody "
        "touching them: check the plug and cable of each of these stations.")
    # A station nobody plays at is "station 3", not "station 3's station".
    assert held_buttons_words([(2, b) for b in Button], players) == (
        "All four of station 3's buttons read pressed with nobody touching them: check "
        "the plug and cable of station 3.")
