"""The calibration profile: what one table's camera, tray, dice and players are like.

A versioned TOML file (``version = 1``) in the state directory, written by
``einhorn-table calibrate`` and read by ``play``, ``demo`` and ``read --profile``::

    version = 1
    made_by = "einhorn-table calibrate --source picamera2"
    [camera]            # CameraSettings: the values locked after settling
    [view]              # the camera's view: its sensor and sensor mode (Pi camera)
    [tray]              # corners (4 points, clockwise from top left), empty-tray picture
    [dice]              # measured die and pip sizes, pip polarity and contrast
    [reader]            # ReaderProfile: the reader's tunables for this table
    [players]           # "name" = [r, g, b]: each player's dice colour
    [check]             # the test rolls: how many dice were read right

Loading refuses unknown keys, wrong types and other versions, and values the table
could read no dice with (nan or inf, die sizes of 0 or less, a tray outline that is
not four corners inside the frame, an empty-tray picture outside the profile's
folder...), and names the key and what it may be. A profile without ``[view]`` (made
before the view was kept, or with a camera that tells none) loads as before.
"""

from __future__ import annotations

import math
import tomllib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from einhorn_table.adapters.camera_settings import CameraSettings, CameraSettingsError
from einhorn_table.adapters.source_base import CameraView
from einhorn_table.calibration.toml_writer import TomlValue, toml_document
from einhorn_table.errors import EinhornError
from einhorn_table.parsing import loads_toml
from einhorn_table.text_files import TextFileError, read_text_file, write_text_whole
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.words import command_name

#: The profile format this code reads and writes.
VERSION = 1

Point = tuple[float, float]
RGB = tuple[int, int, int]
POLARITIES = ("dark", "light", "both")
READER_METHODS = ("combined", "learned", "classical")
def remake() -> str:
    """What to do about a profile that cannot be used: make it again."""
    return f"make the profile again with '{command_name()} calibrate'"


def says_what_to_do(error: ProfileError) -> bool:
    """Whether ``error`` already ends in what to do (make the profile again); else its
    value is of the wrong kind, and the file is to be corrected or made again."""
    return remake() in str(error)

#: The reader's ``max_side`` limits: below 64 px no die has pips to see; above 8192 px
#: (a 33-megapixel frame; the Pi's largest camera gives 4608) a frame is never shrunk,
#: and reading it takes minutes and more memory than a Pi has.
MAX_SIDE_RANGE = (64, 8192)
#: The smallest die the reader can be told to look for (edge, pixels of the full frame):
#: a die smaller than this has no pips to count.
MIN_READABLE_DIE_PX = 4.0
#: How far (pixels) a tray corner may lie outside the frame it was marked on.
CORNER_MARGIN = 4.0
#: The largest grey-level contrast there is (black against white).
MAX_CONTRAST = 255.0


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
class ViewSection:
    """The camera's view at calibration, as the camera told it (the Pi camera's sensor
    and sensor mode); left empty for cameras that tell none (webcams, recordings, the
    synthetic table) and in profiles made before the view was kept."""

    #: The sensor's name, e.g. "imx708"; "" none told.
    camera: str = ""
    #: The sensor mode read, (width, height).
    mode: tuple[int, int] | None = None

    @classmethod
    def of(cls, view: CameraView | None) -> ViewSection:
        return cls() if view is None else cls(view.camera, view.mode)

    @property
    def told(self) -> CameraView | None:
        """The view kept, None where the profile keeps none."""
        if not self.camera or self.mode is None:
            return None
        return CameraView(self.camera, self.mode)


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
    view: ViewSection = field(default_factory=ViewSection)
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
    if not math.isfinite(value):
        raise ProfileError(
            f"{where} = {value}: nan and inf are not usable here; write an ordinary number "
            f"such as 48.5, or {remake()}"
        )
    return float(value)


def _at_least(low: float, unit: str, reason: str = "") -> Check:
    """A number of ``low`` or more (``unit``: what it counts, e.g. "pixels")."""

    def check(where: str, value: Any) -> float:
        number = _number(where, value)
        if number < low:
            raise ProfileError(
                f"{where} must be {low:g} or more ({unit}{reason}), not {number:g}; "
                f"write the right size or {remake()}"
            )
        return number

    return check


def _above_zero(unit: str) -> Check:
    def check(where: str, value: Any) -> float:
        number = _number(where, value)
        if number <= 0:
            raise ProfileError(
                f"{where} must be above 0 ({unit}), not {number:g}; write the "
                f"right size or {remake()}"
            )
        return number

    return check


