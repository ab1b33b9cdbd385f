"""Several players' dice in the tray at once: a starting roll or an auction's tie-break
thrown together, each player's roll told apart by the colour of their dice."""

from __future__ import annotations

from table_helpers import BLUE, RED, controller

from einhorn_table.rules import StartRoll
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.table.controller import Seat
from einhorn_table.table.events import MotionStarted, Settled
from einhorn_table.table.together import rolls_at_once
from einhorn_table.vision.results import DieReading, FrameReading

WHITE = (240, 240, 240)


def tray(*dice: tuple[int | None, tuple[int, int, int]]) -> FrameReading:
    """Dice of the given values and colours, in a row, shuffled colours and all."""
    return FrameReading(tuple(
        DieReading((10.0 + 40 * i, 10.0, 40.0 + 40 * i, 40.0), value,
                   0.4 if value is None else 0.95, colour)
        for i, (value, colour) in enumerate(dice)
    ))


MIXED = tray((6, RED), (1, BLUE), (6, RED), (2, BLUE), (5, RED), (1, BLUE))


def test_each_player_s_three_dice_are_told_apart_by_colour() -> None:
    rolls = rolls_at_once(MIXED, [0, 1], [RED, BLUE])
    assert rolls is not None
    assert [(seat, own.values) for seat, own in rolls] == [(0, (6, 6, 5)), (1, (1, 2, 1))]
    # Only the players still owing a roll: Cem (white) has rolled, Ana and Ben throw.
    rolls = rolls_at_once(MIXED, [0, 2], [RED, WHITE, BLUE])
    assert rolls is not None and [seat for seat, _ in rolls] == [0, 2]


def test_anything_in_doubt_is_not_split() -> None:
    colours = [RED, BLUE]
    unsure = tray((6, RED), (None, BLUE), (6, RED), (2, BLUE), (5, RED), (1, BLUE))
    assert rolls_at_once(unsure, [0, 1], colours) is None
    four_and_two = tray((6, RED), (1, RED), (6, RED), (2, BLUE), (5, RED), (1, BLUE))
    assert rolls_at_once(four_and_two, [0, 1], colours) is None
    assert rolls_at_once(tray((6, RED), (1, RED), (2, BLUE), (3, BLUE)), [0, 1], colours) is None
    assert rolls_at_once(MIXED, [0], colours) is None  # two players' dice, one owing
    assert rolls_at_once(MIXED, [0, 1], [RED, (215, 45, 45)]) is None  # colours too alike
    assert rolls_at_once(MIXED, [0, 1], [RED, None]) is None
    stranger = tray((6, RED), (1, BLUE), (6, RED), (2, BLUE), (5, RED), (1, (30, 150, 60)))
    assert rolls_at_once(stranger, [0, 1], colours) is None  # a die of nobody's colour
    assert rolls_at_once(tray((6, RED), (1, RED), (6, RED)), [0, 1], colours) is None


def test_the_starting_roll_thrown_together_is_each_player_s_roll() -> None:
    c, recorder = controller()  # Ana: red dice, Ben: blue
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, MIXED))
    rolls = [item for item in recorder.items if isinstance(item, StartRoll)]
    assert [(r.player, r.dice) for r in rolls] == [("Ana", (6, 6, 5)), ("Ben", (1, 2, 1))]
    assert all(r.extra["confidence"] == 0.95 for r in rolls)
    assert c.pending is None and c.match.ledger().to_act == "Ana"  # 17 beats 4
    view = build_view(c, 1.5)
    assert view.kind is ScreenKind.RESULT and view.title == "Ana and Ben rolled together"
    assert view.lines == ("Ana: 6 6 5 = 17", "Ben: 1 2 1 = 4",
                          "Ana starts and takes 1 stone from the central stash")


def test_dice_together_in_doubt_are_asked_about_as_before() -> None:
    c, recorder = controller()
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, tray((6, RED), (None, BLUE), (6, RED), (2, BLUE), (5, RED),
                                (1, BLUE))))
    assert not recorder.items and c.pending is not None
    assert build_view(c, 1.5).kind is ScreenKind.DOUBT


