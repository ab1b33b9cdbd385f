"""The synthetic table: camera frames of a dice tray with the truth about each frame.

:class:`SynthTable` draws single frames (:meth:`SynthTable.empty`,
:meth:`SynthTable.still`) and whole scenes as frame lists (a roll, a nudge, a hand
passing over the dice, the dice being picked up). Everything random comes from
the table's own generators, built from its seed, so a seed gives the same frames.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.vision.synth.dice import (
    MAX_DIE_SIZE,
    MIN_DIE_SIZE,
    DieLook,
    Sprite,
    motion_blurred,
    render_die,
    tumbling,
)
from einhorn_table.vision.synth.edge import EdgeThing, draw_thing
from einhorn_table.vision.synth.hand import HandPose, draw_hand
from einhorn_table.vision.synth.layout import (
    PLAYER_SIDES,
    Perspective,
    PlacedDie,
    Placer,
    extent,
)
from einhorn_table.vision.synth.palette import (
    DICE_PALETTE,
    RGB,
    SKIN_TONES,
    TRAY_FELT,
)
from einhorn_table.vision.synth.planned import PlannedFrame
from einhorn_table.vision.synth.tray import TRAY_MARGIN, TrayGeometry, render_tray
from einhorn_table.vision.synth.truth import PHASES, SynthDie, SynthError, SynthFrame

# SynthTable's own; the truth types are re-exported for code that imported them from here.
__all__ = ["PHASES", "PlacedDie", "SynthDie", "SynthError", "SynthFrame", "SynthTable"]

ByteImage = npt.NDArray[np.uint8]


class SynthTable:
    """A seeded synthetic camera over a dice tray.

    ``size`` is (width, height); ``players`` registered players get the first colours
    of :data:`DICE_PALETTE` unless ``dice_colors`` (RGB, one per player) is given;
    ``lighting`` scales the lamp; ``noise`` is the camera noise's standard deviation
    in grey levels; ``fps`` is the frame rate the scenes are timed for; ``die_size``
    is the dice's side in pixels (default a tenth of the frame's height, each die a
    few percent off); ``tray_color`` is the felt's RGB;
    ``camera_height`` is the camera's height above the tray floor in frame widths:
    dice away from the middle show the sides that face it, as in real overhead
    photos (None: every die seen from straight above, only its top face);
    ``tray_margin`` is how much table shows around the tray, as a share of the
    frame's shorter side, and ``tablecloth`` lays a checked cloth there.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        size: tuple[int, int] = (640, 480),
        players: int = 1,
        dice_colors: Sequence[tuple[int, int, int]] | None = None,
        lighting: float = 1.0,
        noise: float = 2.5,
        fps: float = 30.0,
        die_size: int | None = None,
        tray_color: tuple[int, int, int] = TRAY_FELT,
        camera_height: float | None = 2.5,
        tray_margin: float = TRAY_MARGIN,
        tablecloth: bool = False,
    ) -> None:
        width, height = size
        if width < 64 or height < 48:
            raise SynthError(f"frame size {size} is too small; use at least 64x48 pixels")
        if players < 1:
            raise SynthError(f"a table needs at least one player, not {players}")
        if dice_colors is None:
            if players > len(DICE_PALETTE):
                raise SynthError(
                    f"the palette has {len(DICE_PALETTE)} dice colours for {players} players; "
                    "pass dice_colors with one colour per player"
                )
            dice_colors = DICE_PALETTE[:players]
        elif len(dice_colors) < players:
            raise SynthError(
                f"{players} players need {players} dice colours, got {len(dice_colors)}"
            )
        if not 0.2 <= lighting <= 2.0:
            raise SynthError(f"lighting {lighting} is outside 0.2..2.0")
        if noise < 0:
            raise SynthError(f"noise must be 0 or more, not {noise}")
        if fps <= 0:
            raise SynthError(f"fps must be positive, not {fps}")
        if camera_height is not None and camera_height < 0.5:
            raise SynthError(
                f"camera_height {camera_height} frame widths is too low; use 0.5 or more"
            )
        self.seed = seed
        self.size = (width, height)
        self.fps = fps
        self.players = players
        self.player_colors: tuple[RGB, ...] = tuple(
            (int(r), int(g), int(b)) for r, g, b in dice_colors[:players]
        )
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.die_size = (
            die_size if die_size is not None else max(MIN_DIE_SIZE, round(0.1 * min(width, height)))
        )
        if not MIN_DIE_SIZE <= self.die_size <= MAX_DIE_SIZE:
            raise SynthError(f"die size {self.die_size} px is outside {MIN_DIE_SIZE}..200 px")
        if camera_height is not None and camera_height * width < 3 * self.die_size:
            raise SynthError(
                f"a camera {camera_height} frame widths high is too close to "
                f"{self.die_size} px dice; raise camera_height or use smaller dice"
            )
        self.perspective = Perspective(
            width, height, None if camera_height is None else camera_height * width
        )
        if not 0.0 <= tray_margin <= 0.2:
            raise SynthError(f"tray_margin {tray_margin} is outside 0..0.2 of the frame")
        self.tray = render_tray(width, height, self.np_rng, felt=tray_color, lighting=lighting,
                                margin_share=tray_margin, tablecloth=tablecloth)
        self.placer = Placer(self.tray.geometry.floor, self.perspective, self.rng, self.die_size)
        self.skin = SKIN_TONES[self.rng.randrange(len(SKIN_TONES))]
        self._noise_bank = self._make_noise_bank(noise)
        self._sprites: OrderedDict[tuple[DieLook, tuple[float, float]], Sprite] = OrderedDict()
        #: The dice lying in the tray after the last scene (what the next scene starts from).
        self.layout: tuple[PlacedDie, ...] = ()
        #: What lies still at the picture's edge in every frame drawn (over the dice,
        #: under a hand): forearms resting on the table (see :meth:`resting_arm`),
        #: cups, phones, shadows.
        self.at_edge: tuple[HandPose | EdgeThing, ...] = ()
        #: The last still picture composed (see :meth:`draw`): for which tray, dice and
        #: edge, the picture without noise, and its dice's truth.
        self._still: tuple[object, object, ByteImage, tuple[SynthDie, ...]] | None = None

    # ------------------------------------------------------------------ drawing

    @property
    def geometry(self) -> TrayGeometry:
        """Where the tray, its walls and its floor lie in the frame."""
        return self.tray.geometry

    def frame_times(self, count: int, start: float = 0.0) -> list[float]:
        """Timestamps (seconds) of ``count`` consecutive frames at the table's frame rate."""
        return [start + i / self.fps for i in range(count)]

    def _make_noise_bank(self, noise: float) -> list[tuple[ByteImage, ByteImage]]:
        """A few fields of camera noise, split into the part to add and the part to subtract."""
        if noise <= 0:
            return []
        width, height = self.size
        bank = []
        for _ in range(3):
            shape = (height + 16, width + 16, 3)
            field = self.np_rng.standard_normal(size=shape, dtype=np.float32) * noise
            np.rint(field, out=field)
            plus = np.clip(field, 0, 255).astype(np.uint8)
            minus = np.clip(-field, 0, 255).astype(np.uint8)
            bank.append((plus, minus))
        return bank

    def _sprite(self, look: DieLook) -> Sprite:
        key = (look, self.tray.light_dir)
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = render_die(look, self.tray.light_dir)
            self._sprites[key] = sprite
            if len(self._sprites) > 1024:
                self._sprites.popitem(last=False)
        else:
            self._sprites.move_to_end(key)
        return sprite

    def _paste(self, image: ByteImage, die: PlacedDie) -> tuple[int, int, int, int]:
        """Draw one die (shadow first) into ``image``; its tight box in frame pixels."""
        if die.smear != (0.0, 0.0) and not die.look.cocked:
            # Tumbling: turn a cached upright die instead of drawing each angle afresh.
            upright = self._sprite(replace(die.look, angle=0.0, tilt=40.0, side_value=2))
            sprite = tumbling(
                upright, die.look.angle, die.smear, self.tray.light_dir, die.look.size
            )
        else:
            look = die.look
            if not look.cocked:
                look = replace(look, lean=self.perspective.lean_at(die.x, die.y, look.size))
            sprite = self._sprite(look)
            if die.smear != (0.0, 0.0):
                sprite = motion_blurred(sprite, *die.smear)
        height, width = image.shape[:2]
        cx, cy = round(die.x), round(die.y)
        left, top = cx - sprite.centre[0], cy - sprite.centre[1]
        sh, sw = sprite.alpha.shape
        x0, y0 = max(left, 0), max(top, 0)
        x1, y1 = min(left + sw, width), min(top + sh, height)
        if x0 >= x1 or y0 >= y1:
            return (0, 0, 0, 0)
        sx0, sy0 = x0 - left, y0 - top
        sx1, sy1 = sx0 + (x1 - x0), sy0 + (y1 - y0)
        lamp = float(self.tray.light_map[min(max(cy, 0), height - 1), min(max(cx, 0), width - 1)])
        roi = image[y0:y1, x0:x1].astype(np.float32)
        alpha = sprite.alpha[sy0:sy1, sx0:sx1, None]
        shadow = sprite.shadow[sy0:sy1, sx0:sx1, None]
        roi *= 1.0 - 0.55 * shadow
        roi += (sprite.color[sy0:sy1, sx0:sx1] * lamp - roi) * alpha
        image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        bx0, by0, bx1, by1 = sprite.box
        return (
            max(left + bx0, 0),
            max(top + by0, 0),
            min(left + bx1, width),
            min(top + by1, height),
        )

    def render(
        self,
        dice: Sequence[PlacedDie],
        *,
        hand: HandPose | None = None,
        phase: str | None = None,
        blur: float = 0.0,
    ) -> SynthFrame:
        """Draw a scene: the tray, these dice, optionally a hand over them, blur and noise.

        ``phase`` defaults to what the scene shows: 'moving' if a die is smeared,
        else 'hand' if a hand shows, else 'settled' with dice or 'empty' without.
        """
        return self.draw(self.plan(dice, hand=hand, phase=phase, blur=blur))

    def plan(
        self,
        dice: Sequence[PlacedDie],
        *,
        hand: HandPose | None = None,
        phase: str | None = None,
        blur: float = 0.0,
    ) -> PlannedFrame:
        """The frame :meth:`render` would draw, planned now (its camera noise chosen)
        and drawn later by :meth:`draw`, or never (a camera skipping it)."""
        noise = None
        if self._noise_bank:
            noise = (self.rng.randrange(len(self._noise_bank)), self.rng.randrange(16),
                     self.rng.randrange(16))
        if phase is None:
            if any(d.smear != (0.0, 0.0) for d in dice):
                phase = "moving"
            elif hand is not None:
                phase = "hand"
            else:
                phase = "settled" if dice else "empty"
        if phase not in PHASES:
            raise SynthError(f"unknown phase {phase!r}; use one of {', '.join(PHASES)}")
        return PlannedFrame(tuple(dice), hand, self.at_edge, phase, blur, noise)

    def draw(self, planned: PlannedFrame) -> SynthFrame:
        """The frame ``planned`` (by :meth:`plan`) drawn: the tray, its dice, what lies
        at the edge, the hand, blur and noise. A still picture (dice lying, nobody's
        hand) is composed once and only its noise drawn anew while it lies so."""
        key = (planned.dice, planned.at_edge)
        cached = self._still
        if planned.still and cached is not None and cached[0] is self.tray \
                and cached[1] == key:
            image, truth = cached[2].copy(), cached[3]
        else:
            image, truth = self._compose(planned)
            if planned.still:
                self._still = (self.tray, key, image.copy(), truth)
        if planned.blur > 0:
            image = np.asarray(cv2.GaussianBlur(image, (0, 0), planned.blur), dtype=np.uint8)
        if planned.noise is not None and self._noise_bank:
            bank, ox, oy = planned.noise
            plus, minus = self._noise_bank[bank]
            width, height = self.size
            cv2.add(image, plus[oy : oy + height, ox : ox + width], dst=image)
            cv2.subtract(image, minus[oy : oy + height, ox : ox + width], dst=image)
        return SynthFrame(image=image, dice=truth, phase=planned.phase,
                          hand=planned.hand is not None)

    def _compose(self, planned: PlannedFrame) -> tuple[ByteImage, tuple[SynthDie, ...]]:
        """The tray with the planned dice, what lies at the edge and the hand drawn in
        (no blur, no noise), and the dice's truth."""
        image = self.tray.image.copy()
        truth = []
        for die in planned.dice:
            box = self._paste(image, die)
            value = die.look.value if die.readable else None
            truth.append(SynthDie(value=value, box=box, color=die.look.body))
        for thing in planned.at_edge:
            if isinstance(thing, HandPose):
                image = draw_hand(image, thing, self.tray.light_map, self.tray.light_dir)
            else:
                image = draw_thing(image, thing, self.tray.light_map)
        if planned.hand is not None:
            image = draw_hand(image, planned.hand, self.tray.light_map, self.tray.light_dir)
        return image, tuple(truth)

    # ------------------------------------------------------------------ scene making

    def _colors_for(
        self, count: int, colors: Sequence[tuple[int, int, int]] | None, player: int = 0
    ) -> list[RGB]:
        if colors is None:
            return [self.player_colors[player % self.players]] * count
        if len(colors) != count:
            raise SynthError(f"{count} dice need {count} colours, got {len(colors)}")
        return [(int(r), int(g), int(b)) for r, g, b in colors]

    def layout_dice(
        self,
        values: Sequence[int | None],
        *,
        colors: Sequence[tuple[int, int, int]] | None = None,
        cocked: Sequence[int] = (),
        sizes: Sequence[int] | None = None,
        pips: Sequence[tuple[int, int, int]] | None = None,
        positions: Sequence[tuple[float, float]] | None = None,
        angles: Sequence[float] | None = None,
    ) -> tuple[PlacedDie, ...]:
        """Resting places for dice showing ``values`` (None or listed in ``cocked``:
        leaning against a wall, no face up), in the first player's colour by default;
        see :meth:`Placer.lay_out` for the optional per-die settings."""
        bodies = self._colors_for(len(values), colors)
        return self.placer.lay_out(
            values,
            bodies,
            cocked=cocked,
            sizes=sizes,
            pips=pips,
            positions=positions,
            angles=angles,
        )

    def _hand_pose(self, player: int, depth: float, *, fist: bool, aim: float = 0.0) -> HandPose:
        """The player's hand reaching ``depth`` (0: fingertips at the frame edge, 1: centre)."""
        width, height = self.size
        side = PLAYER_SIDES[player % len(PLAYER_SIDES)]
        palm = 0.2 * min(width, height) * (1.2 if self.die_size > 40 else 1.0)
        if side in ("bottom", "top"):
            span = height / 2.0
            x = width / 2.0 + aim * width * 0.25
            y = height - depth * span if side == "bottom" else depth * span
            direction = (0.0, -1.0) if side == "bottom" else (0.0, 1.0)
        else:
            span = width / 2.0
            y = height / 2.0 + aim * height * 0.25
            x = depth * span if side == "left" else width - depth * span
            direction = (1.0, 0.0) if side == "left" else (-1.0, 0.0)
        tilt = math.radians(aim * 20)
        dx = direction[0] * math.cos(tilt) - direction[1] * math.sin(tilt)
        dy = direction[0] * math.sin(tilt) + direction[1] * math.cos(tilt)
        return HandPose(tip=(x, y), direction=(dx, dy), width=palm, skin=self.skin, fist=fist)

    def resting_arm(self, corner: int = 0, reach: float = 0.12) -> HandPose:
        """A forearm resting on the table across the picture's corner ``corner`` (0:
        bottom left, then bottom right, top right, top left), lying at 30 degrees to
        the edge, its fingertips ``reach`` of the frame's shorter side in from it."""
        width, height = self.size
        short = min(width, height)
        palm = 0.2 * short * (1.2 if self.die_size > 40 else 1.0)
        slope = math.radians(30.0)
        along = reach * short / math.sin(slope)
        x, y = along * math.cos(slope), height - reach * short
        direction = (math.cos(slope), -math.sin(slope))
        if corner in (1, 2):
            x, direction = width - x, (-direction[0], direction[1])
        if corner in (2, 3):
            y, direction = height - y, (direction[0], -direction[1])
        return HandPose(tip=(x, y), direction=direction, width=palm, skin=self.skin)

    # ------------------------------------------------------------------ public scenes

    def empty(self) -> SynthFrame:
        """The empty tray (the tray is also left empty for the next scene)."""
        self.layout = ()
        return self.render(())

    def still(
        self,
        values: Sequence[int | None],
        *,
        colors: Sequence[tuple[int, int, int]] | None = None,
        cocked: Sequence[int] = (),
        blur: float = 0.0,
        sizes: Sequence[int] | None = None,
        pips: Sequence[tuple[int, int, int]] | None = None,
        positions: Sequence[tuple[float, float]] | None = None,
        angles: Sequence[float] | None = None,
    ) -> SynthFrame:
        """One frame of dice lying still; a value None (or an index in ``cocked``) is a
        die leaning against the wall. Per die, optionally: ``colors`` (body RGB),
        ``sizes`` (px), ``pips`` (RGB; default dark on light bodies, light on dark),
        ``positions`` (centre x, y; then keeping them apart is the caller's business),
        ``angles`` (degrees). The dice stay as the table's layout."""
        self.layout = self.layout_dice(
            values,
            colors=colors,
            cocked=cocked,
            sizes=sizes,
            pips=pips,
            positions=positions,
            angles=angles,
        )
        return self.render(self.layout, blur=blur)

    def slid(self, image: ByteImage, dx: float, dy: float) -> ByteImage:
        """``image`` (a frame of this table) with the tray, and all that lies in it,
        pushed along the table by ``dx``, ``dy`` pixels; the table and the camera stay."""
        height, width = image.shape[:2]
        shift = np.asarray([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
        moved = cv2.warpAffine(image, shift, (width, height), borderMode=cv2.BORDER_REPLICATE)
        x0, y0, x1, y1 = self.tray.geometry.outer
        where = np.zeros((height, width), np.uint8)
        where[y0:y1, x0:x1] = 255
        tray = np.asarray(cv2.warpAffine(where, shift, (width, height))) > 127
        out = self.tray.table.copy()
        out[tray] = moved[tray]
        return out

    def against_walls(self, walls: Sequence[tuple[str, float]]) -> list[tuple[float, float]]:
        """Where dice lying against the tray's walls show their top faces, as
        ``positions`` for :meth:`still`: per die, the wall ("left", "right", "top" or
        "bottom") and how far along it (0 to 1). Seen from a camera above the middle,
        the top face shows out over the wall."""
        x0, y0, x1, y1 = self.tray.geometry.floor
        half = 0.55 * self.die_size  # a turned die reaches a little farther
        places = []
        for wall, along in walls:
            x, y = x0 + along * (x1 - x0), y0 + along * (y1 - y0)
            try:
                x, y = {"left": (x0 + half, y), "right": (x1 - half, y),
                        "top": (x, y0 + half), "bottom": (x, y1 - half)}[wall]
            except KeyError:
                raise SynthError(f"no wall called {wall!r}; choose left, right, top or "
                                 "bottom") from None
            lean_x, lean_y = self.perspective.lean_at(x, y, self.die_size)
            places.append((x + lean_x, y + lean_y))
        return places

    def side_by_side(
        self,
        values: Sequence[int],
        cells: Sequence[tuple[int, int]],
        *,
        centre: tuple[float, float],
        gap: float = 0.0,
        angle: float = 0.0,
        colors: Sequence[tuple[int, int, int]] | None = None,
        blur: float = 0.0,
    ) -> SynthFrame:
        """Dice of the table's size lying side by side, turned alike by ``angle``
        (degrees): the i-th at grid cell ``cells[i]`` (columns and rows, in die sides
        along the dice's own edges, the cell (0, 0) at ``centre``), ``gap`` die sides
        apart (0: touching). Seen from straight above, as the sides of dice seen at a
        slant would overlap their neighbours."""
        if len(cells) != len(values):
            raise SynthError(f"{len(values)} dice need {len(values)} cells, not {len(cells)}")
        if len(set(cells)) != len(cells):
            raise SynthError(f"two dice cannot share a cell: {list(cells)}")
        if self.perspective.camera_px is not None:
            raise SynthError("dice side by side are drawn for a camera straight above")
        step = self.die_size * (1.0 + gap)
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        x, y = centre
        return self.still(
            values,
            colors=colors,
            sizes=[self.die_size] * len(values),
            positions=[
                (x + step * (i * cos - j * sin), y + step * (i * sin + j * cos)) for i, j in cells
            ],
            angles=[angle] * len(values),
            blur=blur,
        )

    def settled_frames(self, count: int) -> list[SynthFrame]:
        """``count`` frames of the current layout lying still (only the noise changes)."""
        return [self.draw(p) for p in self.settled_plan(count)]

    def settled_plan(self, count: int) -> list[PlannedFrame]:
        """:meth:`settled_frames` planned, not drawn (see :meth:`plan`)."""
        return [self.plan(self.layout) for _ in range(count)]

    def roll_sequence(
        self,
        values: Sequence[int | None] | None = None,
        *,
        player: int = 0,
        settle_frames: int = 15,
        hand: bool = True,
        colors: Sequence[tuple[int, int, int]] | None = None,
        empty_frames: int = 3,
        rolled_out: int = 0,
    ) -> list[SynthFrame]:
        """A whole roll: empty tray, the player's hand comes in (with ``hand``), the dice
        tumble out of it with motion blur and come to rest for ``settle_frames`` frames.
        ``values`` None rolls three dice at random; a value None ends cocked on a wall.
        The last ``rolled_out`` dice jump over the tray's far wall and off the picture
        (they do not lie in the tray afterwards)."""
        return [self.draw(p) for p in self.roll_plan(
            values, player=player, settle_frames=settle_frames, hand=hand, colors=colors,
            empty_frames=empty_frames, rolled_out=rolled_out)]

    def roll_plan(
        self,
        values: Sequence[int | None] | None = None,
        *,
        player: int = 0,
        settle_frames: int = 15,
        hand: bool = True,
        colors: Sequence[tuple[int, int, int]] | None = None,
        empty_frames: int = 3,
        rolled_out: int = 0,
    ) -> list[PlannedFrame]:
        """:meth:`roll_sequence` planned, not drawn (see :meth:`plan`)."""
        if values is None:
            values = [self.rng.randint(1, 6) for _ in range(3)]
        if not values:
            raise SynthError("a roll needs at least one die")
        if not 0 <= rolled_out <= len(values):
            raise SynthError(f"{rolled_out} of {len(values)} dice cannot roll out of the tray")
        bodies = colors if colors is not None else self._colors_for(len(values), None, player)
        final = self.layout_dice(list(values), colors=bodies)
        frames = [self.plan(()) for _ in range(empty_frames)]

        fps_scale = self.fps / 30.0
        n_in = max(2, round(self.rng.randint(6, 9) * fps_scale))
        n_tumble = max(3, round(self.rng.randint(11, 16) * fps_scale))
        n_out = max(2, round(5 * fps_scale))
        aim = self.rng.uniform(-0.5, 0.5)
        reach = self.rng.uniform(0.7, 1.0)
        if hand:
            for k in range(n_in):
                depth = 0.2 + (reach - 0.2) * math.sin(0.5 * math.pi * (k + 1) / n_in)
                holding = self._hand_pose(player, depth, fist=True, aim=aim)
                frames.append(self.plan((), hand=holding, phase="hand"))
            release = self._hand_pose(player, reach, fist=True, aim=aim).tip
        else:
            release = self._edge_point(player, aim)

        spins = [self.rng.uniform(240, 720) * self.rng.choice((-1, 1)) for _ in final]
        starts = [
            (release[0] + self.rng.uniform(-12, 12), release[1] + self.rng.uniform(-12, 12))
            for _ in final
        ]
        # Faces flick by while a die tumbles; in its last moving frame it is still rolling
        # over (another face up), and it lands on its value in the first settled frame.
        faces = [[self.rng.randint(1, 6) for _ in range(n_tumble)] for _ in final]
        staying = len(final) - rolled_out
        ends = [(d.x, d.y) if i < staying else self._beyond_far_wall(player, d.x, d.y)
                for i, d in enumerate(final)]
        for i, d in enumerate(final):
            faces[i][-1] = self.rng.choice([f for f in range(1, 7) if f != d.look.value])

        def place(i: int, k: int) -> tuple[float, float, float]:
            """Position and angle of die i at tumble step k (k == n_tumble: at rest)."""
            s = min(k / n_tumble, 1.0)
            ease = 1.0 - (1.0 - s) ** 2.2
            d = final[i]
            x = starts[i][0] + (ends[i][0] - starts[i][0]) * ease
            y = starts[i][1] + (ends[i][1] - starts[i][1]) * ease
            return x, y, d.look.angle + spins[i] * (1.0 - ease)

        for k in range(n_tumble):
            moving = []
            for i, d in enumerate(final):
                x, y, angle = place(i, k)
                px, py, _ = place(i, k - 1) if k > 0 else (x, y, angle)
                nx, ny, _ = place(i, k + 1)
                smear = (0.5 * (nx - px) * 0.6, 0.5 * (ny - py) * 0.6)
                if math.hypot(*smear) < 1.5:
                    smear = (1.5, 0.0)  # still turning over: never quite sharp
                face = faces[i][k]
                look = replace(d.look, value=face, angle=angle % 360)
                moving.append(PlacedDie(look, x, y, smear))
            pose: HandPose | None = None
            if hand and k < n_out:
                depth = reach * (1.0 - (k + 1) / n_out) - 0.15 * (k + 1) / n_out
                pose = self._hand_pose(player, depth, fist=False, aim=aim)
            frames.append(self.plan(moving, hand=pose, phase="moving"))
        self.layout = final[:staying]
        frames.extend(self.settled_plan(settle_frames))
        return frames

    def _beyond_far_wall(self, player: int, x: float, y: float) -> tuple[float, float]:
        """Where a die thrown by ``player`` towards ``x``, ``y`` ends when it jumps the
        tray's far wall: off the picture beyond it."""
        width, height = self.size
        away = 2.0 * self.die_size
        return {"bottom": (x, -away), "top": (x, height + away), "left": (width + away, y),
                "right": (-away, y)}[PLAYER_SIDES[player % len(PLAYER_SIDES)]]

    def _edge_point(self, player: int, aim: float) -> tuple[float, float]:
        """Where dice poured from a cup on the player's side enter the tray floor."""
        fx0, fy0, fx1, fy1 = self.geometry.floor
        side = PLAYER_SIDES[player % len(PLAYER_SIDES)]
        mx = (fx0 + fx1) / 2.0 + aim * (fx1 - fx0) * 0.3
        my = (fy0 + fy1) / 2.0 + aim * (fy1 - fy0) * 0.3
        inset = self.die_size
        return {
            "bottom": (mx, fy1 - inset),
            "top": (mx, fy0 + inset),
            "left": (fx0 + inset, my),
            "right": (fx1 - inset, my),
        }[side]

    def _hand_towards(
        self, player: int, target: tuple[float, float], reach: float, *, fist: bool = False
    ) -> HandPose:
        """The player's hand coming in from their side with its fingertips ``reach``
        (0: at the frame edge, 1: at ``target``) of the way to ``target``, but always
        well inside the frame."""
        width, height = self.size
        side = PLAYER_SIDES[player % len(PLAYER_SIDES)]
        start = {
            "bottom": (target[0], float(height)),
            "top": (target[0], 0.0),
            "left": (0.0, target[1]),
            "right": (float(width), target[1]),
        }[side]
        dx, dy = target[0] - start[0], target[1] - start[1]
        norm = math.hypot(dx, dy) or 1.0
        # However little of the way, the fingertips show clearly inside the frame.
        reach = max(reach, min(1.0, 0.15 * min(width, height) / norm))
        tip = (start[0] + dx * reach, start[1] + dy * reach)
        palm = 0.2 * min(width, height) * (1.2 if self.die_size > 40 else 1.0)
        return HandPose(
            tip=tip, direction=(dx / norm, dy / norm), width=palm, skin=self.skin, fist=fist
        )

    def nudge_sequence(
        self,
        index: int | None = None,
        *,
        settle_frames: int = 15,
        distance: float | None = None,
        hand: bool = False,
        player: int = 0,
    ) -> list[SynthFrame]:
        """A die of the current layout is bumped: it slides a little and turns, then rests.
        With ``hand``, the player's finger comes in, pushes it and goes again."""
        if not self.layout:
            raise SynthError("nothing to nudge: the tray is empty; make a roll or still() first")
        i = self.rng.randrange(len(self.layout)) if index is None else index
        if not 0 <= i < len(self.layout):
            raise SynthError(f"die {i} does not exist among {len(self.layout)} dice")
        die = self.layout[i]
        size = die.look.size
        dist = distance if distance is not None else self.rng.uniform(0.25, 0.5) * size
        fx0, fy0, fx1, fy1 = self.geometry.floor
        turn = self.rng.uniform(8, 25) * self.rng.choice((-1, 1))
        turned = replace(die.look, angle=(die.look.angle + turn) % 360)
        ex, ey = extent(turned)
        others = [d for j, d in enumerate(self.layout) if j != i]
        # A finger pushes the die away from the player; without one it goes anywhere.
        contact = 0.75 * size
        push = self._hand_towards(player, (die.x, die.y), 1.0).direction
        tx, ty = die.x, die.y  # if it has nowhere to slide, it only turns
        for attempt in range(100):
            if hand and attempt < 60:
                heading = math.atan2(push[1], push[0]) + self.rng.uniform(-0.6, 0.6)
            else:
                heading = self.rng.uniform(0, 2 * math.pi)
            cx = min(max(die.x + dist * math.cos(heading), fx0 + ex), fx1 - ex)
            cy = min(max(die.y + dist * math.sin(heading), fy0 + ey), fy1 - ey)
            if (
                math.hypot(cx - die.x, cy - die.y) > 0.5 * dist
                and self.placer.inside(turned, cx, cy)
                and self.placer.apart(turned, cx, cy, others)
            ):
                tx, ty = cx, cy
                break

        def finger(x: float, y: float, reach: float) -> HandPose:
            """The hand with its fingertip ``reach`` of the way to touching the die at (x, y)."""
            touch = (x - push[0] * contact, y - push[1] * contact)
            return self._hand_towards(player, touch, reach)

        frames = []
        n_hand = max(2, round(5 * self.fps / 30.0))
        if hand:
            for k in range(1, n_hand + 1):
                pose = finger(die.x, die.y, 0.4 + 0.6 * k / n_hand)
                frames.append(self.render(self.layout, hand=pose, phase="hand"))
        steps = max(2, round(4 * self.fps / 30.0))
        step = (tx - die.x) / (steps + 1), (ty - die.y) / (steps + 1)
        for k in range(1, steps + 1):
            # An even slide: the last moving frame is still one step short of the rest.
            ease = k / (steps + 1)
            x = die.x + (tx - die.x) * ease
            y = die.y + (ty - die.y) * ease
            look = replace(die.look, angle=(die.look.angle + turn * ease) % 360)
            smear = (0.5 * step[0], 0.5 * step[1])
            scene = list(self.layout)
            scene[i] = PlacedDie(look, x, y, smear)
            pushing = finger(x, y, 1.0) if hand else None
            frames.append(self.render(scene, hand=pushing, phase="moving"))
        moved = PlacedDie(turned, tx, ty)
        scene = list(self.layout)
        scene[i] = moved
        self.layout = tuple(scene)
        if hand:
            for k in range(1, n_hand + 1):
                pose = finger(tx, ty, 1.0 - 0.7 * k / n_hand)
                frames.append(self.render(self.layout, hand=pose, phase="hand"))
        frames.extend(self.settled_frames(settle_frames))
        return frames

    def hand_pass_sequence(
        self, *, player: int = 0, settle_frames: int = 15, frames_in: int = 6
    ) -> list[SynthFrame]:
        """A hand reaches in over the dice and leaves again without touching them."""
        aim = self.rng.uniform(-0.6, 0.6)
        reach = self.rng.uniform(0.6, 1.0)
        frames = []
        n_in = max(2, round(frames_in * self.fps / 30.0))
        depths = [reach * math.sin(0.5 * math.pi * (k + 1) / n_in) for k in range(n_in)]
        for depth in depths + depths[::-1]:
            pose = self._hand_pose(player, max(depth, 0.2), fist=False, aim=aim)
            frames.append(self.render(self.layout, hand=pose, phase="hand"))
        frames.extend(self.settled_frames(settle_frames))
        return frames

    def clear_sequence(self, *, player: int = 0, empty_frames: int = 20) -> list[SynthFrame]:
        """The player's hand sweeps in, picks up all dice and leaves: the tray is empty."""
        return [self.draw(p) for p in self.clear_plan(player=player, empty_frames=empty_frames)]

    def clear_plan(self, *, player: int = 0, empty_frames: int = 20) -> list[PlannedFrame]:
        """:meth:`clear_sequence` planned, not drawn (see :meth:`plan`)."""
        aim = self.rng.uniform(-0.4, 0.4)
        n_in = max(2, round(6 * self.fps / 30.0))
        frames = []
        for k in range(n_in):
            depth = 0.2 + 0.7 * (k + 1) / n_in
            pose = self._hand_pose(player, depth, fist=False, aim=aim)
            frames.append(self.plan(self.layout, hand=pose, phase="hand"))
        self.layout = ()
        for k in range(n_in):
            depth = 0.9 - 0.7 * (k + 1) / n_in
            pose = self._hand_pose(player, depth, fist=True, aim=aim)
            frames.append(self.plan((), hand=pose, phase="hand"))
        frames.extend(self.plan(()) for _ in range(empty_frames))
        return frames

    def hand_only_sequence(
        self, *, player: int = 0, empty_frames: int = 20, frames_in: int = 7
    ) -> list[SynthFrame]:
        """A hand reaches into the empty tray and leaves with nothing rolled (the tray is
        empty in this scene and after it, whatever lay there before)."""
        self.layout = ()
        frames = self.hand_pass_sequence(player=player, settle_frames=0, frames_in=frames_in)
        frames.extend(self.render(()) for _ in range(empty_frames))
        return frames

    def game(self, *, settle_seconds: float = 1.5) -> Iterator[SynthFrame]:
        """An endless stream of frames of a game at the table's frame rate: the players
        roll in turn, let the dice lie ``settle_seconds``, and take them out again; now
        and then a die gets nudged, a hand passes over the dice or reaches in for nothing.
        For demos and camera stand-ins; every scene's truth rides along on the frames."""
        settle = max(1, round(settle_seconds * self.fps))
        player = 0
        while True:
            yield from self.roll_sequence(player=player, settle_frames=settle)
            chance = self.rng.random()
            if chance < 0.15:
                yield from self.nudge_sequence(settle_frames=settle)
            elif chance < 0.3:
                yield from self.hand_pass_sequence(player=player, settle_frames=settle)
            yield from self.clear_sequence(player=player, empty_frames=settle)
            if self.rng.random() < 0.1:
                yield from self.hand_only_sequence(player=player, empty_frames=settle)
            player = (player + 1) % self.players
