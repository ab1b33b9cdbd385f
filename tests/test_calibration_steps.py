"""The step machine alone, with scripted eyes: no camera pictures, no OpenCV, no pygame."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import numpy as np

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.fit import CalibrationError
from einhorn_table.calibration.flow import (
    CalibrationFlow,
    CameraLock,
    FlowSettings,
    SaveProfile,
    Step,
)
from einhorn_table.calibration.geometry import Corners
from einhorn_table.calibration.light import LightSample
from einhorn_table.calibration.profile import CalibrationProfile, ProfileError
from einhorn_table.calibration.seeing import DieMeasure, Image
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import Box, DieReading, FrameReading

TRAY: Corners = ((10.0, 10.0), (90.0, 10.0), (90.0, 70.0), (10.0, 70.0))
WHITE, IVORY, BLACK = (240, 240, 235), (236, 232, 226), (25, 25, 28)


class ScriptedEyes:
    """Sees what the test says: a tray (or none), steady light, an empty tray until
    ``empty`` is unset, then the next roll's dice."""

    def __init__(self) -> None:
        self.colour = WHITE
        self.values: tuple[int | None, ...] = (2, 4, 6)
        self.empty = True
        self.tray: Corners | None = TRAY
        self.reads: list[ReaderProfile] = []
        #: The tray outline each read and light measurement was given.
        self.corners_seen: list[Corners | None] = []
        self.brightness = 120.0
        #: How many times the dice came to rest (each frame the flow waited for).
        self.rested = 0

    def find_tray(self, image: Image) -> Corners | None:
        return self.tray

    def light(self, image: Image, corners: Corners) -> LightSample:
        self.corners_seen.append(corners)
        return LightSample(self.brightness, 0.0)

    def read(self, image: Image, profile: ReaderProfile, corners: Corners | None) -> FrameReading:
        self.reads.append(profile)
        self.corners_seen.append(corners)
        if self.empty:
            return FrameReading(())
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
        self.rested += 1
        return True  # the dice come to rest in every frame the flow waits for

    def rests(self) -> int | None:
        return self.rested

    def held_since(self) -> float | None:
        return None


def tap(flow: CalibrationFlow, button: Button) -> None:
    flow.on_gesture(Gesture(0, GestureKind.TAP, (button,), 0.0))


OK, NO, PLUS, MINUS = Button.EINHORN, Button.DREIFALTIGKEIT, Button.WUNSCH, Button.UNVERMEIDLICH


def new_flow(eyes: ScriptedEyes, players: tuple[str, ...],
             save: SaveProfile | None = None) -> CalibrationFlow:
    return CalibrationFlow(
        eyes, lambda: CameraLock(CameraSettings(exposure_time_us=9000), "locked"),
        FlowSettings(players=players, test_rolls=2, settle_seconds=0.1, light_seconds=0.1),
        save=save,
    )


def run_to_reference(flow: CalibrationFlow, t: float = 0.0) -> float:
    """From the tray (found, or marked by hand already) through the light."""
    image = np.zeros((80, 100, 3), np.uint8)
    if flow.step is Step.TRAY:
        flow.on_frame(image, t)
        tap(flow, OK)
    assert flow.step is Step.LIGHT
    while flow.view().screen == "light-settling":
        t += 0.04
        flow.on_frame(image, t)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE
    return t


def run_to_colours(eyes: ScriptedEyes, players: tuple[str, ...],
                   save: SaveProfile | None = None) -> tuple[CalibrationFlow, float]:
    flow = new_flow(eyes, players, save)
    t = run_to_reference(flow)
    tap(flow, OK)  # the empty tray's picture
    assert flow.step is Step.COLOURS
    eyes.empty = False  # the players roll
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


def finish_test_rolls(flow: CalibrationFlow, eyes: ScriptedEyes, t: float) -> None:
    """From the colours (one player) through two test rolls read right, to the result."""
    image = np.zeros((80, 100, 3), np.uint8)
    flow.on_frame(image, t + 0.1)
    tap(flow, OK)  # the colour
    tap(flow, OK)  # sizes: start the test rolls
    for k in range(2):
        flow.on_frame(image, t + 0.2 + 0.1 * k)
        tap(flow, OK)  # read right
    assert flow.step is Step.RESULT


# ---------------------------------------------------------------- no tray found


def test_with_no_tray_found_the_screen_offers_marking_its_corners_by_hand() -> None:
    eyes = ScriptedEyes()
    eyes.tray = None
    flow = new_flow(eyes, ("Anna",))
    tap(flow, NO)  # before any picture there is nothing to mark on
    assert flow.step is Step.TRAY
    flow.on_frame(np.zeros((80, 100, 3), np.uint8), 0.0)
    view = flow.view()
    assert view.screen == "tray" and view.corners is None
    assert "No tray found yet. ✗: mark its corners by hand." in view.lines
    hints = {h.sign: h.does for h in view.hints}
    assert hints["X"] == "mark it by hand" and hints["OK"] == ""
    flow.on_gesture(Gesture(0, GestureKind.CHORD, (Button.WUNSCH, Button.EINHORN), 0.0))
    assert any("by hand" in line for line in flow.view().help)
    assert not any("yellow outline" in line for line in flow.view().help)
    tap(flow, OK)  # closes the help
    tap(flow, OK)  # no tray to accept: nothing happens
    assert flow.step is Step.TRAY and flow.view().corners is None


