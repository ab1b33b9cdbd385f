"""The pin map: the shipped one is good, bad ones are refused naming pin, player, button."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from einhorn_table.ports import Button
from einhorn_table.stations.header import BCM_TO_PHYSICAL, free_gpios
from einhorn_table.stations.pin_map import (
    PinMapError,
    default_pin_map_path,
    load_pin_map,
    parse_pin_map,
)


def good() -> dict[str, Any]:
    return {
        "version": 1,
        "station": [
            {"player": 1, "unvermeidlich": 4, "wunsch": 17, "einhorn": 27, "dreifaltigkeit": 22},
            {"player": 2, "unvermeidlich": 5, "wunsch": 6, "einhorn": 13, "dreifaltigkeit": 19},
        ],
    }


def test_the_shipped_map_has_six_stations_on_all_24_free_gpios() -> None:
    pin_map = load_pin_map(default_pin_map_path())
    assert [s.player for s in pin_map.stations] == list(range(6))
    assert sorted(pin_map.gpios) == list(free_gpios(reserve_uart=False))
    assert len(free_gpios(reserve_uart=True)) == 22  # why station 6 needs the UART pins


def test_the_header_table_agrees_with_gpiozeros_board_data() -> None:
    header = MockFactory().board_info.headers["J8"]
    for gpio, physical in BCM_TO_PHYSICAL.items():
        assert f"GPIO{gpio}" in header.pins[physical].names


def test_a_pin_used_twice_names_both_buttons() -> None:
    data = good()
    data["station"][1]["einhorn"] = 17
    with pytest.raises(PinMapError) as error:
        parse_pin_map(data)
    message = str(error.value)
    assert "GPIO 17 is used twice" in message
    assert "player 1, Wunsch button" in message and "player 2, Einhorn button" in message


@pytest.mark.parametrize(
    ("gpio", "reason"),
    [(2, "I2C SDA"), (3, "I2C SCL"), (0, "ID EEPROM"), (1, "ID EEPROM")],
)
def test_a_reserved_pin_is_refused_with_the_reason(gpio: int, reason: str) -> None:
    data = good()
    data["station"][0]["dreifaltigkeit"] = gpio
    with pytest.raises(PinMapError, match=rf"GPIO {gpio} \(player 1, Dreifaltigkeit button\)"):
        parse_pin_map(data)
    with pytest.raises(PinMapError, match=reason):
        parse_pin_map(data)


def test_uart_pins_are_refused_only_when_reserved() -> None:
    data = good()
    data["station"][1]["unvermeidlich"] = 14
    assert parse_pin_map(data).owner(14) == (1, Button.UNVERMEIDLICH)
    data["reserve_uart"] = True
    with pytest.raises(PinMapError, match=r"GPIO 14 \(player 2, Das Unvermeidliche button\).*UART"):
        parse_pin_map(data)


@pytest.mark.parametrize("gpio", [28, 40, -1])
def test_a_pin_not_on_the_header_is_refused(gpio: int) -> None:
    data = good()
    data["station"][1]["wunsch"] = gpio
    with pytest.raises(PinMapError, match=rf"GPIO {gpio} \(player 2, Wunsch button\) is not on"):
        parse_pin_map(data)


def test_the_message_lists_free_pins() -> None:
    data = good()
    data["station"][0]["wunsch"] = 3
    with pytest.raises(PinMapError, match="Free GPIOs: 7, 8, 9"):
        parse_pin_map(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("version"), "version = 1"),
        (lambda d: d["station"][0].pop("einhorn"), "no GPIO for player 1, Einhorn button"),
        (lambda d: d["station"][0].update(wunsch="17"), "must be a BCM number"),
        (lambda d: d["station"][1].update(player=1), "player 1 has two"),
        (lambda d: d["station"][1].update(player=7), "player = N"),
        (lambda d: d["station"][0].update(unicorn=3), "unknown key"),
        (lambda d: d.update(station=d["station"] * 4), "at most 6 players"),
        (lambda d: d.update(colour="red"), "unknown setting"),
    ],
)
def test_malformed_maps_are_refused(change: Any, message: str) -> None:
    data = good()
    change(data)
    with pytest.raises(PinMapError, match=message):
        parse_pin_map(data)


def test_files_that_are_missing_or_not_toml_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="does not exist"):
        load_pin_map(tmp_path / "pins.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("version = \n", encoding="utf-8")
    with pytest.raises(PinMapError, match="not valid TOML"):
        load_pin_map(broken)


def test_a_folder_given_as_the_pin_map_is_refused_plainly(tmp_path: Path) -> None:
    with pytest.raises(PinMapError, match="is a folder, not a pin map"):
        load_pin_map(tmp_path)
