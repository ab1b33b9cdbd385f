"""The Raspberry Pi's 40-pin header: which physical pin carries which BCM GPIO.

The same on every 40-pin Pi (B+, 2, 3, 4, 5, Zero). BCM numbers are the
GPIO numbers gpiozero and the pin map use; physical pins count 1 to 40: odd
numbers on the row towards the middle of the board, even numbers on the row
at the board's edge, pin 1 (3V3, the square solder pad) at the end away from
the USB sockets.
"""

from __future__ import annotations

from types import MappingProxyType

#: BCM GPIO number to physical header pin.
BCM_TO_PHYSICAL = MappingProxyType(
    {
        0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
        10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
        20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
    }
)  # fmt: skip

#: Physical pins that are ground (GND): a button's other leg goes to one of these.
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)

#: Physical pins that carry power: a button never goes to one of these.
POWER_PINS = MappingProxyType({1: "3V3", 17: "3V3", 2: "5V", 4: "5V"})


def header_pin(physical: int) -> str | None:
    """What physical header pin ``physical`` is, in words ("GPIO 5", "a GND pin");
    None if the 40-pin header has no such pin."""
    if physical in GROUND_PINS:
        return "a GND pin, for the station's common wire"
    if physical in POWER_PINS:
        return f"{POWER_PINS[physical]}, never to be wired to a button"
    gpio = next((g for g, p in BCM_TO_PHYSICAL.items() if p == physical), None)
    return None if gpio is None else f"GPIO {gpio}"


#: Pins that are always kept free, and why.
RESERVED = MappingProxyType(
    {
        0: "ID EEPROM (ID_SD): HATs identify themselves on it",
        1: "ID EEPROM (ID_SC): HATs identify themselves on it",
        2: "I2C SDA: used by display and camera add-on boards",
        3: "I2C SCL: used by display and camera add-on boards",
    }
)

#: Reserved only when the pin map says ``reserve_uart = true``.
UART = MappingProxyType(
    {
        14: "UART TX: serial console",
        15: "UART RX: serial console",
    }
)

#: What the kernel uses a button's GPIO for when a feature is turned on (it then holds
#: the pin, and lgpio answers "GPIO busy"), and how to turn that off.
_SPI = ("GPIO 7 to 11 are SPI0's while SPI is on: turn it off (sudo raspi-config > "
        "Interface Options > SPI > No, then reboot) unless an SPI add-on needs it")
_I2S = ("GPIO 18 to 21 are a sound board's (I2S): remove its dtoverlay=... line from "
        "/boot/firmware/config.txt, then reboot")
_UART = ("GPIO 14 and 15 are the serial port's: sudo raspi-config > Interface Options > "
         "Serial Port > 'No' to both questions, then reboot")
KERNEL_USES = MappingProxyType(
    {
        4: ("GPIO 4 is 1-Wire's while it is on: sudo raspi-config > Interface Options > "
            "1-Wire > No (or remove dtoverlay=w1-gpio from /boot/firmware/config.txt), "
            "then reboot"),
        **{gpio: _SPI for gpio in range(7, 12)},
        **{gpio: _UART for gpio in (14, 15)},
        **{gpio: _I2S for gpio in range(18, 22)},
    }
)


def free_gpios(*, reserve_uart: bool) -> tuple[int, ...]:
    """BCM numbers a button may use, in order."""
    taken = set(RESERVED) | (set(UART) if reserve_uart else set())
    return tuple(n for n in sorted(BCM_TO_PHYSICAL) if n not in taken)

