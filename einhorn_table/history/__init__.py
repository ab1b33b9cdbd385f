"""The match history: every match played at the table, kept in SQLite, and what it tells.

>>> import datetime, tempfile, pathlib
>>> from einhorn_table.rules import Setup, StartRoll
>>> clock = lambda: datetime.datetime(2026, 11, 22, tzinfo=datetime.UTC)
>>> store = MatchStore(pathlib.Path(tempfile.mkdtemp()), now=clock)
>>> recorder = store.begin(Setup(players=("Ana", "Ben")))
>>> recorder.append(StartRoll(player="Ana", dice=(6, 6, 5)))
>>> store.unfinished().match_id == recorder.match_id
True
"""

from einhorn_table.history.errors import (
    HistoryError,
    StoreFull,
    StoreReadOnly,
    StoreRefusing,
    StoreUnreadable,
    UnknownMatch,
)
from einhorn_table.history.store import MatchRecorder, MatchRow, MatchStore, TableLog

__all__ = [
    "HistoryError",
    "MatchRecorder",
    "MatchRow",
    "MatchStore",
    "StoreFull",
    "StoreReadOnly",
    "StoreRefusing",
    "StoreUnreadable",
    "TableLog",
    "UnknownMatch",
]
