"""When each stone of a payment flies: the screen draws the stones in the air, and the
numbers they leave and reach count them as they go, so that a card's number changes
as its stones land, not before."""

from __future__ import annotations

#: At most this many stones of one payment are drawn flying (more would only crowd the
#: path); where more are paid, each drawn stone carries its share of them.
DRAWN_MOST = 8
#: How much of the way each drawn stone starts after the one before it.
STAGGER = 0.05
#: How much faster than the payment's progress one stone crosses.
SPEED = 1.4


def drawn(stones: int) -> int:
    """How many of a payment's ``stones`` are drawn flying."""
    return min(stones, DRAWN_MOST)


def stone_position(progress: float, k: int) -> float:
    """How far along its way the ``k``-th drawn stone (0: the first) is, 0 (not gone yet)
    to 1 (landed), at the payment's ``progress`` (0..1)."""
    return max(0.0, min(1.0, progress * SPEED - k * STAGGER))


def gone_and_landed(stones: int, progress: float) -> tuple[int, int]:
    """Of a payment of ``stones``, how many have left the payer and how many have landed
    with the payee at ``progress`` (all of them, both, once the last drawn one landed)."""
    shown = drawn(stones)
    if shown <= 0:
        return 0, 0
    places = [stone_position(progress, k) for k in range(shown)]
    gone = sum(1 for p in places if p > 0.0)
    landed = sum(1 for p in places if p >= 1.0)
    return stones * gone // shown, stones * landed // shown
