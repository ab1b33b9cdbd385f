"""A whole 10-game match at the table, headless: bots press mock GPIO buttons and throw
dice into the synthetic camera; the roll watcher and the reader see them; the match kept
in the history replays to the ledger the screen showed last."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pygame = pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory  # noqa: E402
from table_rig import open_store, table  # noqa: E402

from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.cli.table_app import start_match  # noqa: E402
from einhorn_table.history import TableLog  # noqa: E402
from einhorn_table.rules import EINHORN, Setup, parse_line, replay  # noqa: E402
from einhorn_table.screen.view_model import REVEAL_SECONDS, ScreenKind  # noqa: E402
from einhorn_table.table.resume import Choice  # noqa: E402


def test_a_whole_match_with_mock_buttons_and_the_synthetic_camera(
    mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    clock = FakeClock(0.0)
    names = ["Ana", "Ben", "Cem", "Dora"]
    store = open_store(tmp_path)
    setup = Setup.for_variant(EINHORN, names, games=10)
    started = start_match(TableLog(store), setup, None, Choice.NEW)
    rig = table(mock_factory, clock, started, store)
    try:
        rig.loop.run(lambda: rig.controller.match.over, max_steps=200_000)
    finally:
        started.recorder.close()
        rig.close()
    assert rig.controller.match.over, "the match did not finish"
    rig.loop.step()  # the screen shows what ended the match (a roll, or an auction)
    view = rig.loop.view
    assert view is not None and view.kind in (ScreenKind.RESULT, ScreenKind.AUCTION)
    clock.advance(REVEAL_SECONDS)
    rig.loop.step()  # then the final standings
    view = rig.loop.view
    assert view is not None and view.kind is ScreenKind.FINAL
    assert rig.presser.presses > 0
    lines = store.notation(started.match_id).splitlines()
    replayed = replay(lines).ledger()
    assert replayed.winner is not None and view.winner == names.index(replayed.winner)
    assert view.central == replayed.central
    assert [(p.name, p.game_stones, p.stash) for p in view.players] == [
        (p.name, p.game_stones, p.stash) for p in replayed.players
    ]
    assert view.chart[-1] == tuple(p.stash for p in replayed.players)
    assert store.get(started.match_id).state == "finished"
    throws = [parse_line(line, n) for n, line in enumerate(lines[1:], 2)
              if json.loads(line)["type"] in ("start_roll", "roll", "tiebreak_roll")]
    extras = [item.extra for item in throws]
    assert extras and all("t" in e and "confidence" in e for e in extras)
    assert {e["dice_color"] for e in extras} == {"white", "red", "blue", "green"}
    photos = [e["photo"] for e in extras if "photo" in e]
    assert photos and all((tmp_path / p).is_file() and p.endswith(".jpg") for p in photos)
    store.close()
