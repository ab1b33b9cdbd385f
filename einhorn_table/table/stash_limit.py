"""What the screen says when a press of + (or −) in a bid or a top-up cannot count: the
player's stash holds no more stones (nobody bids or tops up more than their stash).

Without it, + did nothing and nothing on the screen said why: the player took the button
for broken. A bid stays secret: only a player whose stash is empty is told (everybody
can see that their bid is 0); a top-up is shown, so its limit is said whatever it is.
"""

from __future__ import annotations

from einhorn_table.stations.gesture_table import Action, Context
from einhorn_table.words import counted


def press_past_stash(context: Context, action: Action, count: int, stash: int) -> bool:
    """Whether ``action`` (MORE or LESS, with a bid or top-up of ``count`` so far) does
    nothing because of ``stash``, and the player is told so: + with the whole stash
    counted, or, in a bid, + or − with an empty stash."""
    if context is Context.BID:
        return stash == 0 and action in (Action.MORE, Action.LESS)
    if context is Context.TOPUP:
        return action is Action.MORE and count >= stash
    return False


def stash_limit_words(context: Context, name: str, stash: int, done: str) -> str:
    """Why ``name``'s + did not count in a bid or a top-up (``context``): their stash
    holds ``stash`` stones, all counted. ``done`` names the button that hands it in
    ("OK"; the demo: "key 3")."""
    if context is Context.BID:
        return f"{name} has no stones to bid: {done} (done) bids 0."
    if stash == 0:
        return f"{name} has no stones in the stash to top up: {done} (done) moves none."
    them = "it" if stash == 1 else "them"
    return f"{name}, your whole stash is {counted(stash, 'stone')}: {done} (done) moves {them}."
