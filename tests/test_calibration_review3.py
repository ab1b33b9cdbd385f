"""The guided calibration as a parent meets it at a new table: a test roll with a die
missed, dice rolled before the screen asked, another player's dice left in the tray,
a player who is not at the table, dice that could not be measured."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_calibration_steps import (
    MINUS,
    NO,
    OK,
    PLUS,
    ScriptedEyes,
    run_to_colours,
    tap,
)

from einhorn_table.adapters.camera_settings import CameraSettings
from einhorn_table.calibration.eyes import CameraEyes
from einhorn_table.calibration.flow import CalibrationFlow, CameraLock, FlowSettings, Step
from einhorn_table.calibration.seeing import Image
from einhorn_table.calibration.view import CalibrationView
from einhorn_table.cli import main
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable

IMAGE = np.zeros((80, 100, 3), np.uint8)
#: Six places in the synthetic tray (640x480), apart from each other.
PLACES = [(200, 170), (320, 170), (440, 170), (200, 320), (320, 320), (440, 320)]


def hints(view: CalibrationView) -> dict[str, str]:
    return {h.sign: h.does for h in view.hints}


def back(flow: CalibrationFlow) -> None:
    flow.on_gesture(Gesture(0, GestureKind.CHORD, (MINUS, NO), 0.0))


class NoRestEyes(ScriptedEyes):
    """Eyes that never see a roll come to rest: the dice were rolled before the screen
    asked, and lie still since."""

    def at_rest(self, image: Image, t: float) -> bool:
        return False


# ---------------------------------------------------------------- a die missed


def to_test_rolls(eyes: ScriptedEyes) -> tuple[CalibrationFlow, float]:
    flow, t = run_to_colours(eyes, ("Anna",))
    flow.on_frame(IMAGE, t + 0.1)
    tap(flow, OK)  # the colour
    tap(flow, OK)  # sizes: start the test rolls
    assert flow.step is Step.CHECK
    return flow, t


def test_a_test_roll_with_a_die_missed_is_not_confirmed_but_entered_and_counted() -> None:
    """Before, OK took the two dice found as the roll: the die missed was counted
    nowhere (100 % read right), and the readers that found it lost for a phantom."""
    eyes = ScriptedEyes()
    flow, t = to_test_rolls(eyes)
    eyes.values = (2, 4)  # the 6 was missed
    flow.on_frame(IMAGE, t + 0.2)
    view = flow.view()
    assert view.screen == "check-1" and hints(view)["OK"] == ""
    assert view.lines[0] == ("The camera found 2 of the three dice: press ✗ and enter all "
                             "three.")
    tap(flow, OK)  # not taken as the roll: the dice are to be entered
    assert flow.step is Step.ENTER and not flow.s.checks
    assert flow.view().dice == (2, 4, 1)
    tap(flow, OK)
    tap(flow, OK)
    for _ in range(5):
        tap(flow, PLUS)  # 1 -> 6
    tap(flow, OK)
    eyes.values = (1, 3, 5)
    flow.on_frame(IMAGE, t + 0.3)
    tap(flow, OK)  # three read right
    assert flow.step is Step.RESULT
    check = flow.check_section()
    assert (check.rolls, check.dice, check.right) == (2, 6, 5)  # the missed die counts


def test_a_test_roll_with_a_die_too_many_is_not_confirmed_as_four_dice() -> None:
    eyes = ScriptedEyes()
    flow, t = to_test_rolls(eyes)
    eyes.values = (2, 4, 6, 1)  # a stain taken for a die, or a fourth die
    flow.on_frame(IMAGE, t + 0.2)
    view = flow.view()
    assert hints(view)["OK"] == "" and "found 4 dice, not three" in view.lines[0]
    tap(flow, OK)  # not taken as the roll: the dice are to be entered
    assert flow.step is Step.ENTER and not flow.s.checks
    tap(flow, NO)  # back to the roll
    tap(flow, MINUS)  # the fourth die taken out, rolled again
    eyes.values = (2, 4, 6)
    flow.on_frame(IMAGE, t + 0.3)
    assert hints(flow.view())["OK"] == "yes, right"
    tap(flow, OK)
    assert len(flow.s.checks) == 1 and flow.s.checks[0].truth == (2, 4, 6)


# ---------------------------------------------------------------- rolled before asked


Show = Callable[[Image, int], None]


def at_the_colours(table: SynthTable, players: tuple[str, ...], **settings: Any,
                   ) -> tuple[CalibrationFlow, Show]:
    """A calibration with the real camera code on a synthetic table, through the tray,
    the light and the empty tray's picture to the first player's roll; and how to show
    it a picture for some frames (1/30 s each)."""
    flow = CalibrationFlow(CameraEyes(), lambda: CameraLock(CameraSettings(), "nothing"),
                           FlowSettings(players=players, settle_seconds=0.2,
                                        light_seconds=0.2, **settings))
    t = [0.0]

    def show(image: Image, frames: int) -> None:
        for _ in range(frames):
            t[0] += 1 / 30
            flow.on_frame(image, t[0])

    empty = table.empty().image
    show(empty, 4)
    tap(flow, OK)
    while flow.view().screen == "light-settling":
        show(empty, 1)
    tap(flow, OK)
    show(empty, 2)
    tap(flow, OK)  # the empty tray's picture
    return flow, show


def test_dice_rolled_before_the_screen_asked_are_read_with_ok_on_the_colours() -> None:
    """Before, "Ben: roll your dice" waited for a roll that had come already, and no
    button helped: the screen said to wait."""
    table = SynthTable(5, players=2)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    show(table.still([2, 4, 6], colors=[DICE_PALETTE[0]] * 3, positions=PLACES[:3]).image,
         60)
    assert flow.view().screen == "colours-1"
    # Anna's dice are taken out and Ben rolls while Anna's screen still waits for OK.
    ben = table.still([1, 3, 5], colors=[DICE_PALETTE[1]] * 3, positions=PLACES[3:]).image
    show(ben, 60)
    tap(flow, OK)  # Anna's colour
    show(ben, 90)
    view = flow.view()
    assert view.screen == "colours-2-roll"  # no new roll: nothing comes to rest
    assert hints(view)["OK"] == "read them now"
    assert "Dice already lying still in the tray? OK reads them." in view.lines
    tap(flow, OK)
    registration = flow.s.registration
    assert flow.view().screen == "colours-2" and registration is not None
    assert registration.colour is not None and registration.clash_with is None
    red, _, blue = registration.colour
    assert red > 150 and blue < 90


def test_dice_rolled_before_the_test_roll_screen_asked_are_read_with_ok() -> None:
    eyes = NoRestEyes()
    flow, t = run_to_colours(eyes, ("Anna",))
    flow.on_frame(IMAGE, t + 0.1)
    assert flow.view().screen == "colours-1-roll"
    tap(flow, OK)  # Anna's dice lie in the tray already
    assert flow.view().screen == "colours-1"
    tap(flow, OK)
    tap(flow, OK)  # sizes: the test rolls
    eyes.rested += 1  # (the test roll's dice came to rest before its screen asked)
    flow.on_frame(IMAGE, t + 0.2)
    view = flow.view()
    assert view.screen == "check-1-roll" and hints(view)["OK"] == "read them now"
    tap(flow, OK)
    assert flow.view().screen == "check-1" and flow.s.current is not None
    assert flow.s.current.read == (2, 4, 6)


def test_ok_on_the_roll_screen_with_an_empty_tray_says_no_dice_were_found() -> None:
    eyes = NoRestEyes()
    flow, t = run_to_colours(eyes, ("Anna",))
    eyes.empty = True  # pressed before rolling
    flow.on_frame(IMAGE, t + 0.1)
    tap(flow, OK)
    view = flow.view()
    assert view.title == "No dice found" and hints(view)["X"] == "roll again"
    tap(flow, OK)  # nothing to keep
    assert flow.s.registration is not None and not flow.s.players


# ---------------------------------------------------------------- dice left in the tray


def test_another_player_s_dice_left_in_the_tray_are_not_mixed_into_this_player_s_colour(
) -> None:
    """Before, Anna's white dice left in with Ben's red gave Ben a pink "colour" of six
    dice, without a word."""
    table = SynthTable(5, players=2)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    white, red = DICE_PALETTE[0], DICE_PALETTE[1]
    show(table.still([2, 4, 6], colors=[white] * 3, positions=PLACES[:3]).image, 60)
    tap(flow, OK)  # Anna's colour
    both = table.still([2, 4, 6, 1, 3, 5], colors=[white] * 3 + [red] * 3,
                       positions=PLACES).image
    show(both, 60)
    view = flow.view()
    assert view.screen == "colours-2-too-many" and view.title == "Too many dice"
    assert view.lines[0] == ("6 dice of more than one colour lie in the tray: only Ben's "
                             "three may.")
    assert hints(view) == {"-": "", "+": "", "OK": "", "X": "roll again"}
    tap(flow, OK)  # refused
    assert [p.name for p in flow.s.players] == ["Anna"] and flow.s.registration is not None
    tap(flow, NO)
    # Anna's dice taken out, Ben's lie still: OK reads them where no roll comes to rest.
    show(table.still([1, 3, 5], colors=[red] * 3, positions=PLACES[3:]).image, 60)
    if flow.s.registration is None:
        tap(flow, OK)
    tap(flow, OK)
    assert flow.step is Step.SIZES
    ben = flow.s.players[1].colour
    assert ben[0] > 150 and ben[1] < 90 and ben[2] < 90


def test_more_dice_of_one_colour_still_register_the_colour() -> None:
    """A die seen twice (a phantom) changes nothing of the colour: no refusal."""
    eyes = ScriptedEyes()
    eyes.values = (2, 4, 6, 6)
    flow, t = run_to_colours(eyes, ("Anna",))
    flow.on_frame(IMAGE, t + 0.1)
    assert flow.view().screen == "colours-1"
    tap(flow, OK)
    assert flow.step is Step.SIZES


# ---------------------------------------------------------------- a player not here


def test_a_player_not_at_the_table_is_skipped_and_the_result_says_so() -> None:
    """Before, the screen waited for Ben's roll, and no button skipped him."""
    eyes = ScriptedEyes()
    flow, t = run_to_colours(eyes, ("Anna", "Ben", "Cem"))
    flow.on_frame(IMAGE, t + 0.1)
    tap(flow, OK)  # Anna
    view = flow.view()
    assert view.screen == "colours-2-roll" and hints(view)["X"] == "not here: skip"
    tap(flow, NO)  # Ben is not here
    assert flow.view().screen == "colours-3-roll"
    back(flow)  # he came after all
    assert flow.view().screen == "colours-2-roll" and flow.s.skipped == []
    tap(flow, NO)
    eyes.colour = (30, 30, 200)
    flow.on_frame(IMAGE, t + 0.2)
    tap(flow, OK)  # Cem
    assert flow.step is Step.SIZES
    back(flow)  # back to Cem's roll, Ben stays skipped
    assert flow.view().screen == "colours-3-roll" and flow.s.skipped == ["Ben"]
    flow.on_frame(IMAGE, t + 0.3)
    tap(flow, OK)
    tap(flow, OK)  # the test rolls
    for k in range(2):
        flow.on_frame(IMAGE, t + 0.4 + 0.1 * k)
        tap(flow, OK)
    assert flow.step is Step.RESULT
    assert ("Ben was skipped: for Ben's dice the table goes by the colour in the table's "
            "file.") in flow.view().lines
    tap(flow, OK)
    assert flow.profile is not None
    assert [p.name for p in flow.profile.players] == ["Anna", "Cem"]


