"""The guided calibration as a parent meets it (sixth review): the camera lost in the
middle of calibrating, and a die marked "?" at the colours."""

from __future__ import annotations

from pathlib import Path

import pytest
from calibration_helpers import TableSource
from test_calibration_review3 import IMAGE
from test_calibration_steps import NO, ScriptedEyes, run_to_colours, tap

from einhorn_table.adapters.source_base import CameraLibraryMissing, SourceError
from einhorn_table.calibration.autopilot import Autopilot, GestureQueue
from einhorn_table.calibration.camera_lock import lock_for
from einhorn_table.calibration.eyes import CameraEyes
from einhorn_table.calibration.fit import CalibrationError
from einhorn_table.calibration.flow import CalibrationFlow, FlowSettings, Step
from einhorn_table.calibration.profile import CalibrationProfile, load_profile, save_profile
from einhorn_table.calibration.session import REOPEN_SECONDS, SynthRoller, run_flow
from einhorn_table.calibration.view import CalibrationView
from einhorn_table.ports import Button, Frame, Gesture
from einhorn_table.vision.synth import SynthTable

LOST = ("Webcam 0 stopped sending pictures. Check its cable and power (a USB hub with "
        "its own power helps), then start again.")
UNPLUGGED = "No webcam answered as number 0. Check that it is plugged in (ls /dev/video*)."


class PulledCable(TableSource):
    """A live camera over the synthetic table whose cable is pulled once the flow reaches
    ``at`` (the step): reading fails, then opening fails ``unplugged`` times (still
    unplugged), then it sends pictures again."""

    simulated = False

    def __init__(self, table: SynthTable, at: Step, unplugged: int = 2) -> None:
        super().__init__(table)
        self.flow: CalibrationFlow | None = None
        self.at = at
        self.unplugged = unplugged
        self.pulled = False
        self.opened = 0
        self.closed = 0

    def open(self) -> None:
        self.opened += 1
        if self.opened == 1:
            super().open()  # (the empty tray, at the start only)
        elif self.unplugged > 0:
            self.unplugged -= 1
            raise SourceError(UNPLUGGED)

    def close(self) -> None:
        self.closed += 1

    def read(self) -> Frame | None:
        if not self.pulled and self.flow is not None and self.flow.step is self.at:
            self.pulled = True
            raise SourceError(LOST)
        return super().read()


def calibrate(source: PulledCable, tmp_path: Path,
              controls: GestureQueue | None = None) -> tuple[CalibrationFlow, list[
                  CalibrationView], list[float], Autopilot]:
    """A whole calibration with the real eyes, the autopilot pressing the buttons."""
    queue = controls or GestureQueue()
    flow = CalibrationFlow(
        CameraEyes(), lock_for(source),
        FlowSettings(players=("Anna", "Ben"), test_rolls=2, settle_seconds=0.3,
                     light_seconds=0.3),
        made_by="test",
        save=lambda profile, picture: _save(profile, tmp_path))
    source.flow = flow
    roller = SynthRoller(source)
    parent = Autopilot(queue.tap, roller.thrown)
    shown: list[CalibrationView] = []
    waited: list[float] = []

    def show(view: CalibrationView) -> None:
        shown.append(view)
        parent.act(view)

    source.open()
    run_flow(flow, source, queue, show=show, roller=roller, max_frames=3000,
             wait=waited.append)
    return flow, shown, waited, parent


def _save(profile: CalibrationProfile, folder: Path) -> None:
    save_profile(profile, folder / "calibration.toml")


@pytest.mark.parametrize("at", [Step.LIGHT, Step.COLOURS, Step.CHECK])
def test_a_camera_lost_midway_is_waited_for_and_calibrating_goes_on_where_it_was(
        at: Step, tmp_path: Path) -> None:
    """Before, a webcam's cable pulled (or a loose one) in the middle of calibrating
    ended the command with the camera's error, and everything measured so far was lost:
    the parent had to start again from the tray, the family rolling again."""
    source = PulledCable(SynthTable(3, players=2), at)
    flow, shown, waited, parent = calibrate(source, tmp_path)
    assert flow.done and flow.profile is not None
    assert load_profile(tmp_path / "calibration.toml").players == flow.profile.players
    lost = [v for v in shown if v.screen == "camera-lost"]
    assert len(lost) == 3  # the cable pulled, then twice still unplugged
    assert [v.warnings for v in lost] == [
        ("Webcam 0 stopped sending pictures. Check its cable and power (a USB hub with "
         "its own power helps).",), (UNPLUGGED,), (UNPLUGGED,)]
    view = lost[0]
    assert view.title == "The camera sends no pictures" and view.image is None
    assert "calibrating goes on at this step" in view.lines[0]
    assert "No need to start again" in view.lines[0] and not view.swatches
    assert all(not hint.does for hint in view.hints) and view.waiting_for_roll is None
    assert waited == [REOPEN_SECONDS] * 3
    assert source.closed >= 1 and source.opened == 4  # (the start, then three tries)
    # The steps before were not done again: the screen came back to the step it was at.
    before = parent.seen[:parent.seen.index("camera-lost")]
    after = parent.seen[parent.seen.index("camera-lost") + 1:]
    assert "tray" in before and "tray" not in after


