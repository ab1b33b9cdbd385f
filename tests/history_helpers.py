"""Shared helpers of the history tests: a fixed clock and bot-played matches."""

from __future__ import annotations

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
