"""Shared test helpers: where the repository and ../shared are."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

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


@pytest.fixture(autouse=True)
def a_desktop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test sees a desktop, wherever it runs (``./check`` on a Raspberry Pi too,
    where the tests' mock pins would otherwise be refused as buttons nobody can press);
    a test of a Pi's own ways passes its Machine, its model file, or patches this."""
    from einhorn_table.doctor import machine

    detect = machine.detect_machine
    nowhere = Path("/nonexistent/device-tree/model")
    monkeypatch.setattr(machine, "detect_machine",
                        lambda model_file=nowhere: detect(model_file))


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory as gpiozero's default, the old one restored afterwards."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
