"""Where the synthetic camera looks from, as :class:`~einhorn_table.vision.synth.SynthTable`
options.

The default table is seen from far above (2.5 frame widths), the tray filling the
picture. :func:`mount_guide_view` sets the camera up as ``hardware/camera-mount.md``
does: about as high above the tray as the picture is wide (the guide's 37 cm over a
36 cm view), so that dice away from the middle show the sides that face the camera
and dice against the walls show their top faces over them; about 2 cm of table
around the tray (the guide leaves 3 cm); and large dice, a twelfth of the frame's
shorter side (40 px in 640x480; a 24 mm die there).
"""

from __future__ import annotations

from typing import TypedDict


class ViewOptions(TypedDict, total=False):
    """The :class:`~einhorn_table.vision.synth.SynthTable` options that set a view (those
    left out keep the default view's)."""

    camera_height: float
    tray_margin: float
    die_size: int


#: The mount guide's camera height, in frame widths, and the table around the tray, as a
#: share of the frame's shorter side.
MOUNT_GUIDE_HEIGHT = 1.0
MOUNT_GUIDE_MARGIN = 0.08
#: The dice's side in the mount guide's view, as a share of the frame's shorter side.
MOUNT_GUIDE_DIE_SHARE = 1 / 12


def mount_guide_view(size: tuple[int, int] = (640, 480)) -> ViewOptions:
    """The options for a camera set up as the mount guide says, for frames of ``size``."""
    return ViewOptions(camera_height=MOUNT_GUIDE_HEIGHT, tray_margin=MOUNT_GUIDE_MARGIN,
                       die_size=round(MOUNT_GUIDE_DIE_SHARE * min(size)))
