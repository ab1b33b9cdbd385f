"""A match as its notation records it: the setup, the inputs, undo, and the ledger."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from einhorn_table.rules.categories import Category
from einhorn_table.rules.engine import Awaiting, MatchState, Outcome
from einhorn_table.rules.errors import NotationError, RuleViolation
from einhorn_table.rules.notation import Input, Setup, Undo, format_match, iter_lines


@dataclass(frozen=True, slots=True)
class PlayerLedger:
    name: str
    game_stones: int
    stash: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """Where the match stands (RULES.md section 9)."""

    game: int
    games: int
    central: int
    unicorn: str | None
    to_act: str | None
    awaiting: Awaiting
    players: tuple[PlayerLedger, ...]
    winner: str | None
    variant: str
    #: The call the player to roll has made so far (None: silent or not rolling).
    call: Category | None
    #: The stash that ends the match when one reaches it (None: no target agreed).
    target: int | None = None
    #: Games whose turns are over.
    games_played: int = 0

    def to_json(self) -> dict[str, Any]:
        """Section 9's object: the keys the golden files show, then a few more."""
        return {
            "game": self.game,
            "central": self.central,
            "unicorn": self.unicorn,
            "to_act": self.to_act,
            "awaiting": self.awaiting.value,
            "players": [
                {"name": p.name, "game_stones": p.game_stones, "stash": p.stash}
                for p in self.players
            ],
            "winner": self.winner,
            "games": self.games,
            "variant": self.variant,
            "call": None if self.call is None else self.call.value,
        }

    def player(self, name: str) -> PlayerLedger:
        return next(p for p in self.players if p.name == name)


def ledger_of(state: MatchState) -> Ledger:
    names = state.names
    actor = state.to_act
    return Ledger(
        game=state.game,
        games=state.games,
        central=state.central,
        unicorn=None if state.unicorn is None else names[state.unicorn],
        to_act=None if actor is None else names[actor],
        awaiting=state.awaiting,
        players=tuple(
            PlayerLedger(name, state.game_stones[i], state.stash[i]) for i, name in enumerate(names)
        ),
        winner=None if state.winner is None else names[state.winner],
        variant=state.variant.name,
        call=state.call,
        target=state.target,
        games_played=state.games_played,
    )


class MatchEnd(StrEnum):
    """Why a match is over (RULES.md sections 2, 4.9 and 5.3)."""

    GAMES_PLAYED = "games_played"
    CENTRAL_EMPTY = "central_empty"
    TARGET_REACHED = "target_reached"


def match_end(ledger: Ledger) -> MatchEnd | None:
    """Why the match ``ledger`` stands in is over; None while it goes on."""
    if ledger.awaiting is not Awaiting.NOTHING:
        return None
    if ledger.central == 0:
        return MatchEnd.CENTRAL_EMPTY
    if ledger.target is not None and max(p.stash for p in ledger.players) >= ledger.target:
        return MatchEnd.TARGET_REACHED
    return MatchEnd.GAMES_PLAYED


class Match:
    """The setup, every line entered (undo lines too), and the state they lead to.

    ``apply`` takes one input; a refused input raises :class:`RuleViolation`
    and changes nothing. ``Undo`` withdraws the last input not yet withdrawn:
    the state is rebuilt as if that input had never come.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.state = MatchState(setup)
        #: Every line after the setup, in order, undo lines included.
        self.record: list[Input] = []
        #: The inputs in force: the record with undone inputs (and undos) taken out.
        self.inputs: list[Input] = []

    @property
    def names(self) -> tuple[str, ...]:
        return self.state.names

    @property
    def over(self) -> bool:
        return self.state.awaiting is Awaiting.NOTHING

    def ledger(self) -> Ledger:
        return ledger_of(self.state)

    def apply(self, item: Input) -> Outcome:
        if isinstance(item, Undo):
            self._undo()
            self.record.append(item)
            return None
        if isinstance(item, Setup):
            raise RuleViolation("a match has one setup line, the first", rule="8")
        outcome = self.state.apply(item)
        self.record.append(item)
        self.inputs.append(item)
        return outcome

    def _undo(self) -> None:
        if not self.inputs:
            raise RuleViolation("there is nothing to undo: no input since the setup", rule="8")
        state = MatchState(self.setup)
        for item in self.inputs[:-1]:
            state.apply(item)
        self.state = state
        self.inputs.pop()

    def lines(self) -> list[Input]:
        """The whole match file: the setup, then the record."""
        return [self.setup, *self.record]

    def notation(self) -> str:
        return format_match(self.lines())


def start(first: Input, line: int = 1) -> Match:
    """A match from its first line, which must be the setup."""
    if not isinstance(first, Setup):
        raise NotationError(
            'a match file starts with the setup line {"v": 1, "type": "setup", ...}', line=line
        )
    try:
        return Match(first)
    except RuleViolation as error:
        raise error.at_line(line) from None


def replay_steps(lines: Iterable[str]) -> Iterator[tuple[int, Match, Outcome]]:
    """Replay a match file line by line, yielding the match after each line.

    The same :class:`Match` object is yielded each time (it moves on); a refused
    line raises :class:`RuleViolation` naming its line number.
    """
    match: Match | None = None
    for number, item in iter_lines(lines):
        if match is None:
            match = start(item, number)
            yield number, match, None
            continue
        try:
            outcome = match.apply(item)
        except RuleViolation as error:
            raise error.at_line(number) from None
        yield number, match, outcome
    if match is None:
        raise NotationError("the match file is empty; it must start with a setup line", line=1)


def replay(lines: Iterable[str]) -> Match:
    """The match a file of notation describes, after its last line."""
    last: Match | None = None
    for _, match, _ in replay_steps(lines):
        last = match
    assert last is not None
    return last


def replay_file(path: str | Path) -> Match:
    """Replay a match file from disk (UTF-8, with or without the mark Windows editors
    put first)."""
    with open(path, encoding="utf-8-sig") as handle:
        return replay(handle)
