"""Where dice lie in the tray: apart from each other, on the floor, cocked ones on a wall."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from einhorn_table.vision.synth.dice import MAX_DIE_SIZE, MIN_DIE_SIZE, DieLook
from einhorn_table.vision.synth.palette import RGB, pip_color_for
from einhorn_table.vision.synth.truth import SynthError

#: Which tray side each player reaches in from (player index modulo 4).
PLAYER_SIDES = ("bottom", "top", "left", "right")

Box = tuple[float, float, float, float]

#: The angle at which a cocked die leans on each wall (its top tipped towards the wall).
_WALL_ANGLE = {"bottom": 0.0, "top": 180.0, "left": 90.0, "right": -90.0}


@dataclass(frozen=True)
class PlacedDie:
    """A die in the scene: how it looks, where its centre lies, its smear this exposure."""

    look: DieLook
    x: float
    y: float
    smear: tuple[float, float] = (0.0, 0.0)

    @property
    def readable(self) -> bool:
        """Whether the face up can be read: lying flat and not moving."""
        return not self.look.cocked and math.hypot(*self.smear) < 1.5


@dataclass(frozen=True)
class Perspective:
    """A camera ``camera_px`` frame pixels above the middle of a ``width`` x ``height``
    frame (None: infinitely far, every die seen straight from above)."""

    width: int
    height: int
    camera_px: float | None

    def lean_at(self, x: float, y: float, size: int) -> tuple[float, float]:
        """How far (pixels) the top of a die of ``size`` at (x, y) shows from its base,
        away from the middle of the frame (to half a pixel)."""
        if self.camera_px is None:
            return (0.0, 0.0)
        k = size / (self.camera_px - size)
        return (
            round(2 * (x - self.width / 2) * k) / 2,
            round(2 * (y - self.height / 2) * k) / 2,
        )


def extent(look: DieLook) -> tuple[float, float]:
    """Half width and half height of the die's top (or cocked body) on screen."""
    half = look.size / 2.0
    half_v = half
    if look.cocked:
        tilt = math.radians(look.tilt)
        half_v = half * (math.cos(tilt) + math.sin(tilt))
    c = abs(math.cos(math.radians(look.angle)))
    s = abs(math.sin(math.radians(look.angle)))
    return half * c + half_v * s, half * s + half_v * c


