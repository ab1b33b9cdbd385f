"""Fitting a group of pip centres to a die's layouts."""

from __future__ import annotations

import itertools
import random

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from einhorn_table.vision.layouts import LAYOUTS, fit_layout

values = st.integers(min_value=2, max_value=6)


def _seen(
    value: int, turn: float, size: float, squash: float, shift: tuple[float, float]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The value's pips as a camera sees them: turned, sized, foreshortened, moved."""
    face = np.array(LAYOUTS[value])
    c, s = np.cos(turn), np.sin(turn)
    linear = size * np.array([[c, -s], [s, c]]) @ np.diag([1.0, squash])
    return face @ linear.T + np.array(shift), linear


@settings(max_examples=150, deadline=None)
@given(
    value=values,
    turn=st.floats(0, 2 * np.pi),
    size=st.floats(12, 200),
    squash=st.floats(0.6, 1.0),
    x=st.floats(0, 640),
    y=st.floats(0, 480),
    order=st.randoms(use_true_random=False),
)
def test_pips_of_a_face_fit_their_own_layout_exactly_in_any_order_and_pose(
    value: int, turn: float, size: float, squash: float, x: float, y: float, order: random.Random
) -> None:
    if value <= 3:
        # Two or three pips in a row show only the turn and size of their face.
        squash = 1.0
    points, linear = _seen(value, turn, size, squash, (x, y))
    shuffled = points[order.sample(range(value), value)]
    fit = fit_layout(shuffled, single_pip_face=size)
    assert fit is not None
    assert fit.value == value
    assert fit.residual < 1e-6
    # The fitted face is the die's face: its corners are where the die's corners are.
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    seen_corners = corners @ linear.T + np.array((x, y))
    fitted = fit.corners()
    assert (
        min(
            np.abs(np.roll(fitted, k, axis=0)[::d] - seen_corners).max()
            for k in range(4)
            for d in (1, -1)
        )
        < 1e-6 * size + 1e-6
    )
    assert abs(fit.scale - size * np.sqrt(squash)) < 1e-6 * size


def test_the_fit_is_the_least_squares_fit_of_the_best_pip_order() -> None:
    """With the pips a little misplaced, the fit is the least-squares fit of the order
    of the pips that fits best of all 720."""
    rng = np.random.default_rng(3)
    face = np.array(LAYOUTS[6])
    homogeneous = np.hstack([face, np.ones((6, 1))])

    def residual(points: npt.NDArray[np.float64], order: tuple[int, ...]) -> float:
        image = points[list(order)]
        solution = np.linalg.lstsq(homogeneous, image, rcond=None)[0]
        error = homogeneous @ solution - image
        scale = np.sqrt(abs(np.linalg.det(solution.T[:, :2])))
        return float(np.sqrt((error**2).sum(axis=1).mean()) / scale)

    for _ in range(20):
        size = rng.uniform(40, 80)
        points, _ = _seen(6, rng.uniform(0, 6.3), size, rng.uniform(0.7, 1.0), (300.0, 200.0))
        points = points + rng.normal(0, 1.5, points.shape)
        fit = fit_layout(points, single_pip_face=size)
        assert fit is not None and fit.value == 6
        best = min(residual(points, order) for order in itertools.permutations(range(6)))
        assert abs(fit.residual - best) < 1e-9
        assert fit.residual < 0.1


def test_more_than_six_pips_fit_no_layout() -> None:
    points = np.random.default_rng(1).uniform(0, 100, (7, 2))
    assert fit_layout(points, single_pip_face=30.0) is None
