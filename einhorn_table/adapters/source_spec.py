"""Source strings, after OpenCV's ``samples/python/video.py`` ``create_capture``.

A source string is ``KIND[:ARGUMENT][,key=value...]``:

===============================  ==============================================
``picamera2``                    the Raspberry Pi camera (``picamera2:1`` for a
                                 second camera); options ``width``, ``height``,
                                 ``fps``
``opencv:0``                     a USB webcam by number (``0`` alone works too);
                                 options ``width``, ``height``, ``fps``
``file:roll.mp4``                a video file; options ``fps`` (play back at this
                                 rate instead of flat out), ``loop`` (0/1)
``dir:frames/``                  pictures in a folder, in name order; options
                                 ``fps``, ``loop``
``synth:seed=3,players=4``       the synthetic table; options ``seed``,
                                 ``players`` (1 to 8), ``width``, ``height``, ``fps``,
                                 ``mount`` (0/1: the camera set up as the
                                 mount guide says, table around the tray)
===============================  ==============================================

A bare path to a folder or a file means ``dir:`` or ``file:``. Paths must not
contain a comma followed by ``key=``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from einhorn_table.adapters.source_base import SourceError

OptionValue = int | float | bool


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError("must be a whole number") from None


def _whole(minimum: int, maximum: int | None = None, why: str = "") -> Callable[[str], int]:
    """A whole number from ``minimum`` (to ``maximum``), refused with the range allowed
    (and ``why``) instead of failing deep inside the source."""

    def parse(text: str) -> int:
        value = _int(text)
        if value < minimum or (maximum is not None and value > maximum):
            allowed = f"{minimum} or more" if maximum is None else f"{minimum} to {maximum}"
            raise ValueError(f"must be {allowed}{why}")
        return value

    return parse


#: The most players the synthetic table has dice colours for (its palette).
SYNTH_PLAYERS = 8


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("must be a number") from None
    if not value > 0:
        raise ValueError("must be more than 0")
    return value


def _flag(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "yes", "true", "on"):
        return True
    if lowered in ("0", "no", "false", "off"):
        return False
    raise ValueError("must be 0 or 1")


_SIZE_FPS: dict[str, Callable[[str], OptionValue]] = {
    "width": _int,
    "height": _int,
    "fps": _positive_float,
}
_REPLAY: dict[str, Callable[[str], OptionValue]] = {"fps": _positive_float, "loop": _flag}

#: Per kind: whether it takes an argument, and the options it accepts.
KINDS: dict[str, tuple[str, dict[str, Callable[[str], OptionValue]]]] = {
    "picamera2": ("optional camera number", _SIZE_FPS),
    "opencv": ("webcam number", _SIZE_FPS),
    "file": ("path of a video file", _REPLAY),
    "dir": ("path of a folder of pictures", _REPLAY),
    "synth": ("none", {
        "seed": _whole(0),
        "players": _whole(1, SYNTH_PLAYERS, f": the synthetic table has dice of "
                          f"{SYNTH_PLAYERS} colours, one per player"),
        "mount": _flag,
        **_SIZE_FPS,
    }),
}

EXAMPLES = "picamera2, opencv:0, file:roll.mp4, dir:frames/, synth:seed=3,players=4"

_OPTION = re.compile(r",(?=[A-Za-z_]\w*=)")


@dataclass(frozen=True)
class SourceSpec:
    """A parsed source string."""

    kind: str
    argument: str | None = None
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    def option(self, name: str, default: OptionValue) -> OptionValue:
        return self.options.get(name, default)

    def __str__(self) -> str:
        parts = [self.kind + (f":{self.argument}" if self.argument is not None else "")]
        parts += [f"{key}={_show(value)}" for key, value in self.options.items()]
        head, *rest = parts
        if self.argument is None and rest:
            return head + ":" + ",".join(rest)
        return ",".join(parts)


def _show(value: OptionValue) -> str:
    return str(int(value)) if isinstance(value, bool) else str(value)


def parse_source(text: str) -> SourceSpec:
    """Parse a source string, refusing unknown kinds and options with the forms that work."""
    text = text.strip()
    if not text:
        raise SourceError(f"No camera source given. Use one of: {EXAMPLES}.")
    kind, sep, rest = text.partition(":")
    if kind not in KINDS:
        return _bare(text)
    if not sep:
        rest = ""
    # Split off ",key=value" options; for synth the whole rest is options.
    pieces = _OPTION.split(rest) if rest else []
    argument: str | None = None
    if pieces and ("=" not in pieces[0] or kind in ("file", "dir")):
        argument = pieces.pop(0)
    if argument is None and kind in ("opencv", "file", "dir"):
        what = KINDS[kind][0]
        raise SourceError(f'The source "{text}" needs the {what}, e.g. "{kind}:{_example(kind)}".')
    if argument is not None and kind == "synth":
        raise SourceError(
            f'The synthetic table takes only options, e.g. "synth:seed=3,players=4", not "{text}".'
        )
    if argument is not None and kind in ("picamera2", "opencv") and not argument.isdigit():
        raise SourceError(
            f'"{argument}" is not a camera number in "{text}": use a number such as '
            f'"{kind}:0".'
        )
    options = _options(kind, pieces, text)
    if kind == "opencv":
        _check_webcam_size(options, text)
    return SourceSpec(kind, argument, options)


def _check_webcam_size(options: dict[str, OptionValue], text: str) -> None:
    """Refuse a webcam size given by half (a webcam is asked for both sides or none, so
    a width alone would be ignored without a word) or of no pixels."""
    given = [key for key in ("width", "height") if key in options]
    if len(given) == 1:
        missing = "height" if given == ["width"] else "width"
        raise SourceError(
            f'The webcam source "{text}" gives its {given[0]} but not its {missing}: give '
            'both, e.g. "opencv:0,width=1280,height=720", or neither.'
        )
    if any(int(options[key]) <= 0 for key in given):
        raise SourceError(
            f'The webcam source "{text}" asks for a picture of no pixels: give a size such '
            'as "opencv:0,width=1280,height=720", or none.'
        )


def _example(kind: str) -> str:
    return {"opencv": "0", "file": "roll.mp4", "dir": "frames/"}.get(kind, "")


def _options(kind: str, pieces: list[str], text: str) -> dict[str, OptionValue]:
    allowed = KINDS[kind][1]
    options: dict[str, OptionValue] = {}
    for piece in pieces:
        key, sep, raw = piece.partition("=")
        key = key.strip()
        if not sep or key not in allowed:
            names = ", ".join(sorted(allowed)) or "none"
            raise SourceError(
                f'"{piece}" is not an option of the {kind} source in "{text}"; '
                f"its options are: {names}."
            )
        try:
            options[key] = allowed[key](raw.strip())
        except ValueError as error:
            raise SourceError(
                f'The option {key}="{raw}" in "{text}" is not valid ({error}); '
                f"fix it, e.g. {key}={_example_value(key)}."
            ) from None
    return options


def _example_value(key: str) -> str:
    return {"fps": "15", "loop": "1", "mount": "1", "width": "1280", "height": "960",
            "players": "4"}.get(key, "3")


def _bare(text: str) -> SourceSpec:
    if text.isdigit():
        return SourceSpec("opencv", text)
    path = Path(text)
    if path.is_dir():
        return SourceSpec("dir", text)
    if path.is_file():
        return SourceSpec("file", text)
    raise SourceError(
        f'"{text}" is neither a camera source nor an existing file or folder. '
        f"Use one of: {EXAMPLES}."
    )
