"""The guided calibration as a parent meets it at a new table (fourth review): a die
left in the tray where three or fewer lie in all, a mark on the tray accepted as no die
at the empty-tray picture, and a screen title with a word too long for a line."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import pytest
from test_calibration_review3 import PLACES, at_the_colours, hints
from test_calibration_steps import NO, OK, tap

from einhorn_table.calibration.flow import Step
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable

WHITE, RED, BLUE = DICE_PALETTE[0], DICE_PALETTE[1], DICE_PALETTE[2]

# ---------------------------------------------------------------- a die left in


@pytest.mark.parametrize("ben", [2, 1])
def test_a_die_left_in_with_three_or_fewer_dice_in_all_is_pointed_out_not_mixed_in(
        ben: int) -> None:
    """Before, Anna's white die left in beside Ben's red ones was taken as one of Ben's
    (no refusal below four dice): with one red die beside it, Ben's "colour" was pink,
    and with two, the screen said "3 dice found" with Anna's among them."""
    table = SynthTable(5, players=2)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    show(table.still([2, 4, 6], colors=[WHITE] * 3, positions=PLACES[:3]).image, 60)
    tap(flow, OK)  # Anna's colour
    left_in = table.still([2, 1, 3][:ben + 1], colors=[WHITE] + [RED] * ben,
                          positions=PLACES[:ben + 1]).image
    show(left_in, 60)
    view = flow.view()
    assert view.screen == "colours-2-mixed" and view.title == "Not all one colour"
    assert view.lines == (
        "The dice in the tray are not all of one colour: only Ben's may lie there.",
        "Anna's die (outlined in red) is still in the tray: take it out, then press ✗ and "
        "roll again.")
    assert [b.good for b in view.boxes] == [False] + [True] * ben  # Anna's die, outlined red
    assert hints(view) == {"-": "", "+": "", "OK": "", "X": "roll again"}
    tap(flow, OK)  # refused
    assert [p.name for p in flow.s.players] == ["Anna"]
    tap(flow, NO)
    # Anna's die taken out: Ben's lie still, and OK reads them.
    show(table.still([1, 3, 5][:ben], colors=[RED] * ben, positions=PLACES[1:ben + 1]).image,
         60)
    if flow.s.registration is None:
        tap(flow, OK)
    assert flow.view().screen == "colours-2"
    tap(flow, OK)
    assert flow.step is Step.SIZES
    red, green, blue = flow.s.players[1].colour
    assert red > 150 and green < 90 and blue < 90


def test_a_stray_die_of_nobody_s_colour_is_pointed_out() -> None:
    table = SynthTable(5, players=2)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    show(table.still([2, 4, 6], colors=[BLUE, WHITE, WHITE], positions=PLACES[:3]).image, 60)
    view = flow.view()
    assert view.screen == "colours-1-mixed"
    assert view.lines[1] == ("Take out any die that is not Anna's (outlined in red), then "
                             "press ✗ and roll again.")
    assert [b.good for b in view.boxes] == [False, True, True]
    tap(flow, OK)
    assert not flow.s.players and flow.step is Step.COLOURS


# ---------------------------------------------------------------- a mark on the tray


def with_a_sticker(table: SynthTable, centre: tuple[int, int]) -> None:
    """A white sticker with five dots on the tray's felt, which the reader takes for a
    die showing 5, in every picture from now on."""
    image = table.tray.image.copy()
    cx, cy, half = centre[0], centre[1], 28
    cv2.rectangle(image, (cx - half, cy - half), (cx + half, cy + half), (225, 228, 230), -1,
                  cv2.LINE_AA)
    for dx, dy in ((-14, -14), (14, -14), (0, 0), (-14, 14), (14, 14)):
        cv2.circle(image, (cx + dx, cy + dy), 5, (25, 25, 25), -1, cv2.LINE_AA)
    table.tray = replace(table.tray, image=image)


