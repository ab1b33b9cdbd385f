"""Photos of the rolls as PNG files in the state directory (the ``PhotoStore`` seam)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from einhorn_table.ports import Image



class PngPhotoStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def save(self, image: Image, name: str) -> str:
        import cv2

        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{name}.png"
        if not cv2.imwrite(str(path), image):
            return ""  # a photo that cannot be kept does not stop the match
        return str(path)
