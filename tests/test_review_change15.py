"""Review of change 15: the roll photos' writer, the stations, the commands, the
installer and the doctor, as a family and the parent who installed the table meet them."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import test_installer_review6 as installer
from table_rig import open_store
from test_installer_review6 import needs_sh

from einhorn_table.adapters.source_base import BaseSource
from einhorn_table.history import TableLog
from einhorn_table.history.photo_writer import FLUSH_SECONDS, PhotoWriter
from einhorn_table.ports import Frame
from einhorn_table.rules import Setup

# --- the roll photos' writer ---------------------------------------------------------------


def test_a_card_that_stopped_answering_is_waited_for_once_at_the_tables_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's stop waited FLUSH_SECONDS for the match's photos, then as long again
    when the history closed: 16 s, past the service's stop timeout (10 s after
    STOPPING=1), so systemd killed the table before it closed its camera and history."""
    wait = 1.0  # (FLUSH_SECONDS, shortened for the test)
    assert FLUSH_SECONDS + FLUSH_SECONDS > 10 > FLUSH_SECONDS
    monkeypatch.setattr(PhotoWriter.flush, "__defaults__", (wait,))
    monkeypatch.setattr(PhotoWriter.close, "__defaults__", (wait,))
    store = open_store(tmp_path)
    log = TableLog(store, background_photos=True)
    writer = store.photo_writer
    assert writer is not None
    stuck = threading.Event()
    writer.encode = lambda frame: bytes(stuck.wait(60))  # a card that hangs
    log.begin(Setup(players=("Ana", "Ben")))
    assert log.recorder is not None
    log.recorder.save_photo(np.zeros((8, 8, 3), np.uint8))
    try:
        start = time.monotonic()
        log.close()  # (the match's recorder: waits for the photo)
        store.close()  # (the history: the card has not answered since)
        took = time.monotonic() - start
    finally:
        stuck.set()
    assert wait <= took < wait * 1.8


# --- ./start beside the table's service ------------------------------------------------------

SYSTEMCTL = """#!/bin/sh
# systemctl as it answers of a service starting (or between two tries of one that fails)
case "$*" in
    "is-active --quiet einhorn-table") exit 3 ;;
    "is-active einhorn-table") echo activating; exit 3 ;;
esac
exit 1
"""