def test_a_mark_taken_as_no_die_at_the_empty_tray_is_not_read_as_a_die_later() -> None:
    """Before, the sticker the parent told the empty-tray step was no die (✗) was read as
    a die at every roll after it: Anna's white dice were "4 dice", Ben's red ones were
    refused as too many dice of two colours for good (the sticker is white), and every
    test roll found four dice."""
    table = SynthTable(5, players=2)
    sticker = (520, 380)
    with_a_sticker(table, sticker)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    # (at_the_colours pressed OK on the empty tray: refused, the sticker is outlined)
    assert flow.step is Step.REFERENCE and len(flow.view().boxes) == 1
    tap(flow, NO)  # "no dice: take it"
    assert flow.step is Step.COLOURS
    for player, colour in enumerate((WHITE, RED)):
        show(table.empty().image, 30)
        for frame in table.roll_sequence([2, 4, 6], colors=[colour] * 3, player=player,
                                         settle_frames=20):
            show(frame.image, 1)
        show(table.settled_frames(1)[0].image, 30)
        registration = flow.s.registration
        assert registration is not None, "the roll was not seen coming to rest"
        assert len(registration.reading.dice) == 3 and not registration.mixed
        tap(flow, OK)
    assert flow.step is Step.SIZES
    tap(flow, OK)  # the test rolls
    show(table.empty().image, 30)
    # A die lying on the sticker itself is read all the same.
    show(table.still([1, 3, 6], positions=[PLACES[0], PLACES[1], sticker]).image, 60)
    assert flow.s.current is not None and flow.s.current.read == (1, 3, 6)
    assert flow.s.current.complete


# ---------------------------------------------------------------- a long word in a title


def drawn_title(title: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch,
                ) -> tuple[list[str], float, float]:
    """The lines a screen with this title draws below the top bar, their font size and
    the words' column's width."""
    import pygame

    from einhorn_table.calibration.renderer import CalibrationRenderer
    from einhorn_table.calibration.view import CalibrationView

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    renderer = CalibrationRenderer(pygame.Surface(size))
    drawn: list[tuple[str, float, float]] = []
    text = renderer.text

    def spy(words: str, font_size: float, colour: tuple[int, int, int],
            pos: tuple[float, float], *args: Any, **kwargs: Any) -> Any:
        rect = text(words, font_size, colour, pos, *args, **kwargs)
        if pos[1] > renderer.s(44) and pos[0] >= left:  # the words' column
            drawn.append((words, font_size, rect.width))
        return rect

    body = renderer.w - renderer.s(20)
    column = body - round(body * 0.58) - renderer.s(12)
    left = renderer.w - renderer.s(10) - column
    monkeypatch.setattr(renderer, "text", spy)
    renderer.draw(CalibrationView(screen="x", step=4, steps=7, title=title))
    assert drawn and len({f for _, f, _ in drawn}) == 1
    assert all(w <= column for _, _, w in drawn)
    return [words for words, _, _ in drawn], drawn[0][1], column


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("title", ["Urgroßmutterschwester's dice",
                                   "Bartholomäus-Friedrich's dice",
                                   "Würfelfarbenbestimmung"])
def test_a_title_with_a_long_word_is_made_smaller_not_broken_mid_word(
        title: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, "Würfelfarbenbestimmung" was broken into "Würfelfarbenbestimmun" and "g"."""
    lines, _, _ = drawn_title(title, size, monkeypatch)
    assert " ".join(lines) == title and len(lines) <= 3  # whole words on each line


def test_a_short_title_keeps_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    lines, font_size, _ = drawn_title("A picture of the empty tray", (800, 480), monkeypatch)
    assert lines == ["A picture of the empty", "tray"] and font_size == 38


def test_a_word_too_long_even_small_is_broken_within_the_column(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from einhorn_table.calibration.renderer import TITLE_SMALLEST

    lines, font_size, _ = drawn_title("W" * 40, (800, 480), monkeypatch)
    assert font_size == TITLE_SMALLEST and 1 < len(lines) <= 3


def test_a_hyphenated_name_too_long_for_a_line_is_broken_after_a_hyphen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from einhorn_table.calibration.renderer import CalibrationRenderer

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    renderer = CalibrationRenderer(pygame.Surface((800, 480)))
    lines = renderer.wrap("Anna-Lena-Marie-Sophie-Charlotte", 26, 150)
    assert len(lines) > 1 and "".join(lines) == "Anna-Lena-Marie-Sophie-Charlotte"
    assert all(line.endswith("-") for line in lines[:-1])
