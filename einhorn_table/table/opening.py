"""When the bids and the top-ups are taken: once their screen has shown what came
before long enough to be seen (the game's end, the auction's result, a tie's deciding
roll for the unicorn). A press before then would seal a number never seen asked for."""

from __future__ import annotations

from typing import Protocol

from einhorn_table.rules import AuctionResult, Input, Outcome, TiebreakRoll
from einhorn_table.stations.gesture_table import Context


class LastInput(Protocol):
    """The input that last went into the match, with when and what it did."""

    @property
    def time(self) -> float: ...

    @property
    def item(self) -> Input: ...

    @property
    def outcome(self) -> Outcome: ...


def opens_at(
    context: Context,
    *,
    last: LastInput | None,
    game_ended_at: float | None,
    auction_opens_after: float,
    topup_opens_after: float,
    roll_shown_for: float,
) -> float | None:
    """From when the bids (``context`` BID) or top-ups (TOPUP) are taken, where their
    screen waits for the game's end or the auction's result to be seen; None: at once.

    ``last`` is the match's last input, ``game_ended_at`` when the last game ended; the
    waits are the table's seconds after the game's end (bids), after the auction's
    result and after a tie's deciding roll (top-ups); 0: at once."""
    since, wait = None, 0.0
    if context is Context.BID:
        since, wait = game_ended_at, auction_opens_after
    elif last is not None and isinstance(last.outcome, AuctionResult):
        since, wait = last.time, topup_opens_after
    elif last is not None and isinstance(last.item, TiebreakRoll):
        since, wait = last.time, roll_shown_for
    return None if since is None or wait <= 0 else since + wait


def not_open_words(context: Context, name: str) -> str:
    """What the screen tells ``name``, who pressed before the bids (``context`` BID) or
    top-ups (TOPUP) are taken."""
    what = ("The game is over: the auction for the unicorn opens in a moment"
            if context is Context.BID else
            "The auction is over: the top-up opens in a moment")
    return f"{what}. {name}, wait for its screen, then press again."
