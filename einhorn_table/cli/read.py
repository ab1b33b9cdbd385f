"""``einhorn-table read IMAGE... [--json] [--debug DIR]``: read the dice in photos.

One line per photo. With ``--json`` each line is an object::

    {"image": ..., "dice": [{"value": 1-6 or null, "box": [x0, y0, x1, y1],
      "confidence": 0-1, "color": [r, g, b]}], "category": ... or null, "ms": ...}

where ``ms`` is the reading time, neither decoding the file nor loading the
reader's models included: a photo whose reading loaded something that no photo before
it needed (the models, the detector for small dice, a model readied for another
picture size, as the second look at large dice is) is read again, and that second
reading is timed (see :func:`timed_reading`). ``image`` is the path as given, with
any byte of it that is not UTF-8 written as ``\\xNN`` (so that every JSON reader
takes the line). The text line names the photo by its path as given too. With
``--debug DIR`` each line also names its photo's drawing (``"drawing": ...`` in
JSON): see :class:`DrawingNames`; DIR may not be a folder of the photos' (see
:func:`check_not_a_photos_folder`). Boxes are in the picture as it is shown: a phone's
photo turned by its EXIF orientation. A file that cannot be read as a picture is
reported on stderr (an iPhone's HEIC, a pattern that matched no file or was typed in
quotes, and names in other capitals told with what to do) and the others are still
read; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from einhorn_table.folders import FolderError, make_folder

if TYPE_CHECKING:
    from collections.abc import Callable

    from einhorn_table.ports import Image
    from einhorn_table.vision.profile import ReaderProfile
    from einhorn_table.vision.results import FrameReading


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "read",
        help="read the dice in photos",
        description="Read the dice in one or more photos: one line per photo.",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="photo files")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per line, with ms, the reading's time (a "
                        "photo whose reading had to load a model, as the first photo's "
                        "does, is read a second time for that figure)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="read with this table's calibration profile (einhorn-table "
                        "calibrate); default: the reader's general settings")
    parser.add_argument(
        "--debug",
        type=Path,
        metavar="DIR",
        help="write each photo with boxes, values and confidences drawn on it into DIR, "
        "a folder of their own, not the photos' (each photo's line names its drawing)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from einhorn_table.vision.drawing import draw_reading
    from einhorn_table.vision.reader import read_frame

    profile = None
    if args.profile is not None:
        from einhorn_table.calibration.profile import load_profile

        profile = load_profile(args.profile).reader_profile()
    if args.debug is not None:
        check_not_a_photos_folder(args.debug, args.images)
        make_folder(args.debug, "the drawings of what was read")
        check_writable(args.debug)
    failed = 0
    drawings = DrawingNames()
    for path in args.images:
        image, why = _load(path)
        if image is None:
            failed += 1
            print(f"einhorn-table read: {shown_path(path)}: {why}", file=sys.stderr)
            continue
        try:
            if args.json:  # (only the JSON lines say how long a reading took)
                reading, ms = timed_reading(image, profile, read_frame)
            else:
                reading, ms = read_frame(image, profile), 0.0
        except cv2.error as error:
            # One picture the reader cannot cope with must not stop the others.
            failed += 1
            height, width = image.shape[:2]
            print(
                f"einhorn-table read: {shown_path(path)}: the dice reader could not read this "
                f"{width} x {height} picture (OpenCV: {_opencv_words(error)}); a photo "
                "of the tray, about as wide as it is high, reads best",
                file=sys.stderr,
            )
            continue
        drawn: Path | None = None
        if args.debug is not None:
            target = args.debug / drawings.name_for(path)
            why = write_drawing(target, draw_reading(image, reading))
            if why:
                failed += 1
                print(f"einhorn-table read: could not write {shown_path(target)} ({why}); "
                      "check that the folder is writable and has space", file=sys.stderr)
            else:
                drawn = target
        if args.json:
            print(json.dumps(reading_as_json(path, reading, ms, drawn)))
        else:
            print(reading_as_text(path, reading, drawn))
        sys.stdout.flush()
    return 1 if failed else 0


def timed_reading(image: Image, profile: ReaderProfile | None,
                  read_frame: Callable[[Image, ReaderProfile | None], FrameReading],
                  ) -> tuple[FrameReading, float]:
    """The photo's reading, and how long it took in ms, loading no model.

    A reading loads what it needs that no reading before it did (the models at first,
    the small dice's detector, a model readied for another picture size: tens to
    hundreds of ms, see :func:`~einhorn_table.vision.learned.models_readied`). Only a
    reading that did so is made again, timed, so that ``ms`` is the photo's reading
    alone and a folder of one camera's photos is read about once each. It reads the
    same."""
    from einhorn_table.vision.learned import models_readied

    # A second reading readies nothing (a third is there in case one of this photo's
    # sizes pushed out another's model: see MAX_SIZED_SESSIONS).
    for _ in range(3):
        readied = models_readied()
        start = time.perf_counter()
        reading = read_frame(image, profile)
        ms = (time.perf_counter() - start) * 1000.0
        if models_readied() == readied:
            break
    return reading, ms


class DrawingNames:
    """The ``--debug`` drawing's file name for each photo: its name with ``.png``, and
    ``-2``, ``-3``... for photos of the same name (``a/roll.jpg``, ``b/roll.jpg``,
    ``roll.png``), so that no drawing of this run overwrites another. A character of
    the name other than a letter, digit, ``-``, ``_``, ``+`` or ``.`` (a space, a
    byte that is not UTF-8, a line break) becomes ``_``, so that the name the photo's
    line prints is the drawing's file name exactly, to type or paste."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def name_for(self, photo: Path) -> str:
        stem = drawing_stem(photo)
        name, number = f"{stem}.png", 1
        while name.casefold() in self._taken:  # one file on a case-blind disk
            number += 1
            name = f"{stem}-{number}.png"
        self._taken.add(name.casefold())
        return name


