"""What to change at the table when the test rolls were not read well enough."""

from __future__ import annotations

from einhorn_table.calibration.light import TOO_DARK, LightReport
from einhorn_table.calibration.profile import DiceSection

#: Dice smaller than this (pixels) are hard to read; larger than this share of the
#: picture's short side, the camera hangs too low.
SMALL_DIE_PX = 28.0
LARGE_DIE_SHARE = 0.2
#: Pips fainter than this (grey levels) are hard to see.
FAINT_PIPS = 50.0


def advice(
    light: LightReport | None, dice: DiceSection | None, frame_size: tuple[int, int]
) -> tuple[str, ...]:
    """The likely causes of misreads, most likely first; always at least one line."""
    tips: list[str] = []
    if light is not None:
        tips += light.warnings
        if light.mean < TOO_DARK + 25 and not light.warnings:
            tips.append("More light over the tray.")
    if dice is not None and dice.die_px is not None:
        short_side = min(frame_size) if min(frame_size) > 0 else 0
        if dice.die_px < SMALL_DIE_PX:
            tips.append(
                f"The dice are small in the picture ({dice.die_px:.0f} pixels): lower the "
                "camera closer to the tray, or use bigger dice."
            )
        elif short_side and dice.die_px > LARGE_DIE_SHARE * short_side:
            tips.append("The dice are very large in the picture: raise the camera.")
        if dice.pip_contrast is not None and dice.pip_contrast < FAINT_PIPS:
            tips.append("The pips are faint: more light, or dice with black pips on white.")
    if not tips:
        tips.append(
            "Check the focus, use a matte tray lining, and keep other things out of the tray."
        )
    return tuple(tips)
