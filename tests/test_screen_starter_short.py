"""The starter's extra stone where the central stash holds fewer than the variant gives
(docs/rules.md: "taken as far as the central stash holds it"): the line under the roll
says it was short, as a short payment's line does, not a bare count that looks like a
wrong rule."""

from __future__ import annotations

from dataclasses import replace

import pytest
from table_helpers import BLUE, RED, MemoryRecorder, reading

from einhorn_table.rules import EINHORN, Match, Setup
from einhorn_table.screen.view_model import build_view
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import MotionStarted, Settled


def started(bonus: int, central: int) -> TableController:
    """Ana (higher) and Ben have rolled for who starts, under a house variant whose
    starter takes ``bonus`` stones, from a central stash of ``central``."""
    grandma = replace(EINHORN, name="grandma", base="einhorn", start_bonus=bonus)
    match = Match(Setup.for_variant(grandma, ["Ana", "Ben"], games=3, central=central))
    c = TableController(match, MemoryRecorder(), [Seat("Ana", RED), Seat("Ben", BLUE)])
    for t, (values, colour) in enumerate((([6, 6, 5], RED), ([1, 2, 1], BLUE))):
        c.on_tray(MotionStarted(2.0 * t))
        c.on_tray(Settled(2.0 * t + 1, reading(values, colour)))
    return c


@pytest.mark.parametrize(("central", "took", "line"), [
    # 12 dealt: 1 stone left of the 3 the house variant gives.
    (13, 1, "Ana starts and takes 1 of 3 stones from the central stash (all it had)"),
    (14, 2, "Ana starts and takes 2 of 3 stones from the central stash (all it had)"),
    (15, 3, "Ana starts and takes 3 stones from the central stash"),
])
def test_a_starter_short_of_the_extra_stones_is_told_so(central: int, took: int,
                                                        line: str) -> None:
    # "Ana starts and takes 1 stone" under a house rule of 3: the family looked for the
    # mistake in their house file.
    c = started(3, central)
    assert c.match.ledger().players[0].game_stones == 6 + took
    view = build_view(c, 3.5)
    assert view.lines == (line,)
    assert [(f.source, f.target, f.stones) for f in view.flows] == [(-1, 0, took)]
