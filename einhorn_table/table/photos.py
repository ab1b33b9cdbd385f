"""Where the photos of the rolls go: the ``PhotoStore`` seam (the adapter writes PNGs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from einhorn_table.ports import Image


class PhotoStore(Protocol):
    def save(self, image: Image, name: str) -> str:
        """Keep ``image`` under ``name`` (no extension); returns the path to write in the file."""
        ...
