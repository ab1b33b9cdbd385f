"""Checks of the installation around the hardware: defaults, profile, state dir, groups."""

from __future__ import annotations

import grp
import os
import subprocess
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from einhorn_table.adapters.camera_settings import CameraSettings, CameraSettingsError
from einhorn_table.doctor.machine import Machine
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.history.paths import state_dir
from einhorn_table.parsing import loads_toml
from einhorn_table.text_files import TextFileError, read_text_file

#: The groups the service's user needs (see systemd/einhorn-table.service).
GROUPS = ("video", "render", "input", "gpio")
#: The table's service (systemd/einhorn-table.service), and the states in which it
#: holds (or is about to take) the camera, the buttons and the screen.
SERVICE = "einhorn-table.service"
RUNNING_STATES = frozenset({"active", "activating", "reloading", "deactivating"})
#: What to do while the service runs: stop it, check, start it again.
STOP_THE_SERVICE = (
    "Stop the table first: sudo systemctl stop einhorn-table, then run this again; "
    "afterwards start the table again: sudo systemctl start einhorn-table."
)


def default_source(machine: Machine) -> str:
    return "picamera2" if machine.is_pi else "synth:seed=0"


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the match history goes, as ``play`` finds it: ``EINHORN_STATE_DIR``,
    systemd's ``$STATE_DIRECTORY``, else the XDG state home."""
    return state_dir(None, os.environ if environ is None else environ, Path.home())


def check_profile(path: Path | None) -> tuple[CheckResult, CameraSettings | None]:
    """A calibration profile parses as TOML, has a ``version``, a valid ``[camera]``, and
    every other value as ``play`` takes it."""
    if path is None:
        return (
            CheckResult(
                "profile",
                Status.SKIP,
                "no calibration profile given (--profile FILE checks one)",
                essential=False,
            ),
            None,
        )
    try:
        data = loads_toml(read_text_file(path, "a calibration profile"))  # as play reads it
    except FileNotFoundError:
        return _profile_fail(path, "does not exist", "Give the right path with --profile."), None
    except TextFileError as error:
        return CheckResult("profile", Status.FAIL, str(error)), None
    except tomllib.TOMLDecodeError as error:
        return _profile_fail(path, f"is not valid TOML ({error})", "Fix that line."), None
    from einhorn_table.calibration.profile import remake

    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return (
            _profile_fail(
                path,
                f"has no valid 'version' (found {version!r})",
                f"Add 'version = 1' at the top, or {remake()}.",
            ),
            None,
        )
    settings = None
    if "camera" in data:
        try:
            settings = CameraSettings.from_mapping(data["camera"])
        except CameraSettingsError as error:
            return _profile_fail(path, f"[camera]: {error}", "Fix the [camera] table."), None
    from einhorn_table.calibration.profile import ProfileError, parse_profile, says_what_to_do

    try:
        parse_profile(data)  # every value as play would take it: a tray, sizes...
    except ProfileError as error:
        said = str(error)
        todo = "" if says_what_to_do(error) else f"Correct it in {path}, or {remake()}."
        return _profile_fail(path, f"cannot be used: {said}", todo), None
    # (An empty [camera] table, as calibrate writes where all was found automatically,
    # sets nothing.)
    extra = ", with camera settings" if settings not in (None, CameraSettings()) else ""
    return CheckResult("profile", Status.OK, f"{path}: version {version}{extra}"), settings


def _profile_fail(path: Path, what: str, todo: str) -> CheckResult:
    return CheckResult("profile", Status.FAIL, f"the calibration profile {path} {what}", todo)


def check_state_dir(path: Path) -> CheckResult:
    """The state directory exists (or can be made) and a file can be written there."""
    probe = path / ".einhorn-doctor-probe"
    if path.exists() and not path.is_dir():
        return CheckResult(
            "state dir", Status.FAIL, f"{path} is a file, not a folder",
            "Name a folder for the match history (state = \"...\" in table.toml, or "
            "--state-dir), or move that file away.",
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe.write_text("ok\n", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        return CheckResult(
            "state dir",
            Status.FAIL,
            f"{path} is not writable ({error.strerror or error})",
            "The service gets /var/lib/einhorn-table from systemd (StateDirectory=). "
            "By hand, give a folder you own with --state-dir, or: "
            f"sudo mkdir -p {path} && sudo chown $USER {path}",
        )
    return CheckResult("state dir", Status.OK, f"{path} is writable")


def service_state() -> str | None:
    """What systemd says of the table's service ("active", "inactive", ...); None
    where there is no systemd to ask."""
    try:
        done = subprocess.run(
            ["systemctl", "is-active", SERVICE],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def check_service(state_of: Callable[[], str | None] | None = None) -> CheckResult | None:
    """Whether the table's service is running: then it holds the camera, the buttons
    and the screen, and checking them would fail with the wrong advice (a camera
    "not found", a screen "held by the desktop"). None when it is not running."""
    state = (state_of or service_state)()
    if state not in RUNNING_STATES:
        return None
    return CheckResult(
        "service",
        Status.FAIL,
        f"the table's service {SERVICE} is running ({state}): it holds the camera, the "
        "buttons and the screen, so they cannot be checked now",
        STOP_THE_SERVICE,
    )


def check_groups(machine: Machine) -> CheckResult | None:
    """On a Pi, whether this user may use camera, screen, keyboard and GPIO (not for root)."""
    if not machine.is_pi or os.geteuid() == 0:
        return None
    mine = set(os.getgroups())
    lacking = []
    for name in GROUPS:
        try:
            gid = grp.getgrnam(name).gr_gid
        except KeyError:
            continue
        if gid not in mine:
            lacking.append(name)
    if not lacking:
        return CheckResult("groups", Status.OK, f"this user is in {', '.join(GROUPS)}")
    return CheckResult(
        "groups",
        Status.WARN,
        f"this user is not in: {', '.join(lacking)} (the service's user gets them from the unit)",
        f"To run by hand: sudo usermod -aG {','.join(lacking)} $USER, then log out and in.",
        essential=False,
    )


def check_reader(model_dir: Path | None = None) -> CheckResult:
    """The learned dice reader's models are installed and load (through onnxruntime
    where it is installed, else OpenCV)."""
    from einhorn_table.vision.learned import (
        MODEL_DIR,
        SMALL_DICE_DETECTOR_FILE,
        ModelError,
        has_onnxruntime,
        learned_reader,
    )

    folder = model_dir or MODEL_DIR
    reinstall = "Reinstall Einhorn Table (git pull, then ./start) to get vision_models/ back."
    try:
        learned_reader(folder)  # kept: the reader then reads with these models
    except ModelError as error:
        return CheckResult(
            "dice reader",
            Status.WARN,
            f"{error}; the classical reader stands in, which reads fewer dice",
            reinstall,
        )
    try:
        learned_reader(folder, SMALL_DICE_DETECTOR_FILE)
    except ModelError as error:
        return CheckResult(
            "dice reader",
            Status.WARN,
            f"{error}; dice under about 32 px in the frame as read (a camera mounted"
            " high) are then often not found",
            reinstall,
        )
    runner = "onnxruntime" if has_onnxruntime() else "OpenCV (onnxruntime is not installed)"
    return CheckResult(
        "dice reader", Status.OK, f"learned models in {folder} load, run by {runner}"
    )
