"""The calibration profile: what one table's camera, tray, dice and players are like.

A versioned TOML file (``version = 1``) in the state directory, written by
``einhorn-table calibrate`` and read by ``play``, ``demo`` and ``read --profile``::

    version = 1
    made_by = "einhorn-table calibrate --source picamera2"
    [camera]            # CameraSettings: the values locked after settling
    [tray]              # corners (4 points, clockwise from top left), empty-tray picture
    [dice]              # measured die and pip sizes, pip polarity and contrast
    [reader]            # ReaderProfile: the reader's tunables for this table
    [players]           # "name" = [r, g, b]: each player's dice colour
    [check]             # the test rolls: how many dice were read right

Loading refuses unknown keys, wrong types and other versions, and names the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from einhorn_table.adapters.camera_settings import CameraSettings, CameraSettingsError
from einhorn_table.calibration.toml_writer import TomlValue, toml_document
from einhorn_table.errors import EinhornError
from einhorn_table.parsing import loads_toml
from einhorn_table.text_files import TextFileError, read_text_file
from einhorn_table.vision.profile import ReaderProfile

#: The profile format this code reads and writes.
VERSION = 1

Point = tuple[float, float]
RGB = tuple[int, int, int]
POLARITIES = ("dark", "light", "both")
READER_METHODS = ("combined", "learned", "classical")
REMAKE = "make the profile again with 'einhorn-table calibrate'"


class ProfileError(EinhornError):
    """A calibration profile cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class TraySection:
    """Where the tray lies in the camera frame."""

    #: The tray floor's corners in frame pixels, clockwise from the top left; () unknown.
    corners: tuple[Point, ...] = ()
    #: The frame size (width, height) the corners belong to.
    frame_size: tuple[int, int] | None = None
    #: A picture of the empty tray (PNG), relative to the profile's folder; "" none.
    empty_reference: str = ""


@dataclass(frozen=True)
class DiceSection:
    """The dice as the camera sees them (pixels of the full frame)."""

    #: Typical die edge length, and the smallest and largest seen.
    die_px: float | None = None
    die_px_min: float | None = None
    die_px_max: float | None = None
    #: Typical pip diameter.
    pip_px: float | None = None
    #: "dark" pips on light dice, "light" pips on dark dice, or "both".
    pip_polarity: str = "both"
    #: Typical grey-level contrast between a pip and its face.
    pip_contrast: float | None = None


@dataclass(frozen=True)
class PlayerDice:
    name: str
    colour: RGB


@dataclass(frozen=True)
class CheckSection:
    """The test rolls at the end of calibrating: dice read right out of dice rolled."""

    rolls: int = 0
    dice: int = 0
    right: int = 0

    @property
    def accuracy(self) -> float | None:
        return self.right / self.dice if self.dice else None


@dataclass(frozen=True)
class CalibrationProfile:
    version: int = VERSION
    #: What made the profile (the command line), and when (ISO 8601, UTC).
    made_by: str = ""
    made_at: str = ""
    camera: CameraSettings = field(default_factory=CameraSettings)
    tray: TraySection = field(default_factory=TraySection)
    dice: DiceSection = field(default_factory=DiceSection)
    reader: ReaderProfile = field(default_factory=ReaderProfile)
    players: tuple[PlayerDice, ...] = ()
    check: CheckSection = field(default_factory=CheckSection)

    def reader_profile(self) -> ReaderProfile:
        """The reader's tunables for this table: ``read_frame(image, p.reader_profile())``."""
        return self.reader

    def reference_path(self, profile_path: Path) -> Path | None:
        """The empty-tray picture, resolved against the profile's folder."""
        if not self.tray.empty_reference:
            return None
        return profile_path.parent / self.tray.empty_reference


# ------------------------------------------------------------------ value checks

Check = Callable[[str, Any], Any]