def _within(low: float, high: float, unit: str) -> Check:
    def check(where: str, value: Any) -> float:
        number = _number(where, value)
        if not low <= number <= high:
            raise ProfileError(
                f"{where} must be {low:g} to {high:g} ({unit}), not {number:g}; write a "
                f"value in that range or {remake()}"
            )
        return number

    return check


def _frame_size(where: str, value: Any) -> tuple[int, int]:
    wanted = "[width, height]: two whole numbers above 0 (pixels), e.g. [640, 480]"
    size: tuple[int, int] = _list_of(2, _integer, wanted)(where, value)
    if size[0] <= 0 or size[1] <= 0:
        raise ProfileError(
            f"{where} must be {wanted}, not {list(size)}; write the camera frame's size "
            f"or {remake()}"
        )
    return size


def _file_name(where: str, value: Any) -> str:
    """A bare file name in the profile's own folder ("" for none)."""
    name = _text(where, value)
    if name and (
        name in (".", "..")
        or any(c in name for c in "/\\")
        or any(ord(c) < 32 for c in name)
    ):
        raise ProfileError(
            f"{where} must be the bare name of a picture in the profile's own folder "
            f'(e.g. "calibration-empty-tray.jpg", no folders and no ".."), not {name!r}; '
            f"put the picture beside the profile and write its name, or {remake()}"
        )
    return name


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
    "frame_size": _frame_size,
    "empty_reference": _file_name,
}
_SIZE_PX = "pixels of the camera frame"
_CONTRAST = _within(0.0, MAX_CONTRAST, "grey levels")
DICE_CHECKS: dict[str, Check] = {
    "die_px": _above_zero(_SIZE_PX),
    "die_px_min": _above_zero(_SIZE_PX),
    "die_px_max": _above_zero(_SIZE_PX),
    "pip_px": _above_zero(_SIZE_PX),
    "pip_polarity": _choice(*POLARITIES),
    "pip_contrast": _CONTRAST,
}
_READABLE_DIE = _at_least(MIN_READABLE_DIE_PX, _SIZE_PX, ": a smaller die has no pips to see")
READER_CHECKS = _checks_from_defaults(
    ReaderProfile,
    {
        "pip_polarity": _choice(*POLARITIES),
        "method": _choice(*READER_METHODS),
        "min_die_px": _READABLE_DIE,
        "max_die_px": _READABLE_DIE,
        "typical_die_px": _above_zero(_SIZE_PX),
        "min_pip_contrast": _CONTRAST,
    },
)
CHECK_CHECKS: dict[str, Check] = {"rolls": _integer, "dice": _integer, "right": _integer}
VIEW_CHECKS: dict[str, Check] = {"camera": _text, "mode": _frame_size}
TOP_CHECKS: dict[str, Check] = {"version": _integer, "made_by": _text, "made_at": _text}
SECTIONS = ("camera", "view", "tray", "dice", "reader", "players", "check")


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


def _turns(corners: tuple[Point, ...]) -> list[float]:
    """The cross product of the two sides at each corner: its sign says which way the
    outline turns there (0: the sides lie on one line)."""
    turns: list[float] = []
    for i, (x, y) in enumerate(corners):
        px, py = corners[i - 1]
        nx, ny = corners[(i + 1) % len(corners)]
        turns.append((x - px) * (ny - y) - (y - py) * (nx - x))
    return turns


def check_tray(tray: TraySection) -> None:
    """The corners outline a four-cornered floor inside the frame they were marked on;
    a :class:`ProfileError` says what is wrong (for a flow to check marked corners)."""
    if not tray.corners:
        return
    turns = _turns(tray.corners)
    if not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        raise ProfileError(
            "[tray] corners must be the tray floor's 4 corners in order around it "
            "(clockwise from the top left), making a four-sided shape with no side "
            f"crossing another and no corner on a straight line, not {_points(tray.corners)}; "
            f"{remake()} and mark the corners again"
        )
    if tray.frame_size is None:
        return
    width, height = tray.frame_size
    for i, (x, y) in enumerate(tray.corners):
        if not (-CORNER_MARGIN <= x <= width + CORNER_MARGIN
                and -CORNER_MARGIN <= y <= height + CORNER_MARGIN):
            raise ProfileError(
                f"[tray] corners[{i}] [{x:g}, {y:g}] lies outside the camera frame: each "
                f"corner must be a point inside [0, 0] to [{width}, {height}] "
                f"(frame_size); {remake()} and mark the corners again"
            )


