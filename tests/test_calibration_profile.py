"""The calibration profile: round trip, and clear refusals naming the key."""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import replace
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
    check_tray,
    load_profile,
    parse_profile,
    profile_to_toml,
    save_profile,
)
from einhorn_table.history.paths import state_dir as history_state_dir
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
    # The same order as the match history's, so that play finds the calibration in
    # the folder its history goes to.
    both = {"STATE_DIRECTORY": "/var/lib/a:/var/lib/b", "EINHORN_STATE_DIR": "/x"}
    assert state_dir(both) == Path("/x") == history_state_dir(None, both, Path("/home/h"))
    assert state_dir({"STATE_DIRECTORY": "/var/lib/a:/var/lib/b"}) == Path("/var/lib/a")
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
readable = st.floats(min_value=4.0, max_value=1e4, allow_nan=False)
# (As a profile holds them: each in one Unicode form, see parse_profile.)
names = st.text(min_size=1, max_size=12).map(lambda name: unicodedata.normalize("NFC", name))
colours = st.tuples(*[st.integers(0, 255)] * 3)
file_names = st.text(
    st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="/\\"), max_size=20
).filter(lambda name: name not in (".", ".."))


@st.composite
def outlines(draw: st.DrawFn) -> tuple[tuple[tuple[float, float], ...], tuple[int, int] | None]:
    """Tray corners (a rectangle, skewed, clockwise on screen) and, sometimes, the frame
    they lie in."""
    x, y = draw(finite), draw(finite)
    width, height, skew = draw(positive), draw(positive), draw(st.floats(-0.4, 0.4))
    corners = ((x, y), (x + width, y), (x + width + skew * width, y + height),
               (x + skew * width, y + height))
    if draw(st.booleans()):
        return corners, None
    # The same shape moved inside a frame that holds it.
    left = min(p[0] for p in corners)
    top = min(p[1] for p in corners)
    inside = tuple((px - left, py - top) for px, py in corners)
    frame = (int(max(p[0] for p in inside)) + 1, int(max(p[1] for p in inside)) + 1)
    return inside, frame


