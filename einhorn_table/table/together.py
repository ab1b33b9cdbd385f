"""Several players' dice in the tray at once (a starting roll or an auction's tie-break,
where everyone may roll together): whose three dice are whose, by their colours."""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.table.doubt import RGB
from einhorn_table.vision.colours import NO_MATCH, alike_pairs, match_dice_to_players
from einhorn_table.vision.results import FrameReading

DICE_EACH = 3


def told_apart(colours: Sequence[RGB | None]) -> list[RGB] | None:
    """``colours`` where every one is known and no two are too alike for the camera;
    else None (those players' dice cannot be told apart in one throw)."""
    known = [c for c in colours if c is not None]
    return None if len(known) < len(colours) or alike_pairs(known) else known


def rolls_at_once(
    reading: FrameReading, owing: Sequence[int], seat_colours: Sequence[RGB | None]
) -> list[tuple[int, FrameReading]] | None:
    """Each player's own three dice, for the players in ``owing`` whose dice lie in the
    tray together; None unless there are more than three dice, every die is read
    surely, those players' colours are told apart, and every die's colour says without
    doubt whose it is (three each)."""
    dice = reading.dice
    rollers = len(dice) // DICE_EACH
    if len(dice) <= DICE_EACH or len(dice) % DICE_EACH or rollers > len(owing):
        return None
    if any(value is None for value in reading.values):
        return None
    known = told_apart([seat_colours[seat] for seat in owing])
    if known is None:
        return None
    split = match_dice_to_players([d.color for d in dice], known, dice_per_player=DICE_EACH)
    # Three each is forced on the assignment: a fourth die of one colour would be
    # given to another player, far from that player's colour (and a die of nobody's
    # colour is far from every player's).
    if split.ambiguous or max(split.distances) > NO_MATCH:
        return None
    rolls = [(owing[k], FrameReading(tuple(dice[i] for i in group)))
             for k, group in enumerate(split.groups) if group]
    if any(len(own.dice) != DICE_EACH for _, own in rolls):
        return None
    return rolls
