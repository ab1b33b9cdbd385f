"""Whose dice are whose: dice body colours, grouped and matched to the players' colours.

Colours are compared in CIE L*a*b* with the CIEDE2000 difference, lightness
weighted half (``k_L = 2``), because the lamp changes how bright a die looks far
more than its hue. :func:`die_color` measures a die's body colour from a frame;
:func:`match_dice_to_players` assigns dice to registered player colours (with
``dice_per_player`` as an optimal assignment, so a starting roll or tie-break
with everyone's dice in the tray at once is read per player); dice that fit no
player, or two players about equally, are reported, not guessed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.errors import EinhornError
from einhorn_table.vision.order_stats import median

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]

#: Colour difference below which two players' dice are too alike to tell apart reliably.
TOO_ALIKE = 15.0
#: A die further than this from every player's colour belongs to nobody known.
NO_MATCH = 15.0
#: A die whose two nearest players' colours are within this of each other is ambiguous.
AMBIGUITY_MARGIN = 5.0
#: Lightness weight of the colour difference (2: lightness counts half).
LIGHTNESS_WEIGHT = 2.0


class ColourError(EinhornError, ValueError):
    """Dice colours could not be measured or told apart; the message says what to do."""


def rgb_to_lab(rgb: RGB) -> Lab:
    """CIE L*a*b* (D65) of an sRGB colour given as 0..255 integers."""

    def linear(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1.0 / 3.0) if t > (6.0 / 29.0) ** 3 else t / (3 * (6.0 / 29.0) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz))


def delta_e(a: Lab, b: Lab, *, lightness_weight: float = LIGHTNESS_WEIGHT) -> float:
    """CIEDE2000 difference of two Lab colours (``lightness_weight`` is its k_L)."""
    l1, a1, b1 = a
    l2, a2, b2 = b
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_mean = (c1 + c2) / 2.0
    g = 0.5 * (1.0 - math.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1.0 + g) * a1, (1.0 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh_angle = 0.0
    elif abs(h2p - h1p) <= 180:
        dh_angle = h2p - h1p
    elif h2p - h1p > 180:
        dh_angle = h2p - h1p - 360
    else:
        dh_angle = h2p - h1p + 360
    dh = 2.0 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh_angle / 2.0))
    l_mean = (l1 + l2) / 2.0
    cp_mean = (c1p + c2p) / 2.0
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2.0
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2.0
    else:
        h_mean = (h1p + h2p - 360) / 2.0
    t = (
        1.0
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30.0 * math.exp(-(((h_mean - 275.0) / 25.0) ** 2))
    r_c = 2.0 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    s_l = 1.0 + 0.015 * (l_mean - 50.0) ** 2 / math.sqrt(20.0 + (l_mean - 50.0) ** 2)
    s_c = 1.0 + 0.045 * cp_mean
    s_h = 1.0 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2.0 * d_theta)) * r_c
    lt = dl / (lightness_weight * s_l)
    ct = dc / s_c
    ht = dh / s_h
    return math.sqrt(lt * lt + ct * ct + ht * ht + r_t * ct * ht)


def color_difference(a: RGB, b: RGB) -> float:
    """How different two RGB colours look (CIEDE2000, lightness weighted half)."""
    return delta_e(rgb_to_lab(a), rgb_to_lab(b))


def colors_too_alike(a: RGB, b: RGB, *, threshold: float = TOO_ALIKE) -> bool:
    """Whether two players' dice colours are too alike for the camera to keep apart."""
    return color_difference(a, b) < threshold


def alike_pairs(colors: Sequence[RGB], *, threshold: float = TOO_ALIKE) -> list[tuple[int, int]]:
    """Every pair of players (indices) whose dice colours are too alike, for a warning."""
    return [
        (i, j)
        for i in range(len(colors))
        for j in range(i + 1, len(colors))
        if colors_too_alike(colors[i], colors[j], threshold=threshold)
    ]


@dataclass(frozen=True)
class FaceColours:
    """What the middle of a die's box shows: its body colour, its pips' colour (None
    where the middle shows one colour only) and the body's share of the pixels."""

    body: RGB
    pips: RGB | None
    body_share: float


def die_color(image: npt.NDArray[np.uint8], box: tuple[int, int, int, int]) -> RGB:
    """The body colour (RGB) of the die in ``box`` (x0, y0, x1, y1) of a BGR frame.

    Samples the middle half of the box, which lies on the die's top face however the
    die is turned, and leaves out the pips: the pixels there are split in two colour
    clusters and the larger one (pips cover well under half) is the body.
    """
    return face_colours(image, box).body


