"""Shared test helpers: where the repository and ../shared are."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
GOLDEN = SHARED / "golden"
DATASETS = SHARED / "datasets"


def golden_matches() -> list[Path]:
    """The golden match files (not their expected ledgers), or none if ../shared is absent."""
    if not GOLDEN.is_dir():
        return []
    return sorted(p for p in GOLDEN.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


needs_golden = pytest.mark.skipif(not GOLDEN.is_dir(), reason="../shared/golden is absent")
