"""Every stash after every game: the data of the final chart."""

from __future__ import annotations

from collections.abc import Sequence

from einhorn_table.rules import Input, MatchState, Setup, TurnResult


def stash_history(setup: Setup, inputs: Sequence[Input]) -> list[tuple[int, ...]]:
    """The stashes at the start, then after each finished game (and at the match's end)."""
    state = MatchState(setup)
    history = [tuple(state.stash)]
    for item in inputs:
        outcome = state.apply(item)
        if isinstance(outcome, TurnResult) and outcome.game_over:
            history.append(tuple(state.stash))
    final = tuple(state.stash)
    if state.winner is not None and history[-1] != final:
        history.append(final)
    return history
