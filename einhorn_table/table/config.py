"""The table's configuration file (TOML) for ``einhorn-table play``.

::

    variant = "einhorn"            # or wuerfeln, or a house variant's TOML file
    games = 10
    camera = "picamera2"           # any source string: opencv:0, dir:frames/, ...
    calibration = "calibration.toml"   # optional: the profile `einhorn-table calibrate` made
    pins = "hardware/pins.toml"    # optional: the button pin map
    state = "/var/lib/einhorn-table"  # optional: the match history and roll photos
                                      # (else $EINHORN_STATE_DIR, systemd's $STATE_DIRECTORY,
                                      # ~/.local/state/einhorn-table)

    [screen]
    width = 800
    height = 480
    fullscreen = true
    rotate = 0                     # optional: 0, 90, 180 or 270 degrees clockwise (90 or
                                   # 270 for a screen mounted on its side: Touch Display 2)

    [[player]]
    name = "Ana"
    station = 1                    # the station number in the pin map
    dice = "red"                   # a colour name or [r, g, b]

Unknown keys are refused with their names, so a typo never passes silently; a
value of the wrong kind (a list where a path belongs, ``true`` or ``1.5`` where a
station number belongs) is refused naming the key, what was written and a good line.
"""

from __future__ import annotations

import json
import shlex
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.parsing import loads_toml
from einhorn_table.stations import MAX_STATIONS
from einhorn_table.text_files import TextFileError, read_text_file
from einhorn_table.toml_mistakes import toml_mistake_words, value_shapes
from einhorn_table.words import counted, joined, plural

RGB = tuple[int, int, int]

#: Dice colour names a config may use (RGB of the dice body).
DICE_COLOURS: Mapping[str, RGB] = {
    "white": (242, 240, 232),
    "red": (196, 28, 36),
    "blue": (28, 72, 178),
    "green": (22, 140, 64),
    "yellow": (246, 200, 24),
    "black": (28, 28, 30),
    "purple": (118, 44, 156),
    "orange": (240, 118, 22),
}

_TOP = {"variant", "games", "camera", "calibration", "pins", "state", "screen", "player"}
_SCREEN = {"width", "height", "fullscreen", "rotate"}
_PLAYER = {"name", "station", "dice"}

#: The turns ``[screen] rotate`` may give the picture, in degrees clockwise.
ROTATIONS = (0, 90, 180, 270)

EXAMPLE = "docs/table.example.toml"
#: How the table's file seats a player, for messages about the [[player]] tables.
PLAYER_SHAPE = (f'each player is a [[player]] table with name = "..." and station = N '
                f"(see {EXAMPLE})")

#: What each text key holds and a good line for it, for messages.
_TEXTS = {
    "variant": ("a variant's name or a house variant's file in quotes",
                'variant = "einhorn"'),
    "camera": ("a camera source in quotes", 'camera = "picamera2" or camera = "opencv:0"'),
    "calibration": ("the calibration file's path in quotes", 'calibration = "calibration.toml"'),
    "pins": ("the pin map's path in quotes", 'pins = "hardware/pins.toml"'),
    "state": ("a folder's path in quotes", 'state = "/var/lib/einhorn-table"'),
}


class ConfigError(EinhornError):
    """The configuration file cannot be used; the message names the key and the fix."""


@dataclass(frozen=True)
class PlayerConfig:
    name: str
    station: int  # 1-based, as in the pin map
    dice: RGB | None
    #: The dice as the config names them ("red"); None for [r, g, b] or no dice.
    dice_name: str | None = None


@dataclass(frozen=True)
class TableConfig:
    players: tuple[PlayerConfig, ...]
    variant: str = "einhorn"
    games: int | None = None
    camera: str = "picamera2"
    calibration: Path | None = None
    pins: Path | None = None
    #: The state directory; None: the history's default (EINHORN_STATE_DIR, ...).
    state: Path | None = None
    size: tuple[int, int] = (800, 480)
    fullscreen: bool = True
    #: Degrees the picture is turned clockwise on the screen (one of ROTATIONS); None:
    #: not set, drawn as it comes (a portrait screen at full screen is pointed out).
    rotate: int | None = None

    @property
    def stations(self) -> SeatedStations:
        """The stations players sit at, 0-based as the pin map counts them."""
        return SeatedStations({p.station - 1: p.name for p in self.players})


class SeatedStations(frozenset[int]):
    """The stations (0-based) players sit at, with ``names``: who sits at each, for a
    message about a station the pin map lacks."""

    names: Mapping[int, str]

    def __new__(cls, names: Mapping[int, str]) -> SeatedStations:
        seated = super().__new__(cls, names)
        seated.names = dict(names)
        return seated


