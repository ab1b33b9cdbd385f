"""Whether a calibration fits the camera's view of now.

The calibration keeps the view the camera told when it was made (``[view]``: the Pi
camera's sensor and the sensor mode read). The same picture size can show more or
less of the table: since the update that reads a Pi camera's whole sensor (its
binned full-view mode, :func:`~einhorn_table.adapters.picamera2_source.full_view_raw_size`),
a Camera Module 3 shows about half as much again of the table as before, in pictures
of the same size. A calibration made in another view has the tray's outline and the
dice sizes of other pictures: it must be made again, which no moved camera explains.

Webcams, recordings and the synthetic table tell no view: nothing of theirs changed,
and their calibrations are left alone. So are calibrations that keep no view and
were made with one of them (their ``made_by`` names the camera).

The digital crop (libcamera's ScalerCrop) is not kept: the companion never sets it,
and unset it is picamera2's default, the sensor mode's whole field of view cut to the
main stream's width-to-height (its ``preserve_ar``). So it follows from the sensor mode
kept here and the picture size kept in ``[tray] frame_size`` (the doctor's picture
line), and tells nothing they do not.

A calibration that keeps no view and that the doctor finds still fitting (the tray
lies as calibrated) is given the camera's view of now (:func:`keep_view`, which the
doctor's view line says it did): ``play`` then stops warning that it may not fit.
"""

from __future__ import annotations

import errno
import os
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from einhorn_table.adapters.source_base import CameraView
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    ProfileError,
    ViewSection,
    parse_profile,
    profile_to_toml,
)
from einhorn_table.calibration.toml_writer import TomlValue, toml_document, toml_value
from einhorn_table.parsing import loads_toml
from einhorn_table.text_files import TextFileError, read_text_file, write_text_whole

#: The Pi camera's source kind, as ``made_by`` names it (``--source picamera2...``).
PI_CAMERA = "picamera2"


@dataclass(frozen=True)
class ViewNote:
    """What a calibration's view is to the camera's view now."""

    #: True: the view calibrated; False: another view; None: cannot tell (a Pi camera's
    #: calibration made before the view was kept).
    fits: bool | None
    #: What it means, in words (without what to do).
    text: str


def made_with_another_camera(made_by: str) -> bool:
    """Whether ``made_by`` (the profile's command line) names a camera that is not
    the Pi camera (a webcam, a recording, the synthetic table): the update changed
    nothing of its view."""
    words = made_by.split()
    if "--source" not in words:
        return False
    at = words.index("--source") + 1
    return at < len(words) and not words[at].startswith(PI_CAMERA)


def view_note(profile: CalibrationProfile, profile_path: Path,
              now: CameraView | None) -> ViewNote | None:
    """How the calibration at ``profile_path`` stands to the camera's view ``now``
    (as the opened source tells it); None where there is nothing to say (the
    camera tells no view, or the calibration was made with another kind of camera)."""
    if now is None:
        return None
    then = profile.view.told
    if then is None:
        if made_with_another_camera(profile.made_by):
            return None
        return ViewNote(
            None,
            f"{profile_path} was made before the companion kept the camera's view; since "
            "then it reads the Pi camera's whole sensor, where a Camera Module 3 (and "
            "some others) read only its middle before: the pictures may now show more of "
            "the table than the tray's outline and the dice sizes were measured on",
        )
    if then == now:
        return ViewNote(True, f"the camera's view is the one calibrated ({now})")
    if then.camera != now.camera:
        what = (f"another camera than when {profile_path} was made (then {then}, now "
                f"{now})")
    else:
        what = (f"the camera shows another part of the table than when {profile_path} was "
                f"made (then {then}, now in its {now.mode[0]}x{now.mode[1]} sensor mode)")
    return ViewNote(
        False,
        f"{what}: the tray's outline and the dice sizes measured then do not fit its "
        "pictures",
    )


#: What a Windows editor may write before a file's first line (UTF-8's byte-order mark).
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
#: A ``[view]`` table's header line (its name bare or quoted).
VIEW_HEADER = re.compile(r"""\s*\[\s*(view|"view"|'view')\s*\]\s*(#.*)?""")
#: Any table's header line (``[name]``, ``[[name]]``, dotted or quoted names).
TABLE_HEADER = re.compile(r"""\s*\[\[?\s*[\w\-."' ]+\]\]?\s*(#.*)?""")
#: A line that sets one of the view's keys (in its ``[view]`` table).
VIEW_KEY = re.compile(r"""\s*(camera|mode|"camera"|"mode"|'camera'|'mode')\s*=.*""")
#: ``view = {...}`` on one line: the view written as an inline table, any comment after.
INLINE_VIEW = re.compile(r"""(\s*(?:view|"view"|'view')\s*=\s*)\{[^{}]*\}(.*)""")
#: What the ``[view]`` the doctor adds says of itself in the profile.
KEPT_COMMENT = ("The camera's view: its sensor and the sensor mode read (kept by the "
                "doctor: the tray lay as calibrated in this view)")


