"""When a reading of the tray may not be paid out silently, and why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from einhorn_table.vision.colours import color_difference, colors_too_alike
from einhorn_table.vision.results import FrameReading

RGB = tuple[int, int, int]


class DoubtKind(StrEnum):
    ABSTAINED = "abstained"  # the reader could not tell a die's value
    COUNT = "count"  # not exactly three dice
    COLOUR = "colour"  # dice not of the roller's colour
    TWO_GOES = "two_goes"  # the dice came in two throws: the first go's dice added


@dataclass(frozen=True)
class Doubt:
    kind: DoubtKind
    #: For players, short: shown big on the screen, where it starts a sentence.
    message: str
    #: What else the roller may do, after the message: roll again ("" where the message
    #: says it). The two read as one line of short sentences a child follows.
    again: str = ". You can also roll again"


def judge_reading(
    reading: FrameReading,
    roller: int,
    seat_colours: Sequence[RGB | None],
) -> Doubt | None:
    """``None`` when the reading is three sure dice of the roller's colour, else why not."""
    dice = reading.dice
    if len(dice) != 3:
        seen = "No dice seen" if not dice else "1 die seen" if len(dice) == 1 \
            else f"{len(dice)} dice seen"
        return Doubt(DoubtKind.COUNT, f"{seen}, not 3")
    unsure = sum(1 for die in dice if die.value is None)
    if unsure:
        return Doubt(DoubtKind.ABSTAINED, "1 die could not be read" if unsure == 1
                     else f"{unsure} dice could not be read")
    if seat_colours[roller] is not None and sum(c is not None for c in seat_colours) >= 2:
        owners = dice_owners(reading, seat_colours)
        # Players whose dice the camera cannot tell apart (a family's one colour of
        # dice) roll each other's dice without a question.
        if not owners <= alike_seats(seat_colours, roller):
            return Doubt(DoubtKind.COLOUR, "not the roller's dice colour")
    return None


def alike_seats(seat_colours: Sequence[RGB | None], seat: int) -> frozenset[int]:
    """``seat`` and every seat whose dice colour is too alike to its own for the camera
    to tell their dice apart."""
    own = seat_colours[seat]
    if own is None:
        return frozenset({seat})
    return frozenset(
        other for other, colour in enumerate(seat_colours)
        if other == seat or (colour is not None and colors_too_alike(colour, own))
    )


def dice_owners(reading: FrameReading, seat_colours: Sequence[RGB | None]) -> set[int | None]:
    """The seats whose dice colour is nearest to each die's (None: no seat has one)."""
    return {nearest_seat(die.color, seat_colours) for die in reading.dice}


def nearest_seat(colour: RGB, seat_colours: Sequence[RGB | None]) -> int | None:
    """The seat whose dice colour looks closest to ``colour`` (seats without one are
    skipped), by the measure that groups dice thrown together (CIEDE2000)."""
    best: tuple[float, int] | None = None
    for seat, seat_colour in enumerate(seat_colours):
        if seat_colour is None:
            continue
        distance = color_difference(colour, seat_colour)
        if best is None or distance < best[0]:
            best = (distance, seat)
    return None if best is None else best[1]
