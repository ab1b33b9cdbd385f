"""How a die of any colour is drawn readable: its pips dark or light, and an edge where
its body would melt into the dark screen (a black die). Pure, no pygame."""

from __future__ import annotations

RGB = tuple[int, int, int]

DARK_PIP: RGB = (20, 20, 20)
LIGHT_PIP: RGB = (245, 245, 245)
#: The least luminance of a die that gets dark pips: light pips on any darker body keep
#: a contrast of 3 to 1 at least (red, blue, green and purple dice keep their white
#: pips, as the real ones have); yellow, orange and white dice get dark ones.
DARK_PIPS_FROM = 0.27
#: The least contrast of a die's body with the screen behind it before it gets an edge.
EDGE_BELOW = 1.8


def luminance(colour: RGB) -> float:
    """The colour's relative luminance (WCAG 2): 0 for black, 1 for white."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The contrast ratio of two colours (WCAG 2): 1 (the same) to 21 (black, white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def pip_colour(body: RGB) -> RGB:
    """The pips drawn on a die of colour ``body``: dark on light dice, else light."""
    return DARK_PIP if luminance(body) >= DARK_PIPS_FROM else LIGHT_PIP


def needs_edge(body: RGB, behind: RGB) -> bool:
    """Whether a die of colour ``body`` needs an edge to stand out from ``behind``."""
    return contrast(body, behind) < EDGE_BELOW