def test_with_a_player_skipped_the_reader_looks_for_both_kinds_of_pip() -> None:
    """Ben's dice were never seen: the reader must not be narrowed to the pips of the
    others' dice (white pips on his red dice would go unread, where the others' have
    dark ones); with everyone seen, it is."""
    def polarity(skip: bool) -> str:
        eyes = ScriptedEyes()
        flow, t = run_to_colours(eyes, ("Anna", "Ben", "Cem"))
        flow.on_frame(IMAGE, t + 0.1)
        tap(flow, OK)  # Anna
        if skip:
            tap(flow, NO)  # Ben is not here
        else:
            eyes.colour = (230, 210, 40)  # yellow, dark pips
            flow.on_frame(IMAGE, t + 0.15)
            tap(flow, OK)  # Ben
        eyes.colour = (150, 230, 150)  # pale green, dark pips
        flow.on_frame(IMAGE, t + 0.2)
        tap(flow, OK)  # Cem
        assert flow.step is Step.SIZES and flow.s.dice is not None
        return flow.s.dice.pip_polarity

    assert polarity(skip=False) != "both"
    assert polarity(skip=True) == "both"


def test_the_only_player_left_cannot_be_skipped_when_nobody_rolled() -> None:
    eyes = ScriptedEyes()
    flow, t = run_to_colours(eyes, ("Anna", "Ben"))
    flow.on_frame(IMAGE, t + 0.1)
    flow.s.registration = None  # Anna's dice seen; she is not here after all
    tap(flow, NO)  # skip Anna
    assert flow.view().screen == "colours-2-roll"
    view = flow.view()
    assert hints(view)["X"] == ""
    tap(flow, NO)  # somebody's dice are needed for the sizes
    assert flow.view().screen == "colours-2-roll" and flow.s.skipped == ["Anna"]


