"""What the installer reads when the buttons' pins cannot be set up, by cause.

gpiozero (and lgpio under it) fail in a few ways an installer meets: no pin factory at
all (a computer that is not a Pi; a Pi without lgpio; a Pi 5 whose kernel renamed the
GPIO chip; a user outside the ``gpio`` group), a factory named wrongly in
``GPIOZERO_PIN_FACTORY`` (or gpiozero's mock pins named there on a Pi), and a pin
something else holds (the table's own service, the kernel's SPI, 1-Wire or sound
board). Each gets the one thing to do, not a list of every possible cause. Pure: the
adapter passes the error and what gpiozero warned.
"""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.stations.header import BCM_TO_PHYSICAL, KERNEL_USES
from einhorn_table.words import command_name

_LGPIO_MISSING = "No module named 'lgpio'"
_NO_CHIP = "can not open gpiochip"


def factory_advice(error: BaseException, fallbacks: Sequence[str], *, on_pi: bool,
                   env_factory: str | None) -> str:
    """The advice where gpiozero has no pin factory to make any pin with
    (``fallbacks``: gpiozero's warnings as it tried one factory after another)."""
    said = [str(error), *fallbacks]
    name = type(error).__name__
    if env_factory and "Unable to find pin factory" in str(error):
        return (f"GPIOZERO_PIN_FACTORY={env_factory} names no pin factory gpiozero has: "
                "unset GPIOZERO_PIN_FACTORY (then gpiozero uses lgpio on the Pi), or set "
                "it to lgpio.")
    if any(_NO_CHIP in text for text in said):
        return (f"lgpio could not open the GPIO chip ('{_NO_CHIP}'), so the buttons cannot "
                "be set up. Either this user may not use the GPIO pins: sudo usermod -aG "
                "gpio $USER, then log out and in again (the table's service runs in the "
                "gpio group already); or, on a Pi 5, its kernel names the header's GPIO "
                "chip gpiochip0 where this gpiozero looks for gpiochip4: sudo apt update "
                "&& sudo apt full-upgrade, then reboot (ls -l /dev/gpiochip4 then shows a "
                "link to gpiochip0).")
    if not on_pi and (name == "BadPinFactory" or any(_LGPIO_MISSING in t for t in said)):
        return ("This computer is not a Raspberry Pi: it has no GPIO header for the "
                "button stations (gpiozero found no pin factory). Here the keyboard stands "
                f"in for them: '{command_name()} demo' plays with keyboard stations, "
                f"'{command_name()} calibrate' takes --controls keyboard, and the doctor "
                f"uses the keyboard by itself; '{command_name()} play' needs the Pi's "
                "buttons.")
    if any(_LGPIO_MISSING in text for text in said):
        return ("The GPIO library lgpio is not installed where the companion's Python "
                "finds it, so the buttons cannot be set up. Install it: sudo apt install "
                "-y python3-lgpio, then run ./start again (it makes the venv see "
                "Raspberry Pi OS's packages).")
    lgpio = next((text for text in fallbacks if "from lgpio" in text),
                 f"{name}: {str(error).strip()}")
    return (f"gpiozero found no way to use the GPIO pins ({lgpio}), so the buttons "
            "cannot be set up. Install lgpio (sudo apt install -y python3-lgpio), run "
            "./start again, and check that this user is in the gpio group (groups; "
            "sudo usermod -aG gpio $USER, then log out and in again).")


def mock_pins_advice(env_factory: str) -> str:
    """The advice where ``GPIOZERO_PIN_FACTORY`` (set to ``env_factory``) gives a Raspberry
    Pi gpiozero's mock pins: buttons only tests can press, so the table would wait for
    ever, without a word."""
    return (f"GPIOZERO_PIN_FACTORY={env_factory} is set, so the buttons would be gpiozero's "
            "mock pins, which only tests can press: nobody at the table could press a "
            "button. Unset it (unset GPIOZERO_PIN_FACTORY, and delete the line that sets "
            "it, in ~/.bashrc or ~/.profile), or set it to lgpio, then start again (the "
            "table's service sets lgpio itself).")


def pin_setup_advice(error: BaseException, gpio: int, where: str) -> str:
    """The advice where one pin, ``gpio`` of ``where`` ("player 2, Wunsch button"),
    could not be set up."""
    pin = f"GPIO {gpio} ({where}), on header pin {BCM_TO_PHYSICAL.get(gpio, '?')},"
    text = str(error).strip().rstrip(".!")
    if type(error).__name__ == "GPIOPinInUse" or "busy" in text.lower():
        kernel = KERNEL_USES.get(gpio)
        also = (f" or the kernel: {kernel}" if kernel else
                " or an add-on board's line (dtoverlay=...) in /boot/firmware/config.txt")
        return (f"{pin} is in use ({text}). Something else holds it: the table's service "
                "while the doctor, calibrate or the smoke test runs (sudo systemctl stop "
                f"einhorn-table, then try again), another program,{also}.")
    if isinstance(error, PermissionError) or "permission" in text.lower():
        return (f"{pin} may not be used by this user ({text}); sudo usermod -aG gpio "
                "$USER, then log out and in again.")
    return (f"{pin} could not be set up ({type(error).__name__}: {text}). Check that "
            "python3-lgpio is installed (sudo apt install -y python3-lgpio) and that no "
            "other program uses the pin; on a computer that is not a Pi the keyboard "
            f"stands in for the buttons ('{command_name()} demo').")
