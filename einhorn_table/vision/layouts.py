"""The pip layouts of a standard die and fitting a group of pips to one of them.

Face coordinates run from 0 to 1 across the top face. A group of pip centres is
fitted to each layout with an affine map (which absorbs rotation, size and the
foreshortening of an oblique view); the residual says how well it fits.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Points = npt.NDArray[np.float64]

_LO, _MID, _HI = 0.25, 0.5, 0.75

#: Where the pips of each value sit on the face.
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_MID, _MID),),
    2: ((_LO, _LO), (_HI, _HI)),
    3: ((_LO, _LO), (_MID, _MID), (_HI, _HI)),
    4: ((_LO, _LO), (_HI, _LO), (_HI, _HI), (_LO, _HI)),
    5: ((_LO, _LO), (_HI, _LO), (_HI, _HI), (_LO, _HI), (_MID, _MID)),
    6: ((_LO, _LO), (_HI, _LO), (_HI, _HI), (_LO, _HI), (_LO, _MID), (_HI, _MID)),
}

#: The nine places a pip can be; a value leaves the others empty.
GRID: tuple[tuple[float, float], ...] = tuple(
    (x, y) for y in (_LO, _MID, _HI) for x in (_LO, _MID, _HI)
)


@dataclass(frozen=True)
class LayoutFit:
    """A group of pips read as one value, with the map from face to image."""

    value: int
    #: 2x3 affine map: image = matrix @ [u, v, 1].
    matrix: Points
    #: Root mean square misplacement of the pips, in face units (0 = perfect).
    residual: float

    def to_image(self, face_points: Points) -> Points:
        homogeneous = np.hstack([face_points, np.ones((len(face_points), 1))])
        result: Points = homogeneous @ self.matrix.T
        return result

    @property
    def scale(self) -> float:
        """Edge length of the face in image pixels (geometric mean of the two axes)."""
        return float(np.sqrt(abs(np.linalg.det(self.matrix[:, :2]))))

    @property
    def skew(self) -> float:
        """How far the face is from a square: 0 for a square, near 1 for a sliver."""
        axes = np.linalg.svd(self.matrix[:, :2], compute_uv=False)
        return float(1.0 - axes[1] / max(axes[0], 1e-9))

    def corners(self) -> Points:
        return self.to_image(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]))


def fit_layout(points: Points, single_pip_face: float) -> LayoutFit | None:
    """Fit ``points`` (n x 2 pip centres) to the layout of n pips, or None if n > 6.

    ``single_pip_face`` is the face size assumed for a lone pip (which alone does
    not show the size or turn of its face).
    """
    count = len(points)
    if count == 1:
        half = single_pip_face / 2
        x, y = points[0]
        matrix = np.array([[single_pip_face, 0.0, x - half], [0.0, single_pip_face, y - half]])
        return LayoutFit(1, matrix, 0.0)
    if count in (2, 3):
        return _fit_diagonal(points)
    if count in (4, 5, 6):
        return _fit_affine(points)
    return None


def _similarity(face: Points, image: Points) -> Points:
    """The rotation, scale and shift taking two face points to two image points."""
    f0, f1 = face[0], face[-1]
    i0, i1 = image[0], image[-1]
    fz = complex(*(f1 - f0))
    iz = complex(*(i1 - i0))
    rot = iz / fz
    a, b = rot.real, rot.imag
    linear = np.array([[a, -b], [b, a]])
    shift = i0 - linear @ f0
    return np.hstack([linear, shift[:, None]])


def _fit_diagonal(points: Points) -> LayoutFit:
    count = len(points)
    if count == 2:
        ordered = points
    else:
        # The middle pip is the one nearest the centre of the other two.
        best = min(
            range(3),
            key=lambda m: float(
                np.linalg.norm(points[m] - (points[(m + 1) % 3] + points[(m + 2) % 3]) / 2)
            ),
        )
        others = [i for i in range(3) if i != best]
        ordered = points[[others[0], best, others[1]]]
    face = np.array(LAYOUTS[count])
    matrix = _similarity(face, ordered)
    fit = LayoutFit(count, matrix, 0.0)
    error = fit.to_image(face) - ordered
    scale = max(fit.scale, 1e-9)
    residual = float(np.sqrt((error**2).sum(axis=1).mean()) / scale)
    return LayoutFit(count, matrix, residual)


def _homogeneous(count: int) -> Points:
    face = np.array(LAYOUTS[count])
    return np.hstack([face, np.ones((count, 1))])


#: Each affine layout's pip places as [u, v, 1] rows, and their pseudo-inverse: the
#: places are fixed, so every fit of that layout is one product with it.
_HOMOGENEOUS = {count: _homogeneous(count) for count in (4, 5, 6)}
_PSEUDO_INVERSES = {count: np.linalg.pinv(rows) for count, rows in _HOMOGENEOUS.items()}


def _affine_fits(count: int, images: Points) -> tuple[Points, Points]:
    """The least-squares affine maps from the layout of ``count`` pips to each of
    ``images`` (k x count x 2), all at once: the 2x3 matrices (k x 2 x 3) and their
    residuals (k)."""
    solutions = np.einsum("ij,kjl->kil", _PSEUDO_INVERSES[count], images)
    errors = np.einsum("ij,kjl->kil", _HOMOGENEOUS[count], solutions) - images
    matrices: Points = np.ascontiguousarray(solutions.transpose(0, 2, 1))
    linear = matrices[:, :, :2]
    determinants = linear[:, 0, 0] * linear[:, 1, 1] - linear[:, 0, 1] * linear[:, 1, 0]
    scales = np.sqrt(np.abs(determinants))
    residuals: Points = np.sqrt((errors**2).sum(axis=2).mean(axis=1)) / np.maximum(scales, 1e-9)
    return matrices, residuals


#: A 6's two middle pips may be any two of its six: each choice (rows), and the four
#: corners that leaves.
_SIX_MIDDLES = np.array(list(itertools.combinations(range(6), 2)))
_SIX_CORNERS = np.array([[i for i in range(6) if i not in pair] for pair in _SIX_MIDDLES])


def _fit_affine(points: Points) -> LayoutFit:
    count = len(points)
    if count == 4:
        corners, middles = np.arange(4)[None, :], np.zeros((1, 0), np.intp)
    elif count == 5:
        centre = points.mean(axis=0)
        middle = int(np.argmin(np.linalg.norm(points - centre, axis=1)))
        corners = np.array([[i for i in range(5) if i != middle]])
        middles = np.array([[middle]])
    else:
        corners, middles = _SIX_CORNERS, _SIX_MIDDLES
    ordered = _by_angle(points, corners)
    if count == 6:
        # A 6 has its middles on one pair of opposite sides: try both pairings.
        assignments = np.stack(
            [
                _with_middles(points, ordered, middles),
                _with_middles(points, np.roll(ordered, -1, axis=1), middles),
            ],
            axis=1,
        ).reshape(-1, 6)
    else:
        assignments = np.hstack([ordered, middles])
    matrices, residuals = _affine_fits(count, points[assignments])
    best = int(np.argmin(residuals))
    return LayoutFit(count, matrices[best], float(residuals[best]))


def _by_angle(points: Points, corners: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Each row of four corner pips (indices into ``points``) in order of their angle
    around the row's centre."""
    chosen = points[corners]
    centres = chosen.mean(axis=1)
    angles = np.arctan2(chosen[:, :, 1] - centres[:, 1:2], chosen[:, :, 0] - centres[:, 0:1])
    ordered: npt.NDArray[np.intp] = np.take_along_axis(corners, np.argsort(angles, axis=1), axis=1)
    return ordered


def _with_middles(
    points: Points, corners: npt.NDArray[np.intp], middles: npt.NDArray[np.intp]
) -> npt.NDArray[np.intp]:
    """A 6's pips in layout order for each row of corners (in angle order) and its two
    middles: the middles sit between corners 0-3 and 1-2."""
    m03 = (points[corners[:, 0]] + points[corners[:, 3]]) / 2
    first, second = middles[:, 0], middles[:, 1]
    nearer_first = np.linalg.norm(points[first] - m03, axis=1) <= np.linalg.norm(
        points[second] - m03, axis=1
    )
    in_order = np.where(nearer_first[:, None], middles, middles[:, ::-1])
    return np.hstack([corners, in_order])