def test_three_players_thrown_together_on_the_synthetic_table_are_read_per_player() -> None:
    from einhorn_table.vision.colours import dice_set_color
    from einhorn_table.vision.profile import ReaderProfile
    from einhorn_table.vision.reader import read_frame
    from einhorn_table.vision.synth import SynthTable

    table = SynthTable(seed=4, players=3, die_size=40)
    registered = []  # each player's colour as the camera sees it (the calibration's step)
    for colour in table.player_colors:
        frame = table.still([1, 3, 5], colors=[colour] * 3)
        registered.append(dice_set_color(frame.image, [d.box for d in frame.dice]))
    owners = [1, 0, 2, 2, 1, 0, 0, 2, 1]
    values = [3, 6, 2, 4, 1, 5, 2, 6, 6]
    frame = table.still(values, colors=[table.player_colors[p] for p in owners])
    reading = read_frame(frame.image, ReaderProfile())
    rolls = rolls_at_once(reading, [0, 1, 2], registered)
    assert rolls is not None
    expected = {p: sorted(v for v, o in zip(values, owners, strict=True) if o == p)
                for p in range(3)}
    assert {seat: sorted(v for v in own.values if v is not None) for seat, own in rolls} == expected


def test_four_players_thrown_together_in_the_mount_guides_view_are_read_per_player() -> None:
    """Twelve large dice seen from the mount guide's height (their sides showing away
    from the middle), read in the calibrated tray outline as ``play`` reads."""
    from einhorn_table.calibration.tray_finder import find_tray
    from einhorn_table.calibration.tray_reading import TrayReader
    from einhorn_table.vision.colours import dice_set_color
    from einhorn_table.vision.profile import ReaderProfile
    from einhorn_table.vision.synth import SynthTable, mount_guide_view

    table = SynthTable(seed=6, players=4, **mount_guide_view())
    reader = TrayReader(ReaderProfile(), find_tray(table.empty().image), table.die_size)
    registered = []
    for colour in table.player_colors:
        frame = table.still([2, 4, 6], colors=[colour] * 3)
        registered.append(dice_set_color(frame.image, [d.box for d in frame.dice]))
    owners = [3, 1, 0, 2, 2, 1, 0, 3, 0, 2, 1, 3]
    values = [3, 6, 2, 4, 1, 5, 2, 6, 6, 1, 4, 5]
    frame = table.still(values, colors=[table.player_colors[p] for p in owners])
    rolls = rolls_at_once(reader(frame.image), [0, 1, 2, 3], registered)
    assert rolls is not None
    expected = {p: sorted(v for v, o in zip(values, owners, strict=True) if o == p)
                for p in range(4)}
    assert {seat: sorted(v for v in own.values if v is not None) for seat, own in rolls} == expected


def test_the_start_screen_offers_rolling_together_only_to_dice_told_apart() -> None:
    c, _ = controller()  # red and blue dice
    assert build_view(c, 0.0).subtitle == ("Highest sum starts. One by one or all together. "
                                           "Next: Ana")
    c.seats = [Seat("Ana", WHITE), Seat("Ben", (236, 238, 242))]
    assert build_view(c, 0.0).subtitle == "Highest sum starts. Next: Ana"


def test_dice_together_that_cannot_be_split_ask_to_roll_one_by_one() -> None:
    c, recorder = controller()
    c.seats = [Seat("Ana", WHITE), Seat("Ben", (236, 238, 242))]  # both white: no telling
    c.on_tray(MotionStarted(0.0))
    c.on_tray(Settled(1.0, tray(*[(v, WHITE) for v in (6, 1, 6, 2, 5, 1)])))
    assert not recorder.items and c.pending is not None
    view = build_view(c, 1.5)
    assert view.subtitle == "6 dice seen, and whose is whose is unclear: roll again one by one"
    c.seats = [Seat("Ana", RED), Seat("Ben", BLUE)]
    c.on_tray(MotionStarted(10.0))
    c.on_tray(Settled(11.0, tray(*[(v, RED) for v in (6, 1, 6, 2)])))  # four: not 3 each
    assert build_view(c, 11.5).subtitle.startswith("4 dice seen, and whose is whose")
