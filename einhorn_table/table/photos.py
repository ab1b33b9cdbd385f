"""Where the photos of the rolls go: the ``PhotoStore`` seam (the history's photo shelf)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from einhorn_table.ports import Image


class PhotoStore(Protocol):
    def save(self, image: Image) -> str:
        """Keep ``image``; returns the path to write into the roll's ``photo`` extra
        ("" when it could not be kept: a missing photo does not stop the match).

        Called on the table's loop, so it returns at once: the writing (a JPEG, fsync,
        the oldest photos deleted) is done elsewhere, as the history's
        ``TableLog(store, background_photos=True)`` does on its own thread; the
        ``image`` is never changed after it is handed over."""
        ...
