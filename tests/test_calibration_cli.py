"""``einhorn-table calibrate``: guided on the synthetic table (autopilot), and from labels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from calibration_helpers import write_labelled_set
from table_helpers import players_toml

from einhorn_table.calibration.profile import load_profile
from einhorn_table.cli import main
from einhorn_table.cli.calibrate import who_reads_with
from einhorn_table.screen.renderer import ACCENT
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def test_guided_calibration_saves_profile_reference_and_screens(tmp_path: Path) -> None:
    out = tmp_path / "state" / "calibration.toml"
    shots = tmp_path / "shots"
    status = main(["calibrate", "--source", "synth:seed=5,players=2", "--names", "Anna,Ben",
                   "--rolls", "1", "--autopilot", "--screenshots", str(shots),
                   "--out", str(out)])
    assert status == 0
    profile = load_profile(out)
    assert [p.name for p in profile.players] == ["Anna", "Ben"]
    reference = profile.reference_path(out)
    assert reference is not None and cv2.imread(str(reference)) is not None
    names = [p.name for p in sorted(shots.glob("calibration-*.png"))]
    for screen in ("tray", "corners-1", "light", "reference", "colours-1", "colours-2", "sizes",
                   "sizes-help", "check-1", "result", "saved"):
        assert any(n.endswith(f"-{screen}.png") for n in names), (screen, names)
    tray = cv2.imread(str(next(shots.glob("calibration-01-tray.png"))))
    assert tray.shape[:2] == (480, 800)
    accent = np.all(tray == np.array(ACCENT[::-1], np.uint8), axis=2)
    assert accent.sum() > 1000  # the tray outline is drawn


def test_the_players_who_register_their_dice_are_the_table_file_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "table.toml"
    table.write_text(players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    out = tmp_path / "calibration.toml"
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--config", str(table),
                 "--rolls", "1", "--autopilot", "--out", str(out)]) == 0
    assert [p.name for p in load_profile(out).players] == ["Ana", "Ben"]
    assert f"Players from {table}: Ana, Ben" in capsys.readouterr().out


def test_calibrating_again_without_out_replaces_the_calibration_the_table_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The installer's own state directory is not where the table's service looks.
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "home-state"))
    table = tmp_path / "table.toml"
    table.write_text('calibration = "calibration.toml"\n'
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--config", str(table),
                 "--rolls", "1", "--autopilot"]) == 0
    assert [p.name for p in load_profile(tmp_path / "calibration.toml").players] == \
        ["Ana", "Ben"]
    assert not (tmp_path / "home-state").exists()
    assert f"{table} names it: the table reads the dice with it" in capsys.readouterr().out


def test_saving_says_whether_the_table_will_read_with_the_calibration(tmp_path: Path) -> None:
    default = tmp_path / "state" / "calibration.toml"
    table = tmp_path / "table.toml"
    missing = tmp_path / "no-table.toml"
    # No table file: play reads the state directory's calibration, and only that one.
    assert who_reads_with(default, missing, default) == \
        "The table reads the dice with it from now on."
    elsewhere = tmp_path / "mine.toml"
    assert who_reads_with(elsewhere, missing, default) == (
        f'To play with it, write calibration = "{elsewhere}" in the table\'s file (table.toml).')
    # A table file that names a calibration: play reads that one, not the default.
    players = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))
    table.write_text('calibration = "mine.toml"\n' + players, encoding="utf-8")
    assert who_reads_with(elsewhere, table, default) == \
        f"{table} names it: the table reads the dice with it from now on."
    assert who_reads_with(default, table, default).startswith(
        f"{table} names another calibration, {elsewhere}: to play with this one, write "
        f'calibration = "{default}" there.')


def test_from_labelled_makes_a_profile_for_that_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "set"
    write_labelled_set(folder, SynthTable(8, die_size=30, dice_colors=[DICE_PALETTE[0]]), 10)
    out = tmp_path / "set.toml"
    assert main(["calibrate", "--from-labelled", str(folder), "--out", str(out)]) == 0
    profile = load_profile(out)
    assert profile.dice.pip_polarity == "dark"  # white dice, black pips
    assert profile.dice.die_px is not None and 25 <= profile.dice.die_px <= 45  # box, shading in
    # The reader is narrowed to these dice only where that reads them better.
    assert profile.reader.pip_polarity in ("dark", "both")
    low = profile.reader.min_die_px
    assert low is None or low < 30
    assert profile.reader.max_die_px is None  # left to the frame as read, on purpose
    assert profile.check.rolls == 10 and profile.check.dice == 30
    assert profile.check.right >= 28
    assert "Saved" in capsys.readouterr().out


def test_from_labelled_without_labels_says_what_to_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "--from-labelled", str(tmp_path), "--out",
                 str(tmp_path / "p.toml")]) == 1
    assert "holds no labels.jsonl" in capsys.readouterr().err


def test_benchmark_measures_on_the_half_it_did_not_calibrate_on(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from vision_calibration import calibrated_figures, split_halves

    from einhorn_table.vision.labelled import load_set

    folder = tmp_path / "set"
    write_labelled_set(folder, SynthTable(4, die_size=28, dice_colors=[DICE_PALETTE[0]]), 8)
    calibrate, measure = split_halves(load_set(folder))
    assert [p.path.name for p in calibrate] == ["p00.png", "p02.png", "p04.png", "p06.png"]
    assert [p.path.name for p in measure] == ["p01.png", "p03.png", "p05.png", "p07.png"]
    figures = calibrated_figures(folder)
    assert figures["photos"] == 4 and figures["dice"] == 12
    for side in ("uncalibrated", "calibrated"):
        numbers = figures[side]
        assert isinstance(numbers, dict)
        assert 0 <= numbers["right"] <= 100 and 0 <= numbers["silent"] <= 100