def drawing_stem(photo: Path) -> str:
    """The photo's name without its suffix, written as :class:`DrawingNames` says (in
    Unicode's composed form, as a Mac's disk would store it; "photo" where nothing of
    it is left)."""
    import unicodedata

    stem = unicodedata.normalize("NFC", photo.stem.encode("utf-8", "replace").decode())
    kept = "".join(c if c.isalnum() or c in "-_+." else "_" for c in stem)
    return kept.strip(".") or "photo"


def check_not_a_photos_folder(folder: Path, photos: list[Path]) -> None:
    """Refuse, before any photo is read, a drawings folder that holds one of the photos:
    a drawing is named as its photo with ``.png``, so there it would be written over a
    PNG photo (``roll.png``), or over another photo of the name (``roll.jpg``'s drawing
    over ``roll.png``)."""
    if not folder.is_dir():
        return
    for photo in photos:
        try:
            same = photo.is_file() and os.path.samefile(photo.parent, folder)
        except OSError:
            continue
        if same:
            drawings = Path("drawings") if str(folder) == "." else folder / "drawings"
            raise FolderError(
                f"--debug {shown_path(folder)} is the folder of the photo "
                f"{shown_path(photo)}: its drawings, named as the photos with .png, "
                "would be written over photos there; name a folder of their own, e.g. "
                f"--debug {shown_path(drawings)}")


def check_writable(folder: Path) -> None:
    """Refuse, before any photo is read, a drawings folder that is there but takes no
    file (read-only, another user's, a full disk)."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise FolderError(f"cannot write into the folder {folder} for the drawings of what "
                          f"was read ({error.strerror}): name a folder you may write to") \
            from None


def write_drawing(target: Path, drawing: Image) -> str:
    """Write a drawing as PNG; "" when written, else why not, in the system's words."""
    from einhorn_table.adapters.image_files import write_picture

    try:
        write_picture(target, drawing)
    except OSError as error:
        return error.strerror or str(error)
    return ""


def _opencv_words(error: Exception) -> str:
    """What an OpenCV error says, without the source file and line it came from."""
    text = " ".join(str(error).split())
    return text.partition(" error: ")[2] or text


def _load(path: Path) -> tuple[Image | None, str]:
    """The photo's pixels, or None and why not (said for the person who named it)."""
    import cv2

    from einhorn_table.adapters.image_files import decode_picture, is_heic

    if not path.exists():
        return None, missing_words(path)
    if path.is_dir():
        return None, f"is a folder; name the photo files in it (e.g. {path}/*.jpg)"
    if not path.is_file():
        return None, "not a file but a device or pipe; name a photo file"
    # Read here and decoded from memory: OpenCV's imread crashes the whole command on a
    # file name that is not UTF-8 (one from a Windows zip or an old memory card).
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, f"cannot read this file ({error.strerror}); check its permissions"
    if not data:
        return None, "an empty file (0 bytes); copy the photo again"
    try:
        image = decode_picture(data)
    except cv2.error as error:
        if "CV_IO_MAX_IMAGE_PIXELS" in str(error):  # OpenCV's limit: a gigapixel
            return None, ("a picture too large to decode (over a gigapixel); shrink it "
                          "to a camera photo's size, e.g. 4000 x 3000 pixels")
        if is_heic(data):
            return None, HEIC_WORDS
        return None, (f"a picture OpenCV could not decode ({_opencv_words(error)}); "
                      "re-save it as a JPEG or PNG photo")
    if image is None and (is_heic(data) or path.suffix.lower() in (".heic", ".heif")):
        return None, HEIC_WORDS
    if image is None:
        return None, ("not a picture OpenCV can decode; pass a JPEG or PNG photo "
                      "(re-save or re-take it if it is damaged)")
    return image, ""


