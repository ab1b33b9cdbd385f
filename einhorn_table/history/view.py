"""What a history screen on the table shows: plain rows of text, drawn by the table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from einhorn_table.history.stats import gather
from einhorn_table.history.store import MatchRow, MatchStore
from einhorn_table.words import counted

_STATE_WORDS = {"playing": "not finished", "finished": "finished", "abandoned": "abandoned"}


@dataclass(frozen=True, slots=True)
class HistoryLine:
    match_id: str
    date: str
    players: str
    variant: str
    winner: str
    games: str
    state: str


@dataclass(frozen=True, slots=True)
class Leader:
    name: str
    wins: int
    matches: int


@dataclass(frozen=True, slots=True)
class HistorySummary:
    title: str
    matches: tuple[HistoryLine, ...]
    leaders: tuple[Leader, ...]
    #: One line a set of dice: "Ana's dice: no sign of bias in 412 rolls".
    dice: tuple[str, ...]


def history_line(row: MatchRow) -> HistoryLine:
    """One stored match as the words of a list row."""
    started = datetime.fromisoformat(row.started).astimezone()  # the table's local time
    state = _STATE_WORDS[row.state] + (" (practice)" if row.practice else "")
    if row.source == "import":
        state += " (imported)"
    if row.state == "finished" or row.agreed_games is None:
        games = f"{row.games} game" + ("" if row.games == 1 else "s")
    else:  # how far it got: "game 6 of 10", not "6 games"
        games = f"game {row.games} of {row.agreed_games}"
    date = started.isoformat(" ", "minutes")[:16]  # "2026-11-27 19:30" (strftime is slower)
    return HistoryLine(row.match_id, date, ", ".join(row.players),
                       row.variant, row.winner or "-", games, state)


def history_summary(store: MatchStore, *, latest: int = 8) -> HistorySummary:
    """The latest matches, who wins most, and what the dice look like."""
    stats = gather(store)
    total = store.count()
    return HistorySummary(
        title=f"{counted(total, 'match', 'matches')} kept",
        matches=tuple(history_line(row) for row in store.matches(limit=latest)),
        leaders=tuple(Leader(p.name, p.wins, p.matches) for p in stats.players),
        dice=tuple(f"{d.dice}: {d.verdict}" for d in stats.dice),
    )