def face_colours(image: npt.NDArray[np.uint8], box: tuple[int, int, int, int]) -> FaceColours:
    """The die's body and pip colours as :func:`die_color` tells them apart. Where the
    pips are large (a 6 with big pips fills most of the middle), the larger cluster can
    be the pips: a ``body_share`` near one half says the two are not told apart surely."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, width), min(y1, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        raise ColourError(
            f"the box {box} holds no die inside the {width}x{height} frame; "
            "pass the die's box in frame pixels"
        )
    qx, qy = (x1 - x0) / 4.0, (y1 - y0) / 4.0
    cx0, cy0 = int(x0 + qx), int(y0 + qy)
    cx1, cy1 = max(math.ceil(x1 - qx), cx0 + 1), max(math.ceil(y1 - qy), cy0 + 1)
    # A big die's middle is sampled on a sparser grid: its colours are the same.
    step = max(1, math.ceil(math.sqrt((cy1 - cy0) * (cx1 - cx0) / _ENOUGH_PIXELS)))
    crop = np.ascontiguousarray(image[cy0:cy1:step, cx0:cx1:step])
    pixels = crop.reshape(-1, 3)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    in_body = _larger_of_two(lab)
    share = float(in_body.mean())
    return FaceColours(
        _mean_rgb(pixels[in_body]), _mean_rgb(pixels[~in_body]) if share < 1.0 else None, share
    )


#: About this many pixels of a die's middle tell its body and pip colours.
_ENOUGH_PIXELS = 256


def _mean_rgb(bgr_pixels: npt.NDArray[np.uint8]) -> RGB:
    b, g, r = (round(float(c)) for c in bgr_pixels.mean(axis=0))
    return (r, g, b)


def dice_set_color(image: npt.NDArray[np.uint8], boxes: Sequence[tuple[int, int, int, int]]) -> RGB:
    """One player's dice colour as this camera sees it: the median of their dice's body
    colours in a frame (for registering a player by rolling their dice once)."""
    if not boxes:
        raise ColourError("no dice to take the colour from; roll the player's dice into the tray")
    seen = np.array([die_color(image, box) for box in boxes], dtype=np.float32)
    r, g, b = (round(float(v)) for v in np.median(seen, axis=0))
    return (r, g, b)


def _larger_of_two(lab: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which of these Lab pixels belong to the larger of two colour clusters (2-means,
    started from the median and the pixel furthest from it, so it is deterministic)."""
    first = np.asarray(median(lab, axis=0), np.float32)
    second = lab[int(np.argmax(_squared_distances(lab, first)))]
    in_first = np.ones(len(lab), dtype=bool)
    for _ in range(6):
        split = _squared_distances(lab, first) <= _squared_distances(lab, second)
        if split.all() or not split.any():
            return np.ones(len(lab), dtype=bool)
        if np.array_equal(split, in_first):
            break  # settled: the means would stay as they are
        in_first = split
        first, second = lab[in_first].mean(axis=0), lab[~in_first].mean(axis=0)
    if float(np.linalg.norm(first - second)) < 12.0:
        return np.ones(len(lab), dtype=bool)  # one colour, only shaded: no pips here
    return in_first if in_first.sum() * 2 >= len(lab) else ~in_first


def _squared_distances(
    points: npt.NDArray[np.float32], centre: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    offsets = points - centre
    return np.asarray(np.einsum("ij,ij->i", offsets, offsets), np.float32)


@dataclass(frozen=True)
class ColourMatch:
    """Which player each die belongs to.

    ``player_of[i]`` is die i's player index, or None when it matched nobody or was
    ambiguous under nearest-colour matching; ``groups[p]`` are player p's dice;
    ``unmatched`` dice are like no player's colour; ``ambiguous`` dice are about as
    like two players' colours; ``distances[i]`` is die i's colour difference to the
    player it was given (or to the nearest player).
    """

    player_of: tuple[int | None, ...]
    groups: tuple[tuple[int, ...], ...]
    unmatched: tuple[int, ...]
    ambiguous: tuple[int, ...]
    distances: tuple[float, ...]

    @property
    def clear(self) -> bool:
        """Whether every die was given to a player without doubt."""
        return not self.unmatched and not self.ambiguous

    def require_clear(self) -> ColourMatch:
        """This match, or a :class:`ColourError` saying which dice to check."""
        problems = []
        if self.unmatched:
            dice = ", ".join(str(i + 1) for i in self.unmatched)
            problems.append(f"dice {dice} match no player's colour")
        if self.ambiguous:
            dice = ", ".join(str(i + 1) for i in self.ambiguous)
            problems.append(f"dice {dice} could belong to two players")
        if problems:
            raise ColourError(
                "; ".join(problems) + ": check that only registered dice are in the tray "
                "and that no two players use dice of alike colours"
            )
        return self


def _hungarian(cost: list[list[float]]) -> list[int]:
    """Optimal assignment of each row to a distinct column (rows <= columns).

    The classic O(n^2 m) shortest augmenting path method with potentials.
    """
    n = len(cost)
    m = len(cost[0]) if n else 0
    if n > m:
        raise ValueError("more rows than columns")
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)  # p[j]: row matched to column j (1-based), 0 = none
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    row_to_col = [-1] * n
    for j in range(1, m + 1):
        if p[j]:
            row_to_col[p[j] - 1] = j - 1
    return row_to_col


