"""The screens of the resume prompt: the interrupted match, or the match history."""

from __future__ import annotations

from einhorn_table.screen.view_model import ScreenKind, ScreenView, button_hints, player_cards
from einhorn_table.stations.gesture_table import GESTURES
from einhorn_table.table.resume import ResumePrompt


def resume_view(prompt: ResumePrompt, now: float) -> ScreenView:
    """Who played, when, game N of M and the stashes; OK goes on, ✗ starts anew."""
    interrupted = prompt.interrupted
    match = interrupted.match
    ledger = match.ledger()
    unicorn = match.state.unicorn
    to_act = match.state.to_act
    active = set(match.state.owing()) if to_act is None else {to_act}
    cards = player_cards(ledger, interrupted.seats, unicorn, active, {})
    game = min(ledger.game, ledger.games)
    help_fields: dict[str, object] = {}
    if prompt.help is not None and prompt.help.shown(now):
        name = prompt.names[prompt.help.player] if prompt.help.player < len(prompt.names) \
            else "Help"
        help_fields = {"help_title": f"{name}: {prompt.help.context.heading}",
                       "help": GESTURES[prompt.help.context]}
    common = {"game": game, "games": ledger.games, "central": ledger.central,
              "unicorn": unicorn, "players": cards, "notice": prompt.notice, **help_fields}
    if prompt.shown_history is not None:
        return ScreenView(ScreenKind.HISTORY, title="Match history",
                          archive=prompt.shown_history.summary,
                          buttons=button_hints(prompt.context()), **common)  # type: ignore[arg-type]
    stashes = ", ".join(f"{p.name} {p.stash}" for p in ledger.players)
    whose = f"{ledger.players[to_act].name} was to play. " if to_act is not None else ""
    lines: tuple[str, ...] = (
        f"Started {interrupted.started}, game {game} of {ledger.games}.",
        f"{whose}Stashes: {stashes}.",
    )
    if interrupted.blocked:
        lines += (interrupted.blocked,)
    return ScreenView(
        ScreenKind.RESUME, title="Go on with this match?",
        subtitle=f"{', '.join(match.names)} did not finish it.",
        lines=lines, buttons=button_hints(prompt.context()), **common,  # type: ignore[arg-type]
    )
