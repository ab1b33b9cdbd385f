"""Which machine the doctor runs on: a Raspberry Pi, or a desktop where things are simulated."""

from __future__ import annotations

import platform
from dataclasses import dataclass
from pathlib import Path

MODEL_FILE = Path("/proc/device-tree/model")


@dataclass(frozen=True)
class Machine:
    is_pi: bool
    model: str

    def describe(self) -> str:
        if self.is_pi:
            return f"Machine: {self.model}."
        return (
            f"Machine: {self.model}, not a Raspberry Pi: the buttons and the screen are "
            "simulated (keyboard, window), and so is the camera (the synthetic table) "
            "unless --source or the table's file names one."
        )


def detect_machine(model_file: Path = MODEL_FILE) -> Machine:
    """Read the device tree's model string (present on every Raspberry Pi OS)."""
    try:
        model = model_file.read_bytes().decode("utf-8", "replace").strip("\0\n ")
    except OSError:
        model = ""
    if "raspberry pi" in model.lower():
        return Machine(True, model)
    return Machine(False, f"{platform.system()} {platform.machine()}".strip() or "this computer")
