"""Reading the settings files a person edits (table.toml, the pin map, a calibration):
saved by any text editor, a Windows one included; and writing a text file whole or
not at all."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from einhorn_table.errors import EinhornError


class TextFileError(EinhornError):
    """A settings file that cannot be read as text; the message says what to do."""


#: How picture files begin (JPEG, PNG, GIF, TIFF both ways, BMP, WebP, HEIC), by offset.
PICTURE_STARTS = ((0, b"\xff\xd8\xff"), (0, b"\x89PNG\r\n\x1a\n"), (0, b"GIF8"),
                  (0, b"II*\x00"), (0, b"MM\x00*"), (0, b"BM"), (8, b"WEBP"), (4, b"ftyphei"),
                  (4, b"ftypmif1"))


def is_picture(start: bytes, path: str) -> bool:
    """Whether a file that begins with ``start`` is a photo or other picture (by how it
    begins): no text file, however it is named."""
    if start.startswith(b"BM") and not path.lower().endswith(".bmp"):
        return False  # (two letters a text may begin with too)
    return any(start[at:at + len(sign)] == sign for at, sign in PICTURE_STARTS)


def read_text_file(path: Path, what: str) -> str:
    """The text of ``path`` (``what`` it is, e.g. "the table's file"), without the mark
    some Windows editors put first. A missing file raises FileNotFoundError, for the
    caller's own advice; a folder, text that is not UTF-8, or a file that cannot be
    read, a :class:`TextFileError`."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise TextFileError(f"{path} is a folder, not {what}: name the file itself") from None
    except UnicodeDecodeError:
        if is_picture(_start_of(path), str(path)):  # (a photo named where a file was meant)
            raise TextFileError(f"{path} is a picture, not {what} (a text file): name "
                                f"{what} instead") from None
        raise TextFileError(
            f"{path} is not saved as UTF-8 text: open it in a text editor and save it "
            "with the encoding UTF-8 (letters like ü or é need it)") from None
    except OSError as error:
        raise TextFileError(f"cannot read {what} {path} ({error.strerror})") from None


def _start_of(path: Path) -> bytes:
    """The first bytes of ``path`` (none where it cannot be read)."""
    try:
        with path.open("rb") as file:
            return file.read(16)
    except OSError:
        return b""


def _keep_owner(target: Path, partial: Path) -> None:
    """Give ``partial``, about to replace ``target``, the owner and group of ``target``
    where root writes it (a command run with sudo): the file stays its owner's (the
    table's service reads its own files only)."""
    if getattr(os, "geteuid", lambda: -1)() != 0:
        return
    info = target.stat()
    os.chown(partial, info.st_uid, info.st_gid)


def write_text_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a full disk or a pulled stick
    leaves no half-written file (nor a file there before half overwritten). A file
    there before keeps its permissions (and its owner, where root writes it), a link
    is followed to its file, and what is no plain file (``/dev/stdout``, a pipe) is
    written as it is. Raises OSError."""
    target = path.resolve() if path.is_symlink() else path
    if target.exists() and not target.is_file():
        target.write_text(text, encoding="utf-8")
        return
    partial = target.with_name(target.name + ".part")
    try:
        partial.write_text(text, encoding="utf-8")
        if target.is_file():
            shutil.copymode(target, partial)
            _keep_owner(target, partial)
        os.replace(partial, target)
    except OSError:
        partial.unlink(missing_ok=True)
        raise
