"""Shared helpers of the history tests: a fixed clock and bot-played matches."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from einhorn_table.history import MatchStore
from einhorn_table.rules import Match, Setup, format_input, parse_line
from einhorn_table.simulation.simulate import play_recorded
from einhorn_table.simulation.strategies import make_strategy

PLAYERS = ("Ana", "Ben", "Cem", "Dora")


class StepClock:
    """A wall clock that moves one minute each time it is read."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def open_store(folder: Path, **kwargs: object) -> MatchStore:
    return MatchStore(folder, now=StepClock(), **kwargs)  # type: ignore[arg-type]


def bot_match(seed: int, players: tuple[str, ...] = PLAYERS) -> Match:
    names = ("odds", "random", "bidder", "silent", "odds", "random")
    strategies = [make_strategy(names[i]) for i in range(len(players))]
    return play_recorded(Setup(players=players), strategies, random.Random(seed))


def undated(lines: list[str]) -> list[str]:
    """Stored lines without the date the history writes on the setup line."""
    setup = parse_line(lines[0])
    assert isinstance(setup, Setup) and "started" in setup.extra
    extra = {k: v for k, v in setup.extra.items() if k != "started"}
    return [format_input(replace(setup, extra=extra)), *lines[1:]]


#: The user a file is given to, to be another user's.
NOBODY = 65534


def why_not_mine(file: Path, again: str) -> str:
    """Why a history file given to NOBODY (mode 000) may not be read, and what to do
    (``again``: the
    command after ``einhorn-table history --state-dir FOLDER``): said to root with its
    power dropped, or to its owner where the tests run as another user."""
    if os.geteuid() != 0:
        return (f"its permissions forbid even you, its owner, to read it (`ls -ld {file}` "
                f"shows them). `chmod u+rw {file}` gives them back.")
    import pwd

    other = pwd.getpwuid(NOBODY).pw_name
    return (f"it belongs to {other}, not to you (root). Run the command as {other}: "
            f"`sudo -u {other} einhorn-table history --state-dir {file.parent} {again}`")
