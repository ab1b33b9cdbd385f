"""What a history screen on the table shows: plain rows of text, drawn by the table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from einhorn_table.history.stats import gather
from einhorn_table.history.store import MatchRow, MatchStore
from einhorn_table.rules import Ledger
from einhorn_table.words import counted

#: A match not finished, in the list (one being played right now, ``history list`` says so).
NOT_FINISHED = "not finished"
_STATE_WORDS = {"playing": NOT_FINISHED, "finished": "finished", "abandoned": "abandoned"}


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
    return HistoryLine(row.match_id, local_minute(row.started),
                       *_words(row.players, row.variant, row.state, row.winner, row.games,
                               row.practice, row.source, row.agreed_games))


def local_minute(stamp: str) -> str:
    """A stored moment as the table's local date and time: "2026-11-27 19:30"."""
    # (Through the timestamp: astimezone() and strftime take twice as long, which
    # `history list --all` pays on every row.)
    moment = datetime.fromtimestamp(datetime.fromisoformat(stamp).timestamp())
    return moment.isoformat(" ", "minutes")


@lru_cache(maxsize=4096)
def _words(players: tuple[str, ...], variant: str, state: str, winner: str | None,
           games: int, practice: bool, source: str,
           agreed_games: int | None) -> tuple[str, str, str, str, str]:
    """The words of a row but its id and date: players, variant, winner, games, state.
    Worked out once for rows alike (a club's line-ups, winners and lengths repeat)."""
    marks = [*(["practice"] if practice else []), *(["imported"] if source == "import" else [])]
    words = _STATE_WORDS[state] + (f" ({', '.join(marks)})" if marks else "")
    if state == "finished" or agreed_games is None:
        played = f"{games} game" + ("" if games == 1 else "s")
    else:  # how far it got: "game 6 of 10", not "6 games"
        played = f"game {games} of {agreed_games}"
    return ", ".join(players), variant, winner or "-", played, words


def closing_line(row: MatchRow, ledger: Ledger, *, played_by: str | None = None,
                 begun: bool = True) -> str | None:
    """How a match not finished stopped, and when, for the end of ``history show`` (a
    finished match's last line says who won); ``ledger``: the match as it stood.
    ``played_by``: where it is played right now ("on the table", "in a demo"), if it is;
    ``begun``: whether it holds an input (one nobody rolled in is no match for the
    table to go on with)."""
    if row.state == "playing" and not begun:
        if played_by is not None:
            return f"Being played now {played_by}: nobody has rolled to start it yet."
        return ("Nobody rolled to start it before the table stopped: the table does not "
                "offer to go on with it, and deletes it when it starts again.")
    # (Game stones still in front of the players, where it stopped during a game.)
    stashes = ", ".join(f"{p.name} {p.stash}" + (f" (+{p.game_stones} in play)"
                                                 if p.game_stones else "")
                        for p in ledger.players)
    where = f"in game {ledger.game} of {ledger.games}"
    counted_in = ("practice: left out of the statistics" if row.practice
                  else "its calls and dice count in the statistics")
    if row.state == "abandoned" and row.source == "import":
        return (f"The match file stops here, {where}: the match was not finished when it "
                f"was exported (imported {local_minute(row.updated)}; {counted_in}). "
                f"Stashes: {stashes}")
    if row.state == "abandoned":
        return (f"Abandoned {local_minute(row.updated)}, {where}, before its end: nobody "
                f"won ({counted_in}). Stashes: {stashes}")
    if row.state == "playing" and played_by is not None:
        return (f"Being played now {played_by}: last input {local_minute(row.updated)}, "
                f"{where}. Stashes: {stashes}")
    if row.state == "playing":
        return (f"Not finished yet: last input {local_minute(row.updated)}, {where} (the "
                f"table offers to continue it when it starts again). Stashes: {stashes}")
    return None


def history_summary(store: MatchStore, *, latest: int = 8) -> HistorySummary:
    """The latest matches, who wins most, and what the dice look like."""
    stats = gather(store)
    total = store.count()
    return HistorySummary(
        title=f"{counted(total, 'match', 'matches')} kept",
        matches=tuple(history_line(row) for row in store.matches(limit=latest)),
        leaders=tuple(Leader(p.name, p.wins, p.matches) for p in stats.players),
        # In words, without the p-value (``history stats`` gives it, and says what it is).
        dice=tuple(f"{d.dice}: {d.words}" for d in stats.dice),
    )