@st.composite
def profiles(draw: st.DrawFn) -> CalibrationProfile:
    low = draw(st.one_of(st.none(), readable))
    high = draw(st.one_of(st.none(), readable))
    if low is not None and high is not None:
        high += low
    corners, frame_size = draw(st.one_of(st.just(((), None)), outlines()))
    players = draw(st.lists(st.tuples(names, colours), max_size=4, unique_by=lambda p: p[0]))
    return CalibrationProfile(
        made_by=draw(st.text(max_size=40)),
        tray=TraySection(corners=corners, frame_size=frame_size,
                         empty_reference=draw(file_names)),
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


# A tray outline that is fine in a 640x480 frame, for the cases that change one key.
GOOD_TRAY = "[tray]\ncorners = [[40, 40], [600, 42], [596, 436], [42, 436]]\n"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # Die and pip sizes the reader could find no die with.
        ("[reader]\nmin_die_px = -10.0\n", "[reader] min_die_px must be 4 or more"),
        ("[reader]\nmax_die_px = 0.5\n", "[reader] max_die_px must be 4 or more"),
        ("[reader]\ntypical_die_px = -3.0\n", "[reader] typical_die_px must be above 0"),
        ("[dice]\ndie_px = 0.0\n", "[dice] die_px must be above 0"),
        ("[dice]\ndie_px_min = -1.0\n", "[dice] die_px_min must be above 0"),
        ("[dice]\npip_px = -2.5\n", "[dice] pip_px must be above 0"),
        ("[dice]\ndie_px_min = 60.0\ndie_px_max = 30.0\n",
         "[dice] die_px_min (60) must not be larger than die_px_max (30)"),
        ("[dice]\npip_contrast = -5.0\n", "[dice] pip_contrast must be 0 to 255"),
        ("[reader]\nmin_pip_contrast = 300.0\n", "[reader] min_pip_contrast must be 0 to 255"),
        # Numbers that are no numbers (TOML has nan and inf), in any table.
        ("[dice]\ndie_px = nan\n", "[dice] die_px = nan: nan and inf are not usable"),
        ("[reader]\nmin_confidence = nan\n", "[reader] min_confidence = nan: nan and inf"),
        ("[reader]\nmax_die_px = inf\n", "[reader] max_die_px = inf: nan and inf"),
        ("[camera]\nlens_position = -inf\n", "[camera] lens_position = -inf: nan and inf"),
        ("[tray]\ncorners = [[nan, 1], [2, 1], [2, 2], [1, 2]]\n",
         "[tray] corners[0][0] = nan: nan and inf"),
        # A frame of no size, and frames read at a size no Pi can.
        ("[tray]\nframe_size = [-640, 480]\n", "[tray] frame_size must be [width, height]: two "
         "whole numbers above 0"),
        ("[tray]\nframe_size = [0, 0]\n", "[tray] frame_size must be [width, height]"),
        ("[reader]\nmax_side = 100000000\n", "[reader] max_side must be 8192 or less"),
        # Tray outlines that are not a tray floor in the frame.
        ("[tray]\ncorners = [[-5000, -5000], [9000, 1], [2, 2], [1, 1]]\n"
         "frame_size = [640, 480]\n", "[tray] corners must be the tray floor's 4 corners"),
        ("[tray]\ncorners = [[-5000, -5000], [9000, 1], [2, 2], [1, 1]]\n",
         "[tray] corners must be the tray floor's 4 corners"),
        ("[tray]\ncorners = [[10, 10], [600, 10], [10, 400], [600, 400]]\n",
         "no side crossing another"),  # the sides cross: a bow tie
        ("[tray]\ncorners = [[10, 10], [10, 10], [10, 10], [10, 10]]\n",
         "[tray] corners must be the tray floor's 4 corners"),  # no area
        ("[tray]\ncorners = [[10, 10], [300, 10], [600, 10], [300, 400]]\n",
         "no corner on a straight line"),  # a triangle
        ("[tray]\ncorners = [[-50, 10], [600, 10], [600, 400], [10, 400]]\n"
         "frame_size = [640, 480]\n",
         "[tray] corners[0] [-50, 10] lies outside the camera frame"),
        ("[tray]\ncorners = [[10, 10], [600, 10], [600, 900], [10, 400]]\n"
         "frame_size = [640, 480]\n",
         "[tray] corners[2] [600, 900] lies outside the camera frame"),
        # An empty-tray picture anywhere but beside the profile.
        ('[tray]\nempty_reference = "../../../../etc/passwd"\n',
         "[tray] empty_reference must be the bare name of a picture"),
        ('[tray]\nempty_reference = "/etc/passwd"\n', "[tray] empty_reference must be"),
        ('[tray]\nempty_reference = "pictures\\\\empty.jpg"\n', "[tray] empty_reference must be"),
        ('[tray]\nempty_reference = ".."\n', "[tray] empty_reference must be"),
    ],
)
def test_a_profile_the_table_could_read_no_dice_with_is_refused_naming_the_key(
    tmp_path: Path, text: str, named: str
) -> None:
    path = write(tmp_path, "version = 1\n" + text)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert named in str(caught.value)
    assert str(path) in str(caught.value)
    # Each says what to do about it.
    assert "einhorn-table calibrate" in str(caught.value) or "usual" in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        # A corner a few pixels outside the frame (marked at its very edge).
        GOOD_TRAY.replace("[40, 40]", "[-2.5, -3]") + "frame_size = [640, 480]\n",
        GOOD_TRAY.replace("[596, 436]", "[643, 483]") + "frame_size = [640, 480]\n",
        # Counter-clockwise corners, and corners with no frame size to check them against.
        "[tray]\ncorners = [[42, 436], [596, 436], [600, 42], [40, 40]]\n",
        "[tray]\ncorners = [[1200, 900], [2400, 900], [2400, 1800], [1200, 1800]]\n",
        '[tray]\nempty_reference = "my table - empty tray.jpg"\n',
        "[reader]\nmax_side = 8192\nmin_die_px = 4\nmax_die_px = 4.5\n",
        "[reader]\nmax_side = 64\ntypical_die_px = 0.5\nmin_pip_contrast = 0\n",
        "[dice]\ndie_px = 40\ndie_px_min = 40\ndie_px_max = 40\npip_px = 0.5\n"
        "pip_contrast = 255\n",
    ],
)
def test_a_profile_at_the_edge_of_what_is_allowed_loads(tmp_path: Path, text: str) -> None:
    load_profile(write(tmp_path, "version = 1\n" + text))


def test_a_profile_that_would_not_load_is_not_saved(tmp_path: Path) -> None:
    # Corners moved by hand across each other: a bow tie, no tray floor.
    crossed = replace(full_profile().tray,
                      corners=((10.0, 12.0), (628.0, 470.0), (630.0, 11.5), (12.0, 468.0)))
    path = tmp_path / "calibration.toml"
    with pytest.raises(ProfileError) as caught:
        save_profile(replace(full_profile(), tray=crossed), path)
    assert f"not saved to {path}: [tray] corners must be the tray floor's 4" in str(caught.value)
    assert not path.exists() and list(tmp_path.iterdir()) == []
    with pytest.raises(ProfileError, match=r"\[dice\] pip_px must be above 0"):
        save_profile(replace(full_profile(), dice=DiceSection(pip_px=0.0)), path)
    assert not path.exists()


def test_check_tray_tells_a_flow_whether_marked_corners_make_a_tray() -> None:
    check_tray(full_profile().tray)
    with pytest.raises(ProfileError, match=r"corners\[1\] \[700, 11\.5\] lies outside"):
        check_tray(replace(full_profile().tray,
                           corners=((10.0, 12.0), (700.0, 11.5), (628.0, 470.0), (12.0, 468.0))))