def _describe(value: Any) -> str:
    kind = {bool: "true/false", int: "a whole number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
    return f"{kind} ({value!r})" if not isinstance(value, dict | list) else kind


def _wrong(where: str, wanted: str, value: Any) -> ProfileError:
    return ProfileError(f"{where} must be {wanted}, not {_describe(value)}")


def _number(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _wrong(where, "a number", value)
    return float(value)


def _integer(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(where, "a whole number", value)
    return value


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _wrong(where, "a string in quotes", value)
    return value


def _boolean(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _wrong(where, "true or false", value)
    return value


def _choice(*options: str) -> Check:
    def check(where: str, value: Any) -> str:
        if value not in options:
            raise _wrong(where, " or ".join(f'"{o}"' for o in options), value)
        return str(value)

    return check


def _list_of(count: int, item: Check, wanted: str) -> Check:
    def check(where: str, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != count:
            raise _wrong(where, wanted, value)
        return tuple(item(f"{where}[{i}]", v) for i, v in enumerate(value))

    return check


def _rgb(where: str, value: Any) -> RGB:
    colour: tuple[int, int, int] = _list_of(3, _integer, "[red, green, blue] (0 to 255)")(
        where, value
    )
    if not all(0 <= c <= 255 for c in colour):
        raise _wrong(where, "[red, green, blue] with each 0 to 255", value)
    return colour


def _corners(where: str, value: Any) -> tuple[Point, ...]:
    wanted = "4 points [[x, y], [x, y], [x, y], [x, y]]"
    if not isinstance(value, list) or len(value) not in (0, 4):
        raise _wrong(where, wanted, value)
    point = _list_of(2, _number, "a point [x, y]")
    return tuple(point(f"{where}[{i}]", v) for i, v in enumerate(value))


def _checks_from_defaults(cls: Any, special: Mapping[str, Check]) -> dict[str, Check]:
    """A check per dataclass field, by the type of its default (int, float, str, bool)."""
    checks: dict[str, Check] = {}
    for f in fields(cls):
        if f.name in special:
            checks[f.name] = special[f.name]
            continue
        default = f.default
        checks[f.name] = (
            _boolean if isinstance(default, bool)
            else _integer if isinstance(default, int)
            else _number if isinstance(default, float)
            else _text
        )
    return checks


_PAIR_INT = _list_of(2, _integer, "[width, height]")
CAMERA_CHECKS: dict[str, Check] = {
    "size": _PAIR_INT,
    "lores_size": _PAIR_INT,
    "frame_rate": _number,
    "exposure_time_us": _integer,
    "analogue_gain": _number,
    "colour_gains": _list_of(2, _number, "[red gain, blue gain]"),
    "lens_position": _number,
    "lock_when_settled": _boolean,
    "settle_max_frames": _integer,
    "settle_tolerance": _number,
}
TRAY_CHECKS: dict[str, Check] = {
    "corners": _corners,
    "frame_size": _PAIR_INT,
    "empty_reference": _text,
}
DICE_CHECKS: dict[str, Check] = {
    "die_px": _number,
    "die_px_min": _number,
    "die_px_max": _number,
    "pip_px": _number,
    "pip_polarity": _choice(*POLARITIES),
    "pip_contrast": _number,
}
READER_CHECKS = _checks_from_defaults(
    ReaderProfile,
    {
        "pip_polarity": _choice(*POLARITIES),
        "method": _choice(*READER_METHODS),
        "min_die_px": _number,
        "max_die_px": _number,
        "typical_die_px": _number,
    },
)
CHECK_CHECKS: dict[str, Check] = {"rolls": _integer, "dice": _integer, "right": _integer}
TOP_CHECKS: dict[str, Check] = {"version": _integer, "made_by": _text, "made_at": _text}
SECTIONS = ("camera", "tray", "dice", "reader", "players", "check")


def _table(name: str, data: Mapping[str, Any], checks: Mapping[str, Check]) -> dict[str, Any]:
    """The checked values of one ``[name]`` table; unknown keys are refused by name."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        where = f"[{name}] {key}" if name else key
        if key not in checks:
            known = ", ".join(checks)
            raise ProfileError(f"{where}: unknown key (the keys of [{name}] are: {known})")
        out[key] = checks[key](where, value)
    return out


def _sub_table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise _wrong(f"[{name}]", "a table ([" + name + "] on its own line)", value)
    return value


# ------------------------------------------------------------------ parse / write


def parse_profile(data: Mapping[str, Any]) -> CalibrationProfile:
    """A profile from parsed TOML; raises :class:`ProfileError` naming a wrong key."""
    if "version" not in data:
        raise ProfileError(f"version: missing; the first line must be 'version = {VERSION}'")
    top_keys = {k: v for k, v in data.items() if k not in SECTIONS}
    top = _table("", top_keys, TOP_CHECKS)
    if top["version"] != VERSION:
        raise ProfileError(
            f"version = {top['version']}: this einhorn-table reads version {VERSION} "
            f"profiles only; {REMAKE}"
        )
    camera_values = _table("camera", _sub_table(data, "camera"), CAMERA_CHECKS)
    try:
        camera = CameraSettings.from_mapping(camera_values)
    except CameraSettingsError as error:
        raise ProfileError(f"[camera] {error}") from None
    reader = ReaderProfile(**_table("reader", _sub_table(data, "reader"), READER_CHECKS))
    if (
        reader.min_die_px is not None
        and reader.max_die_px is not None
        and reader.min_die_px >= reader.max_die_px
    ):
        raise ProfileError("[reader] min_die_px must be smaller than max_die_px")
    if not 0.0 <= reader.min_confidence <= 1.0:
        raise ProfileError("[reader] min_confidence must be within 0 to 1")
    if reader.typical_die_px is not None and reader.typical_die_px <= 0:
        raise ProfileError("[reader] typical_die_px must be above 0")
    if reader.max_side < 64:
        raise ProfileError(f"[reader] max_side must be 64 or more (pixels), not "
                           f"{reader.max_side}")
    players = tuple(
        PlayerDice(name, _rgb(f"[players] {name}", value))
        for name, value in _sub_table(data, "players").items()
    )
    return CalibrationProfile(
        version=top["version"],
        made_by=top.get("made_by", ""),
        made_at=top.get("made_at", ""),
        camera=camera,
        tray=TraySection(**_table("tray", _sub_table(data, "tray"), TRAY_CHECKS)),
        dice=DiceSection(**_table("dice", _sub_table(data, "dice"), DICE_CHECKS)),
        reader=reader,
        players=players,
        check=CheckSection(**_table("check", _sub_table(data, "check"), CHECK_CHECKS)),
    )


def _changed(value: Any) -> dict[str, TomlValue]:
    """The fields of a dataclass that differ from their defaults (None never written)."""
    blank = type(value)()
    out: dict[str, TomlValue] = {}
    for f in fields(value):
        current = getattr(value, f.name)
        if current is None or current == getattr(blank, f.name):
            continue
        out[f.name] = _plain(current)
    return out


def _plain(value: Any) -> TomlValue:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    result: TomlValue = value
    return result


def profile_to_toml(profile: CalibrationProfile) -> str:
    top: dict[str, TomlValue] = {"version": profile.version}
    if profile.made_by:
        top["made_by"] = profile.made_by
    if profile.made_at:
        top["made_at"] = profile.made_at
    tables: dict[str, dict[str, TomlValue]] = {
        "camera": _changed(profile.camera),
        "tray": _changed(profile.tray),
        "dice": _changed(profile.dice),
        # All of the reader's tunables, so the profile keeps meaning the same
        # if the reader's defaults change; but a die size left to the frame as
        # read (None) is left out, as TOML has no None.
        "reader": {
            f.name: _plain(getattr(profile.reader, f.name))
            for f in fields(ReaderProfile)
            if getattr(profile.reader, f.name) is not None
        },
        "players": {p.name: list(p.colour) for p in profile.players},
        "check": _changed(profile.check),
    }
    comments = {
        "camera": "Camera settings locked after settling (left out: found automatically)",
        "tray": "The tray floor in the camera frame",
        "dice": "Measured dice (pixels of the full frame)",
        "reader": "The dice reader's tunables (die sizes in full-frame pixels; left out: "
        "judged on the frame as read)",
        "players": "Each player's dice colour, [red, green, blue]",
        "check": "Test rolls: dice read right out of dice rolled",
    }
    return toml_document(top, tables, comments)


def load_profile(path: Path) -> CalibrationProfile:
    """Read a profile; a :class:`ProfileError` says what is wrong and what to do."""
    try:
        text = read_text_file(path, "a calibration profile")
    except FileNotFoundError:
        raise ProfileError(
            f"no calibration profile at {path}: run 'einhorn-table calibrate' first, or "
            "name the right file (calibration = \"...\" in table.toml; --profile for "
            "the commands that take it)"
        ) from None
    except TextFileError as error:
        raise ProfileError(str(error)) from None
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(
            f"the calibration profile {path} is not valid TOML ({error}); fix that line "
            f"or {REMAKE}"
        ) from None
    try:
        return parse_profile(data)
    except ProfileError as error:
        raise ProfileError(f"calibration profile {path}: {error}") from None


def save_profile(profile: CalibrationProfile, path: Path) -> Path:
    """Write the profile (its folder is made when missing); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(profile_to_toml(profile), encoding="utf-8")
    temporary.replace(path)
    return path


def with_reader(profile: CalibrationProfile, **changes: Any) -> CalibrationProfile:
    """The profile with some reader tunables changed."""
    return replace(profile, reader=replace(profile.reader, **changes))
