"""Medians and percentiles of the small arrays the reader handles, many times a frame.

They give numpy's ``median`` and ``percentile`` (linear interpolation) but sort the
values directly, which for a few dozen values is several times faster than numpy's
general routines. Values must not hold NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def _sorted(values: npt.ArrayLike, axis: int | None) -> tuple[Floats, int]:
    array = np.asarray(values, dtype=np.float64)
    if axis is None:
        return np.sort(array, axis=None), 0
    return np.sort(array, axis=axis), axis


def median(values: npt.ArrayLike, axis: int | None = None) -> Any:
    """As ``np.median``: the middle value, or the mean of the two middle values."""
    ordered, axis = _sorted(values, axis)
    count = ordered.shape[axis]
    if count == 0:
        raise ValueError("the median of no values")
    middle = count // 2
    if count % 2:
        return np.take(ordered, middle, axis=axis)
    return (np.take(ordered, middle - 1, axis=axis) + np.take(ordered, middle, axis=axis)) / 2


def percentile(values: npt.ArrayLike, q: float, axis: int | None = None) -> Any:
    """As ``np.percentile`` with its default (linear) interpolation."""
    ordered, axis = _sorted(values, axis)
    count = ordered.shape[axis]
    if count == 0:
        raise ValueError("a percentile of no values")
    index = (count - 1) * (q / 100)
    low = int(np.floor(index))
    high = min(low + 1, count - 1)
    share = index - low
    below = np.take(ordered, low, axis=axis)
    above = np.take(ordered, high, axis=axis)
    step = above - below
    # numpy interpolates from the nearer end, which keeps the ends exact.
    return below + step * share if share < 0.5 else above - step * (1 - share)