#: Why an iPhone's HEIC photo is not read, and how to get one that is.
HEIC_WORDS = ("an HEIC photo (an iPhone's own format), which OpenCV cannot decode: "
              "make a JPEG of it (on a computer, open it and export or save it as "
              "JPEG), and for the next photos set the iPhone's Settings > Camera > "
              "Formats to Most Compatible, which takes JPEG photos")


def missing_words(path: Path) -> str:
    """Why there is no file ``path``, said for the person who typed it: a pattern of
    the shell's (``*.jpg``) that matched no file, which the shell then passes on as it
    is, a name or pattern that differs from the files' only in capitals (a phone's
    ``IMG_0001.JPG``), and a pattern in quotes (``"*.jpg"``), which the shell leaves as
    it is though files match it, are told with what to type instead."""
    import fnmatch

    folder, name = path.parent, path.name
    where = "this folder" if str(folder) == "." else f"the folder {shown_path(folder)}"
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except FileNotFoundError:
        return f"no such file: there is no folder {shown_path(folder)}; check the path"
    except OSError:
        return "no such file; check the name and path"
    if any(sign in name for sign in "*?["):
        pattern = shown_path(Path(name))
        matched = [n for n in names if fnmatch.fnmatchcase(n, name)]
        if matched:  # a pattern in quotes, which the shell leaves to the program
            return (f"a pattern, which this command does not expand itself; "
                    f"{_files_match(matched)} it "
                    f"in {where}, e.g. {shown_path(Path(matched[0]))}: type the pattern "
                    "without quotes, so that the shell names each photo")
        like = [n for n in names if fnmatch.fnmatchcase(n.casefold(), name.casefold())]
        if not like:
            return (f"no file in {where} matched the pattern {pattern} (the shell "
                    "passes a pattern that matches nothing on as it is); check the "
                    "folder and the photos' names")
        suffix = Path(like[0]).suffix
        same_suffix = all(Path(n).suffix == suffix for n in like)
        typed = (f" (e.g. {shown_path(path.with_suffix(suffix))})"
                 if same_suffix and path.suffix.casefold() == suffix.casefold() else "")
        return (f"no file in {where} matched the pattern {pattern}; "
                f"{_files_match(like)} it if capitals are not told apart, e.g. "
                f"{shown_path(Path(like[0]))}: type the pattern as the names are "
                f"written{typed}")
    like = [n for n in names if n.casefold() == name.casefold()]
    if like:
        return (f"no such file, but there is {shown_path(Path(like[0]))} (the capitals "
                "differ): type the name as it is written")
    return "no such file; check the name and path"


def _files_match(names: list[str]) -> str:
    """How many of ``names`` match: "1 file matches", "3 files match"."""
    return "1 file matches" if len(names) == 1 else f"{len(names)} files match"


def reading_as_json(path: Path, reading: FrameReading, ms: float,
                    drawing: Path | None = None) -> dict[str, Any]:
    """The photo's JSON line (see the module); with ``drawing``, where it was drawn."""
    category = reading.category
    drawn = {} if drawing is None else {"drawing": shown_path(drawing, "backslashreplace")}
    return {
        "image": shown_path(path, "backslashreplace"),
        "dice": [
            {
                "value": die.value,
                "box": [round(v, 1) for v in die.box],
                "confidence": round(die.confidence, 3),
                "color": list(die.color),
            }
            for die in reading.dice
        ],
        "category": None if category is None else category.value,
        "ms": round(ms, 2),
        **drawn,
    }


def shown_path(path: Path, errors: str = "replace") -> str:
    """The photo's path as given, so that two photos of one name in different folders
    are told apart. A byte of it that is not UTF-8 (a name from a Windows zip or an old
    memory card) is shown as U+FFFD (``errors="replace"``), or as ``\\xNN``
    (``"backslashreplace"``, which still names the file: ``ls $'w\\xfcrfel.jpg'``):
    left as Python holds it, it stops the command on a terminal that takes UTF-8 only,
    and makes JSON that strict readers refuse. For the text line (``"replace"``) a
    character that prints as none (a line break, a tab) is shown as Python writes it
    (``\\n``), so that each photo keeps one line."""
    shown = os.fsencode(path).decode("utf-8", errors)
    if errors != "replace":
        return shown
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in shown)


def reading_as_text(path: Path, reading: FrameReading, drawing: Path | None = None) -> str:
    """The photo's text line; with ``drawing``, naming where it was drawn."""
    drawn = "" if drawing is None else f"  drawing: {shown_path(drawing)}"
    name = shown_path(path)
    count = len(reading.dice)
    if count == 0:
        return f"{name}: no dice found{drawn}"
    values = " ".join("?" if v is None else str(v) for v in reading.values)
    line = f"{name}: {count} {'die' if count == 1 else 'dice'}: {values}"
    category = reading.category
    if category is not None:
        line += f"  -> {category.label}"
    if None in reading.values:
        line += "  (? = not sure; re-roll)"
    return line + drawn
