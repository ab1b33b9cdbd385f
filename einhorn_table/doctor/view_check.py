"""The view check: was the calibration made in the camera's view of now?

A Pi camera read in another sensor mode than at calibration (since the update that
reads its whole sensor) gives pictures of the same size that show another part of
the table: the tray would look "larger or smaller", as if the camera had been
moved. This check says what it is, and the command that makes the calibration again
(see :mod:`einhorn_table.calibration.camera_view`). A calibration made before the view
was kept, in which the tray lies as calibrated, fits: the check then keeps the camera's
view in it (``keep``), and says so, so that ``play`` stops warning at every start.
"""

from __future__ import annotations

from pathlib import Path

from einhorn_table.adapters.source_base import CameraView
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.doctor.tray_check import OTHERWISE_SHAPED
from einhorn_table.errors import EinhornError


def check_camera_view(now: CameraView | None, profile_path: Path | None, again: str,
                      tray: CheckResult | None = None, *,
                      keep: bool = False) -> CheckResult | None:
    """The calibration at ``profile_path`` against the camera's view ``now``; ``again``
    is the command that makes it again, ``tray`` the tray check's result (a tray lying
    as calibrated shows that a calibration keeping no view still fits; with ``keep``,
    the view is then written into it). None where there is nothing to say (no
    calibration, a camera that tells no view, a calibration made with another kind of
    camera)."""
    from einhorn_table.calibration.camera_view import keep_view, view_note
    from einhorn_table.calibration.profile import load_profile

    if profile_path is None or now is None:
        return None
    try:
        profile = load_profile(profile_path)
    except EinhornError:
        return None  # the profile check says what is wrong with it
    note = view_note(profile, profile_path, now)
    if note is None:
        return None
    if note.fits is True:
        return CheckResult("view", Status.OK, note.text)
    if note.fits is False:
        return CheckResult("view", Status.FAIL, note.text,
                           f"Calibrate again with the camera as it is now: {again}")
    if tray is not None and tray.status is Status.OK:
        fits = (f"{note.text}. The tray lies as calibrated, so this camera's view did not "
                "change: the calibration fits")
        if not keep:
            return CheckResult("view", Status.OK,
                               f"{fits} (the next calibration keeps the view)")
        try:
            keep_view(profile_path, now)
        except EinhornError as error:
            return CheckResult(
                "view", Status.WARN,
                f"{fits}, but the view could not be kept in it: {error}. Until it is, "
                "play says at every start that the calibration may not fit",
                f"Run the doctor again as a user who may write {profile_path}, or "
                f"calibrate again: {again}", essential=False)
        return CheckResult(
            "view", Status.OK,
            f"{fits}. The doctor wrote the camera's view ({now}) into {profile_path} (its "
            "[view] section), so that play no longer warns about it")
    if tray is not None and tray.detail.startswith(OTHERWISE_SHAPED):
        return CheckResult(
            "view", Status.WARN,
            f"{note.text}. That is most likely why the tray looks larger or smaller (see "
            "the tray line), rather than a moved camera",
            f"Calibrate again: {again}", essential=False)
    return CheckResult(
        "view", Status.WARN, note.text,
        f"If the dice are misread, or the tray line says the tray looks larger or smaller "
        f"than at calibration, calibrate again: {again}",
        essential=False)