def shown(value: Any, depth: int = 0) -> str:
    """A value as the TOML file writes it (``true``, ``["a"]``), cut short if long."""
    if isinstance(value, list | Mapping) and depth > 3:
        text = "..."
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, list):
        items = [shown(v, depth + 1) for v in value[:10]] + (["..."] if len(value) > 10 else [])
        text = "[" + ", ".join(items) + "]"
    elif isinstance(value, Mapping):
        text = "{" + ", ".join(f"{k} = {shown(v, depth + 1)}" for k, v in value.items()) + "}"
    else:  # numbers, dates
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _wrong(path: Path, where: str, what: str, example: str, value: Any) -> ConfigError:
    return ConfigError(f"{path}: {where} must be {what} (e.g. {example}), not {shown(value)}")


def _refuse_unknown(data: Mapping[str, Any], known: set[str], where: str, path: Path) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(
            f"{path}: unknown {plural(len(unknown), 'key')} {', '.join(unknown)} in {where}. "
            f"Known keys there: {', '.join(sorted(known))}."
        )


def _colour(value: Any, where: str, path: Path) -> RGB | None:
    if value is None:
        return None
    if isinstance(value, str):
        if value.lower() not in DICE_COLOURS:
            raise ConfigError(f"{path}: {where}: dice colour {value!r} is unknown; use one of "
                              f"{', '.join(DICE_COLOURS)} or [r, g, b]")
        return DICE_COLOURS[value.lower()]
    if (isinstance(value, list) and len(value) == 3
            and all(_is_whole(v) and 0 <= v <= 255 for v in value)):
        return (value[0], value[1], value[2])
    raise _wrong(path, f"{where}: dice",
                 "a colour name in quotes or [r, g, b], three whole numbers from 0 to 255",
                 'dice = "red" or dice = [196, 28, 36]', value)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: Any, where: str, path: Path, minimum: int, example: str) -> int:
    """A whole number from ``minimum`` up, or a message naming the file and the key."""
    if not _is_whole(value) or value < minimum:
        raise _wrong(path, where, f"a whole number of {minimum} or more", example, value)
    return int(value)


def _text(data: Mapping[str, Any], key: str, path: Path) -> str | None:
    """The text of a top-level key (None if absent), refused if not text or empty."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        what, example = _TEXTS[key]
        raise _wrong(path, key, what, example, value)
    return value.strip()


def example_to_copy() -> str:
    """The example table's file as a command run in the current folder finds it: as the
    install guide writes it in the project's folder, else its whole path in the project
    the companion runs from (``play`` run from another folder)."""
    if Path(EXAMPLE).is_file():
        return EXAMPLE
    project = Path(__file__).resolve().parents[2] / EXAMPLE
    return shlex.quote(str(project)) if project.is_file() else EXAMPLE


#: Sections of a calibration profile (einhorn-table calibrate) that no table's file has.
_PROFILE_SECTIONS = frozenset({"view", "tray", "dice", "reader", "players", "check"})


def profile_given_words(path: Path) -> str:
    """What to say where a calibration profile was given for the table's file."""
    from einhorn_table.words import command_name

    return (f"{path} is a calibration profile (what '{command_name()} calibrate' saved), "
            "not a table's file (who plays, the camera, the screen): give the table's file "
            f"instead (make one from the example: cp {example_to_copy()} table.toml), and "
            f"name this profile in it: calibration = {json.dumps(str(path), ensure_ascii=False)}")


def read_table_file(path: Path) -> dict[str, Any]:
    """The table's file as TOML, not yet checked; a ConfigError where it is missing, or
    is no text or no TOML."""
    text = ""
    try:
        text = read_text_file(path, "the table's file")
        return loads_toml(text)
    except FileNotFoundError:
        raise ConfigError(f"the configuration file {path} does not exist; make it from the "
                          f"example (cp {example_to_copy()} {shlex.quote(str(path))}) and "
                          "write in who plays, as docs/install.md step 6 shows") from None
    except TextFileError as error:
        raise ConfigError(str(error)) from None
    except tomllib.TOMLDecodeError as error:
        said = toml_mistake_words(error, text, TOML_SHAPES)
        raise ConfigError(f"{path} is not valid TOML {said}") from None


#: How a table's file writes its values, for the person who mistyped one.
TOML_SHAPES = value_shapes('name = "Ana"', "games = 10", yes_no="fullscreen = true")


def _players(data: Mapping[str, Any], path: Path) -> tuple[PlayerConfig, ...]:
    raw_players = data.get("player", [])
    if isinstance(raw_players, Mapping):
        raise ConfigError(f"{path}: [player] with one pair of brackets is a single table; "
                          f"write [[player]] above each player: {PLAYER_SHAPE}")
    if not isinstance(raw_players, list):
        raise ConfigError(f"{path}: player = {shown(raw_players)} does not seat anyone: "
                          f"{PLAYER_SHAPE}")
    if not 2 <= len(raw_players) <= MAX_STATIONS:
        raise ConfigError(f"{path}: {counted(len(raw_players), 'player')} found; list 2 to "
                          f"{MAX_STATIONS} players, {PLAYER_SHAPE}")
    players = tuple(_player(raw, k, path) for k, raw in enumerate(raw_players, 1))
    for station in sorted({p.station for p in players}):
        sharing = [p.name for p in players if p.station == station]
        if len(sharing) > 1:
            raise ConfigError(f"{path}: {joined(sharing)} {'both' if len(sharing) == 2 else 'all'}"
                              f" sit at station {station}; give each player a station of "
                              "their own")
    names = [p.name for p in players]  # (each in one Unicode form: see _player)
    for name in names:
        if names.count(name) > 1:
            raise ConfigError(f"{path}: {names.count(name)} players are named {name}; "
                              "give each player a name of their own")
    return players


