"""The lead's mends of session fifty-nine: the demo's notices name keys, not signs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

pytest.importorskip("pygame")

from einhorn_table.cli import main
from einhorn_table.ports import Button
from einhorn_table.table.loop import TableLoop


def test_the_demo_s_notices_name_the_key_a_person_presses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'hold OK again in 6 seconds' on a keyboard, where OK is key 3 for Ana and key E
    for Ben: the demo's controller names each player's key, as the button tiles do."""
    named: list[str] = []

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        named.append(self.controller.button_name(0, Button.EINHORN))
        named.append(self.controller.button_name(1, Button.EINHORN))
        named.append(self.controller.button_name(1, Button.DREIFALTIGKEIT))

    monkeypatch.setattr(TableLoop, "run", run)
    assert main(["demo", "--bots", "1", "--fast", "--state-dir", str(tmp_path / "s")]) == 0
    assert named == ["key 3", "key E", "key R"]


def test_a_button_pressed_as_the_table_starts_is_told_on_the_screen_and_in_the_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A button leant on, stuck or shorted as play starts does nothing until let go
    (its release was never seen pressed): the family reads whose button it is, and the
    journal says how to check the wiring."""
    pytest.importorskip("gpiozero")
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from table_helpers import players_toml

    from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    gpio = next(s.pin(Button.DREIFALTIGKEIT) for s in load_pin_map(
        default_pin_map_path()).stations if s.player == 1)
    from einhorn_table.adapters.gpio_buttons import ButtonStations

    set_up = ButtonStations.__init__

    def held_down(self: ButtonStations, *args: object, **kwargs: object) -> None:
        set_up(self, *args, **kwargs)  # type: ignore[arg-type]
        factory.pin(gpio).drive_low()  # Ben's ✗, held down as the table starts

    monkeypatch.setattr(ButtonStations, "__init__", held_down)
    notices: list[str] = []

    def run(self: TableLoop, done: Callable[[], bool], max_steps: int | None = None) -> None:
        notices.append(self.controller.notice_at(self.clock.monotonic()))

    monkeypatch.setattr(TableLoop, "run", run)
    table = tmp_path / "table.toml"
    table.write_text('games = 3\ncamera = "synth:seed=3,players=3"\n'
                     f'state = "{tmp_path / "state"}"\n'
                     "[screen]\nwidth = 400\nheight = 240\nfullscreen = false\n"
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"),
                                    ("Cem", 3, "blue")), encoding="utf-8")
    try:
        assert main(["play", str(table)]) == 0
    finally:
        factory.reset()
        Device.pin_factory = saved
    assert notices == ["Ben's ✗ button reads pressed with nobody touching it: it works "
                       "once let go. If it stays pressed, check its wires."]
    assert "doctor --buttons checks every button" in capsys.readouterr().err


def test_several_buttons_pressed_as_the_table_starts_are_named_together() -> None:
    from einhorn_table.cli.play import held_buttons_words
    from einhorn_table.table.config import PlayerConfig

    players = [PlayerConfig("Ana", 1, None), PlayerConfig("Ben", 2, None)]
    assert held_buttons_words([], players) == ""
    assert held_buttons_words([(0, Button.EINHORN), (3, Button.WUNSCH)], players) == (
        "Ana's OK and station 4's + buttons read pressed with nobody touching them: they "
        "work once let go. If they stay pressed, check their wires.")


RECORD_AND_REPLAY = """
import os, sys
from pathlib import Path
import numpy as np
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.dir_source import DirSource
from einhorn_table.adapters.recorder import FrameRecorder
from einhorn_table.ports import Frame
folder = Path(os.fsdecode(sys.argv[1].encode() + b"/caf\\xe9"))
recorder = FrameRecorder(folder)
for index in range(2):
    image = np.full((24, 32, 3), 40 + 100 * index, np.uint8)
    recorder.write(Frame(image=image, timestamp=float(index), index=index))