def _points(corners: tuple[Point, ...]) -> str:
    return "[" + ", ".join(f"[{x:g}, {y:g}]" for x, y in corners) + "]"


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
            f"profiles only; {remake()}"
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
        raise ProfileError(
            f"[reader] min_die_px must be smaller than max_die_px (here {reader.min_die_px:g} "
            f"and {reader.max_die_px:g}); swap them or {remake()}"
        )
    if not 0.0 <= reader.min_confidence <= 1.0:
        raise ProfileError(f"[reader] min_confidence must be within 0 to 1, not "
                           f"{reader.min_confidence:g}; 0.5 is usual")
    low_side, high_side = MAX_SIDE_RANGE
    if reader.max_side < low_side:
        raise ProfileError(f"[reader] max_side must be {low_side} or more (pixels), not "
                           f"{reader.max_side}; 640 is usual")
    if reader.max_side > high_side:
        raise ProfileError(
            f"[reader] max_side must be {high_side} or less (pixels), not {reader.max_side}; "
            "640 is usual (a larger frame is read far more slowly)"
        )
    # (Each name in the one form table.toml's and the match's names are read in: one
    # typed with its accents apart, "e" and its two dots, still finds its player.)
    players = tuple(
        PlayerDice(unicodedata.normalize("NFC", name), _rgb(f"[players] {name}", value))
        for name, value in _sub_table(data, "players").items()
    )
    tray = TraySection(**_table("tray", _sub_table(data, "tray"), TRAY_CHECKS))
    check_tray(tray)
    dice = DiceSection(**_table("dice", _sub_table(data, "dice"), DICE_CHECKS))
    if (
        dice.die_px_min is not None
        and dice.die_px_max is not None
        and dice.die_px_min > dice.die_px_max
    ):
        raise ProfileError(
            f"[dice] die_px_min ({dice.die_px_min:g}) must not be larger than die_px_max "
            f"({dice.die_px_max:g}); swap them or {remake()}"
        )
    return CalibrationProfile(
        version=top["version"],
        made_by=top.get("made_by", ""),
        made_at=top.get("made_at", ""),
        camera=camera,
        view=ViewSection(**_table("view", _sub_table(data, "view"), VIEW_CHECKS)),
        tray=tray,
        dice=dice,
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
        "view": _changed(profile.view),
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
        "view": "The camera's view: its sensor and the sensor mode read (left out: a "
        "camera that tells none)",
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
            f"no calibration profile at {path}: run '{command_name()} calibrate' first, or "
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
            f"or {remake()}"
        ) from None
    if "version" not in data and TABLE_FILE_KEYS & set(data):
        raise ProfileError(table_file_given_words(path, data))
    try:
        return parse_profile(data)
    except ProfileError as error:
        said = str(error)
        if not says_what_to_do(error):
            said += f"; correct it in {path}, or {remake()}"
        raise ProfileError(f"calibration profile {path}: {said}") from None


#: Keys of a table's file (table.toml) that no calibration profile has.
TABLE_FILE_KEYS = frozenset({"player", "screen", "variant", "games", "calibration", "pins",
                             "state"})


def table_file_given_words(path: Path, data: Mapping[str, Any]) -> str:
    """What to say where a table's file (``data``, read from ``path``) was given for a
    calibration profile: which file that is, and the profile to give instead."""
    from einhorn_table.calibration.paths import PROFILE_NAME, state_profile

    named = data.get("calibration")
    given = path.parent / Path(named).expanduser() if isinstance(named, str) else path
    beside = path.parent / PROFILE_NAME
    kept = state_profile()
    if named and given.resolve() != path.resolve():  # (not this file itself)
        instead = f"give the profile this table's file names instead: {given} ({named!r})"
    elif beside.is_file():
        instead = f"give the profile beside it instead: {beside}"
    elif kept is not None:
        instead = f"give the profile saved in the state directory instead: {kept}"
    else:
        instead = f"no profile is saved yet: make one with '{command_name()} calibrate'"
    return (f"{path} is a table's file (who plays, the camera, the screen), not a "
            f"calibration profile (the file '{command_name()} calibrate' saves, which starts "
            f"with version = {VERSION} and holds [tray], [dice] and [reader]); {instead}")


def save_profile(profile: CalibrationProfile, path: Path) -> Path:
    """Write the profile (its folder is made when missing); returns the path.

    A profile that could not be loaded again (a die size of 0, corners crossing...)
    is not written: a :class:`ProfileError` names the key, as loading would.
    """
    text = profile_to_toml(profile)
    try:
        parse_profile(loads_toml(text))
    except (ProfileError, tomllib.TOMLDecodeError) as error:
        raise ProfileError(f"the calibration profile was not saved to {path}: {error}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_whole(path, text)  # (nothing half-written stays behind)
    return path


def with_reader(profile: CalibrationProfile, **changes: Any) -> CalibrationProfile:
    """The profile with some reader tunables changed."""
    return replace(profile, reader=replace(profile.reader, **changes))