class Placer:
    """Finds resting places for dice on the tray ``floor`` (x0, y0, x1, y1), drawing its
    chances from ``rng``; dice are ``die_size`` pixels unless told otherwise."""

    def __init__(
        self,
        floor: tuple[int, int, int, int],
        perspective: Perspective,
        rng: random.Random,
        die_size: int,
    ) -> None:
        self.floor = floor
        self.perspective = perspective
        self.rng = rng
        self.die_size = die_size

    def look(
        self,
        value: int,
        body: RGB,
        *,
        size: int | None = None,
        angle: float | None = None,
        cocked: bool = False,
    ) -> DieLook:
        """A die of this value and colour, at a random angle and (unless given) size."""
        base = size if size is not None else self.die_size
        jitter = 1.0 if size is not None else self.rng.uniform(0.95, 1.05)
        side = min(MAX_DIE_SIZE, max(MIN_DIE_SIZE, round(base * jitter)))
        others = [f for f in range(1, 7) if f not in (value, 7 - value)]
        return DieLook(
            value=value,
            body=body,
            pips=pip_color_for(body),
            size=side,
            angle=self.rng.uniform(0, 360) if angle is None else angle,
            cocked=cocked,
            tilt=self.rng.uniform(32, 52),
            side_value=self.rng.choice(others),
        )

    def bounds(self, look: DieLook, x: float, y: float) -> Box:
        """Upright box around the die at (x, y), its sides in perspective included."""
        ex, ey = extent(look)
        lx, ly = (0.0, 0.0) if look.cocked else self.perspective.lean_at(x, y, look.size)
        # The base lies at (x, y) - lean, the top at (x, y).
        return (
            x - ex - max(lx, 0.0),
            y - ey - max(ly, 0.0),
            x + ex + max(-lx, 0.0),
            y + ey + max(-ly, 0.0),
        )

    def apart(self, look: DieLook, x: float, y: float, others: Sequence[PlacedDie]) -> bool:
        """Whether a die at (x, y) keeps a small gap to every one of ``others``."""
        ax0, ay0, ax1, ay1 = self.bounds(look, x, y)
        for o in others:
            bx0, by0, bx1, by1 = self.bounds(o.look, o.x, o.y)
            if ax0 < bx1 + 2 and bx0 < ax1 + 2 and ay0 < by1 + 2 and by0 < ay1 + 2:
                return False
        return True

    def inside(self, look: DieLook, x: float, y: float, area: Box | None = None) -> bool:
        """Whether the die at (x, y) lies wholly within ``area`` (default: the floor)."""
        ax0, ay0, ax1, ay1 = area if area is not None else self.floor
        bx0, by0, bx1, by1 = self.bounds(look, x, y)
        return bx0 >= ax0 and by0 >= ay0 and bx1 <= ax1 and by1 <= ay1

    def free_spot(self, look: DieLook, placed: Sequence[PlacedDie]) -> tuple[float, float]:
        """A random place on the floor where the die touches none of ``placed``."""
        fx0, fy0, fx1, fy1 = self.floor
        area = (fx0 + 2.0, fy0 + 2.0, fx1 - 2.0, fy1 - 2.0)
        ex, ey = extent(look)
        if area[2] - area[0] < 2 * ex or area[3] - area[1] < 2 * ey:
            raise SynthError(f"a die of {look.size} px does not fit the tray; use smaller dice")
        for _ in range(300):
            x = self.rng.uniform(area[0] + ex, area[2] - ex)
            y = self.rng.uniform(area[1] + ey, area[3] - ey)
            if self.inside(look, x, y, area) and self.apart(look, x, y, placed):
                return x, y
        raise SynthError(
            f"cannot fit {len(placed) + 1} dice of {look.size} px without overlap; "
            "use fewer or smaller dice"
        )

    def cocked_die(
        self, look: DieLook, placed: Sequence[PlacedDie], *, keep_angle: bool = False
    ) -> PlacedDie:
        """A die leaning against a random wall (its top face tipped towards the wall);
        with ``keep_angle``, against the wall that its own angle leans it on."""
        fx0, fy0, fx1, fy1 = self.floor
        tilt = math.radians(look.tilt)
        inset = 0.8 * look.size / 2.0 * (math.cos(tilt) + math.sin(tilt))
        for _ in range(200):
            if keep_angle:
                side = min(
                    PLAYER_SIDES,
                    key=lambda s: abs((look.angle - _WALL_ANGLE[s] + 180.0) % 360.0 - 180.0),
                )
                tilted = look
            else:
                side = self.rng.choice(PLAYER_SIDES)
                tilted = replace(look, angle=_WALL_ANGLE[side] + self.rng.uniform(-12, 12))
            along = self.rng.uniform(0.12, 0.88)
            if side in ("bottom", "top"):
                x = fx0 + along * (fx1 - fx0)
                y = fy1 - inset if side == "bottom" else fy0 + inset
            else:
                y = fy0 + along * (fy1 - fy0)
                x = fx0 + inset if side == "left" else fx1 - inset
            if self.apart(tilted, x, y, placed):
                return PlacedDie(tilted, x, y)
        raise SynthError("no room along the walls for a cocked die; use fewer dice")

    def lay_out(
        self,
        values: Sequence[int | None],
        bodies: Sequence[RGB],
        *,
        cocked: Sequence[int] = (),
        sizes: Sequence[int] | None = None,
        pips: Sequence[RGB] | None = None,
        positions: Sequence[tuple[float, float]] | None = None,
        angles: Sequence[float] | None = None,
    ) -> tuple[PlacedDie, ...]:
        """Resting places for dice showing ``values`` in colours ``bodies``; a value None,
        or an index in ``cocked``, leans against a wall with no face up. Optional per-die
        ``sizes``, ``pips`` colours, ``positions`` (centres; then the caller keeps them
        apart) and ``angles`` (degrees); whatever is not given is chosen at random."""
        count = len(values)
        for name, given in (
            ("colours", bodies),
            ("sizes", sizes),
            ("pip colours", pips),
            ("positions", positions),
            ("angles", angles),
        ):
            if given is not None and len(given) != count:
                raise SynthError(f"{count} dice need {count} {name}, got {len(given)}")
        leaning = set(cocked) | {i for i, v in enumerate(values) if v is None}
        for i in leaning:
            if not 0 <= i < count:
                raise SynthError(f"cocked die {i} does not exist among {count} dice")
        wishes = [
            _Wish(
                value=values[i],
                body=bodies[i],
                cocked=i in leaning,
                size=sizes[i] if sizes is not None else None,
                pips=pips[i] if pips is not None else None,
                position=positions[i] if positions is not None else None,
                angle=angles[i] if angles is not None else None,
            )
            for i in range(count)
        ]
        attempts = 20
        for attempt in range(attempts):
            try:
                return self._try_lay_out(wishes)
            except SynthError:
                if attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")

    def _try_lay_out(self, wishes: Sequence[_Wish]) -> tuple[PlacedDie, ...]:
        placed: dict[int, PlacedDie] = {}
        # Dice with a given place first, then those leaning on a wall (wall places are
        # scarcer), then the rest wherever there is room.
        order = sorted(
            range(len(wishes)),
            key=lambda i: (wishes[i].position is None, not wishes[i].cocked),
        )
        for i in order:
            wish = wishes[i]
            face = wish.value if wish.value is not None else self.rng.randint(1, 6)
            look = self.look(face, wish.body, size=wish.size, angle=wish.angle, cocked=wish.cocked)
            if wish.pips is not None:
                look = replace(look, pips=wish.pips)
            others = list(placed.values())
            if wish.position is not None:
                placed[i] = PlacedDie(look, *wish.position)
            elif wish.cocked:
                placed[i] = self.cocked_die(look, others, keep_angle=wish.angle is not None)
            else:
                placed[i] = PlacedDie(look, *self.free_spot(look, others))
        return tuple(placed[i] for i in range(len(wishes)))


@dataclass(frozen=True)
class _Wish:
    """What a caller asked of one die (None: choose at random)."""

    value: int | None
    body: RGB
    cocked: bool
    size: int | None
    pips: RGB | None
    position: tuple[float, float] | None
    angle: float | None
