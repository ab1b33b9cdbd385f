"""The guided calibration where things go wrong, with the real eyes (OpenCV, the reader):
a tray nobody's tray finder finds, dice left in the "empty" tray, a profile that
cannot be saved."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from calibration_helpers import TableSource
from conftest import DATASETS

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.autopilot import Autopilot, GestureQueue
from einhorn_table.calibration.camera_lock import lock_for
from einhorn_table.calibration.eyes import CameraEyes
from einhorn_table.calibration.flow import CalibrationFlow, CameraLock, FlowSettings, Step
from einhorn_table.calibration.geometry import Corners, inset_rectangle, move_corner
from einhorn_table.calibration.profile import (
    CalibrationProfile,
    ProfileError,
    load_profile,
    save_profile,
)
from einhorn_table.calibration.seeing import Image
from einhorn_table.calibration.session import SynthRoller, run_flow
from einhorn_table.calibration.view import CalibrationView
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.synth import SynthTable

OK, NO = Button.EINHORN, Button.DREIFALTIGKEIT
#: A photo of byler_d6's white tray (dice in it) where the tray finder finds no tray.
TRAY_NOT_FOUND = DATASETS / "byler_d6" / "images" / "IMG_20191208_111718.jpg"


class TrayBlindEyes(CameraEyes):
    """The real eyes, but no tray is ever found (a tray the finder does not know)."""

    def find_tray(self, image: Image) -> Corners | None:
        return None


class HandMarkingParent(Autopilot):
    """The autopilot, who marks the tray's corners by hand where none was found."""

    def choose(self, view: CalibrationView) -> Button | None:
        offered = {h.sign for h in view.hints if h.does}
        if view.screen == "tray" and offered == {"X"}:
            return NO
        return super().choose(view)


def tap(flow: CalibrationFlow, button: Button) -> None:
    flow.on_gesture(Gesture(0, GestureKind.TAP, (button,), 0.0))


def through_the_light(flow: CalibrationFlow, image: Image) -> None:
    assert flow.step is Step.LIGHT
    t = 0.0
    while flow.view().screen == "light-settling":
        t += 0.05
        flow.on_frame(image, t)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE


def test_a_whole_calibration_on_corners_marked_by_hand_where_no_tray_is_found(
    tmp_path: Path,
) -> None:
    table = SynthTable(3, players=2)
    source = TableSource(table)
    queue = GestureQueue()
    saved: list[Path] = []

    def save(profile: CalibrationProfile, picture: Image | None) -> None:
        assert picture is not None
        saved.append(save_profile(profile, tmp_path / "calibration.toml"))

    flow = CalibrationFlow(
        TrayBlindEyes(), lock_for(source),
        FlowSettings(players=("Anna", "Ben"), test_rolls=2, settle_seconds=0.3,
                     light_seconds=0.3),
        made_by="test", save=save,
    )
    roller = SynthRoller(source)
    parent = HandMarkingParent(queue.tap, roller.thrown)
    with source:
        run_flow(flow, source, queue, show=parent.act, roller=roller, max_frames=3000)
    assert flow.done and flow.profile is not None
    for screen in ("tray", "corners-1", "corners-4", "light", "reference", "colours-2",
                   "sizes", "check-2", "result", "saved"):
        assert screen in parent.seen, (screen, parent.seen)
    # The outline: a tenth in from the picture's edges, its first corner moved out once.
    rectangle = inset_rectangle((640, 480), 0.1)
    assert rectangle == ((64.0, 48.0), (576.0, 48.0), (576.0, 432.0), (64.0, 432.0))
    marked = move_corner(rectangle, 0, 2.0, False, (640, 480))
    assert flow.profile.tray.corners == tuple((round(x, 1), round(y, 1)) for x, y in marked)
    # The dice were found and measured inside it, and the profile is the one saved.
    assert [p.name for p in flow.profile.players] == ["Anna", "Ben"]
    assert flow.profile.dice.die_px is not None
    assert 0.7 * table.die_size <= flow.profile.dice.die_px <= 1.3 * table.die_size
    assert flow.profile.check.rolls == 2
    assert saved and load_profile(saved[0]) == flow.profile


