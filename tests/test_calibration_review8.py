"""The guided calibration (eighth review): the players' colours under two warnings at
the colour step fit the screen with up to six players; the result's "read right at
first" after going back from it."""

from __future__ import annotations

from typing import Any

import pytest
from test_calibration_review3 import back
from test_calibration_review7 import IMAGE, FloorEyes
from test_calibration_steps import NO, OK, PLUS, ScriptedEyes, run_to_colours, tap

from einhorn_table.calibration.flow import CalibrationFlow, Step
from einhorn_table.calibration.seeing import Image
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.results import FrameReading

COLOURS = [(250, 250, 250), (200, 30, 30), (30, 30, 200), (30, 160, 60), (220, 200, 40)]


def clashing_view(names: tuple[str, ...]) -> Any:
    """The last player's colour screen: dice like the floor's and like the second
    player's (two warnings), every other player's colour kept."""
    eyes = FloorEyes()
    flow, t = run_to_colours(eyes, names)
    for k in range(len(names)):
        eyes.colour = COLOURS[k] if k < len(names) - 1 else (45, 45, 45)
        flow.on_frame(IMAGE, t + 0.1 * (k + 1))
        if k < len(names) - 1:
            tap(flow, OK)
    assert flow.s.registration is not None
    flow.s.registration.clash_with = names[1]
    view = flow.view()
    assert len(view.warnings) == 2 and len(view.swatches) == len(names)
    assert view.swatches[-1].clash and not any(s.clash for s in view.swatches[:-1])
    return view


@pytest.mark.parametrize("names", [
    ("Anna", "Ben", "Cem", "Dora"),
    ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz"),
    ("Wilhelmina", "Maximilian", "Konstantin", "Friederike", "Alexandria", "Bartholoma"),
])
@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_the_players_colours_under_two_warnings_fit_with_every_name_and_the_clash(
        names: tuple[str, ...], size: tuple[int, int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # With four players and a clash the row ran off the screen's right edge: the
    # fourth read "D. (too a" at 800x480.
    import pygame

    from einhorn_table.calibration.renderer import CalibrationRenderer

    view = clashing_view(names)
    pygame.font.init()
    renderer = CalibrationRenderer(pygame.Surface(size))
    _, _, words = renderer.layout()
    warnings_end = renderer._words_bottom(view, words, renderer.words_scale(view, words))
    drawn: list[tuple[str, Any]] = []
    text, swatches = renderer.text, renderer._swatches
    in_swatches = False

    def spy(words: str, *args: Any, **kwargs: Any) -> Any:
        rect = text(words, *args, **kwargs)
        if in_swatches:
            drawn.append((words, rect))
        return rect

    def spied_swatches(*args: Any) -> None:
        nonlocal in_swatches
        in_swatches = True
        swatches(*args)
        in_swatches = False

    monkeypatch.setattr(renderer, "text", spy)
    monkeypatch.setattr(renderer, "_swatches", spied_swatches)
    renderer.draw(view)
    assert len(drawn) == len(names)
    for name, (label, rect) in zip(names, drawn, strict=True):
        assert label.startswith(name), label  # the name whole
        assert words.x <= rect.left and rect.right <= words.right, (label, rect, words)
        assert warnings_end <= rect.top and rect.bottom <= words.bottom, (label, rect)
        assert ("!" in label) is (name == names[-1]), label  # the clash marked
    rects = [rect for _, rect in drawn]
    assert not any(a.colliderect(b) for k, a in enumerate(rects) for b in rects[k + 1:])


# ---------------------------------------------------------------- the result, after back


class ReaderEyes(ScriptedEyes):
    """Eyes that read the dice right with the uncalibrated reader only: the narrowed
    one the test rolls are read with at first reads each roll 1, 1, 1."""

    def read(self, image: Image, profile: ReaderProfile, corners: Any) -> FrameReading:
        values = self.values
        if profile != ReaderProfile():
            self.values = (1, 1, 1)
        try:
            return super().read(image, profile, corners)
        finally:
            self.values = values


def roll(flow: CalibrationFlow, eyes: ScriptedEyes, t: float) -> None:
    """A test roll of 2, 4, 6: confirmed where read so, else entered."""
    eyes.values = (2, 4, 6)
    flow.on_frame(IMAGE, t)
    assert flow.s.current is not None
    if flow.s.current.read == (2, 4, 6):
        tap(flow, OK)
        return
    tap(flow, NO)
    for target in (2, 4, 6):
        while flow.view().dice[flow.s.marked] != target:
            tap(flow, PLUS)
        tap(flow, OK)


def test_the_result_after_going_back_says_how_many_dice_were_read_right_at_first() -> None:
    # Both test rolls read 1, 1, 1 at first (0 of 6 right); the uncalibrated reader,
    # chosen at the result, reads them right. Back, and the last roll again, now read
    # right at once: 3 of 6 were read right at first, yet the result said "6 of 6 dice
    # read right" (the first roll counted as read again by the reader chosen since).
    eyes = ReaderEyes()
    flow, t = run_to_colours(eyes, ("Anna",))
    flow.on_frame(IMAGE, t + 0.1)
    tap(flow, OK)  # Anna's colour
    tap(flow, OK)  # sizes: the test rolls
    assert flow.step is Step.CHECK
    roll(flow, eyes, t + 1.0)
    roll(flow, eyes, t + 2.0)
    assert flow.step is Step.RESULT
    assert flow.view().lines[0].startswith("0 of 6 dice were read right at first; the "
                                           "settings now chosen from these rolls read 6 "
                                           "right (100 %)")
    assert flow.s.reader == ReaderProfile()
    back(flow)  # the last test roll again
    assert flow.step is Step.CHECK and len(flow.s.checks) == 1
    roll(flow, eyes, t + 3.0)
    assert flow.step is Step.RESULT
    assert flow.view().lines[0].startswith("3 of 6 dice were read right at first; the "
                                           "settings now chosen from these rolls read 6 "
                                           "right (100 %)"), flow.view().lines
