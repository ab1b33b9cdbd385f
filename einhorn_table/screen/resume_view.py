"""The screens of the resume prompt: the interrupted match, or the match history."""

from __future__ import annotations

from einhorn_table.rules import Awaiting, MatchState, Phase
from einhorn_table.screen.view_model import ScreenKind, ScreenView, button_hints, player_cards
from einhorn_table.stations.gesture_table import GESTURES, help_title
from einhorn_table.table.resume import ResumePrompt
from einhorn_table.words import joined


def resume_view(prompt: ResumePrompt, now: float) -> ScreenView:
    """Who played, when, game N of M, whom it waited for and the stashes; OK goes on,
    ✗ starts anew."""
    interrupted = prompt.interrupted
    match = interrupted.match
    ledger = match.ledger()
    state = match.state
    unicorn = state.unicorn
    # Everyone the match waits for is framed: all who still bid, top up or roll at once.
    cards = player_cards(ledger, interrupted.seats, unicorn, set(state.owing()), {})
    game = min(ledger.game, ledger.games)
    help_fields: dict[str, object] = {}
    if prompt.help is not None and prompt.help.shown(now):
        name = prompt.names[prompt.help.player] if prompt.help.player < len(prompt.names) \
            else None
        help_fields = {"help_title": help_title(prompt.help.context, name),
                       "help": GESTURES[prompt.help.context]}
    common = {"game": game, "games": ledger.games, "central": ledger.central,
              "unicorn": unicorn, "players": cards, "notice": prompt.notice_at(now),
              **help_fields}
    if prompt.shown_history is not None:
        return ScreenView(ScreenKind.HISTORY, title="Match history",
                          archive=prompt.shown_history.summary,
                          buttons=button_hints(prompt.context()), **common)  # type: ignore[arg-type]
    stashes = ", ".join(f"{p.name} {p.stash}" for p in ledger.players)
    stood = where_it_stood(state)
    lines: tuple[str, ...] = (
        f"Started {interrupted.started}, game {game} of {ledger.games}.",
        f"{stood} Stashes: {stashes}." if stood else f"Stashes: {stashes}.",
    )
    if interrupted.blocked:
        lines += (interrupted.blocked,)
    return ScreenView(
        ScreenKind.RESUME, title="Go on with this match?",
        subtitle=f"{joined(list(match.names))} did not finish it.",
        lines=lines, buttons=button_hints(prompt.context()), **common,  # type: ignore[arg-type]
    )


def where_it_stood(state: MatchState) -> str:
    """Who the match waited for, in words: every player still owing a bid, a top-up or
    a roll where several give theirs at once, else the one whose move it was."""
    names = state.names
    waited_for = [names[i] for i in state.owing()]
    owing = joined(waited_for) if waited_for else ""
    awaiting, phase = state.awaiting, state.phase
    if awaiting is Awaiting.BID:
        return f"The auction for the unicorn was under way: {owing} still to bid."
    if awaiting is Awaiting.TOPUP:
        return f"The top-ups were under way: {owing} still to top up."
    if phase is Phase.START:
        return f"Who starts: {owing} still to roll."
    if phase is Phase.AUCTION_TIE:
        return f"A tie at the auction: {owing} still to roll for the unicorn."
    if phase is Phase.ROLLOFF:
        return f"A tie for the win: {owing} was to roll next (the first Einhorn wins)."
    if awaiting is Awaiting.COUNTERPARTY:
        return f"{owing} was to choose who pays or is paid."
    return f"{owing} was to play." if owing else ""
