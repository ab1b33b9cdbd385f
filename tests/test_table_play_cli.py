"""`einhorn-table play` put together for real (synthetic camera, mock pins, no display):
where it keeps the history, and what --new / --continue do with an interrupted match."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml
from table_rig import open_store

from einhorn_table.calibration.profile import load_profile
from einhorn_table.cli import main
from einhorn_table.cli.play import WatchedTray, dice_colours_note
from einhorn_table.table.config import DICE_COLOURS
from einhorn_table.table.events import CameraBack, CameraLost, TrayEvent
from einhorn_table.table.loop import TableLoop

CONFIG = """
games = 3
camera = "synth:seed=3,players=3"
{state}
[screen]
width = 400
height = 240
fullscreen = false
""" + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"), ("Cem", 3, "blue"))


@pytest.fixture
def table_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               mock_factory: MockFactory) -> Path:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "from-env"))

    def a_few_frames(self: TableLoop, done: object, max_steps: int | None = None) -> None:
        # The family plays a little (Ana rolls to start: a match nobody rolled in is
        # none to go on with), then the plug is pulled.
        roll_to_start(self)
        for _ in range(5):
            self.step()

    monkeypatch.setattr(TableLoop, "run", a_few_frames)
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.format(state='state = "kept"'), encoding="utf-8")
    return path


def roll_to_start(loop: TableLoop) -> None:
    """Ana rolls to start on the synthetic camera (another camera: nobody rolls)."""
    camera = loop.tray.source  # type: ignore[attr-defined]
    if loop.controller.match.record or not hasattr(camera, "roll"):
        return
    camera.roll([6, 5, 4], player=0, settle_frames=2)
    for _ in range(600):
        if loop.controller.match.record:
            return
        loop.step()
    raise AssertionError("Ana's starting roll was not taken")


def test_play_keeps_the_match_in_the_configured_state_directory(
    table_toml: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", str(table_toml)]) == 0
    err = capsys.readouterr().err
    assert "match 1 started" in err
    assert "classical reader" not in err  # the shipped models load: no warning
    store = open_store(table_toml.parent / "kept")  # the config's state, before the env's
    row = store.unfinished()
    assert row is not None and row.players == ("Ana", "Ben", "Cem")
    assert not (table_toml.parent / "from-env").exists()
    store.close()


def test_play_tells_the_installer_when_the_reader_models_are_missing(
    table_toml: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    import einhorn_table.vision.learned as learned

    monkeypatch.setattr(learned, "MODEL_DIR", tmp_path / "no-models")
    assert main(["play", str(table_toml)]) == 0  # it still plays, with the classical reader
    err = capsys.readouterr().err
    assert "dice_detector.onnx is missing" in err
    assert "the classical reader stands in" in err and "git pull, then ./start" in err
    assert "match 1 started" in err


def test_continue_goes_on_and_new_abandons(
    table_toml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "elsewhere"
    assert main(["play", str(table_toml), "--state-dir", str(state)]) == 0
    assert main(["play", str(table_toml), "--state-dir", str(state), "--continue"]) == 0
    assert "match 1 continued" in capsys.readouterr().err
    assert main(["play", str(table_toml), "--state-dir", str(state), "--new"]) == 0
    assert "match 2 started" in capsys.readouterr().err
    store = open_store(state)
    assert [(r.match_id, r.state) for r in store.matches()] == [
        ("2", "playing"), ("1", "abandoned")]
    store.close()


def test_a_match_of_other_players_is_not_continued_blindly(
    table_toml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "s"
    assert main(["play", str(table_toml), "--state-dir", str(state)]) == 0
    table_toml.write_text(CONFIG.replace('"Cem"', '"Zoe"').format(state=""), encoding="utf-8")
    assert main(["play", str(table_toml), "--state-dir", str(state), "--continue"]) == 1
    err = capsys.readouterr().err
    assert "Cem has no station" in err and "--new" in err and "Traceback" not in err


def test_going_on_by_itself_with_other_players_asks_on_the_screen_instead_of_failing(
    table_toml: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import einhorn_table.table.resume as resume
    from einhorn_table.table.resume import Choice

    state = tmp_path / "s"
    assert main(["play", str(table_toml), "--state-dir", str(state)]) == 0
    table_toml.write_text(CONFIG.replace('"Cem"', '"Zoe"').format(state=""), encoding="utf-8")
    asked: list[str] = []

    def ask(prompt: resume.ResumePrompt, *rest: object, **more: object) -> Choice:
        asked.append(prompt.interrupted.blocked)
        return Choice.NEW  # X on the screen: a new match

    monkeypatch.setattr(resume, "ask", ask)  # (play imports it when it runs)
    # As the service starts it: go on by itself with a match of the last minutes.
    assert main(["play", str(table_toml), "--state-dir", str(state),
                 "--continue-recent", "10"]) == 0
    assert len(asked) == 1 and "Cem has no station" in asked[0]
    store = open_store(state)
    assert [(r.match_id, r.state) for r in store.matches()] == [
        ("2", "playing"), ("1", "abandoned")]
    store.close()


def test_a_camera_whose_library_is_missing_stops_play_before_a_match_starts(
    table_toml: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a desktop
    table_toml.write_text(CONFIG.replace('"synth:seed=3,players=3"', '"picamera2"')
                          .format(state=""), encoding="utf-8")
    state = tmp_path / "s"
    assert main(["play", str(table_toml), "--state-dir", str(state)]) == 1
    err = capsys.readouterr().err
    assert "picamera2 is not installed" in err
    assert 'camera = "opencv:0"' in err and "Traceback" not in err
    assert not (state / "history.sqlite3").exists() or open_store(state).matches() == []


def test_play_reads_with_the_tables_calibration_profile(
    table_toml: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = Path(__file__).resolve().parent.parent / "calibration" / "synth.toml"
    text = table_toml.read_text(encoding="utf-8")
    table_toml.write_text(f'calibration = "{shipped}"\n' + text, encoding="utf-8")
    assert main(["play", str(table_toml)]) == 0


def test_play_refuses_a_broken_calibration_profile_by_its_key(
    table_toml: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = table_toml.parent / "calibration.toml"
    broken.write_text('version = 1\n[reader]\nmin_confidence = "high"\n', encoding="utf-8")
    text = table_toml.read_text(encoding="utf-8")
    table_toml.write_text(f'calibration = "{broken}"\n' + text, encoding="utf-8")
    assert main(["play", str(table_toml)]) == 1
    err = capsys.readouterr().err
    assert "min_confidence" in err and "Traceback" not in err


def test_demo_reads_with_a_given_profile_and_refuses_a_broken_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    broken = tmp_path / "broken.toml"
    broken.write_text("version = 1\n[dice]\nsize = 3\n", encoding="utf-8")
    assert main(["demo", "--bots", "all", "--profile", str(broken),
                 "--state-dir", str(tmp_path / "s")]) == 1
    err = capsys.readouterr().err
    assert "size" in err and "Traceback" not in err
    shipped = Path(__file__).resolve().parent.parent / "calibration" / "synth.toml"
    assert main(["demo", "--bots", "all", "--games", "1", "--players", "2", "--profile",
                 str(shipped), "--state-dir", str(tmp_path / "s")]) == 0
    assert "Winner" in capsys.readouterr().out


def test_calibrated_in_the_mount_guides_view_the_demo_reads_every_roll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The synthetic camera set up as the mount guide says (table around the tray): the
    guided calibration finds the tray and reads its test rolls, and the demo, reading
    with that calibration in its tray outline as ``play`` does, reads every roll of a
    game without asking (no doubt screen)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    out = tmp_path / "calibration.toml"
    assert main(["calibrate", "--source", "synth:seed=3,players=2,mount=1", "--players", "2",
                 "--rolls", "2", "--autopilot", "--out", str(out)]) == 0
    assert "6 of 6 test dice read right" in capsys.readouterr().out
    calibrated = load_profile(out)
    assert min(min(corner) for corner in calibrated.tray.corners) > 60  # the table around
    shots = tmp_path / "shots"
    assert main(["demo", "--bots", "all", "--games", "1", "--players", "2", "--mount",
                 "--profile", str(out), "--state-dir", str(tmp_path / "s"),
                 "--screenshots", str(shots)]) == 0
    assert "Winner" in capsys.readouterr().out
    kinds = {path.stem.split("-", 1)[1] for path in shots.glob("*.png")}
    assert "result" in kinds and "doubt" not in kinds


def test_play_takes_the_dice_colours_the_calibration_measured(
    table_toml: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The calibration registered Ana's and Ben's dice under this table's light; Cem's
    # colour stays the table file's blue.
    profile = (Path(__file__).parent.parent / "calibration" / "synth.toml").read_text()
    profile = re.sub(r'"Player 1" = \[[^]]*\]', '"Ana" = [250, 244, 225]', profile)
    profile = re.sub(r'"Player 2" = \[[^]]*\]', '"Ben" = [190, 60, 50]', profile)
    (table_toml.parent / "cal.toml").write_text(profile, encoding="utf-8")
    table_toml.write_text('calibration = "cal.toml"\n' + table_toml.read_text(),
                          encoding="utf-8")
    seen: list[object] = []
    monkeypatch.setattr(TableLoop, "run", lambda self, done, max_steps=None: seen.append(
        [(s.name, s.dice_colour, s.dice_name) for s in self.controller.seats]))
    assert main(["play", str(table_toml)]) == 0
    assert seen == [[("Ana", (250, 244, 225), "white"), ("Ben", (190, 60, 50), "red"),
                     ("Cem", DICE_COLOURS["blue"], "blue")]]
    err = capsys.readouterr().err
    assert f"Dice colours as calibrated in {table_toml.parent / 'cal.toml'}: Ana, Ben; " \
           "from the table's file: Cem." in err


def test_the_note_says_when_the_calibration_has_no_colour_for_the_players() -> None:
    note = dice_colours_note(Path("cal.toml"), ["Ana", "Ben"], {"Player 1": (1, 2, 3)})
    assert note == "Dice colours from the table's file: cal.toml has none for Ana, Ben."
    assert dice_colours_note(Path("cal.toml"), ["Ana"], {"Ana": (1, 2, 3)}) == (
        "Dice colours as calibrated in cal.toml: Ana.")


class _Feed:
    def __init__(self, *polls: list[TrayEvent]) -> None:
        self.polls = list(polls)

    def poll(self) -> list[TrayEvent]:
        return self.polls.pop(0)


class _Counts:
    def __init__(self) -> None:
        self.frames_read = 0
        self.lost: list[bool] = []

    def tick(self, frames: int, *, camera_lost: bool = False) -> None:
        self.frames_read = frames
        self.lost = [*self.lost, camera_lost]


def test_a_lost_camera_s_whole_reason_goes_to_the_journal(
        capsys: pytest.CaptureFixture[str]) -> None:
    reason = "The camera library picamera2 is not installed. On the Pi run: sudo apt install"
    counts = _Counts()
    tray = WatchedTray(_Feed([CameraLost(1.0, reason)], [], [CameraBack(9.0)]),
                       counts, counts)  # type: ignore[arg-type]
    assert [type(e) for e in tray.poll() + tray.poll() + tray.poll()] == [CameraLost, CameraBack]
    assert counts.lost == [True, True, False]  # the watchdog told, from the lost frame on
    assert capsys.readouterr().err.splitlines() == [
        f"einhorn-table: camera lost: {reason}", "einhorn-table: camera back"]



@pytest.mark.parametrize("going_on", [False, True])
def test_a_card_that_cannot_save_at_the_start_is_said_on_the_screen(
    table_toml: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], going_on: bool,
) -> None:
    # The match could not be begun (or gone on with) on a full or read-only card: play
    # ended with the message on stderr, and the service's screen stayed blank.
    from einhorn_table.adapters.pygame_screen import PygameScreen
    from einhorn_table.history import TableLog
    from einhorn_table.history.errors import StoreFull, StoreReadOnly
    from einhorn_table.screen.view_model import ScreenView

    state = tmp_path / "s"
    if going_on:
        assert main(["play", str(table_toml), "--state-dir", str(state)]) == 0
    trouble = StoreReadOnly("the card is read-only") if going_on else StoreFull("no room")

    def fail(*args: object) -> None:
        raise trouble

    monkeypatch.setattr(TableLog, "resume" if going_on else "begin", fail)
    shown: list[ScreenView] = []

    def show(self: PygameScreen, view: ScreenView, now: float, key: object = None) -> None:
        shown.append(view)
        self.quit_requested = len(shown) >= 3  # (the window closed after a while)

    monkeypatch.setattr(PygameScreen, "show", show)
    args = ["play", str(table_toml), "--state-dir", str(state)]
    assert main([*args, "--continue"] if going_on else args) == 1
    assert len(shown) == 3
    view = shown[-1]
    assert view.title == "Play is stopped" and [p.name for p in view.players] == [
        "Ana", "Ben", "Cem"]
    said = "the SD card is read-only" if going_on else "the SD card is full"
    assert view.banner.startswith(f"Match not saved: {said}.")
    assert str(trouble) in capsys.readouterr().err


def test_play_takes_bids_and_top_ups_only_once_their_screen_shows(
    table_toml: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At the real table, as in the demo with a person at the keys: OK pressed to go on
    # while "Game 1 is over" is still shown must not seal a bid nobody saw asked for.
    from einhorn_table.screen.view_model import GAME_END_SECONDS, RESULT_SECONDS, REVEAL_SECONDS

    seen: list[tuple[float, float, float]] = []
    monkeypatch.setattr(TableLoop, "run", lambda self, done, max_steps=None: seen.append(
        (self.controller.auction_opens_after, self.controller.topup_opens_after,
         self.controller.roll_shown_for)))
    assert main(["play", str(table_toml)]) == 0
    assert seen == [(GAME_END_SECONDS, REVEAL_SECONDS, RESULT_SECONDS)]
    assert min(seen[0]) > 0