def test_x_with_no_tray_found_starts_the_corners_from_a_rectangle_a_tenth_in() -> None:
    eyes = ScriptedEyes()
    eyes.tray = None
    flow = new_flow(eyes, ("Anna",))
    flow.on_frame(np.zeros((80, 100, 3), np.uint8), 0.0)  # 100 wide, 80 high
    tap(flow, NO)
    assert flow.step is Step.CORNERS
    view = flow.view()
    assert view.corners == ((10.0, 8.0), (90.0, 8.0), (90.0, 72.0), (10.0, 72.0))
    assert view.screen == "corners-1" and view.selected_corner == 0
    assert "Put the big yellow dot on the top left corner of the tray's floor." in view.lines
    tap(flow, MINUS)  # in: towards the middle, down and right
    tap(flow, OK)
    assert "top right corner" in flow.view().lines[0]
    for _ in range(3):
        tap(flow, OK)
    assert flow.step is Step.LIGHT


def test_the_whole_flow_runs_on_corners_marked_by_hand() -> None:
    eyes = ScriptedEyes()
    eyes.tray = None
    saved: list[tuple[tuple[tuple[float, float], ...], bool]] = []
    flow = new_flow(eyes, ("Anna",),
                    save=lambda profile, picture: saved.append(
                        (profile.tray.corners, picture is not None)))
    flow.on_frame(np.zeros((80, 100, 3), np.uint8), 0.0)
    tap(flow, NO)
    tap(flow, MINUS)
    for _ in range(4):
        tap(flow, OK)
    marked = flow.view().corners
    assert marked is not None and marked[0][0] > 10.0 and marked[0][1] > 8.0
    t = run_to_reference(flow)
    tap(flow, OK)
    assert flow.step is Step.COLOURS
    eyes.empty = False
    finish_test_rolls(flow, eyes, t)
    tap(flow, OK)
    assert flow.done and flow.profile is not None
    # Light, dice and test rolls were all measured inside the outline marked by hand.
    assert eyes.corners_seen and all(c == marked for c in eyes.corners_seen)
    corners = tuple((round(x, 1), round(y, 1)) for x, y in marked)
    assert flow.profile.tray.corners == corners and flow.profile.tray.frame_size == (100, 80)
    assert saved == [(corners, True)]


def test_a_tray_found_after_all_replaces_the_rectangle_and_its_words() -> None:
    eyes = ScriptedEyes()
    eyes.tray = None
    flow = new_flow(eyes, ("Anna",))
    image = np.zeros((80, 100, 3), np.uint8)
    flow.on_frame(image, 0.0)
    tap(flow, NO)
    flow.on_gesture(Gesture(0, GestureKind.CHORD, (MINUS, NO), 0.0))  # back to the tray
    assert flow.step is Step.TRAY
    view = flow.view()
    assert view.title == "Is this the tray?" and view.corners is not None
    eyes.tray = TRAY
    for k in range(3):  # the tray is looked for on every third frame
        flow.on_frame(image, 0.1 * (k + 1))
    assert flow.view().corners == TRAY
    tap(flow, NO)
    assert not any("big yellow dot" in line for line in flow.view().lines)


# ---------------------------------------------------------------- the empty tray


def test_the_empty_tray_picture_is_refused_while_dice_lie_in_the_tray() -> None:
    eyes = ScriptedEyes()
    flow = new_flow(eyes, ("Anna",))
    run_to_reference(flow)
    eyes.empty = False  # somebody left their dice in
    eyes.reads.clear()
    tap(flow, OK)
    assert flow.step is Step.REFERENCE and flow.reference is None
    assert eyes.reads == [ReaderProfile()]  # read with the uncalibrated reader
    view = flow.view()
    assert view.warnings == ("There are dice in the tray: take them out, then press OK.",)
    assert len(view.boxes) == 3  # the dice seen, outlined
    assert {h.sign: h.does for h in view.hints}["OK"] == "take the picture"
    flow.on_gesture(Gesture(0, GestureKind.CHORD, (Button.WUNSCH, Button.EINHORN), 0.0))
    assert any("take them out" in line for line in flow.view().help)
    tap(flow, OK)  # closes the help
    eyes.empty = True  # taken out
    tap(flow, OK)
    assert flow.step is Step.COLOURS and flow.reference is not None
    assert not flow.view().warnings and not flow.view().boxes


