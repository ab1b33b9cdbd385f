"""The tray check: does the tray lie where it lay when the table was calibrated?

The table finds a tray set down a little off its place by itself (it measures the
move against where the tray finder found the tray in the calibration's empty-tray
picture, ``einhorn_table.calibration.tray_reading``). This check says how far off it
stands now, in dice, and what to do where the table cannot follow: a tray of another
size or shape in the picture (the camera raised, lowered or tilted), or moved
farther than the table follows.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.errors import EinhornError
from einhorn_table.words import command_name

if TYPE_CHECKING:
    from einhorn_table.ports import Image

#: A tray found within this share of a die of its calibrated place lies there (within
#: this many pixels where the calibration measured no die).
IN_PLACE_DICE = 0.25
IN_PLACE_PIXELS = 4.0
#: Pictures whose width-to-height differs from the calibration's by more than this
#: share are of another shape: the calibration's tray outline no longer fits them.
SHAPE_TOLERANCE = 0.02
#: How the tray check begins where the tray is of another size or shape than calibrated.
OTHERWISE_SHAPED = "the tray looks larger, smaller or otherwise shaped"


def calibrate_again(command: str = "") -> str:
    """What to do where the tray no longer lies as calibrated, with the command as the
    person runs it (``./start`` where it started the companion): ``command``, the whole
    command line that makes the calibration the table reads again, where given."""
    if command:
        return f"Calibrate again: {command} (the tray's step is the first)."
    return f"Run {command_name()} calibrate again (the tray's step is the first)."


def check_picture_size(image: Image, profile_path: Path | None,
                       again: str = "") -> CheckResult | None:
    """Whether the camera's pictures have the shape of those the calibration was made
    on (``[tray] frame_size``): another size of the same shape is scaled, another shape
    (another camera, or one set to another mode) stretches the tray's outline and the
    dice sizes. ``again``: the command that makes the calibration again. None where
    there is nothing to compare."""
    from einhorn_table.calibration.profile import load_profile

    if profile_path is None:
        return None
    try:
        calibrated = load_profile(profile_path).tray.frame_size
    except EinhornError:
        return None  # the profile check says what is wrong with it
    if calibrated is None or min(calibrated) <= 0:
        return None
    height, width = image.shape[:2]
    then_w, then_h = calibrated
    if (width, height) == (then_w, then_h):
        return None
    now = (f"the camera gives {width}x{height} pictures; {profile_path} was made on "
           f"{then_w}x{then_h}")
    if abs((width / height) / (then_w / then_h) - 1) > SHAPE_TOLERANCE:
        return CheckResult(
            "picture", Status.FAIL,
            now + ", pictures of another shape: the tray's outline and the dice sizes it "
            "measured do not fit this camera's pictures",
            f"Calibrate again with the camera the table uses "
            f"({again or command_name() + ' calibrate'}), or "
            "give the table back the camera it was calibrated with (camera = ... in "
            "table.toml).")
    return CheckResult("picture", Status.OK,
                       now + ", the same shape: the table scales the calibration to them")


def check_tray_place(image: Image, profile_path: Path | None,
                     again: str = "") -> CheckResult | None:
    """Where the tray lies in ``image`` (the camera's picture now) against where it
    lay at calibration (the profile at ``profile_path``); None without a profile.
    ``again``: the command that makes the calibration again."""
    # OpenCV and numpy are imported only when the check runs (the doctor starts without).
    from einhorn_table.calibration.profile import load_profile
    from einhorn_table.calibration.tray_finder import find_tray
    from einhorn_table.calibration.tray_reading import (
        farthest_followed,
        rigid_move,
        tray_reader_for,
    )

    if profile_path is None:
        return None
    try:
        profile = load_profile(profile_path)
    except EinhornError:
        return None  # the profile check says what is wrong with it
    reader = tray_reader_for(profile, profile_path)
    if reader.calibrated is None or reader.anchor is None:
        return CheckResult("tray", Status.SKIP, f"{profile_path} has no picture of the empty "
                           "tray to compare with", essential=False)
    then = reader.in_frame(reader.anchor, image)
    found = find_tray(image)
    if found is None:
        return CheckResult(
            "tray", Status.WARN, "no tray found in the camera's picture",
            "Take the dice and anything else out of the tray, and check that the camera sees "
            "the whole tray; then run the doctor again. If it still finds none: "
            + calibrate_again(again),
            essential=False)
    if rigid_move(found, then, float("inf")) is None:
        return CheckResult(
            "tray", Status.WARN, f"{OTHERWISE_SHAPED} than at "
            "calibration (the camera was raised, lowered or tilted, or this is another tray)",
            calibrate_again(again), essential=False)
    # How far its farthest corner moved (as the table measures it: a turn moves the
    # corners more than the middle).
    shift = max(math.dist(now, calibrated) for now, calibrated in zip(found, then, strict=True))
    die = (profile.dice.die_px or reader.die_px or 0.0) * min(reader.scale(image))
    away = f"{shift / die:.1f} dice" if die > 0 else f"{shift:.0f} pixels"
    if shift <= (IN_PLACE_DICE * die if die > 0 else IN_PLACE_PIXELS):
        return CheckResult("tray", Status.OK, "the tray lies where it was calibrated")
    if shift <= farthest_followed(image):
        return CheckResult("tray", Status.OK, f"the tray stands {away} from where it was "
                           "calibrated; the table finds it there")
    return CheckResult(
        "tray", Status.WARN, f"the tray stands {away} from where it was calibrated, farther "
        "than the table follows it",
        f"Set the tray back where it stood, or: {calibrate_again(again)}", essential=False)
