"""The screen when a match cannot be saved before its first throw: a full or read-only
SD card found as the match begins or goes on. Its players, the save banner, no buttons:
the table waits there until it is restarted (a service that quit would only be
restarted into the same failure, with a blank screen meanwhile)."""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.rules import Match
from einhorn_table.screen.banner import save_banner
from einhorn_table.screen.view_model import ScreenKind, ScreenView, player_cards
from einhorn_table.table.controller import Seat
from einhorn_table.table.recorder import SaveKind
from einhorn_table.words import joined


def unsaved_view(match: Match, seats: Sequence[Seat], kind: SaveKind) -> ScreenView:
    """``match`` (new, or the one that was to go on) with the banner for ``kind``."""
    ledger = match.ledger()
    unicorn = match.state.unicorn
    return ScreenView(
        ScreenKind.RESUME, game=min(ledger.game, ledger.games), games=ledger.games,
        central=ledger.central, unicorn=unicorn,
        players=player_cards(ledger, seats, unicorn, set(), {}),
        title="Play is stopped",
        subtitle=f"The match of {joined(list(match.names))} cannot be saved, so no "
                 "throw is taken.",
        banner=save_banner(kind))
