"""When a reading of the tray may not be paid out silently, and why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from einhorn_table.vision.colours import (
    AMBIGUITY_MARGIN,
    NO_MATCH,
    color_difference,
    colors_too_alike,
)
from einhorn_table.vision.results import FrameReading

RGB = tuple[int, int, int]

#: A die this near a player's dice colour may be credited to them by its colour alone.
#: A player's own dice came as far as 20.9 from their calibrated colour under a lamp 0.5
#: to 1.6 times as bright as at calibration (synthetic table), a few of them further.
NEAR_ENOUGH = NO_MATCH + AMBIGUITY_MARGIN
#: Up to this, a die further than NEAR_ENOUGH is still credited to the player whose colour
#: is nearest where every other player's is AMBIGUITY_MARGIN further (own dice under a
#: bright lamp came 28.2 from their colour, 21 nearer it than any other's); past it,
#: a die is no player's by its colour (dice whose colour the table's file only names).
FAR_LIMIT = 2 * NO_MATCH


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


def credited_seat(reading: FrameReading, seat_colours: Sequence[RGB | None]) -> int | None:
    """The seat that every die's colour fits, to credit a roll thrown out of turn to
    (``None``: no one's, or several seats').

    A die fits the seat nearest it only where it is near enough to be that player's dice
    as the camera sees them under another lamp: a die far from every player's colour (a
    set of dice whose colour the table's file only names) would otherwise be credited to
    whoever's colour is least far, silently.
    """
    seats = {_fitting_seat(die.color, seat_colours) for die in reading.dice}
    if len(seats) != 1:
        return None
    (seat,) = seats
    return seat


def _fitting_seat(colour: RGB, seat_colours: Sequence[RGB | None]) -> int | None:
    """The seat nearest ``colour`` where the die may be credited to it (else ``None``)."""
    distances = {seat: color_difference(colour, seat_colour)
                 for seat, seat_colour in enumerate(seat_colours) if seat_colour is not None}
    if not distances:
        return None
    seat = min(distances, key=lambda s: (distances[s], s))
    nearest = distances[seat]
    if nearest <= NEAR_ENOUGH:
        return seat
    # (Seats of a colour too alike to the nearest one's share its dice: not "others".)
    sharing = alike_seats(seat_colours, seat)
    others = [distance for other, distance in distances.items() if other not in sharing]
    if nearest <= FAR_LIMIT and min(others, default=float("inf")) - nearest >= AMBIGUITY_MARGIN:
        return seat
    return None
