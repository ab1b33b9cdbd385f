"""Colours of the synthetic table: players' dice, pips, skin, tray."""

from __future__ import annotations

from einhorn_table.vision.brightness import luminance

RGB = tuple[int, int, int]

#: Well separated dice body colours, one per player in this order (RGB).
DICE_PALETTE: tuple[RGB, ...] = (
    (242, 240, 232),  # white (ivory)
    (196, 28, 36),  # red
    (28, 72, 178),  # blue
    (22, 140, 64),  # green
    (246, 200, 24),  # yellow
    (28, 28, 30),  # black
    (118, 44, 156),  # purple
    (240, 118, 22),  # orange
)

#: Names of :data:`DICE_PALETTE`, for messages and demos.
DICE_PALETTE_NAMES: tuple[str, ...] = (
    "white",
    "red",
    "blue",
    "green",
    "yellow",
    "black",
    "purple",
    "orange",
)

DARK_PIPS: RGB = (20, 20, 22)
LIGHT_PIPS: RGB = (240, 240, 236)

#: Skin tones for the reaching hand (RGB).
SKIN_TONES: tuple[RGB, ...] = (
    (234, 192, 160),
    (214, 164, 128),
    (180, 128, 92),
    (132, 88, 60),
    (92, 60, 42),
)

#: The tray floor: a slate felt that leaves white, black and coloured dice visible.
TRAY_FELT: RGB = (74, 86, 98)
TRAY_WALL: RGB = (46, 42, 40)
TABLE_WOOD: RGB = (168, 128, 88)
#: A checked tablecloth's two colours.
CLOTH_LIGHT: RGB = (236, 228, 210)
CLOTH_DARK: RGB = (170, 52, 48)


def pip_color_for(body: RGB) -> RGB:
    """The pip colour a die of this body colour usually has: dark on light, light on dark."""
    return DARK_PIPS if luminance(body) > 150 else LIGHT_PIPS
