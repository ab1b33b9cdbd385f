"""The guided calibration as a parent meets it the first evening (fifth review): a hand,
an arm or a cup in the picture when OK takes the empty tray's picture, the lamp's glare
there, and the tray moved between the steps."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from test_calibration_review3 import hints
from test_calibration_steps import NO, OK, tap

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.clear_tray import things_in_tray
from einhorn_table.calibration.eyes import CameraEyes
from einhorn_table.calibration.flow import (
    THING_IN_TRAY,
    TRAY_MOVED,
    CalibrationFlow,
    CameraLock,
    FlowSettings,
    Step,
)
from einhorn_table.calibration.seeing import Image
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.synth import SynthTable
from einhorn_table.vision.synth.edge import EdgeThing


def at_the_empty_tray(table: SynthTable) -> tuple[CalibrationFlow, list[float]]:
    """A calibration with the real camera code on a synthetic table, through the tray and
    the light (the tray empty), to the empty tray's picture."""
    flow = CalibrationFlow(CameraEyes(), lambda: CameraLock(CameraSettings(), "nothing"),
                           FlowSettings(players=("Anna",), settle_seconds=0.2,
                                        light_seconds=0.2))
    t = [0.0]
    empty = table.empty().image
    show(flow, t, empty, 4)
    tap(flow, OK)
    while flow.view().screen == "light-settling":
        show(flow, t, empty, 1)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE
    return flow, t


def show(flow: CalibrationFlow, t: list[float], image: Image, frames: int) -> None:
    for _ in range(frames):
        t[0] += 1 / 30
        flow.on_frame(image, t[0])


def with_a_hand(table: SynthTable, player: int) -> Image:
    return table.render((), hand=table._hand_pose(player, 0.5, fist=False)).image


def with_a_cup(table: SynthTable) -> Image:
    table.at_edge = (EdgeThing("cup", (300, 220), 90),)
    try:
        return table.render(()).image
    finally:
        table.at_edge = ()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("what", ["hand", "other hand", "cup"])
def test_the_empty_tray_s_picture_is_not_taken_with_a_hand_or_a_cup_in_it(
        seed: int, what: str) -> None:
    """Before, OK took the picture with the parent's hand (or a cup) in the tray: the
    dice reader sees no die there, and that picture was the empty tray every roll was
    measured against after."""
    table = SynthTable(seed, players=2)
    flow, t = at_the_empty_tray(table)
    cluttered = {"hand": lambda: with_a_hand(table, 0), "other hand": lambda: with_a_hand(
        table, 1), "cup": lambda: with_a_cup(table)}[what]()
    show(flow, t, cluttered, 3)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE and flow.reference is None
    view = flow.view()
    assert view.warnings == (THING_IN_TRAY,)
    assert THING_IN_TRAY.startswith("Something is in the tray (outlined in red)")
    assert any(not mark.good for mark in view.boxes)  # outlined in red
    assert hints(view)["X"] == "only a mark: take it"
    flow.on_gesture(Gesture(0, GestureKind.CHORD, (Button.WUNSCH, Button.EINHORN), 0.0))
    assert "a hand, an arm, a cup" in flow.view().help[0]
    tap(flow, OK)  # closes the help
    empty = table.empty().image
    show(flow, t, empty, 3)  # the hand (the cup) taken away
    tap(flow, OK)
    assert flow.step is Step.COLOURS and flow.reference is not None
    assert np.array_equal(flow.reference, empty)


def test_x_still_takes_the_picture_where_what_is_outlined_is_only_a_mark() -> None:
    table = SynthTable(4, players=1)
    flow, t = at_the_empty_tray(table)
    cup = with_a_cup(table)  # (a round print on the tray lining, say)
    show(flow, t, cup, 3)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE
    tap(flow, NO)
    assert flow.step is Step.COLOURS and flow.reference is not None
    assert flow.s.stains  # what was outlined is not read as a die later


@pytest.mark.parametrize("kwargs", [{}, {"lighting": 0.5},
                                    {"tray_color": (40, 110, 60)},
                                    {"tray_color": (200, 200, 195)},
                                    {"size": (1280, 720)}, {"size": (320, 240)},
                                    {"tablecloth": True}])
def test_an_empty_tray_has_nothing_in_it_under_any_light(kwargs: dict[str, object]) -> None:
    for seed in range(3):
        table = SynthTable(seed, **kwargs)  # type: ignore[arg-type]
        empty = table.empty().image
        corners = CameraEyes().find_tray(empty)
        assert corners is not None
        assert things_in_tray(empty, corners) == ()
        assert things_in_tray(with_a_hand(table, 0), corners)


def test_the_lamp_s_glare_on_the_floor_is_no_thing_in_the_tray() -> None:
    """Glare, warned about at the light step, is part of the empty tray's picture; the
    tray's outline set on its rim (its walls inside the line) is no thing either."""
    table = SynthTable(3, players=1)
    image = table.tray.image.astype(np.float32)
    glow = np.zeros(image.shape[:2], np.float32)
    cv2.circle(glow, (420, 160), 45, 1.0, -1)
    glow = cv2.GaussianBlur(glow, (0, 0), 12)
    table.tray = replace(table.tray, image=np.clip(image + 400 * glow[..., None], 0, 255)
                         .astype(np.uint8))
    flow, t = at_the_empty_tray(table)
    assert flow.s.light is not None and flow.s.light.warnings[0].startswith("Glare")
    empty = table.empty().image
    assert flow.s.corners is not None
    assert things_in_tray(empty, flow.s.corners) == ()
    show(flow, t, empty, 3)
    tap(flow, OK)  # (the dice reader takes the white-hot spot for a die: ✗ takes it)
    assert not flow.s.reference_things and THING_IN_TRAY not in flow.view().warnings


@pytest.mark.parametrize("shift", [(30, 20), (-20, 0), (60, 40)])
def test_a_tray_moved_since_step_1_is_told_and_found_again_with_x(
        shift: tuple[int, int]) -> None:
    """Before, the tray pushed along the table after its outline was set was taken as it
    lay: its walls were read as something in the tray (or nothing was said at all), and
    the calibration kept an outline beside the tray."""
    table = SynthTable(3, players=1)
    flow, t = at_the_empty_tray(table)
    then = flow.s.corners
    moved = table.slid(table.empty().image, *shift)
    show(flow, t, moved, 3)
    tap(flow, OK)
    assert flow.step is Step.REFERENCE and flow.reference is None
    view = flow.view()
    assert view.screen == "reference-moved" and view.warnings == (TRAY_MOVED,)
    assert hints(view)["X"] == "find the tray again" and not view.boxes
    show(flow, t, table.empty().image, 3)  # put back: OK takes the picture
    tap(flow, OK)
    assert flow.step is Step.COLOURS and flow.s.corners == then
    flow, t = at_the_empty_tray(table)
    show(flow, t, moved, 3)
    tap(flow, OK)
    tap(flow, NO)  # find it where it lies now
    assert flow.step is Step.TRAY and flow.s.light is None
    show(flow, t, moved, 4)
    assert then is not None and flow.s.corners is not None
    assert flow.s.corners[0] != then[0]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("corner", [0, 2])
def test_an_arm_resting_by_the_tray_is_not_taken_for_the_tray_moved(
        seed: int, corner: int) -> None:
    table = SynthTable(seed, players=1)
    flow, t = at_the_empty_tray(table)
    table.at_edge = (table.resting_arm(corner),)
    show(flow, t, table.render(()).image, 3)
    table.at_edge = ()
    tap(flow, OK)
    assert flow.view().screen != "reference-moved"