def test_x_takes_the_empty_tray_picture_where_what_was_seen_is_no_die() -> None:
    eyes = ScriptedEyes()
    flow = new_flow(eyes, ("Anna",))
    run_to_reference(flow)
    tap(flow, NO)  # nothing was refused yet: ✗ does nothing
    assert flow.step is Step.REFERENCE and {h.sign: h.does for h in flow.view().hints}["X"] == ""
    eyes.empty = False  # a stain the reader takes for a die
    tap(flow, OK)
    assert {h.sign: h.does for h in flow.view().hints}["X"] == "no dice: take it"
    tap(flow, NO)
    assert flow.step is Step.COLOURS and flow.reference is not None


def test_back_from_the_colours_to_the_empty_tray_does_not_keep_the_old_note() -> None:
    eyes = ScriptedEyes()
    flow = new_flow(eyes, ("Anna",))
    run_to_reference(flow)
    eyes.empty = False
    tap(flow, OK)
    eyes.empty = True
    tap(flow, OK)
    flow.on_gesture(Gesture(0, GestureKind.CHORD, (MINUS, NO), 0.0))
    assert flow.step is Step.REFERENCE
    assert not flow.view().warnings and not flow.view().boxes


# ---------------------------------------------------------------- saving


class SaveFails:
    """A save that fails (with ``error``) until ``error`` is None."""

    def __init__(self, error: Exception | None) -> None:
        self.error = error
        self.calls: list[tuple[CalibrationProfile, Image | None, Step]] = []
        self.flow: CalibrationFlow | None = None

    def __call__(self, profile: CalibrationProfile, picture: Image | None) -> None:
        assert self.flow is not None
        self.calls.append((profile, picture, self.flow.step))
        if self.error is not None:
            raise self.error


def test_a_failed_save_stays_on_the_result_says_why_and_ok_tries_again() -> None:
    eyes = ScriptedEyes()
    save = SaveFails(ProfileError(
        "could not save the calibration as /media/card/calibration.toml (No space left "
        "on device): check that the card is not full"))
    flow, t = run_to_colours(eyes, ("Anna",), save=save)
    save.flow = flow
    finish_test_rolls(flow, eyes, t)
    tap(flow, OK)
    assert flow.step is Step.RESULT and not flow.done and flow.profile is None
    view = flow.view()
    assert view.screen == "result" and view.title == "Not saved yet"
    assert view.warnings[0] == (
        "Could not save the calibration as /media/card/calibration.toml (No space left "
        "on device): check that the card is not full")
    assert view.lines[0] == "Fix the problem below, then press OK to save again."
    assert {h.sign: h.does for h in view.hints}["OK"] == "save again"
    save.error = None  # the card was emptied
    tap(flow, OK)
    assert flow.done and flow.view().title == "Calibration saved"
    assert len(save.calls) == 2
    profile, picture, step = save.calls[-1]
    assert step is Step.RESULT  # saved before the screen says so
    assert flow.profile is profile and profile.players[0].name == "Anna"
    assert picture is not None and picture is flow.reference


def test_a_save_error_without_saying_so_itself_is_told_as_could_not_save() -> None:
    eyes = ScriptedEyes()
    save = SaveFails(CalibrationError("the folder /x is not writable for this user"))
    flow, t = run_to_colours(eyes, ("Anna",), save=save)
    save.flow = flow
    finish_test_rolls(flow, eyes, t)
    tap(flow, OK)
    assert flow.view().warnings[0] == \
        "Could not save: the folder /x is not writable for this user"
    save.error = PermissionError(13, "Permission denied", "/x/calibration.toml")
    tap(flow, OK)
    assert flow.step is Step.RESULT
    assert flow.view().warnings[0] == \
        "Could not save: Permission denied (/x/calibration.toml)"
    tap(flow, NO)  # test again instead: the note goes
    assert flow.step is Step.CHECK and not flow.view().warnings


def test_without_a_save_function_ok_on_the_result_ends_as_before() -> None:
    eyes = ScriptedEyes()
    flow, t = run_to_colours(eyes, ("Anna",))
    finish_test_rolls(flow, eyes, t)
    tap(flow, OK)
    assert flow.done and flow.profile is not None and flow.reference is not None


def test_corners_moved_across_each_other_are_refused_at_the_corners_step() -> None:
    """Else the flow went on through the colours and the test rolls, and the save on
    the result screen failed every time."""
    eyes = ScriptedEyes()
    flow = new_flow(eyes, ("Anna",))
    flow.on_frame(np.full((80, 100, 3), 200, np.uint8), 0.0)
    tap(flow, NO)  # adjust the corners
    for _ in range(40):
        tap(flow, MINUS)  # corner 1 pulled in far past the others
    for _ in range(4):
        tap(flow, OK)
    # Back at corner 1, the one at fault here: any of the four may be.
    assert flow.step is Step.CORNERS and flow.s.corner == 0
    view = flow.view()
    assert view.warnings and "go round them again from corner 1" in view.warnings[0]
    tap(flow, PLUS)  # a corner moved: the note goes until OK is pressed on corner 4
    assert not flow.view().warnings
    flow.s.corners = ((10.0, 10.0), (90.0, 10.0), (90.0, 70.0), (10.0, 70.0))  # put right
    for _ in range(4):
        tap(flow, OK)
    assert flow.step is Step.LIGHT