def _player(raw: Any, k: int, path: Path) -> PlayerConfig:
    where = f"player {k}"
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{path}: {where} is {shown(raw)}, not a table: {PLAYER_SHAPE}")
    _refuse_unknown(raw, _PLAYER, where, path)
    name = raw.get("name")
    if name is None:
        raise ConfigError(f'{path}: {where} needs a name (e.g. name = "Ana")')
    if not isinstance(name, str) or not name.strip():
        raise _wrong(path, f"{where}: name", "the player's name in quotes", 'name = "Ana"', name)
    where = f"{where} ({name.strip()})"
    station = raw.get("station", k)
    if not _is_whole(station) or not 1 <= station <= MAX_STATIONS:
        raise _wrong(path, f"{where}: station", f"a whole number from 1 to {MAX_STATIONS}",
                     f"station = {min(k, MAX_STATIONS)}", station)
    dice = raw.get("dice")
    # A name typed with its accents as separate marks (some editors and input methods)
    # is the same name, in the one form a match file's lines are read in: else a match
    # saved here would find her seat no more when the table goes on with it.
    return PlayerConfig(unicodedata.normalize("NFC", name.strip()), station,
                        _colour(dice, where, path),
                        dice.lower() if isinstance(dice, str) else None)


def _screen(data: Mapping[str, Any], path: Path,
            ) -> tuple[tuple[int, int], bool, int | None]:
    screen = data.get("screen", {})
    if not isinstance(screen, Mapping):
        raise ConfigError(f"{path}: [screen] must be a table: a line [screen] with width = 800, "
                          f"height = 480 and fullscreen = true below it (see {EXAMPLE}), "
                          f"not screen = {shown(screen)}")
    _refuse_unknown(screen, _SCREEN, "[screen]", path)
    fullscreen = screen.get("fullscreen", True)
    if not isinstance(fullscreen, bool):
        raise _wrong(path, "[screen] fullscreen", "true or false", "fullscreen = true",
                     fullscreen)
    size = (_whole(screen.get("width", 800), "[screen] width", path, 320, "width = 800"),
            _whole(screen.get("height", 480), "[screen] height", path, 240, "height = 480"))
    rotate = screen.get("rotate")
    if rotate is not None and (not _is_whole(rotate) or rotate not in ROTATIONS):
        raise _wrong(path, "[screen] rotate",
                     "0, 90, 180 or 270, the degrees the picture is turned clockwise "
                     "(90 or 270 for a screen mounted on its side)", "rotate = 90", rotate)
    return size, fullscreen, rotate


def load_config(path: Path) -> TableConfig:
    """Read and check a table configuration file."""
    data = read_table_file(path)
    if "version" in data and _PROFILE_SECTIONS & set(data):
        raise ConfigError(profile_given_words(path))
    _refuse_unknown(data, _TOP, "the top level", path)
    texts = {key: _text(data, key, path) for key in _TEXTS}
    players = _players(data, path)
    games = data.get("games")
    size, fullscreen, rotate = _screen(data, path)
    base = path.parent

    def relative(key: str) -> Path | None:
        value = texts[key]
        if value is None:
            return None
        candidate = Path(value).expanduser()
        return candidate if candidate.is_absolute() else base / candidate

    variant = texts["variant"] or "einhorn"
    if variant.endswith(".toml"):  # a house variant's file, beside the table's file
        variant = str(relative("variant"))
    return TableConfig(
        players=players,
        variant=variant,
        games=None if games is None else _whole(games, "games", path, 1, "games = 10"),
        camera=beside(texts["camera"] or "picamera2", base),
        calibration=relative("calibration"),
        pins=relative("pins"),
        state=relative("state"),
        size=size,
        fullscreen=fullscreen,
        rotate=rotate,
    )


def beside(camera: str, base: Path) -> str:
    """The camera source ``camera`` with a relative recording's path (``dir:frames``,
    ``file:roll.mp4``) taken from ``base``, the table's file's folder, as the file's other
    paths are, not from wherever the table is started; any other source as written (one
    that does not parse is refused where it is opened, saying why)."""
    from einhorn_table.adapters.source_base import SourceError
    from einhorn_table.adapters.source_spec import SourceSpec, parse_source

    try:
        spec = parse_source(camera)
    except SourceError:
        return camera
    if spec.kind not in ("dir", "file") or spec.argument is None:
        return camera
    path = Path(spec.argument).expanduser()
    if path == Path(spec.argument) and path.is_absolute():
        return camera
    return str(SourceSpec(spec.kind, str(path if path.is_absolute() else base / path),
                          spec.options))