def keep_view(profile_path: Path, view: CameraView) -> None:
    """Write ``view`` into the calibration at ``profile_path``, which keeps none, as its
    ``[view]``, the rest of the file left as it is (comments too): added at its end
    (made before the view was kept), its keys set under the file's ``[view]`` line
    (empty or half filled in), or set in its ``view = {...}`` line (the view written as
    an inline table). Only a view written in a shape none of these edits reads back
    (dotted keys, an array over several lines) has the file written again whole. Its
    line ends and its owner stay as they were (the doctor run with sudo leaves the
    service's calibration readable by the service). Nothing is written where the result
    would not load as the same calibration with that view. A :class:`ProfileError` says
    why it could not be written."""
    try:
        text = read_text_file(profile_path, "a calibration profile")
        data = loads_toml(text)
        profile = parse_profile(data)
    except (OSError, TextFileError, tomllib.TOMLDecodeError, ProfileError) as error:
        raise ProfileError(f"{profile_path} could not be read again ({error})") from None
    kept = replace(profile, view=ViewSection.of(view))
    new = _view_set_in_place(text, "view" in data, view)
    if new is None or not _reads_as(new, kept):  # (an edit in place is read back there)
        new = profile_to_toml(kept)
        try:
            if parse_profile(loads_toml(new)) != kept:
                raise ProfileError("the view would not read back as written")
        except (tomllib.TOMLDecodeError, ProfileError) as error:
            raise ProfileError(f"{profile_path} was left as it was ({error})") from None
    try:
        was = profile_path.read_bytes()
        if b"\r\n" in was:  # (saved by a Windows editor: kept so)
            new = new.replace("\n", "\r\n")
        if was.startswith(BYTE_ORDER_MARK):  # (Notepad's, kept: the first line as it was)
            new = "\ufeff" + new
        _refuse_another_users(profile_path)
        write_text_whole(profile_path, new)  # (root, with sudo, leaves it its owner's)
    except OSError as error:
        raise ProfileError(
            f"{profile_path} could not be written ({error.strerror or error})") from None


def _reads_as(text: str, profile: CalibrationProfile) -> bool:
    try:
        return parse_profile(loads_toml(text)) == profile
    except (tomllib.TOMLDecodeError, ProfileError):
        return False


def _view_set_in_place(text: str, has_view: bool, view: CameraView) -> str | None:
    """``text`` with ``view`` set where the file has its view, every other line as it
    was; None where the view is not written in a shape edited here."""
    section: dict[str, TomlValue] = {"camera": view.camera, "mode": list(view.mode)}
    if not has_view:  # (made before the view was kept): added at the end
        return (text.rstrip("\n") + "\n\n"
                + toml_document({}, {"view": section}, {"view": KEPT_COMMENT}).lstrip("\n"))
    lines = text.splitlines()
    headers = [i for i, line in enumerate(lines) if VIEW_HEADER.fullmatch(line)]
    if len(headers) == 1:  # "[view]": its camera and mode lines replaced
        start = headers[0] + 1
        end = next((i for i in range(start, len(lines)) if TABLE_HEADER.fullmatch(lines[i])),
                   len(lines))
        keys = toml_document({}, {"view": section}).splitlines()[2:]
        rest = [line for line in lines[start:end] if not VIEW_KEY.fullmatch(line)]
        return "\n".join([*lines[:start], *keys, *rest, *lines[end:]]) + "\n"
    inline = [i for i, line in enumerate(lines) if INLINE_VIEW.fullmatch(line)]
    if headers or len(inline) != 1:
        return None
    at = inline[0]
    match = INLINE_VIEW.fullmatch(lines[at])
    assert match is not None
    pairs = ", ".join(f"{key} = {toml_value(value)}" for key, value in section.items())
    lines[at] = f"{match[1]}{{ {pairs} }}{match[2]}"
    return "\n".join(lines) + "\n"


def _refuse_another_users(path: Path) -> None:
    """Refuse (OSError) to write another user's file at ``path`` anew, which would make
    this user its owner, unless this user is root (who gives it back to its owner): the
    table's service, running as that user, could not read it any more."""
    owner = path.stat().st_uid
    if owner != os.geteuid() and os.geteuid() != 0:
        raise PermissionError(
            errno.EPERM, f"it belongs to the user {_user_name(owner)}: run the doctor as "
            "that user")


def _user_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)
