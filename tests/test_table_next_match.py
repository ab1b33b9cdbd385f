"""After a match ends at the table: holding OK at the final standings starts the next
match with the same players, without restarting anything. The finished match stays
in the history, the new one is a new record, and a restart in the middle of the new
one goes on with it."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pygame = pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory  # noqa: E402
from table_helpers import BLUE, RED, MemoryRecorder, players_toml, reading  # noqa: E402
from table_rig import open_store, press, table  # noqa: E402

from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.cli.table_app import (  # noqa: E402
    DemoOptions,
    direct_performer,
    next_match,
    run_demo,
    start_match,
    throw_into,
)
from einhorn_table.history import TableLog  # noqa: E402
from einhorn_table.history.view import history_summary  # noqa: E402
from einhorn_table.ports import Button, Gesture, GestureKind  # noqa: E402
from einhorn_table.rules import EINHORN, Awaiting, Setup, StartRoll, get_variant  # noqa: E402
from einhorn_table.screen.renderer import Renderer  # noqa: E402
from einhorn_table.screen.view_model import ScreenKind, build_view  # noqa: E402
from einhorn_table.simulation.simulate import play_recorded  # noqa: E402
from einhorn_table.simulation.strategies import make_strategy  # noqa: E402
from einhorn_table.stations.gesture_table import (  # noqa: E402
    GESTURES,
    NEXT_MATCH_AFTER_SECONDS,
    Context,
)
from einhorn_table.table.bots import BotDriver  # noqa: E402
from einhorn_table.table.controller import Seat, TableController  # noqa: E402
from einhorn_table.table.events import MotionStarted, Settled  # noqa: E402
from einhorn_table.table.loop import TableLoop  # noqa: E402
from einhorn_table.table.resume import Choice, preset_choice  # noqa: E402

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
#: Where screenshots of the final screen go (looked at by hand; any folder will do).
SHOTS = Path(os.environ.get("EINHORN_TEST_SHOTS", "")) if os.environ.get(
    "EINHORN_TEST_SHOTS") else None


def hold(player: int, button: Button, time: float) -> Gesture:
    return Gesture(player, GestureKind.LONG, (button,), time)


def play_out(c: TableController) -> float:
    """The players roll (2 3 4 every turn) and press OK wherever asked until the match
    is over; the time it ends."""
    t = 0.0
    colours = [seat.dice_colour or RED for seat in c.seats]
    for _ in range(2000):
        if c.match.over:
            assert c.last is not None
            return c.last.time
        roller = c.roller()
        assert roller is not None
        start = c.awaiting is Awaiting.START_ROLL and roller == 0
        c.on_tray(MotionStarted(t))
        c.on_tray(Settled(t + 1, reading([6, 6, 5] if start else [2, 3, 4], colours[roller])))
        for player in c.match.state.owing() if c.awaiting in (Awaiting.BID,
                                                              Awaiting.TOPUP) else ():
            c.on_gesture(Gesture(player, GestureKind.TAP, (E,), t + 2))
        if c.awaiting is Awaiting.COUNTERPARTY:
            c.on_gesture(Gesture(c.match.state.to_act or 0, GestureKind.TAP, (E,), t + 2))
        t += 10
    raise AssertionError("the match did not end in 2000 throws")


def finished_table(tmp_path: Path, names: list[str]) -> tuple[TableController, float]:
    store = open_store(tmp_path)
    started = start_match(TableLog(store), Setup.for_variant(EINHORN, names, games=1), None,
                          Choice.NEW)
    colours = [RED, BLUE, (240, 240, 240), (30, 30, 30), (30, 140, 60), (240, 200, 20)]
    c = TableController(started.match, started.recorder,
                        [Seat(n, colours[i]) for i, n in enumerate(names)], None,
                        archive=lambda: history_summary(store))
    return c, play_out(c)


def test_a_hold_of_ok_right_at_the_end_keeps_the_standings_and_says_when(
        tmp_path: Path) -> None:
    c, ended = finished_table(tmp_path, ["Ana", "Ben"])
    assert c.context(1) is Context.FINAL
    c.on_gesture(hold(1, E, ended + 2.0))  # a hold by accident as the last roll lands
    assert c.next_match_asked is None
    assert c.notice_at(ended + 2.0) == ("The final standings stay a moment: hold OK again "
                                        "in 8 seconds for a new match.")
    assert build_view(c, ended + 6.0).kind is ScreenKind.FINAL  # still the standings
    later = ended + NEXT_MATCH_AFTER_SECONDS + 1
    c.on_gesture(Gesture(1, GestureKind.TAP, (E,), later))  # a tap is not enough
    c.on_gesture(hold(1, W, later))  # nor a hold of another button
    c.on_gesture(hold(1, D, later))
    assert c.next_match_asked is None
    c.on_gesture(hold(1, E, later))
    assert c.next_match_asked == later


def test_the_next_match_is_only_offered_at_the_final_standings(tmp_path: Path) -> None:
    c, _ = finished_table(tmp_path, ["Ana", "Ben"])
    c.on_gesture(Gesture(0, GestureKind.TAP, (W,), 100.0))  # + : the match history
    assert c.context(0) is Context.HISTORY
    c.on_gesture(hold(0, E, 100.0))
    assert c.next_match_asked is None
    store = open_store(tmp_path / "other")
    started = start_match(TableLog(store), Setup.for_variant(EINHORN, ["Ana", "Ben"]), None,
                          Choice.NEW)
    playing = TableController(started.match, started.recorder,
                              [Seat("Ana", RED), Seat("Ben", BLUE)], None,
                              archive=lambda: history_summary(store))
    for player in (0, 1):  # during the match a hold of OK starts nothing
        playing.on_gesture(hold(player, E, 100.0))
    assert playing.next_match_asked is None
    store.close()


@pytest.mark.parametrize("names", [
    ["Ana", "Ben", "Cem", "Dora"],
    ["Alexandra", "Benedikt", "Cornelia", "Dorothea", "Emanuel", "Friederike"],
])
def test_the_final_screen_says_how_to_start_the_next_match(
        tmp_path: Path, names: list[str]) -> None:
    store = open_store(tmp_path)
    played = play_recorded(Setup.for_variant(EINHORN, names, games=4),
                           [make_strategy("odds") for _ in names], random.Random(4))
    c = TableController(played, MemoryRecorder(), [Seat(n) for n in names], None,
                        archive=lambda: history_summary(store))
    view = build_view(c, 5.0)
    assert view.kind is ScreenKind.FINAL
    hints = {hint.sign: hint.does for hint in view.buttons if hint.does}
    assert hints == {"+": "history", "OK": "hold: new match, same players"}
    help_lines = {line.gesture: line.does for line in GESTURES[Context.FINAL]}
    assert "start a new match with the same players" in help_lines["hold Einhorn (OK)"]
    pygame.font.init()
    for size in ((800, 480), (1024, 600)):
        surface = pygame.Surface(size)
        Renderer(surface).draw(view)
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            pygame.image.save(surface, str(SHOTS / f"final-{len(names)}-{size[0]}.png"))
        # The hint's row lies below the chart's panel, in the accent colour.
        width, height = size
        row = [surface.get_at((x, height - round(20 * min(width / 800, height / 480)) - 10))
               for x in range(width)]
        accent = sum(1 for px in row if px.r > 200 and px.g > 150 and px.b < 100)
        assert accent > 0
    store.close()


def test_next_match_keeps_the_finished_one_and_begins_a_new_record(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = TableLog(store)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben"], games=1)
    first = start_match(log, setup, None, Choice.NEW)
    c = TableController(first.match, first.recorder, [Seat("Ana", RED), Seat("Ben", BLUE)],
                        None, archive=lambda: history_summary(store))
    play_out(c)
    second = next_match(log, setup, first)
    assert second.match_id != first.match_id and not second.resumed
    assert second.match.names == ("Ana", "Ben") and second.match.record == []
    rows = [(r.match_id, r.state) for r in store.matches()]
    assert rows == [(second.match_id, "playing"), (first.match_id, "finished")]
    c2 = TableController(second.match, second.recorder, [Seat("Ana", RED), Seat("Ben", BLUE)],
                         None, archive=lambda: history_summary(store))
    c2.on_tray(MotionStarted(0.0))
    c2.on_tray(Settled(1.0, reading([6, 6, 5], RED)))
    c2.on_gesture(Gesture(0, GestureKind.CHORD, (U, D), 2.0))  # undo: back to the start
    c2.on_gesture(Gesture(0, GestureKind.CHORD, (U, D), 4.0))  # never into the last match
    assert "nothing to undo yet" in c2.notice_at(4.0)
    assert store.get(first.match_id).state == "finished"
    second.recorder.close()
    # The plug is pulled in the middle of the second match: a restart goes on with it.
    unfinished = store.unfinished()
    assert unfinished is not None and unfinished.match_id == second.match_id
    store.close()


def test_a_match_not_over_is_kept_as_abandoned_when_the_next_begins(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = TableLog(store)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben"])
    first = start_match(log, setup, None, Choice.NEW)
    second = next_match(log, setup, first)
    assert [(r.match_id, r.state) for r in store.matches()] == [
        (second.match_id, "playing"), (first.match_id, "abandoned")]
    second.recorder.close()
    store.close()


def test_at_the_table_a_held_button_begins_the_second_match_and_both_are_kept(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    clock = FakeClock(0.0)
    names = ["Ana", "Ben", "Cem"]
    store = open_store(tmp_path)
    log = TableLog(store)
    setup = Setup.for_variant(EINHORN, names, games=1)
    first = start_match(log, setup, None, Choice.NEW)
    rig = table(mock_factory, clock, first, store)
    try:
        rig.loop.run(lambda: rig.controller.match.over, max_steps=200_000)
        assert rig.controller.match.over
        press(mock_factory, clock, 2, (E,), long=True)  # too soon: Cem holds as it ends
        rig.loop.step()
        assert rig.controller.next_match_asked is None
        assert rig.loop.view is not None and "hold OK again" in rig.loop.view.notice
        clock.advance(NEXT_MATCH_AFTER_SECONDS)
        rig.loop.step()
        assert rig.loop.view is not None and rig.loop.view.kind is ScreenKind.FINAL
        press(mock_factory, clock, 2, (E,), long=True)  # Cem holds OK on the mock pins
        rig.loop.step()
        assert rig.controller.next_match_asked is not None
    finally:
        rig.close()
    second = next_match(log, setup, first)
    rig2 = table(mock_factory, clock, second, store, seed=8)
    try:
        rig2.loop.run(lambda: len(second.match.record) >= 6, max_steps=50_000)
        assert rig2.loop.view is not None and rig2.loop.view.kind is not ScreenKind.FINAL
    finally:
        rig2.close()
        second.recorder.close()
    assert len(second.match.record) >= 6  # the bots play the second match
    rows = {r.match_id: r for r in store.matches()}
    assert rows[first.match_id].state == "finished"
    assert rows[first.match_id].winner == first.match.ledger().winner
    assert rows[second.match_id].state == "playing"
    assert store.lines(second.match_id)[1:] and len(store.lines(second.match_id)) == len(
        second.match.record) + 1
    summary = history_summary(store)
    assert [line.state for line in summary.matches][:2] == ["not finished", "finished"]
    store.close()


CONFIG = """
games = 1
camera = "synth:seed=3,players=2"
[screen]
width = 400
height = 240
fullscreen = false
""" + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))


def bots_at(loop: TableLoop) -> None:
    """Bots play every seat of ``loop``'s match: throws into play's synthetic camera."""
    camera = loop.tray.source  # type: ignore[attr-defined]
    count = len(loop.controller.names)
    loop.bots = BotDriver(frozenset(range(count)),
                          [make_strategy("odds") for _ in range(count)], random.Random(3))
    loop.perform = direct_performer(loop.controller, throw_into(camera), loop.clock)
    loop.tray_idle = lambda: not camera.frames_queued


def test_play_starts_the_next_match_and_goes_on_with_it_after_a_restart(
        mock_factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import einhorn_table.adapters.clock as clocks

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setattr(clocks, "SystemClock", FakeClock)  # a whole match in no time
    config = tmp_path / "table.toml"
    config.write_text(CONFIG, encoding="utf-8")
    state = tmp_path / "state"
    original = TableLoop.run
    runs: list[TableLoop] = []

    def family(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        runs.append(self)
        bots_at(self)
        clock = self.clock
        assert isinstance(clock, FakeClock)
        if len(runs) == 1:  # the first match, played to its end
            original(self, lambda: self.controller.match.over, max_steps=100_000)
            clock.advance(NEXT_MATCH_AFTER_SECONDS)
            self.step()
            assert self.view is not None and self.view.kind is ScreenKind.FINAL
            assert self.view is not None and self.view.buttons[2].does.startswith("hold")
            press(mock_factory, clock, 1, (E,), long=True)  # Ben holds OK at his station
            self.step()
            assert done()
        else:  # the second match: a few turns, then the plug is pulled
            original(self, lambda: len(self.controller.match.record) >= 4, max_steps=20_000)

    monkeypatch.setattr(TableLoop, "run", family)
    assert main(["play", str(config), "--state-dir", str(state)]) == 0
    err = capsys.readouterr().err
    assert "match 1 started" in err and "match 2 started" in err
    assert len(runs) == 2 and runs[0].controller.match.over
    assert runs[1].controller.match.names == ("Ana", "Ben")
    assert runs[1].controller.match.setup.games == 1  # as the table's file says
    store = open_store(state)
    assert [(r.match_id, r.state) for r in store.matches()] == [
        ("2", "playing"), ("1", "finished")]
    row = store.unfinished()
    store.close()
    assert row is not None and row.match_id == "2"

    # The service starts it again (a crash in the second match): it goes on with it.
    from datetime import UTC, datetime
    assert preset_choice(row, resume=False, new=False, recent_minutes=10,
                         now=datetime.now(UTC)) is Choice.CONTINUE
    runs.clear()
    monkeypatch.setattr(TableLoop, "run", lambda self, done, max_steps=None: runs.append(self))
    assert main(["play", str(config), "--state-dir", str(state), "--continue-recent", "10"]) == 0
    assert "match 2 continued" in capsys.readouterr().err
    assert len(runs) == 1 and len(runs[0].controller.match.record) >= 4
    store = open_store(state)
    assert [(r.match_id, r.state) for r in store.matches()] == [
        ("2", "playing"), ("1", "finished")]
    store.close()


def demo_options(tmp_path: Path, bots: frozenset[int]) -> DemoOptions:
    from datetime import UTC, datetime
    return DemoOptions(
        names=["Ana", "Ben"], games=1, variant=get_variant("einhorn"), bots=bots,
        strategy="odds", chance=random.Random(0), seed=0, size=(400, 240), fullscreen=False,
        screenshots=None, state=tmp_path / "state", wall=lambda: datetime.now(UTC),
        fast=True, camera_size=(320, 240))


def test_the_demo_at_the_keyboard_plays_again_when_ok_is_held(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    original = TableLoop.run
    runs: list[TableLoop] = []

    def at_the_keyboard(self: TableLoop, done: Callable[[], bool],
                        max_steps: int | None = None) -> None:
        runs.append(self)
        clock = self.clock
        assert isinstance(clock, FakeClock)
        if len(runs) == 1:  # (bots throw for both seats; a person holds key 3 at the end)
            original(self, lambda: self.controller.match.over, max_steps=100_000)
            clock.advance(NEXT_MATCH_AFTER_SECONDS)
            key = {"key": pygame.K_3, "scancode": pygame.KSCAN_3, "mod": 0, "unicode": "3"}
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key))
            self.step()  # (the window takes the key's event)
            assert not done()
            clock.advance(0.8)  # held: player 1's Einhorn key, a long press
            self.step()
            # (After a frame held up that long, the keyboard tells the hold on the next
            # frame, once it has seen the key still down: test_keyboard_slow_frames.)
            self.step()
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key))
            assert done()
        else:
            original(self, lambda: len(self.controller.match.record) >= 3, max_steps=20_000)

    monkeypatch.setattr(TableLoop, "run", at_the_keyboard)
    result = run_demo(demo_options(tmp_path, frozenset({0, 1})))
    assert len(runs) == 2 and result.match_id == "2"
    assert len(runs[1].controller.match.record) >= 3  # the bots play on in the new match
    store = open_store(tmp_path / "state")
    assert [(r.match_id, r.state) for r in store.matches()] == [
        ("2", "playing"), ("1", "finished")]
    store.close()


def test_the_bots_demo_still_ends_after_one_match(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    result = run_demo(demo_options(tmp_path, frozenset({0, 1})))
    assert result.ledger.winner is not None and result.match_id == "1"
    assert result.loop.view is not None and result.loop.view.kind is ScreenKind.FINAL
    store = open_store(tmp_path / "state")
    assert [(r.match_id, r.state) for r in store.matches()] == [("1", "finished")]
    store.close()


def test_the_next_match_after_one_gone_on_with_keeps_its_variant_and_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``demo --continue`` goes on with a match of wuerfeln, 2 games (the options say
    einhorn): holding OK at its end begins wuerfeln, 2 games again, dated anew."""
    from dataclasses import replace
    from datetime import UTC, datetime

    from einhorn_table.history import MatchStore

    state = tmp_path / "state"
    then = datetime(2024, 1, 1, 19, 30, tzinfo=UTC)
    store = MatchStore(state, now=lambda: then)
    left = start_match(TableLog(store), Setup.for_variant(get_variant("wuerfeln"),
                                                          ["Ana", "Ben"], games=2), None,
                       Choice.NEW)
    left.recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))  # (played: offered)
    left.recorder.close()
    store.close()
    runs: list[TableLoop] = []

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        runs.append(self)
        if len(runs) == 1:
            self.controller.next_match_asked = 1.0  # (as a hold of OK at its end would)
        else:  # (a roll in the new match, so that it is kept)
            self.controller.recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(TableLoop, "run", run)
    options = replace(demo_options(tmp_path, frozenset({0, 1})), games=None, resume=True)
    run_demo(options)
    assert len(runs) == 2
    first, second = (loop.controller.match for loop in runs)
    assert first.setup.variant == second.setup.variant == "wuerfeln"
    assert second.setup.games == 2
    store = open_store(state)
    rows = {row.match_id: row for row in store.matches()}
    setup_line = store.lines("2")[0]
    store.close()
    assert rows["2"].variant == rows["1"].variant == "wuerfeln"
    # (The setup line's date goes with an exported match: the new one's, not 2024's.)
    assert '"started"' in setup_line and "2024-01-01" not in setup_line
