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

    [[player]]
    name = "Ana"
    station = 1                    # the station number in the pin map
    dice = "red"                   # a colour name or [r, g, b]

Unknown keys are refused with their names, so a typo never passes silently.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from einhorn_table.errors import EinhornError
from einhorn_table.parsing import loads_toml
from einhorn_table.text_files import TextFileError, read_text_file
from einhorn_table.words import plural

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
_SCREEN = {"width", "height", "fullscreen"}
_PLAYER = {"name", "station", "dice"}


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

    @property
    def stations(self) -> frozenset[int]:
        """The stations players sit at, 0-based as the pin map counts them."""
        return frozenset(p.station - 1 for p in self.players)


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
            and all(isinstance(v, int) and 0 <= v <= 255 for v in value)):
        return (value[0], value[1], value[2])
    raise ConfigError(f"{path}: {where}: dice must be a colour name or [r, g, b] (0..255)")


def _whole(value: Any, where: str, path: Path, minimum: int) -> int:
    """A whole number from ``minimum`` up, or a message naming the file and the key."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{path}: {where} must be a whole number of {minimum} or more, "
                          f"not {value!r}")
    return value


def load_config(path: Path) -> TableConfig:
    """Read and check a table configuration file."""
    try:
        data = loads_toml(read_text_file(path, "the table's file"))
    except FileNotFoundError:
        raise ConfigError(f"the configuration file {path} does not exist; copy "
                          "docs/table.example.toml and edit it") from None
    except TextFileError as error:
        raise ConfigError(str(error)) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    _refuse_unknown(data, _TOP, "the top level", path)
    raw_players = data.get("player", [])
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= 6:
        raise ConfigError(f"{path}: list 2 to 6 players, each as a [[player]] table")
    players = []
    for k, raw in enumerate(raw_players, 1):
        where = f"player {k}"
        _refuse_unknown(raw, _PLAYER, where, path)
        if not isinstance(raw.get("name"), str) or not raw["name"].strip():
            raise ConfigError(f"{path}: {where} needs a name")
        station = raw.get("station", k)
        if not isinstance(station, int) or not 1 <= station <= 6:
            raise ConfigError(f"{path}: {where}: station must be 1 to 6, not {station!r}")
        dice = raw.get("dice")
        players.append(PlayerConfig(raw["name"].strip(), station, _colour(dice, where, path),
                                    dice.lower() if isinstance(dice, str) else None))
    if len({p.station for p in players}) != len(players):
        raise ConfigError(f"{path}: two players share a station; give each their own")
    if len({p.name for p in players}) != len(players):
        raise ConfigError(f"{path}: two players have the same name; give each a different one")
    games = data.get("games")
    screen = data.get("screen", {})
    _refuse_unknown(screen, _SCREEN, "[screen]", path)
    fullscreen = screen.get("fullscreen", True)
    if not isinstance(fullscreen, bool):
        raise ConfigError(f"{path}: [screen] fullscreen must be true or false, "
                          f"not {fullscreen!r}")
    base = path.parent

    def relative(key: str) -> Path | None:
        value = data.get(key)
        if value is None:
            return None
        candidate = Path(str(value)).expanduser()
        return candidate if candidate.is_absolute() else base / candidate

    variant = str(data.get("variant", "einhorn"))
    if variant.endswith(".toml"):  # a house variant's file, beside the table's file
        variant = str(relative("variant"))
    return TableConfig(
        players=tuple(players),
        variant=variant,
        games=None if games is None else _whole(games, "games", path, 1),
        camera=str(data.get("camera", "picamera2")),
        calibration=relative("calibration"),
        pins=relative("pins"),
        state=relative("state"),
        size=(_whole(screen.get("width", 800), "[screen] width", path, 320),
              _whole(screen.get("height", 480), "[screen] height", path, 240)),
        fullscreen=fullscreen,
    )
