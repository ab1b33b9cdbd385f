"""The reader's quick medians and percentiles give numpy's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from einhorn_table.vision.order_stats import median, percentile


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 8, 16, 31, 64])
def test_median_and_percentiles_are_numpys(count: int) -> None:
    rng = np.random.default_rng(count)
    for _ in range(20):
        values = rng.normal(100, 40, size=count).round(rng.integers(0, 3))
        assert median(values) == np.median(values)
        for q in (0, 10, 50, 80, 85, 90, 100):
            assert percentile(values, q) == np.percentile(values, q)


def test_along_an_axis() -> None:
    rng = np.random.default_rng(1)
    table = rng.integers(0, 255, size=(7, 12)).astype(np.float64)
    np.testing.assert_array_equal(median(table, axis=1), np.median(table, axis=1))
    np.testing.assert_array_equal(median(table, axis=0), np.median(table, axis=0))
    np.testing.assert_array_equal(percentile(table, 90, axis=1), np.percentile(table, 90, axis=1))


def test_no_values_is_an_error() -> None:
    with pytest.raises(ValueError):
        median([])
    with pytest.raises(ValueError):
        percentile(np.zeros(0), 50)
