"""The calibration profile: round trip, and clear refusals naming the key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.paths import default_profile_path, state_dir
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    CheckSection,
    DiceSection,
    PlayerDice,
    ProfileError,
    TraySection,
    load_profile,
    parse_profile,
    profile_to_toml,
    save_profile,
)
from einhorn_table.vision.profile import ReaderProfile


def full_profile() -> CalibrationProfile:
    return CalibrationProfile(
        made_by="einhorn-table calibrate --source synth:seed=3",
        made_at="2026-11-22T10:00:00Z",
        camera=CameraSettings(exposure_time_us=12000, analogue_gain=2.5,
                              colour_gains=(1.9, 1.4), lens_position=2.5),
        tray=TraySection(corners=((10.0, 12.0), (630.0, 11.5), (628.0, 470.0), (12.0, 468.0)),
                         frame_size=(640, 480), empty_reference="calibration-empty-tray.png"),
        dice=DiceSection(die_px=48.0, die_px_min=44.0, die_px_max=53.0, pip_px=8.5,
                         pip_polarity="dark", pip_contrast=96.0),
        reader=ReaderProfile(min_die_px=35.0, max_die_px=66.0, pip_polarity="dark",
                             min_pip_contrast=30.0, min_confidence=0.55),
        players=(PlayerDice("Anna", (240, 238, 230)), PlayerDice("Ben \"B\" Ö", (196, 30, 36))),
        check=CheckSection(rolls=5, dice=15, right=15),
    )


def test_save_then_load_gives_an_equal_profile(tmp_path: Path) -> None:
    profile = full_profile()
    path = save_profile(profile, tmp_path / "deep" / "calibration.toml")
    assert load_profile(path) == profile
    assert load_profile(path).reader_profile() == profile.reader
    assert load_profile(path).reference_path(path) == path.parent / "calibration-empty-tray.png"


def test_a_default_profile_round_trips_and_pins_every_reader_tunable(tmp_path: Path) -> None:
    path = save_profile(CalibrationProfile(), tmp_path / "p.toml")
    assert load_profile(path) == CalibrationProfile()
    text = path.read_text()
    assert "min_confidence = 0.5" in text and "pip_polarity = \"both\"" in text
    # Die sizes not measured are left to the frame as read, and the file says so.
    assert "min_die_px" not in text and "left out: judged on the frame as read" in text


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "calibration.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("version = 1\n[dice]\ndie_size = 40\n", "[dice] die_size: unknown key"),
        ("version = 1\ncolour = 3\n", "colour: unknown key"),
        ("version = 1\n[reader]\nmin_confidence = \"high\"\n",
         "[reader] min_confidence must be a number, not a string ('high')"),
        ("version = 1\n[reader]\nmax_side = 640.5\n", "[reader] max_side must be a whole number"),
        ("version = 1\n[reader]\npip_polarity = \"grey\"\n", "[reader] pip_polarity must be"),
        ("version = 1\n[tray]\ncorners = [[1, 2], [3, 4]]\n", "[tray] corners must be 4 points"),
        ("version = 1\n[tray]\ncorners = [[1, 2], [3, 4], [5, 6], [7, \"x\"]]\n",
         "[tray] corners[3][1] must be a number"),
        ("version = 1\n[players]\nAnna = [300, 0, 0]\n", "[players] Anna must be [red, green"),
        ("version = 1\n[camera]\nexposure_time_us = \"fast\"\n",
         "[camera] exposure_time_us must be a whole number"),
        ("version = 1\n[camera]\nshutter = 5\n", "[camera] shutter: unknown key"),
        ("version = 1\n[camera]\nanalogue_gain = 100.0\n", "analogue_gain 100.0 is out of range"),
        ("version = 1\ndice = 3\n", "[dice] must be a table"),
        ("version = 2\n", "version = 2: this einhorn-table reads version 1"),
        ("[dice]\ndie_px = 3\n", "version: missing"),
        ("version = 1\n[reader]\nmin_die_px = 90.0\nmax_die_px = 30.0\n",
         "min_die_px must be smaller than max_die_px"),
    ],
)
def test_a_broken_profile_is_refused_naming_the_key(
    tmp_path: Path, text: str, named: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert named in str(caught.value)
    assert str(path) in str(caught.value)


def test_not_toml_says_so_with_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "version = 1\n[dice\n")
    with pytest.raises(ProfileError, match=r"is not valid TOML \(.*line 2"):
        load_profile(path)


def test_a_missing_profile_says_to_calibrate(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="run 'einhorn-table calibrate'"):
        load_profile(tmp_path / "nope.toml")


def test_the_toml_is_readable_by_a_person() -> None:
    text = profile_to_toml(full_profile())
    assert text.startswith("version = 1\n")
    assert '"Ben \\"B\\" Ö" = [196, 30, 36]' in text
    assert "[camera]\nexposure_time_us = 12000\n" in text


def test_state_dir_order() -> None:
    assert state_dir({"STATE_DIRECTORY": "/var/lib/a:/var/lib/b", "EINHORN_STATE_DIR": "/x"}) \
        == Path("/var/lib/a")
    assert state_dir({"EINHORN_STATE_DIR": "/x"}) == Path("/x")
    assert state_dir({"XDG_STATE_HOME": "/s"}) == Path("/s/einhorn-table")
    assert default_profile_path({"EINHORN_STATE_DIR": "/x"}) == Path("/x/calibration.toml")


def test_the_profiles_in_the_calibration_folder_load() -> None:
    folder = Path(__file__).resolve().parent.parent / "calibration"
    profiles = sorted(folder.glob("*.toml"))
    assert len(profiles) >= 2
    for path in profiles:
        profile = load_profile(path)
        smallest, largest = profile.reader.die_px_range(1.0)
        assert smallest < largest
        reference = profile.reference_path(path)
        assert reference is None or reference.is_file(), reference


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
positive = st.floats(min_value=0.5, max_value=1e4, allow_nan=False)
names = st.text(min_size=1, max_size=12)
colours = st.tuples(*[st.integers(0, 255)] * 3)


@st.composite
def profiles(draw: st.DrawFn) -> CalibrationProfile:
    low = draw(st.one_of(st.none(), positive))
    high = draw(st.one_of(st.none(), positive))
    if low is not None and high is not None:
        high += low
    corners = draw(st.one_of(st.just(()), st.tuples(*[st.tuples(finite, finite)] * 4)))
    players = draw(st.lists(st.tuples(names, colours), max_size=4, unique_by=lambda p: p[0]))
    return CalibrationProfile(
        made_by=draw(st.text(max_size=40)),
        tray=TraySection(corners=corners, empty_reference=draw(st.text(max_size=20))),
        dice=DiceSection(die_px=draw(st.one_of(st.none(), positive)),
                         pip_polarity=draw(st.sampled_from(("dark", "light", "both")))),
        reader=ReaderProfile(min_die_px=low, max_die_px=high,
                             min_confidence=draw(st.floats(0.0, 1.0)),
                             max_side=draw(st.integers(64, 4096)),
                             typical_die_px=draw(st.one_of(st.none(), positive))),
        players=tuple(PlayerDice(n, c) for n, c in players),
        check=CheckSection(*draw(st.tuples(*[st.integers(0, 1000)] * 3))),
    )


@settings(max_examples=60, deadline=None)
@given(profiles())
def test_any_profile_round_trips_through_toml(profile: CalibrationProfile) -> None:
    assert parse_profile(tomllib.loads(profile_to_toml(profile))) == profile


def test_a_typical_die_size_of_nothing_is_refused() -> None:
    text = "version = 1\n[reader]\ntypical_die_px = 0.0\n"
    with pytest.raises(ProfileError, match="typical_die_px must be above 0"):
        parse_profile(tomllib.loads(text))


def test_a_frame_read_at_no_size_is_refused() -> None:
    text = "version = 1\n[reader]\nmax_side = 0\n"
    with pytest.raises(ProfileError, match="max_side must be 64 or more"):
        parse_profile(tomllib.loads(text))