def test_the_light_is_measured_again_on_pictures_after_the_camera_came_back(
        tmp_path: Path) -> None:
    """Before, the light measured half before and half after the camera was lost: a
    camera opened again sets its exposure afresh, so the frames right after it came back
    were taken for the settled, locked light."""
    class Lost(PulledCable):
        back_at: float | None = None

        def read(self) -> Frame | None:
            pulled = self.pulled
            frame = super().read()
            if frame is not None and pulled and self.back_at is None:
                self.back_at = frame.timestamp
            return frame

    class LateLoss(Lost):
        def read(self) -> Frame | None:  # lost once the light has settled a while
            if not self.pulled and self.flow is not None and (
                    self.flow.s.light_elapsed > 0.2):
                self.pulled = True
                raise SourceError(LOST)
            return Lost.read(self)

    source = LateLoss(SynthTable(3, players=2), Step.SAVED)  # (its own moment)
    flow, _, _, _ = calibrate(source, tmp_path)
    assert flow.done and source.back_at is not None
    assert flow.s.light is not None and flow.s.light_start is not None
    # The light measured from the first picture after the camera came back.
    assert flow.s.light_start >= source.back_at


def test_buttons_pressed_while_the_camera_is_lost_do_nothing(tmp_path: Path) -> None:
    """OK pressed on the empty tray's screen while no picture comes would have taken the
    last picture the camera sent (with whatever was in the tray then)."""

    class PressingOk(GestureQueue):
        def poll(self) -> list[Gesture]:
            if source.pulled and not source.flow_seen_again:
                self.tap(Button.EINHORN)
                source.ok_while_lost += 1
            return super().poll()

    class Watched(PulledCable):
        flow_seen_again = False
        ok_while_lost = 0

        def read(self) -> Frame | None:
            frame = super().read()
            if self.pulled:
                assert self.flow is not None
                if not self.flow_seen_again:  # the first frame after: the step it was at
                    assert self.flow.step is Step.REFERENCE and self.flow.reference is None
                self.flow_seen_again = True
            return frame

    source = Watched(SynthTable(3, players=2), Step.REFERENCE)
    flow, _, _, _ = calibrate(source, tmp_path, PressingOk())
    assert source.ok_while_lost == 3 and source.flow_seen_again
    assert flow.done and flow.reference is not None


def test_a_recording_that_fails_or_a_missing_camera_library_still_ends_it(
        tmp_path: Path) -> None:
    class BrokenRecording(PulledCable):
        simulated = True

    with pytest.raises(SourceError, match="stopped sending"):
        calibrate(BrokenRecording(SynthTable(3, players=2), Step.LIGHT), tmp_path)

    class NoLibrary(PulledCable):
        def read(self) -> Frame | None:
            raise CameraLibraryMissing("install picamera2")

    with pytest.raises(CameraLibraryMissing):
        calibrate(NoLibrary(SynthTable(3, players=2), Step.LIGHT), tmp_path)


def test_a_camera_that_never_comes_back_still_ends_a_test_s_flow(tmp_path: Path) -> None:
    class Gone(PulledCable):
        def open(self) -> None:
            if self.opened:
                raise SourceError(UNPLUGGED)
            self.opened += 1
            TableSource.open(self)

    with pytest.raises(CalibrationError, match="no picture"):
        calibrate(Gone(SynthTable(3, players=2), Step.LIGHT), tmp_path)


def test_a_die_marked_with_a_question_mark_at_the_colours_is_explained() -> None:
    """Before, "3 dice found; this is their colour." stood beside a die outlined in red
    with a "?" (found, its pips not read), and nothing said whether to roll again."""
    eyes = ScriptedEyes()
    eyes.values = (2, None, 6)
    flow, t = run_to_colours(eyes, ("Anna",))
    flow.on_frame(IMAGE, t + 0.1)
    view = flow.view()
    assert view.screen == "colours-1"
    assert [(mark.label, mark.good) for mark in view.boxes] == [
        ("2", True), ("?", False), ("6", True)]
    assert view.lines == ("3 dice found; this is their colour.",
                          "A die marked ? was found, its pips not read: that is fine for "
                          "the colour.")
    tap(flow, NO)  # roll again
    eyes.values = (2, 4, 6)
    flow.on_frame(IMAGE, t + 0.2)
    assert flow.view().lines == ("3 dice found; this is their colour.",)