source = DirSource(folder, FakeClock())
source.open()
print([int(source.read().image[0, 0, 0]) for _ in range(2)])
"""


def test_a_folder_whose_name_is_not_utf8_records_and_replays(tmp_path: Path) -> None:
    """OpenCV's imread and imwrite stop the whole process on such a path (a segmentation
    fault): a recording into a folder named on an old memory card, and its replay as the
    table's camera, go through Python's own file reading. Run apart, so that a crash
    fails this test rather than the whole run."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", RECORD_AND_REPLAY, str(tmp_path)],
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[40, 140]"


def _service_folder_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking into the table's service's state folder, as a user who may not."""
    import einhorn_table.calibration.paths as paths

    def refused(state: object = None, environ: object = None) -> None:
        raise PermissionError(13, "Permission denied",
                              "/var/lib/einhorn-table/calibration.toml")

    monkeypatch.setattr(paths, "state_profile", refused)


def test_the_doctor_in_the_service_s_folder_says_to_run_as_the_table_s_user(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A table file naming the service's state folder, the doctor run by the parent: it
    said nothing but a traceback (PermissionError)."""
    _service_folder_refused(monkeypatch)
    table = tmp_path / "table.toml"
    table.write_text('camera = "synth:seed=1"\n', encoding="utf-8")
    main(["doctor", "--table", str(table), "--frames", "2"])
    out = capsys.readouterr().out
    assert ("this user may not look into /var/lib/einhorn-table for the table's "
            "calibration") in out
    assert "sudo -u einhorn" in out and "doctor" in out


def test_play_in_the_service_s_folder_says_to_run_as_the_table_s_user(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from table_helpers import players_toml

    _service_folder_refused(monkeypatch)
    table = tmp_path / "table.toml"
    table.write_text('camera = "synth:seed=3,players=2"\n'
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    assert main(["play", str(table)]) == 1
    err = capsys.readouterr().err
    assert "this user may not look into /var/lib/einhorn-table" in err
    assert "sudo -u einhorn" in err and "play" in err


def test_bots_playing_without_a_window_say_so_whichever_driver_shows_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """SDL's offscreen driver shows no window either, as the demo's refusal knows: the
    bots' match says it plays on its own, and the 'go on' command is headless too."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    monkeypatch.setattr(TableLoop, "run",
                        lambda self, done, max_steps=None: None)
    assert main(["demo", "--bots", "all", "--players", "2",
                 "--state-dir", str(tmp_path / "s")]) == 0
    err = capsys.readouterr().err
    assert "Without a window, bots play a match" in err


def test_a_recording_named_in_the_table_file_is_found_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """camera = "dir:frames" in a table file is the folder beside that file, as its
    calibration, pins and state are, wherever the table is started from."""
    from table_helpers import players_toml

    from einhorn_table.table.config import load_config

    table = tmp_path / "table" / "table.toml"
    table.parent.mkdir()
    players = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))
    monkeypatch.chdir(tmp_path)
    for camera, read in [("dir:frames,fps=15", f"dir:{table.parent / 'frames'},fps=15.0"),
                         ("file:roll.mp4", f"file:{table.parent / 'roll.mp4'}"),
                         ("dir:~/rec", f"dir:{Path.home() / 'rec'}"),
                         ("dir:/srv/rec", "dir:/srv/rec"), ("opencv:0", "opencv:0")]:
        table.write_text(f'camera = "{camera}"\n' + players, encoding="utf-8")
        assert load_config(table).camera == read


def test_a_webcam_size_given_by_half_or_of_no_pixels_is_refused() -> None:
    from einhorn_table.adapters.source_base import SourceError
    from einhorn_table.adapters.source_spec import parse_source

    for text, said in [("opencv:0,width=1280", "gives its width but not its height"),
                       ("opencv:1,height=720", "gives its height but not its width"),
                       ("opencv:0,width=0,height=480", "a picture of no pixels")]:
        with pytest.raises(SourceError, match=said):
            parse_source(text)
    assert parse_source("opencv:0,width=1280,height=720").options == {
        "width": 1280, "height": 720}
