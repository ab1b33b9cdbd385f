"""The synthetic table: rendered camera frames of a dice tray, with ground truth.

Use :class:`SynthTable` for frames and scenes; :class:`SynthFrame` and
:class:`SynthDie` carry the truth (values, boxes, colours, phase, hand);
:class:`EdgeThing` and :meth:`SynthTable.resting_arm` lie still at the picture's edge;
:func:`relit` and :func:`knocked` show a frame under other light or through a
knocked camera; :func:`flickering` and :func:`in_patch_of_light` show frames in a room's
light (a flickering lamp, a person's shadow, sunlight from a window);
:func:`mount_guide_view` sets the camera up as the mount guide does.
"""

from einhorn_table.vision.synth.dice import PIP_LAYOUT, DieLook, render_die
from einhorn_table.vision.synth.edge import EdgeThing
from einhorn_table.vision.synth.hand import HandPose
from einhorn_table.vision.synth.layout import PlacedDie
from einhorn_table.vision.synth.palette import DICE_PALETTE, DICE_PALETTE_NAMES, pip_color_for
from einhorn_table.vision.synth.room_light import flickering, in_patch_of_light
from einhorn_table.vision.synth.seen_otherwise import LIGHT_CHANGES, knocked, relit
from einhorn_table.vision.synth.table import SynthTable
from einhorn_table.vision.synth.tray import TrayGeometry
from einhorn_table.vision.synth.truth import PHASES, SynthDie, SynthError, SynthFrame
from einhorn_table.vision.synth.views import ViewOptions, mount_guide_view

__all__ = [
    "DICE_PALETTE",
    "DICE_PALETTE_NAMES",
    "LIGHT_CHANGES",
    "PHASES",
    "PIP_LAYOUT",
    "DieLook",
    "EdgeThing",
    "HandPose",
    "PlacedDie",
    "SynthDie",
    "SynthError",
    "SynthFrame",
    "SynthTable",
    "TrayGeometry",
    "ViewOptions",
    "flickering",
    "in_patch_of_light",
    "knocked",
    "mount_guide_view",
    "pip_color_for",
    "relit",
    "render_die",
]
