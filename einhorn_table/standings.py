"""The end of a match in words: the order of the final standings, why the match
ended, and how a tie for the most stones was broken (RULES.md section 6).

The final screen, the terminal's standings, ``replay`` and ``history show`` all
say it the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.rules import Ledger, MatchEnd, match_end
from einhorn_table.words import joined


def ending_words(ledger: Ledger) -> str:
    """Why the match ended, in words, where its agreed games did not end it; else empty."""
    if dry_while_dealing(ledger):
        return f"The match ended when the central stash ran dry dealing for game {ledger.game}."
    end = match_end(ledger)
    if end is MatchEnd.CENTRAL_EMPTY:
        return "The match ended when the central stash ran dry."
    if end is MatchEnd.TARGET_REACHED:
        who = joined(reached_target(ledger))
        return f"The match ended when {who} reached {ledger.target} stones."
    return ""


def reached_target(ledger: Ledger) -> list[str]:
    """The players whose stash reached the match's target, in seat order: all of them in
    its last game, since the target is checked after every game (RULES.md 5.3)."""
    target = ledger.target
    return [p.name for p in ledger.players if target is not None and p.stash >= target]


def most_stones(ledger: Ledger) -> list[str]:
    """The players whose stash is the biggest (more than one: a tie)."""
    best = max(p.stash for p in ledger.players)
    return [p.name for p in ledger.players if p.stash == best]


def dry_while_dealing(ledger: Ledger) -> bool:
    """The match ended in the deal after an auction (RULES.md 5.6), not in a turn: the
    game counter had moved on past the games played."""
    return match_end(ledger) is MatchEnd.CENTRAL_EMPTY and ledger.games_played < ledger.game


def tie_words(ledger: Ledger) -> str:
    """Who tied for the most stones, and who broke the tie (RULES.md 6); else empty."""
    tied = most_stones(ledger)
    if ledger.winner is None or len(tied) < 2:
        return ""
    best = ledger.player(ledger.winner).stash
    return f"{joined(tied)} tied on {best} stones; {ledger.winner} rolled an Einhorn first."


def final_order(stashes: Sequence[int], winner: int | None) -> list[int]:
    """The seats by their stashes, best first; among those tied, the winner first."""
    return sorted(range(len(stashes)), key=lambda i: (-stashes[i], i != winner))


def final_places(stashes: Sequence[int], winner: int | None) -> list[tuple[int, int]]:
    """The place of each seat, best first, as (place, seat). The roll-off decides only the
    winner (RULES.md 6): the others level on stones share a place, the next one after them
    counted on ("1, 2, 2, 4"), and so do players level lower down."""
    def place(seat: int) -> int:
        if seat == winner:
            return 1
        ahead = sum(stones > stashes[seat] for stones in stashes)
        beat = winner is not None and stashes[winner] == stashes[seat]
        return 1 + ahead + beat

    return [(place(seat), seat) for seat in final_order(stashes, winner)]
