"""The synthetic table: rendered camera frames of a dice tray, with ground truth.

Use :class:`SynthTable` for frames and scenes; :class:`SynthFrame` and
:class:`SynthDie` carry the truth (values, boxes, colours, phase, hand).
"""

from einhorn_table.vision.synth.dice import PIP_LAYOUT, DieLook, render_die
from einhorn_table.vision.synth.hand import HandPose
from einhorn_table.vision.synth.layout import PlacedDie
from einhorn_table.vision.synth.palette import DICE_PALETTE, DICE_PALETTE_NAMES, pip_color_for
from einhorn_table.vision.synth.table import SynthTable
from einhorn_table.vision.synth.tray import TrayGeometry
from einhorn_table.vision.synth.truth import PHASES, SynthDie, SynthError, SynthFrame

__all__ = [
    "DICE_PALETTE",
    "DICE_PALETTE_NAMES",
    "PHASES",
    "PIP_LAYOUT",
    "DieLook",
    "HandPose",
    "PlacedDie",
    "SynthDie",
    "SynthError",
    "SynthFrame",
    "SynthTable",
    "TrayGeometry",
    "pip_color_for",
    "render_die",
]
