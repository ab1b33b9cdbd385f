"""The hardware folder: the wiring diagram matches the pin map, the smoke script runs."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from einhorn_table.ports import Button
from einhorn_table.stations.header import BCM_TO_PHYSICAL
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"


@pytest.fixture(autouse=True)
def _no_running_service(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's service is taken as not running here, whatever this machine runs."""
    from einhorn_table.doctor import system_checks

    monkeypatch.setattr(system_checks, "service_state", lambda: None)


def svg_texts() -> list[str]:
    root = ET.parse(HARDWARE / "wiring.svg").getroot()
    return [e.text or "" for e in root.iter("{http://www.w3.org/2000/svg}text")]


def test_the_wiring_diagram_shows_every_button_of_the_pin_map() -> None:
    texts = svg_texts()
    for station in load_pin_map(default_pin_map_path()).stations:
        assert f"Station {station.player + 1} (player {station.player + 1})" in texts
        for button in Button:
            gpio = station.pin(button)
            line = f"{button.label}: GPIO {gpio}, pin {BCM_TO_PHYSICAL[gpio]}"
            assert line in texts, line
            assert any(t.startswith(f"GPIO {gpio}: P{station.player + 1} ") for t in texts)


def test_the_wiring_diagram_keeps_reserved_pins_free() -> None:
    texts = svg_texts()
    for gpio in (0, 1, 2, 3):
        assert any(t.startswith(f"GPIO {gpio} (") for t in texts), gpio


def load_smoke() -> ModuleType:
    spec = importlib.util.spec_from_file_location("smoke", HARDWARE / "smoke.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_smoke_scripts_camera_step_runs_and_saves_a_snapshot(tmp_path: Path) -> None:
    smoke = load_smoke()
    snapshot = tmp_path / "tray.png"
    status = smoke.main(
        ["--only", "camera", "--source", "synth:width=160,height=120,fps=60",
         "--seconds", "0.2", "--snapshot", str(snapshot)]
    )  # fmt: skip
    assert status == 0
    assert snapshot.stat().st_size > 0
