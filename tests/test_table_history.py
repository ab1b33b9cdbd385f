"""The table and the match history together: every input kept in the store, an
interrupted match continued exactly where it stood (or abandoned), the history screen,
the demo's matches in `history stats`, and a full store stopping the table."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pygame = pytest.importorskip("pygame")

from conftest import GOLDEN, needs_golden  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402
from table_helpers import BLUE, RED, reading  # noqa: E402
from table_rig import (  # noqa: E402
    PIN_MAP,
    WallClock,
    open_store,
    press,
    table,
)

from einhorn_table.adapters.clock import FakeClock  # noqa: E402
from einhorn_table.adapters.gpio_buttons import ButtonStations  # noqa: E402
from einhorn_table.adapters.history_log import HistoryRecorder  # noqa: E402
from einhorn_table.adapters.pygame_screen import PygameScreen  # noqa: E402
from einhorn_table.cli import main  # noqa: E402
from einhorn_table.cli.play import seats_for  # noqa: E402
from einhorn_table.cli.table_app import (  # noqa: E402
    Started,
    demo_caption,
    standings_text,
    start_match,
)
from einhorn_table.history import MatchStore, TableLog  # noqa: E402
from einhorn_table.history.store import connect_file  # noqa: E402
from einhorn_table.history.view import history_line, history_summary  # noqa: E402
from einhorn_table.ports import Button, Gesture, GestureKind  # noqa: E402
from einhorn_table.rules import (  # noqa: E402
    EINHORN,
    Awaiting,
    Match,
    Setup,
    StartRoll,
    replay,
    replay_file,
)
from einhorn_table.screen.renderer import Renderer  # noqa: E402
from einhorn_table.screen.resume_view import resume_view  # noqa: E402
from einhorn_table.screen.view_model import (  # noqa: E402
    ScreenKind,
    ScreenView,
    build_view,
)
from einhorn_table.standings import final_order  # noqa: E402
from einhorn_table.stations.gesture_table import Context  # noqa: E402
from einhorn_table.table.config import PlayerConfig  # noqa: E402
from einhorn_table.table.controller import Seat, TableController  # noqa: E402
from einhorn_table.table.events import MotionStarted, Settled  # noqa: E402
from einhorn_table.table.resume import (  # noqa: E402
    Choice,
    Interrupted,
    ResumePrompt,
    ask,
    preset_choice,
)

NAMES = ["Ana", "Ben", "Cem"]
CONFIG = [PlayerConfig(n, i + 1, None, None) for i, n in enumerate(NAMES)]
OK, NO, PLUS = (Button.EINHORN,), (Button.DREIFALTIGKEIT,), (Button.WUNSCH,)


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def shown(view: ScreenView) -> tuple[object, ...]:
    """What a screen says about the match: stones, stashes, central, unicorn, game."""
    return (view.game, view.central, view.unicorn,
            tuple((p.name, p.game_stones, p.stash, p.unicorn) for p in view.players))


def play_until(factory: MockFactory, clock: FakeClock, store: MatchStore, started: Started,
               stop: Callable[[], bool]) -> tuple[ScreenView, TableController]:
    rig = table(factory, clock, started, store)
    try:
        rig.loop.run(stop, max_steps=200_000)
    finally:
        rig.close()
    assert rig.loop.view is not None
    return rig.loop.view, rig.controller


def interrupted_match(factory: MockFactory, folder: Path) -> tuple[str, ScreenView, Match]:
    """A match played into game 2 at the table, then the plug is pulled (nothing closed)."""
    store = open_store(folder)
    setup = Setup.for_variant(EINHORN, NAMES, games=3)
    started = start_match(TableLog(store), setup, None, Choice.NEW)
    clock = FakeClock(0.0)

    def mid_match() -> bool:
        state = started.match.state
        return state.game >= 2 and state.unicorn is not None and \
            state.awaiting is Awaiting.ROLL

    view, controller = play_until(factory, clock, store, started, mid_match)
    assert not controller.match.over
    return started.match_id, view, controller.match


def answer(factory: MockFactory, store: MatchStore, buttons: tuple[Button, ...],
           player: int = 1) -> tuple[Choice | None, ResumePrompt]:
    """Start the table again: the prompt on the screen, answered at ``player``'s station."""
    row = store.unfinished()
    assert row is not None
    assert preset_choice(row, resume=False, new=False, recent_minutes=None,
                         now=datetime.now(UTC)) is None
    match = store.resume(row.match_id)
    seats, _, blocked = seats_for(match.names, CONFIG)
    prompt = ResumePrompt(Interrupted(row.match_id, history_line(row).date, match, seats,
                                      blocked), NAMES, lambda: history_summary(store))
    clock = FakeClock(100.0)
    stations = ButtonStations(PIN_MAP, clock, pin_factory=factory, players=3)
    screen = PygameScreen((400, 240))
    screen.open()
    try:
        press(factory, clock, player, buttons)
        return ask(prompt, stations, clock, screen), prompt
    finally:
        stations.close()
        screen.close()


