"""Picture files read and written by Python, decoded and encoded by OpenCV in memory.

OpenCV's own ``imread`` and ``imwrite`` stop the whole process (a segmentation fault)
on a path that is not UTF-8, such as a folder named on an old memory card or in a
Windows zip, where Python reads and writes any path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from einhorn_table.ports import Image


def decode_picture(data: bytes) -> Image | None:
    """The picture a file's bytes hold, as 8-bit BGR; None where OpenCV cannot decode
    them (no picture, or a damaged one). ``cv2.error`` for one too large to decode."""
    import cv2
    import numpy as np

    if not data:
        return None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return None if image is None else np.asarray(image, np.uint8)


#: The brands an HEIF file's ``ftyp`` box names where its picture is HEVC: an iPhone's
#: photos (.HEIC), which OpenCV decodes nowhere (AVIF, the other HEIF, it may).
HEVC_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm",
                         b"hevs"})


def is_heic(data: bytes) -> bool:
    """Whether a file's bytes are an HEIC photo (an iPhone's own format), by the brands
    its first box, ``ftyp``, names: its main brand or one it is compatible with (a
    photo of the brand ``mif1`` compatible with ``heic`` is one too)."""
    if len(data) < 16 or data[4:8] != b"ftyp":
        return False
    size = min(int.from_bytes(data[:4], "big"), len(data))
    brands = {data[at:at + 4] for at in (8, *range(16, size - 3, 4))}
    return bool(brands & HEVC_BRANDS)


def read_picture(path: Path) -> Image | None:
    """The picture in the file ``path`` (see :func:`decode_picture`); ``OSError`` where
    the file cannot be read."""
    return decode_picture(path.read_bytes())


def picture_or_none(path: Path) -> Image | None:
    """The picture in the file ``path``, or None where it cannot be read or decoded,
    whatever the reason."""
    import cv2

    try:
        return read_picture(path)
    except (OSError, cv2.error):
        return None


def write_picture(path: Path, image: Image, options: Sequence[int] = ()) -> None:
    """Write ``image`` into ``path`` in the format its suffix names (.png, .jpg), with
    OpenCV's ``options`` (e.g. JPEG quality); ``OSError`` where it cannot, saying why in
    the system's words (a full disk, a read-only folder)."""
    import cv2

    encoded, data = cv2.imencode(path.suffix, image, list(options))
    if not encoded:
        raise OSError(f"OpenCV could not make a {path.suffix} picture of {path.name}")
    path.write_bytes(data.tobytes())
