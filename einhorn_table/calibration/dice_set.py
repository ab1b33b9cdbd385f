"""Whether the dice of a colour roll can all be one player's set.

A die of the set may look darker than the others: leaning on the tray's wall (its side
face turned from the lamp), in the wall's shadow, or under a lamp at one side. Its
colour is then the set's colour, less lit. A die another player left in the tray
differs in colour (red beside white), or far more in brightness (white beside black).
A die of the colour of a player already registered is that player's, left in (grey
beside white, brown beside orange, where the camera tells those sets apart), however
it would look lit as the others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from einhorn_table.calibration.seeing import RGB

#: How many times darker than another a die of the same set may look.
SHADE = 3.0


def one_set(alike: Callable[[RGB, RGB], bool], a: RGB, b: RGB,
            registered: Sequence[RGB] = ()) -> bool:
    """Whether dice seen as ``a`` and ``b`` can be of one set: their colours ``alike``
    (the camera could not keep them apart), or alike once the darker is lit as the
    lighter, where it is at most :data:`SHADE` times darker and neither has the colour
    of a set ``registered`` already (the other players' dice colours)."""
    if alike(a, b):
        return True
    if any(alike(colour, die) for colour in registered for die in (a, b)):
        return False
    light, dark = (a, b) if max(a) >= max(b) else (b, a)
    factor = max(light) / max(max(dark), 1)
    if factor > SHADE:
        return False
    r, g, bl = (min(255, round(channel * factor)) for channel in dark)
    return alike(light, (r, g, bl))