def test_an_interrupted_match_goes_on_exactly_where_it_stood_and_finishes(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    match_id, last, before = interrupted_match(mock_factory, tmp_path)
    store = open_store(tmp_path)  # the table starts again
    choice, _ = answer(mock_factory, store, OK, player=2)
    assert choice is Choice.CONTINUE
    row = store.unfinished()
    assert row is not None and row.match_id == match_id
    started = start_match(TableLog(store), Setup.for_variant(EINHORN, NAMES, games=3), row,
                          choice)
    assert started.resumed and started.match_id == match_id
    rig = table(mock_factory, FakeClock(0.0), started, store)
    first = build_view(rig.controller, 0.0)
    assert shown(first) == shown(last)
    assert started.match.state.to_act == before.state.to_act
    assert started.match.state.unicorn == before.state.unicorn
    assert started.match.ledger() == before.ledger()
    try:
        rig.loop.run(lambda: started.match.over, max_steps=200_000)
    finally:
        rig.close()
    assert started.match.over
    assert store.get(match_id).state == "finished"
    assert replay(store.lines(match_id)).ledger() == started.match.ledger()
    assert store.unfinished() is None
    store.close()


def test_the_prompt_shows_who_when_which_game_and_the_stashes(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    match_id, _, before = interrupted_match(mock_factory, tmp_path)
    store = open_store(tmp_path)
    row = store.unfinished()
    assert row is not None
    seats, _, _ = seats_for(before.names, CONFIG)
    prompt = ResumePrompt(Interrupted(match_id, history_line(row).date, before, seats),
                          NAMES, lambda: history_summary(store))
    view = resume_view(prompt, 0.0)
    assert view.kind is ScreenKind.RESUME
    assert "Ana, Ben and Cem did not finish it." in view.subtitle
    ledger = before.ledger()
    assert f"game {ledger.game} of 3" in view.lines[0] and history_line(row).date in view.lines[0]
    assert all(f"{p.name} {p.stash}" in view.lines[1] for p in ledger.players)
    assert [b.does for b in view.buttons] == ["", "history", "go on", "new match"]
    prompt.on_gesture(press_gesture(0, PLUS))
    history = resume_view(prompt, 0.0)
    assert history.kind is ScreenKind.HISTORY and history.archive is not None
    assert prompt.context() is Context.HISTORY
    prompt.on_gesture(press_gesture(0, NO))  # ✗ on the history: back, not "new match"
    assert prompt.choice is None and resume_view(prompt, 0.0).kind is ScreenKind.RESUME
    store.close()


def press_gesture(player: int, buttons: tuple[Button, ...]) -> Gesture:
    return Gesture(player, GestureKind.TAP, buttons, 0.0)


def test_abandoning_keeps_the_old_match_and_starts_a_new_one(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    match_id, _, before = interrupted_match(mock_factory, tmp_path)
    stored = len(open_store(tmp_path).lines(match_id))
    store = open_store(tmp_path)
    choice, _ = answer(mock_factory, store, NO)
    assert choice is Choice.NEW
    started = start_match(TableLog(store), Setup.for_variant(EINHORN, NAMES, games=3),
                          store.unfinished(), choice)
    assert not started.resumed and started.match_id != match_id
    old = store.get(match_id)
    assert old.state == "abandoned" and len(store.lines(match_id)) == stored
    assert replay(store.lines(match_id)).ledger() == before.ledger()
    assert started.match.inputs == [] and store.unfinished() is not None
    assert store.unfinished().match_id == started.match_id  # type: ignore[union-attr]
    store.close()


def test_a_match_of_players_without_stations_cannot_be_continued() -> None:
    seats, stations, blocked = seats_for(["Ana", "Zoe"], CONFIG)
    assert [s.name for s in seats] == ["Ana", "Zoe"] and stations == {0: 0}
    assert "Zoe has no station" in blocked
    prompt = ResumePrompt(Interrupted("1", "2026-11-22 18:00",
                                      Match(Setup.for_variant(EINHORN, ["Ana", "Zoe"])),
                                      seats, blocked), NAMES)
    prompt.on_gesture(press_gesture(0, OK))
    assert prompt.choice is None and "Zoe" in prompt.notice


def test_a_restart_soon_after_a_crash_goes_on_without_asking(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    recorder = store.begin(Setup.for_variant(EINHORN, NAMES))
    row = store.get(recorder.match_id)
    updated = datetime.fromisoformat(row.updated)
    ask_it = {"resume": False, "new": False}
    assert preset_choice(row, **ask_it, recent_minutes=10,
                         now=updated + timedelta(minutes=3)) is Choice.CONTINUE
    assert preset_choice(row, **ask_it, recent_minutes=10,
                         now=updated + timedelta(hours=20)) is None
    assert preset_choice(row, resume=True, new=False, recent_minutes=None,
                         now=updated) is Choice.CONTINUE
    assert preset_choice(row, resume=False, new=True, recent_minutes=None,
                         now=updated) is Choice.NEW
    assert preset_choice(None, resume=True, new=False, recent_minutes=None,
                         now=updated) is Choice.NEW
    store.close()


def _play_out(c: TableController, rolled: tuple[int, int, int] = (2, 3, 4)) -> float:
    """Ana and Ben roll (Ana starts; then ``rolled`` every turn) and press OK wherever
    asked until the match is over; the time it ends."""
    t = 0.0
    for _ in range(1000):
        if c.match.over:
            return t
        roller = c.roller()
        assert roller is not None
        colour = (RED, BLUE)[roller]
        values = [6, 6, 5] if roller == 0 and c.awaiting is Awaiting.START_ROLL else rolled
        c.on_tray(MotionStarted(t))
        c.on_tray(Settled(t + 1, reading(values, colour)))
        for player in c.match.state.owing() if c.awaiting in (Awaiting.BID,
                                                              Awaiting.TOPUP) else ():
            c.on_gesture(press_gesture(player, OK))
        if c.awaiting is Awaiting.COUNTERPARTY:
            c.on_gesture(press_gesture(c.match.state.to_act or 0, OK))
        t += 10
    raise AssertionError("the match did not end in 1000 throws")


def test_the_final_standings_say_the_central_stash_ended_the_match(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    # 13 stones: 12 dealt and Ana's starting stone leave the central stash empty, and
    # Ana's silent Einhorn (+1, paid nothing) ends the match in its first game.
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben"], games=10, central=13)
    started = start_match(TableLog(store), setup, None, Choice.NEW)
    c = TableController(started.match, started.recorder,
                        [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")], None,
                        archive=lambda: history_summary(store))
    t = _play_out(c, rolled=(1, 3, 5))
    ledger = c.match.ledger()
    assert ledger.game == 1 and ledger.central == 0
    final = build_view(c, t)
    why = "The match ended when the central stash ran dry."
    assert final.kind is ScreenKind.FINAL and final.lines == (why,)
    words = standings_text(ledger).splitlines()
    assert words[0] == "Final standings after 1 game:" and words[-1] == why
    surface = pygame.Surface((800, 480))
    pygame.font.init()
    Renderer(surface).draw(final)
    store.close()


@needs_golden
def test_a_tie_for_the_most_stones_lists_the_roll_off_s_winner_first_and_says_so() -> None:
    # Ben and Cem end on 5 stones each; Cem rolls an Einhorn first (RULES.md 6).
    ledger = replay_file(GOLDEN / "rolloff-won.jsonl").ledger()
    assert [p.stash for p in ledger.players] == [0, 5, 5] and ledger.winner == "Cem"
    assert standings_text(ledger).splitlines()[1:] == [
        "1. Cem           5 stones",
        "2. Ben           5 stones",
        "3. Ana           0 stones",
        "Winner: Cem",
        "Ben and Cem tied on 5 stones; Cem rolled an Einhorn first.",
    ]
    # The final screen draws its rows in the same order.
    assert final_order([0, 5, 5], 2) == [2, 1, 0]
    assert final_order([9, 5, 9, 1], 2) == [2, 0, 1, 3]
    assert final_order([3, 5, 4], None) == [1, 2, 0]


def test_the_history_screen_opens_from_the_final_standings(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    setup = Setup.for_variant(EINHORN, ["Ana", "Ben"], games=1)
    started = start_match(TableLog(store), setup, None, Choice.NEW)
    c = TableController(started.match, started.recorder,
                        [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")], None,
                        archive=lambda: history_summary(store))
    t = _play_out(c)
    final = build_view(c, t)
    assert final.kind is ScreenKind.FINAL and final.buttons[1].does == "history"
    assert final.lines == ()  # its one game played: nothing to explain
    assert c.context(1) is Context.FINAL
    c.on_gesture(press_gesture(1, PLUS))
    view = build_view(c, t)
    assert view.kind is ScreenKind.HISTORY and view.archive is not None
    assert view.archive.matches[0].winner == c.match.ledger().winner
    assert {line.split(":")[0] for line in view.archive.dice} == {"red", "blue"}
    surface = pygame.Surface((800, 480))
    pygame.font.init()
    Renderer(surface).draw(view)
    c.on_gesture(press_gesture(0, NO))
    assert build_view(c, t).kind is ScreenKind.FINAL
    store.close()


def test_a_full_store_stops_the_table_taking_inputs_with_the_message(tmp_path: Path) -> None:
    open_store(tmp_path).close()

    def tiny(path: str) -> sqlite3.Connection:
        conn = connect_file(path)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 3}")
        return conn

    store = MatchStore(tmp_path, now=WallClock(), connect=tiny)
    recorder, match_id = HistoryRecorder.begin(TableLog(store),
                                               Setup.for_variant(EINHORN, ["Ana", "Ben"]))
    c = TableController(Match(Setup.for_variant(EINHORN, ["Ana", "Ben"])), recorder,
                        [Seat("Ana", RED, "red" * 400), Seat("Ben", BLUE, "blue" * 400)])
    t = 0.0
    for _ in range(400):
        roller = c.roller()
        if c.halted or roller is None:
            break
        c.on_tray(MotionStarted(t))
        c.on_tray(Settled(t + 1, reading([2, 3, 4], (RED, BLUE)[roller])))
        t += 10
    assert c.halted is not None, "the store never filled up"
    assert "full" in c.halted.message and "Free some space" in c.halted.message
    taken = len(c.match.inputs)
    assert len(store.lines(match_id)) == taken + 1  # all shown is stored
    c.on_tray(MotionStarted(t))
    c.on_tray(Settled(t + 1, reading([2, 3, 4], (RED, BLUE)[c.roller() or 0])))
    assert len(c.match.inputs) == taken and c.halted is not None
    assert "Restart" in c.halted.message
    view = build_view(c, t + 2)
    # (the screen says it in the family's words; the history's message, with its path,
    # goes to the journal)
    assert view.banner is not None
    assert view.banner.startswith("Match not saved: the SD card is full.")
    store.close()


def test_the_demo_keeps_its_matches_and_history_stats_tests_each_players_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "demo-state"
    assert main(["demo", "--bots", "all", "--players", "3", "--games", "6", "--seed", "2",
                 "--state", str(state)]) == 0
    capsys.readouterr()
    with MatchStore(state, now=WallClock()) as store:
        (row,) = store.matches()
        assert row.state == "finished" and row.players == ("Ana", "Ben", "Cem")
    assert main(["history", "--state-dir", str(state), "stats"]) == 0
    out = capsys.readouterr().out
    dice = out[out.index("Dice"):].splitlines()
    for colour in ("white", "red", "blue"):
        (line,) = [d for d in dice if d.strip().startswith(f"{colour}:")]
        assert "rolls" in line
    # The bots bid for the unicorn: some auction was won with stones.
    (auction,) = [line for line in out.splitlines() if "won at auction" in line]
    paid = float(auction.split("paid ")[1].split(" ")[0])
    assert paid > 0, auction


def test_a_photo_that_cannot_be_kept_does_not_stop_the_match(tmp_path: Path) -> None:
    import numpy as np

    store = open_store(tmp_path)
    recorder, match_id = HistoryRecorder.begin(TableLog(store),
                                               Setup.for_variant(EINHORN, ["Ana", "Ben"]))
    frame = np.zeros((240, 320, 3), dtype=np.uint8)
    kept = recorder.save(frame)
    assert kept.endswith(".jpg") and (tmp_path / kept).is_file()
    (tmp_path / "photos").rename(tmp_path / "elsewhere")
    (tmp_path / "photos").write_text("a file where the photo folder was")
    c = TableController(Match(Setup.for_variant(EINHORN, ["Ana", "Ben"])), recorder,
                        [Seat("Ana", RED, "red"), Seat("Ben", BLUE, "blue")], recorder)
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, reading([6, 6, 5], RED), frame))
    assert c.halted is None and len(c.match.inputs) == 1
    (line,) = store.lines(match_id)[1:]
    assert '"dice_color": "red"' in line and '"photo"' not in line
    store.close()


class ScriptedControls:
    """Gives one gesture at the third poll."""

    description = "scripted"
    simulated = True

    def __init__(self, gesture: Gesture) -> None:
        self.gesture = gesture
        self.polls = 0

    def poll(self) -> list[Gesture]:
        self.polls += 1
        return [self.gesture] if self.polls == 3 else []

    def held(self, player: int) -> tuple[Button, ...]:
        return ()

    def close(self) -> None:
        pass


def test_the_prompt_tells_the_watchdog_it_is_alive_every_frame() -> None:
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Ben"]))
    prompt = ResumePrompt(Interrupted("1", "2026-11-22 18:00", match,
                                      (Seat("Ana"), Seat("Ben"))), ["Ana", "Ben"])
    frames: list[float] = []
    clock = FakeClock(0.0)
    choice = ask(prompt, ScriptedControls(press_gesture(1, NO)), clock, None,
                 alive=lambda: frames.append(clock.monotonic()))
    assert choice is Choice.NEW and len(frames) == 3
    assert frames[2] - frames[0] == pytest.approx(2 / 30)


def test_long_player_lists_are_cut_at_a_word_not_shrunk() -> None:
    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    names = "(Annemarie, Benedikt, Cem, Dorothea, Emil, Fay)"
    assert renderer.fit(names, 24, 2000) == names
    cut = renderer.fit(names, 24, 200)
    assert cut.endswith("...") and renderer.font(24).size(cut)[0] <= 200
    assert cut[:-3] in names and not cut[:-3].endswith(",")
    assert renderer.fit(names, 24, 5) == ""


def test_a_match_left_unfinished_is_not_called_final() -> None:
    match = Match(Setup.for_variant(EINHORN, ["Ana", "Ben"], games=3))
    match.apply(StartRoll(player="Ana", dice=(6, 6, 5)))
    words = standings_text(match.ledger(), "Go on with it: einhorn-table demo --continue")
    assert words.splitlines() == [
        "Match not finished (game 1 of 3); it is kept.",
        "Stashes so far: Ana 0, Ben 0",
        "Go on with it: einhorn-table demo --continue",
    ]


def test_a_name_shrinks_only_so_far_then_is_cut_and_rows_wrap() -> None:
    pygame.font.init()
    renderer = Renderer(pygame.Surface((800, 480)))
    assert renderer.shortened("Ana", 32, 22, 200) == ("Ana", 32)
    name, size = renderer.shortened("Alexandra", 32, 22, 90)
    assert 22 <= size < 32 and renderer.font(size).size(name)[0] <= 90
    cut, smallest = renderer.shortened("Maximiliane-Friederike", 32, 22, 90)
    assert smallest == 22 and cut.endswith(".") and "Maximiliane-Friederike".startswith(cut[:-1])
    assert renderer.font(22).size(cut)[0] <= 90
    # Six bids of 150 px in a row of 500: three a line, the next line 40 px down.
    places = renderer.flow([150] * 6, 10, 510, 100, 10, 40)
    assert places == [(10, 100), (170, 100), (330, 100), (10, 140), (170, 140), (330, 140)]


def test_the_demo_window_names_the_keys_of_each_player_at_the_keyboard() -> None:
    assert demo_caption(["Ana", "Ben", "Cem"], frozenset({2})) == (
        "Einhorn Table demo · Ana: keys 1 2 3 4 · Ben: keys Q W E R · SPACE throws the dice"
        " · ESC quits")
    assert demo_caption(["Ana", "Ben"], frozenset({0, 1})) == "Einhorn Table demo · ESC quits"


def test_the_demo_plays_the_first_draft_or_a_house_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "demo-state"
    house = tmp_path / "family.toml"
    house.write_text('name = "family"\nbase = "wuerfeln"\ngames = 2\ntarget = 20\n')
    assert main(["demo", "--bots", "all", "--players", "2", "--variant", "wuerfeln",
                 "--games", "1", "--state", str(state)]) == 0
    assert main(["demo", "--bots", "all", "--players", "2", "--variant", str(house),
                 "--state", str(state)]) == 0
    with MatchStore(state, now=WallClock()) as store:
        first, second = sorted(store.matches(), key=lambda row: int(row.match_id))
    assert (first.variant, first.games) == ("wuerfeln", 1)
    assert (second.variant, second.games) == ("family", 2)
    capsys.readouterr()
    assert main(["history", "--state-dir", str(state), "show", second.match_id]) == 0
    assert "play family, 2 games, to 20 stones;" in capsys.readouterr().out
    assert main(["demo", "--variant", "wurfeln", "--state", str(state)]) == 1
    assert "no variant called 'wurfeln'; the shipped variants are einhorn, wuerfeln" in \
        capsys.readouterr().err


def test_demo_continue_finishes_the_unfinished_demo_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "demo-state"
    with MatchStore(state, now=WallClock()) as store:
        recorder = store.begin(Setup.for_variant(EINHORN, ["Ute", "Vic"], games=2))
        recorder.append(StartRoll(player="Ute", dice=(6, 6, 5)))
    assert main(["demo", "--bots", "all", "--continue", "--state-dir", str(state)]) == 0
    assert "Ute" in capsys.readouterr().out
    with MatchStore(state, now=WallClock()) as store:
        (row,) = store.matches()
        assert row.state == "finished" and row.players == ("Ute", "Vic")
        assert store.lines(row.match_id)[1].startswith('{"type": "start_roll", "player": "Ute"')
