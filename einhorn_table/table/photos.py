"""Where the photos of the rolls go: the ``PhotoStore`` seam (the history's photo shelf)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from einhorn_table.ports import Image


class PhotoStore(Protocol):
    def save(self, image: Image) -> str:
        """Keep ``image``; returns the path to write into the roll's ``photo`` extra
        ("" when it could not be kept: a missing photo does not stop the match)."""
        ...
