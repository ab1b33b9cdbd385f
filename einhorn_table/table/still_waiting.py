"""Whom the table is still waiting for: a station that does nothing reads as buttons let
go (an unplugged one too), the same as a player thinking. Where the table has waited a
while for a bid, a top-up or the unicorn owner's choice from a player who has pressed
nothing since it was asked, the screen says whose it waits for, and what to check."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from einhorn_table.rules import Awaiting, MatchState
from einhorn_table.stations.gesture_table import Context
from einhorn_table.words import joined

#: What the players the table still waits for should check where their buttons do
#: nothing, given the names and those players ("check your station's plug").
ControlsCheck = Callable[[Sequence[str], Sequence[int]], str]

#: How long the table waits for a bid, a top-up or the unicorn owner's choice from a
#: player who has pressed nothing since it was asked before the screen says whose it
#: waits for, and what to check: an unplugged station reads as buttons let go, the same
#: as a player thinking (a family's bid takes a few seconds, rarely half a minute).
STILL_WAITING_SECONDS = 30.0
#: What the table waits for from each player, in words ("Ben's bid").
ASKED_WORDS = {Awaiting.BID: ("bid", "bids"), Awaiting.TOPUP: ("top-up", "top-ups"),
               Awaiting.COUNTERPARTY: ("choice of who pays or is paid",
                                       "choices of who pays or is paid")}


def asked_now(state: MatchState) -> tuple[list[int], Context] | None:
    """The players whose bid, top-up or choice of who pays the match asks for now, and
    what their buttons do (BID, TOPUP, COUNTERPARTY); None: it asks for none of these
    (a roll: the dice show the players thinking)."""
    awaiting = state.awaiting
    if awaiting not in ASKED_WORDS:
        return None
    if awaiting is Awaiting.COUNTERPARTY:
        return ([] if state.to_act is None else [state.to_act]), Context.COUNTERPARTY
    return list(state.owing()), Context.BID if awaiting is Awaiting.BID else Context.TOPUP


def waited_too_long(asked: Sequence[int], since: float, pressed_at: Mapping[int, float],
                    now: float) -> list[int]:
    """Those of the ``asked`` players who have pressed nothing for a while at ``now``
    (``STILL_WAITING_SECONDS``), counted from ``since`` (when it was asked) or their last
    press after it (``pressed_at``)."""
    return [p for p in asked
            if now - max(since, pressed_at.get(p, -math.inf)) >= STILL_WAITING_SECONDS]


def still_waiting_words(awaiting: Awaiting, names: Sequence[str], players: Sequence[int],
                        check: ControlsCheck) -> str:
    """Whose input (``awaiting``) the table has waited for a while, ``players``, and what
    they check where their buttons do nothing (``check``); "" while nobody's."""
    if not players:
        return ""
    one, more = ASKED_WORDS[awaiting]
    whose = joined([f"{names[p]}'s" for p in players])
    return (f"Still waiting for {whose} {one if len(players) == 1 else more}. "
            f"{check(names, players)}")


def station_check(names: Sequence[str], players: Sequence[int]) -> str:
    """What the players whose input the table still waits for should check where their
    buttons do nothing: their station's plug (an unplugged station reads as released)."""
    if len(players) == 1:
        return (f"{names[players[0]]}: if your buttons do nothing, check your station's "
                "plug and cable.")
    return "If your buttons do nothing, check your station's plug and cable."
