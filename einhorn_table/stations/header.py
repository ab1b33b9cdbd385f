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

def free_gpios(*, reserve_uart: bool) -> tuple[int, ...]:
    """BCM numbers a button may use, in order."""
    taken = set(RESERVED) | (set(UART) if reserve_uart else set())
    return tuple(n for n in sorted(BCM_TO_PHYSICAL) if n not in taken)

