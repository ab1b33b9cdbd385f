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


def test_saving_says_whether_the_table_will_read_with_the_calibration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "state"))
    default = tmp_path / "state" / "calibration.toml"
    table = tmp_path / "table.toml"
    missing = tmp_path / "no-table.toml"
    # No table file: play reads the state directory's calibration where its table's file
    # names none; demo and read only with --profile.
    assert who_reads_with(default, missing) == (
        "The table (play) reads the dice with it when its table's file names no other calibration; "
        f"the demo and read take it with --profile {default}.")
    elsewhere = tmp_path / "mine.toml"
    assert who_reads_with(elsewhere, missing) == (
        f'To play with it, write calibration = "{elsewhere}" in the table\'s file (table.toml).')
    # A table file that names a calibration: play reads that one, not the default.
    players = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))
    table.write_text('calibration = "mine.toml"\n' + players, encoding="utf-8")
    assert who_reads_with(elsewhere, table) == \
        f"{table} names it: the table reads the dice with it from now on."
    # The line to write is as the table's file reads it: relative to its own folder.
    assert who_reads_with(default, table) == (
        f"{table} names another calibration, {elsewhere}: to play with this one, write "
        'calibration = "state/calibration.toml" there.')
    # A table file that names none: the line to add.
    table.write_text(players, encoding="utf-8")
    assert who_reads_with(tmp_path / "calibration.toml", table) == (
        f'{table} names no calibration yet: add the line calibration = "calibration.toml" '
        "to it, and the table reads the dice with it.")


def test_without_out_beside_a_table_file_naming_none_it_saves_beside_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not in the installer's home, which the table's service never reads."""
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "home-state"))
    table = tmp_path / "table.toml"
    table.write_text(players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--config", str(table),
                 "--rolls", "1", "--autopilot"]) == 0
    assert [p.name for p in load_profile(tmp_path / "calibration.toml").players] == \
        ["Ana", "Ben"]
    assert (tmp_path / "calibration-empty-tray.jpg").is_file()
    assert not (tmp_path / "home-state").exists()
    assert 'add the line calibration = "calibration.toml" to it' in capsys.readouterr().out


@pytest.mark.parametrize(("words", "message"), [
    (["--from-labelled", "photos"], "--from-labelled needs --out FILE"),
    (["--out", "{tmp}"], "is a folder: name the file to save"),
    (["--out", "{tmp}/a-file/calibration.toml"], "a-file is a file, not a folder"),
    (["--names", "Ana,Ben,Ana"], "Ana is named twice"),
    (["--names", "A,B,C,D,E,F,G"], "1 to 6 players register their dice, not 7"),
    (["--size", "100x-5"], "the screen needs at least 320x240"),
])
def test_calibrate_refuses_before_anybody_rolls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    words: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)  # no table.toml here
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "state"))  # were one let through
    (tmp_path / "a-file").write_text("not a folder")
    args = [w.replace("{tmp}", str(tmp_path)) for w in words]
    assert main(["calibrate", "--source", "synth:seed=5", "--autopilot", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_calibrate_uses_the_table_file_s_camera_stations_and_pin_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Calibrating with the table's buttons: those at the stations its players sit at,
    on its pin map, as play sets them up; and its camera."""
    import einhorn_table.adapters.controls as controls
    import einhorn_table.adapters.sources as sources

    pins = tmp_path / "pins.toml"
    pins.write_text((Path(__file__).resolve().parent.parent / "hardware" / "pins.toml")
                    .read_text(encoding="utf-8"), encoding="utf-8")
    table = tmp_path / "table.toml"
    table.write_text('camera = "synth:seed=3,players=3"\npins = "pins.toml"\n' + players_toml(
        ("Ana", 2, "white"), ("Ben", 4, "red"), ("Cem", 5, "blue")), encoding="utf-8")
    seen: dict[str, object] = {}
    make_source = sources.create_source

    def source(text: str, **kwargs: object) -> object:
        seen["camera"] = text
        return make_source(text, **kwargs)  # type: ignore[arg-type]

    class Stop(Exception):
        pass

    def buttons(*args: object, **kwargs: object) -> object:
        seen.update(kwargs)
        raise Stop

    monkeypatch.setattr(sources, "create_source", source)
    monkeypatch.setattr(controls, "create_controls", buttons)
    with pytest.raises(Stop):
        main(["calibrate", "--config", str(table), "--controls", "gpio",
              "--out", str(tmp_path / "c.toml")])
    assert seen["camera"] == "synth:seed=3,players=3"
    assert seen["stations"] == frozenset({1, 3, 4}) and seen["players"] is None
    assert seen["pin_map_path"] == pins


def test_calibrate_with_players_other_than_the_table_file_s_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Else Player 1, Player 2... would be measured and play would find none of them."""
    table = tmp_path / "table.toml"
    table.write_text(players_toml(("Ana", 1, "white"), ("Ben", 2, "red")), encoding="utf-8")
    assert main(["calibrate", "--source", "synth:seed=5", "--autopilot", "--config",
                 str(table), "--players", "3", "--out", str(tmp_path / "c.toml")]) == 1
    assert f"--players 3, but {table} seats 2" in capsys.readouterr().err


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
    out_text = capsys.readouterr().out
    assert "Saved" in out_text and "  100 %" in out_text  # its progress, to the end
    assert (f"With it, {profile.check.right} of 30 labelled dice are read right "
            f"({100 * profile.check.right / 30:.0f} %).") in out_text


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


def test_a_refused_save_leaves_the_calibration_there_was_and_its_picture(
    tmp_path: Path,
) -> None:
    from dataclasses import replace

    from einhorn_table.calibration.profile import ProfileError
    from einhorn_table.cli.calibrate import reference_name, save_calibration

    shipped = Path(__file__).resolve().parent.parent / "calibration" / "synth.toml"
    good = load_profile(shipped)
    out = tmp_path / "calibration.toml"
    save_calibration(good, np.full((48, 64, 3), 10, np.uint8), out)
    picture = tmp_path / reference_name(out)
    kept = (out.read_bytes(), picture.read_bytes())
    crossed = replace(good, tray=replace(good.tray, corners=((10.0, 10.0), (60.0, 40.0),
                                                              (60.0, 10.0), (10.0, 40.0))))
    with pytest.raises(ProfileError, match="corners"):
        save_calibration(crossed, np.full((48, 64, 3), 250, np.uint8), out)
    assert (out.read_bytes(), picture.read_bytes()) == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == [picture.name, out.name]