def test_the_command_says_who_was_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from einhorn_table.calibration import autopilot

    class Skipper(autopilot.Autopilot):
        def choose(self, view: CalibrationView) -> Button | None:
            if view.screen == "colours-2-roll":
                return NO
            return super().choose(view)

    monkeypatch.setattr(autopilot, "Autopilot", Skipper)
    out = tmp_path / "calibration.toml"
    assert main(["calibrate", "--source", "synth:seed=5,players=2", "--names", "Anna,Ben",
                 "--rolls", "1", "--autopilot", "--out", str(out)]) == 0
    assert ("Ben was skipped: for Ben's dice the table goes by the colour in the table's "
            "file.") in capsys.readouterr().out


# ---------------------------------------------------------------- no dice measured


def test_dice_that_could_not_be_measured_are_said_once() -> None:
    eyes = ScriptedEyes()
    eyes.values = (None, None, None)  # found, none read: nothing to measure
    flow, t = run_to_colours(eyes, ("Anna",))
    flow.on_frame(IMAGE, t + 0.1)
    tap(flow, OK)
    view = flow.view()
    assert flow.step is Step.SIZES and view.title == "The dice could not be measured"
    assert view.warnings == ("No dice were measured: roll the dice into the tray (all of "
                             "them inside, lying flat) and check the light",)
    assert not any("no dice were measured" in line.lower() for line in view.lines)
    tap(flow, NO)
    assert flow.view().screen == "colours-1-roll"