@needs_sh
def test_start_on_the_pi_while_the_service_is_starting_says_so_instead_of_fighting_it(
        tmp_path: Path) -> None:
    """While the service started the table (the camera opening; or the 3 s between two
    tries of a service that keeps stopping, as the parent then runs ./start to see why)
    systemctl says "activating", not "active": ./start started a second table, and the
    two fought over the camera and the buttons."""
    repo = installer._checkout(tmp_path)
    (repo / "table.toml").write_text("", encoding="utf-8")
    fake = tmp_path / "bin"
    fake.mkdir()
    installer._script(fake / "python3", installer.FAKE_PYTHON)
    installer._script(fake / "venv-python", installer.VENV_PYTHON)
    installer._script(fake / "einhorn-table", installer.EINHORN_TABLE)
    installer._script(fake / "dpkg", "#!/bin/sh\nexit 0\n")
    installer._script(fake / "systemctl", SYSTEMCTL)
    (tmp_path / "model").write_text("Raspberry Pi 5 Model B Rev 1.0\0")
    env = {"PATH": f"{fake}:/usr/bin:/bin", "HOME": str(tmp_path), "FAKE_BIN": str(fake),
           "FAKE_VENV": "ok", "FAKE_PIP": "ok", "PYTHON": str(fake / "python3"),
           "EINHORN_DEVICE_MODEL": str(tmp_path / "model")}
    done = subprocess.run(["sh", str(repo / "start")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    said = " ".join(done.stderr.split())
    assert done.returncode == 1 and "ran einhorn-table" not in done.stdout, said
    assert "The table's service is starting the table" in said
    assert f"sudo systemctl stop einhorn-table, then {repo}/start again" in said


# --- the charts' install hint ----------------------------------------------------------------


def test_the_chart_hint_names_no_font_for_an_emoji_nor_for_the_dice_s_own_words() -> None:
    """A child named "Papa 🦄" on the charts was told to install fonts-freefont-ttf,
    which has no emoji (nor has any font the charts look for): the name stayed "player
    A" after the install. And "王芳's dice" asked for fonts-freefont-ttf beside
    fonts-noto-cjk, for the letters of "'s dice", which every font has."""
    from einhorn_table.history.charts import ChartNames, install_hint

    emoji = install_hint(ChartNames((), {"Papa 🦄": "player A"}))
    assert "apt install" not in emoji
    assert emoji == ("The name of player A has an emoji or another symbol that no font the "
                     "charts use has: it stays 'player A', whatever is installed.")
    cjk = install_hint(ChartNames((), {"王芳": "player A", "王芳's dice": "player A's dice"}))
    assert "sudo apt install fonts-noto-cjk)" in cjk
    thai = install_hint(ChartNames((), {"สมชาย": "player A", "Papa 🦄": "player B"}))
    assert "sudo apt install fonts-freefont-ttf)" in thai
    assert "The name of player B has an emoji" in thai and "of player A" not in thai


# --- record ----------------------------------------------------------------------------------


class _StuckClockCamera(BaseSource):
    """A live camera whose timestamps stand still (a driver's bad clock, or one that
    restarted its count): a frame every 10 ms for 10 s, all taken "at 7.0 s"."""

    description = "a camera with a stuck clock"

    def _open(self) -> None:
        pass

    def _read(self) -> Frame | None:
        if self.frames_read >= 1000:
            return None
        time.sleep(0.01)
        return Frame(image=np.zeros((8, 8, 3), np.uint8), timestamp=7.0,
                     index=self.frames_read)

    def _close(self) -> None:
        pass


def test_record_of_a_live_camera_whose_clock_stands_still_ends_all_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """record counts the recording's own seconds, by the frames' timestamps: a live
    camera whose timestamps stood still (or went back) was recorded until Ctrl-C or a
    full card, however few seconds were asked for."""
    from einhorn_table.adapters import sources
    from einhorn_table.cli import main

    monkeypatch.setattr(sources, "create_source",
                        lambda *args, **kwargs: _StuckClockCamera())
    start = time.monotonic()
    assert main(["record", str(tmp_path / "out"), "--source", "opencv:0",
                 "--seconds", "0.2"]) == 0
    took = time.monotonic() - start
    assert took < 6, took  # (0.2 s asked for; the camera gives 10 s of frames)
    assert len(list((tmp_path / "out").iterdir())) < 600


def test_the_chart_hint_counts_only_the_letters_no_font_here_has(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """さくら😀: matplotlib's own font has 😀, only さくら is missing: the hint names the CJK
    fonts (which then draw the name), not the emoji; 🦄, which no font here has, gets no
    package (fonts-freefont-ttf, asked for before, has none)."""
    pytest.importorskip("matplotlib")
    from test_history_review7 import _history, _kept

    from einhorn_table.history import charts

    monkeypatch.setattr(charts, "_fallback_fonts", lambda: ())
    _kept(tmp_path / "state", range(2, 3), players=("さくら😀", "Papa 🦄", "Ben"))
    assert _history(tmp_path / "state", "stats", "--charts", str(tmp_path / "c")) == 0
    out = " ".join(capsys.readouterr().out.split())
    names = charts.chart_names(gather_stats(tmp_path / "state"))
    cjk, unicorn = names.stand_ins["さくら😀"], names.stand_ins["Papa 🦄"]
    assert f"{cjk} = さくら😀" in out and f"{unicorn} = Papa 🦄" in out
    assert "sudo apt install fonts-noto-cjk)" in out and "freefont" not in out
    assert f"The name of {unicorn} has an emoji or another symbol" in out
    assert f"The name of {cjk}" not in out


def gather_stats(state: Path) -> Any:
    from history_helpers import open_store as history_store

    from einhorn_table.history.stats import gather

    with history_store(state) as store:
        return gather(store)
