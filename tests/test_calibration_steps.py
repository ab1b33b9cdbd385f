"""The step machine alone, with scripted eyes: no camera pictures, no OpenCV, no pygame."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import numpy as np

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.flow import CalibrationFlow, CameraLock, FlowSettings, Step
from einhorn_table.calibration.geometry import Corners
from einhorn_table.calibration.light import LightSample
from einhorn_table.calibration.seeing import DieMeasure, Image
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import Box, DieReading, FrameReading

TRAY: Corners = ((10.0, 10.0), (90.0, 10.0), (90.0, 70.0), (10.0, 70.0))
WHITE, IVORY, BLACK = (240, 240, 235), (236, 232, 226), (25, 25, 28)


class ScriptedEyes:
    """Sees what the test says: a tray, steady light, and the next roll's dice."""

    def __init__(self) -> None:
        self.colour = WHITE
        self.values: tuple[int | None, ...] = (2, 4, 6)
        self.reads: list[ReaderProfile] = []
        self.brightness = 120.0

    def find_tray(self, image: Image) -> Corners | None:
        return TRAY

    def light(self, image: Image, corners: Corners) -> LightSample:
        return LightSample(self.brightness, 0.0)

    def read(self, image: Image, profile: ReaderProfile, corners: Corners | None) -> FrameReading:
        self.reads.append(profile)
        return FrameReading(tuple(
            DieReading((20.0 + 20 * k, 20.0, 40.0 + 20 * k, 40.0), v, 1.0, self.colour)
            for k, v in enumerate(self.values)
        ))

    def dice_colour(self, image: Image, boxes: Sequence[Box]) -> tuple[int, int, int]:
        return self.colour

    def measure(self, image: Image, box: Box, value: int) -> DieMeasure:
        return DieMeasure(20.0, "dark" if sum(self.colour) > 300 else "light", 3.0, 90.0)

    def colours_too_alike(self, a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
        return sum(abs(x - y) for x, y in zip(a, b, strict=True)) < 40

    def rest_watch(self, empty_tray: Image) -> ScriptedEyes:
        return self

    def at_rest(self, image: Image, t: float) -> bool:
        return True  # the dice come to rest in every frame the flow waits for


def tap(flow: CalibrationFlow, button: Button) -> None:
    flow.on_gesture(Gesture(0, GestureKind.TAP, (button,), 0.0))


OK, NO, PLUS, MINUS = Button.EINHORN, Button.DREIFALTIGKEIT, Button.WUNSCH, Button.UNVERMEIDLICH


def run_to_colours(eyes: ScriptedEyes, players: tuple[str, ...]) -> tuple[CalibrationFlow, float]:
    flow = CalibrationFlow(
        eyes, lambda: CameraLock(CameraSettings(exposure_time_us=9000), "locked"),
        FlowSettings(players=players, test_rolls=2, settle_seconds=0.1, light_seconds=0.1),
    )
    image = np.zeros((80, 100, 3), np.uint8)
    t = 0.0
    flow.on_frame(image, t)
    tap(flow, OK)
    assert flow.step is Step.LIGHT
    while flow.view().screen == "light-settling":
        t += 0.04
        flow.on_frame(image, t)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE
    tap(flow, OK)
    assert flow.step is Step.COLOURS
    return flow, t


def test_two_players_with_dice_too_alike_are_told_so_and_can_roll_again() -> None:
    eyes = ScriptedEyes()
    flow, t = run_to_colours(eyes, ("Anna", "Ben"))
    image = np.zeros((80, 100, 3), np.uint8)
    flow.on_frame(image, t + 0.1)
    tap(flow, OK)  # Anna: white
    eyes.colour = IVORY
    flow.on_frame(image, t + 0.2)
    view = flow.view()
    assert view.warnings and "Ben's dice look too much like Anna's" in view.warnings[0]
    assert "keep them (OK)" in view.warnings[0]
    assert view.swatches[-1].clash
    tap(flow, NO)  # roll again with other dice
    eyes.colour = BLACK
    flow.on_frame(image, t + 0.3)
    assert not flow.view().warnings
    tap(flow, OK)
    assert flow.step is Step.SIZES
    # White and black dice: both pip polarities stay in the reader.
    assert "dark and light pips" in " ".join(flow.view().lines)


def test_a_corrected_test_roll_counts_what_was_entered_and_the_profile_is_built() -> None:
    eyes = ScriptedEyes()
    flow, t = run_to_colours(eyes, ("Anna",))
    image = np.zeros((80, 100, 3), np.uint8)
    flow.on_frame(image, t + 0.1)
    tap(flow, OK)
    tap(flow, OK)  # sizes: start the test rolls
    assert flow.step is Step.CHECK
    eyes.values = (2, 4, 6)
    flow.on_frame(image, t + 0.2)
    tap(flow, OK)  # read right
    eyes.values = (1, None, 5)
    flow.on_frame(image, t + 0.3)
    assert flow.view().hints[2].does == ""  # OK is not offered for a doubtful die
    tap(flow, NO)
    assert flow.step is Step.ENTER and flow.view().dice == (1, 1, 5)
    tap(flow, OK)           # die 1 stays 1
    tap(flow, PLUS)
    tap(flow, PLUS)         # die 2: 1 -> 3
    tap(flow, OK)
    tap(flow, MINUS)        # die 3: 5 -> 4
    tap(flow, OK)
    assert flow.step is Step.RESULT
    check = flow.check_section()
    assert (check.rolls, check.dice, check.right) == (2, 6, 4)  # 1 right, 3 and 4 were not read
    assert any("To read better" in line for line in flow.view().lines)
    tap(flow, OK)
    assert flow.done and flow.profile is not None
    assert flow.profile.camera.exposure_time_us == 9000
    assert flow.profile.tray.corners == TRAY
    assert flow.profile.players[0].name == "Anna"
    assert flow.profile.reader.pip_polarity == "dark"


def test_too_little_light_is_warned_about() -> None:
    eyes = ScriptedEyes()
    eyes.brightness = 30.0
    flow = CalibrationFlow(eyes, lambda: CameraLock(CameraSettings(), "nothing to lock"),
                           FlowSettings(players=("Anna",), settle_seconds=0.1, light_seconds=0.1))
    image = np.zeros((80, 100, 3), np.uint8)
    flow.on_frame(image, 0.0)
    tap(flow, OK)
    t = 0.0
    while flow.view().screen == "light-settling":
        t += 0.04
        flow.on_frame(image, t)
    view = flow.view()
    assert view.title == "Check the light" and "Too little light" in view.warnings[0]
    assert "nothing to lock" in view.lines


def test_a_test_roll_with_a_cocked_die_is_rolled_again_without_counting() -> None:
    eyes = ScriptedEyes()
    flow, t = run_to_colours(eyes, ("Anna",))
    image = np.zeros((80, 100, 3), np.uint8)
    flow.on_frame(image, t + 0.1)
    tap(flow, OK)
    tap(flow, OK)
    eyes.values = (2, None, 6)
    flow.on_frame(image, t + 0.2)
    assert flow.view().screen == "check-1"
    tap(flow, MINUS)
    assert flow.view().screen == "check-1-roll" and flow.check_section().rolls == 0


def test_the_step_machine_needs_neither_opencv_nor_pygame() -> None:
    code = (
        "import sys; sys.modules['cv2'] = None; sys.modules['pygame'] = None\n"
        "import einhorn_table.calibration.flow, einhorn_table.calibration.session\n"
        "import einhorn_table.calibration.autopilot, einhorn_table.calibration.profile\n"
        "print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=False)
    assert result.stdout.strip() == "ok", result.stderr
