"""The hardware review's findings: the camera sees what the mount guide counts on, and
the wiring files agree on every station's ground pin."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_hardware_picamera2 import FakePicamera2

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.picamera2_source import Picamera2Source, full_view_raw_size
from einhorn_table.stations.header import BCM_TO_PHYSICAL, GROUND_PINS
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"


def test_the_camera_module_3_is_read_in_its_full_view_mode() -> None:
    """Left to itself, libcamera reads a 1280x960 picture from the Camera Module 3's
    cropped 1536x864 mode (the middle two thirds of the sensor): the tray would not fit
    at the mount guide's height. The raw stream's size asks for the binned full view."""
    camera = FakePicamera2()
    with Picamera2Source(FakeClock(), CameraSettings(), camera_factory=lambda n: camera):
        assert camera.config["raw"] == {"size": (2304, 1296)}
        assert camera.config["main"] == {"size": (1280, 960), "format": "RGB888"}


@pytest.mark.parametrize(
    ("sensor", "raw"),
    [
        ((4608, 2592), (2304, 1296)),  # Camera Module 3 (and its Wide)
        ((3280, 2464), (1640, 1232)),  # Camera Module 2
        ((4056, 3040), (2028, 1520)),  # HQ Camera
        ((1456, 1088), None),  # Global Shutter Camera: one mode, smaller than 1280x960
        (None, None),  # no sensor size known: libcamera chooses
    ],
)
def test_the_full_view_mode_is_half_the_sensor(
    sensor: tuple[int, int] | None, raw: tuple[int, int] | None
) -> None:
    assert full_view_raw_size(sensor, (1280, 960)) == raw


def test_a_main_stream_larger_than_the_binned_mode_is_left_to_libcamera() -> None:
    assert full_view_raw_size((4608, 2592), (2560, 1920)) is None


def _svg_texts() -> list[str]:
    root = ET.parse(HARDWARE / "wiring.svg").getroot()
    return [e.text or "" for e in root.iter("{http://www.w3.org/2000/svg}text")]


def _svg_station_grounds() -> dict[int, int]:
    """Station number to the GND pin its box in wiring.svg names."""
    texts = _svg_texts()
    grounds: dict[int, int] = {}
    station = 0
    for text in texts:
        if match := re.fullmatch(r"Station (\d) \(player \d\)", text):
            station = int(match.group(1))
        elif match := re.fullmatch(r"common GND wire: pin (\d+)", text):
            grounds[station] = int(match.group(1))
    return grounds


def _toml_comments() -> dict[int, tuple[list[int], list[int]]]:
    """Station number to (header pins, GND pins) its comment in pins.toml names."""
    comments: dict[int, tuple[list[int], list[int]]] = {}
    number = 0
    for line in (HARDWARE / "pins.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("[[station]]"):
            number += 1
            match = re.search(r"header pins ([\d, ]+) \(GND pin (\d+)\)", line)
            assert match, line
            pins = [int(p) for p in match.group(1).split(",")]
            comments[number] = (pins, [int(match.group(2))])
    return comments


def _svg_header_labels() -> dict[int, str]:
    """Physical pin to the label beside it in wiring.svg's header drawing."""
    texts = _svg_texts()
    start = texts.index("40-pin header") + 1
    return {int(texts[i]): texts[i + 1] for i in range(start, start + 80, 2)}


def test_every_station_has_its_own_ground_pin_next_to_its_buttons() -> None:
    grounds = _svg_station_grounds()
    assert sorted(grounds) == [1, 2, 3, 4, 5, 6]
    assert len(set(grounds.values())) == 6  # one cable per pin: a DuPont plug takes one
    labels = _svg_header_labels()
    assert sorted(labels) == list(range(1, 41))
    for station, pin in grounds.items():
        assert pin in GROUND_PINS
        assert labels[pin] == f"GND: station {station}"  # the header drawing agrees
        signals = [BCM_TO_PHYSICAL[g] for g in
                   load_pin_map(default_pin_map_path()).stations[station - 1].pins.values()]
        rows = {(p - 1) // 2 for p in signals}
        assert min(abs((pin - 1) // 2 - row) for row in rows) <= 1, (station, pin)


def test_pin_6_is_left_for_a_screen_or_fan_power_lead() -> None:
    """The Touch Display 2 and the Pi 4 case fan take their power from pins 4 and 6."""
    assert 6 not in _svg_station_grounds().values()
    assert _svg_header_labels()[6].startswith("GND (spare")


def test_the_pin_map_comments_agree_with_the_wiring_diagram() -> None:
    comments = _toml_comments()
    grounds = _svg_station_grounds()
    for station in load_pin_map(default_pin_map_path()).stations:
        number = station.player + 1
        pins, gnd = comments[number]
        assert pins == [BCM_TO_PHYSICAL[g] for g in station.pins.values()], number
        assert gnd == [grounds[number]], number