def match_dice_to_players(
    die_colors: Sequence[RGB],
    player_colors: Sequence[RGB],
    *,
    dice_per_player: int | None = None,
    no_match: float = NO_MATCH,
    margin: float = AMBIGUITY_MARGIN,
) -> ColourMatch:
    """Give each die to the player whose registered dice colour it shows.

    With ``dice_per_player`` (e.g. 3 in a starting roll where everyone rolls at once)
    no player gets more dice than that and the total colour difference is smallest
    (an optimal assignment), which settles near-ties by the others' dice. Without
    it each die goes to its nearest colour, and near-ties are refused (None).
    Dice further than ``no_match`` from every player go to nobody.
    """
    if not player_colors:
        raise ColourError("no players' dice colours are registered; register the players first")
    if dice_per_player is not None and dice_per_player < 1:
        raise ColourError(f"dice_per_player must be 1 or more, not {dice_per_player}")
    players = [rgb_to_lab(c) for c in player_colors]
    dist = [[delta_e(rgb_to_lab(c), p) for p in players] for c in die_colors]
    nearest = [min(range(len(players)), key=row.__getitem__) for row in dist]
    unmatched = [i for i, row in enumerate(dist) if row[nearest[i]] > no_match]
    ambiguous = []
    for i, row in enumerate(dist):
        ranked = sorted(row)
        if i not in unmatched and len(ranked) > 1 and ranked[1] - ranked[0] < margin:
            ambiguous.append(i)

    player_of: list[int | None] = [None] * len(die_colors)
    candidates = [i for i in range(len(die_colors)) if i not in unmatched]
    if dice_per_player is None:
        for i in candidates:
            if i not in ambiguous:
                player_of[i] = nearest[i]
    elif candidates:
        slots = [p for p in range(len(players)) for _ in range(dice_per_player)]
        if len(candidates) > len(slots):
            raise ColourError(
                f"{len(candidates)} dice in the tray but {len(players)} players with "
                f"{dice_per_player} dice each; take out the extra dice"
            )
        cost = [[dist[i][p] for p in slots] for i in candidates]
        for i, slot in zip(candidates, _hungarian(cost), strict=True):
            player_of[i] = slots[slot]
        # Ambiguous dice keep the player the assignment gave them but stay listed:
        # the assignment is the best guess, not a certainty.
    groups = tuple(
        tuple(i for i, p in enumerate(player_of) if p == player) for player in range(len(players))
    )
    distances = tuple(dist[i][p if p is not None else nearest[i]] for i, p in enumerate(player_of))
    return ColourMatch(
        player_of=tuple(player_of),
        groups=groups,
        unmatched=tuple(unmatched),
        ambiguous=tuple(ambiguous),
        distances=distances,
    )


def group_by_colour(die_colors: Sequence[RGB], *, threshold: float = TOO_ALIKE) -> list[list[int]]:
    """Dice grouped by alike colour when no colours are registered: two dice closer than
    ``threshold`` share a group (and so do chains of them). Groups in order of first die."""
    labs = [rgb_to_lab(c) for c in die_colors]
    parent = list(range(len(labs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(labs)):
        for j in range(i + 1, len(labs)):
            if delta_e(labs[i], labs[j]) < threshold:
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(labs)):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def match_boxes_to_players(
    image: npt.NDArray[np.uint8],
    boxes: Sequence[tuple[int, int, int, int]],
    player_colors: Sequence[RGB],
    *,
    dice_per_player: int | None = None,
) -> ColourMatch:
    """:func:`match_dice_to_players` for the dice in ``boxes`` of a BGR frame."""
    return match_dice_to_players(
        [die_color(image, box) for box in boxes], player_colors, dice_per_player=dice_per_player
    )