@pytest.mark.parametrize("names", [("Anna", "Ben", "Cem", "Oma Annemarie"),
                                   ("Annemarie-Josephine", "Bartholomäus", "Cornelius",
                                    "Dorothea", "Emanuel", "Friederike")])
def test_the_registered_colours_stay_above_the_buttons_on_the_touch_display(
        names: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """The colour step's roll screen for the last player, at 800x480: every registered
    colour is drawn, within the words' column and above the button strip (they ran
    under the buttons once the screen said more)."""
    import pygame

    from einhorn_table.calibration.renderer import CalibrationRenderer
    from einhorn_table.calibration.view import Swatch

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((800, 480))
    renderer = CalibrationRenderer(surface)
    eyes = ScriptedEyes()
    from dataclasses import replace

    flow, _ = run_to_colours(eyes, names)
    colours = ((240, 240, 240), (200, 30, 30), (30, 30, 200), (30, 160, 60), (220, 200, 40))
    view = replace(flow.view(), title=f"{names[-1]}: roll your dice", swatches=tuple(
        Swatch(name, colours[k]) for k, name in enumerate(names[:-1])), warnings=(
        "These dice were read already: roll them again.",))
    drawn: list[tuple[str, tuple[float, float]]] = []
    text = renderer.text

    def spy(words: str, size: float, colour: tuple[int, int, int],
            pos: tuple[float, float], *args: Any, **kwargs: Any) -> Any:
        drawn.append((words, pos))
        return text(words, size, colour, pos, *args, **kwargs)

    monkeypatch.setattr(renderer, "text", spy)
    renderer.draw(view)
    strip_top = 480 - renderer.s(62)
    labels = [(words, pos) for words, pos in drawn
              if any(words.rstrip(".").rstrip() and name.startswith(words.rstrip("."))
                     for name in names[:-1])]
    assert len(labels) == len(names) - 1, labels
    for words, (x, y) in labels:
        assert y + renderer.s(12) <= strip_top, (words, y)
        assert x < 800 - renderer.s(10)
