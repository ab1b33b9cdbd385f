"""How bright a colour looks: plain arithmetic, so that modules without OpenCV use it too."""

from __future__ import annotations

RGB = tuple[int, int, int]


def luminance(rgb: RGB) -> float:
    """Relative brightness 0..255 of an RGB colour (Rec. 601 weights)."""
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b