@pytest.mark.skipif(not TRAY_NOT_FOUND.is_file(), reason="../shared/datasets is absent")
def test_a_real_tray_the_finder_misses_is_marked_by_hand_and_its_dice_keep_the_picture(
) -> None:
    photo = cv2.imread(str(TRAY_NOT_FOUND), cv2.IMREAD_COLOR)
    assert photo is not None
    image = np.asarray(photo, dtype=np.uint8)
    flow = CalibrationFlow(CameraEyes(), lambda: CameraLock(CameraSettings(), "nothing to lock"),
                           FlowSettings(players=("Anna",), settle_seconds=0.1,
                                        light_seconds=0.1))
    for k in range(4):
        flow.on_frame(image, k / 30)
    view = flow.view()
    assert view.title == "Looking for the tray…" and view.corners is None
    assert "No tray found yet. ✗: mark its corners by hand." in view.lines
    tap(flow, OK)  # nothing to accept
    assert flow.step is Step.TRAY
    tap(flow, NO)
    assert flow.step is Step.CORNERS
    height, width = image.shape[:2]
    assert flow.view().corners == inset_rectangle((width, height), 0.1)
    for _ in range(4):
        tap(flow, OK)
    through_the_light(flow, image)
    tap(flow, OK)  # this photo has a score of dice in the tray
    assert flow.step is Step.REFERENCE and flow.reference is None
    view = flow.view()
    assert view.warnings == ("There are dice in the tray: take them out, then press OK.",)
    assert len(view.boxes) >= 5


def test_the_synthetic_tray_with_dice_in_it_is_not_taken_for_the_empty_tray() -> None:
    table = SynthTable(3, players=1)
    empty = table.empty().image
    with_dice = table.still([2, 4, 6]).image
    flow = CalibrationFlow(CameraEyes(), lambda: CameraLock(CameraSettings(), "nothing to lock"),
                           FlowSettings(players=("Anna",), settle_seconds=0.1,
                                        light_seconds=0.1))
    flow.on_frame(empty, 0.0)
    assert flow.view().corners is not None
    tap(flow, OK)
    through_the_light(flow, empty)
    flow.on_frame(with_dice, 1.0)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE and flow.reference is None
    assert len(flow.view().boxes) == 3
    flow.on_frame(empty, 1.1)  # the dice taken out
    tap(flow, OK)
    assert flow.step is Step.COLOURS
    assert flow.reference is not None and np.array_equal(flow.reference, empty)


def test_a_save_that_fails_on_a_full_card_is_told_and_tried_again(tmp_path: Path) -> None:
    table = SynthTable(3, players=1)
    source = TableSource(table)
    queue = GestureQueue()
    out = tmp_path / "calibration.toml"
    full = [True]
    views: list[CalibrationView] = []

    saves: list[int] = [0]
    saves_before: list[int] = []  # how many saves were tried before each screen

    def save(profile: CalibrationProfile, picture: Image | None) -> None:
        saves[0] += 1
        if full[0]:
            full[0] = False  # the parent makes room
            raise ProfileError(f"could not save the calibration as {out} (No space left on "
                               "device): check that the card is not full")
        save_profile(profile, out)

    def show(view: CalibrationView) -> None:
        views.append(view)
        saves_before.append(saves[0])
        parent.act(view)

    flow = CalibrationFlow(
        CameraEyes(), lock_for(source),
        FlowSettings(players=("Anna",), test_rolls=1, settle_seconds=0.3, light_seconds=0.3),
        save=save,
    )
    roller = SynthRoller(source)
    parent = Autopilot(queue.tap, roller.thrown, adjust_corner=False)
    with source:
        run_flow(flow, source, queue, show=show, roller=roller, max_frames=3000)
    assert flow.done and load_profile(out) == flow.profile
    failed = [v for v in views if v.title == "Not saved yet"]
    assert failed and failed[0].screen == "result"
    assert failed[0].warnings[0].startswith(f"Could not save the calibration as {out}")
    # "Calibration saved" came only after the save that worked, and only after the
    # failed one was shown.
    first_saved = next(k for k, v in enumerate(views) if v.title == "Calibration saved")
    assert saves_before[first_saved] == 2  # the failed save, then the one that worked
    assert views.index(failed[0]) < first_saved
