"""Shared helpers for the table tests: readings, gestures, an in-memory recorder."""

from __future__ import annotations

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import EINHORN, Input, Match, Setup
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.recorder import RecorderError, SaveKind
from einhorn_table.vision.results import DieReading, FrameReading

RED = (200, 30, 40)
BLUE = (30, 60, 200)


class MemoryRecorder:
    def __init__(self) -> None:
        self.items: list[Input] = []
        self.full = False

    def append(self, item: Input) -> None:
        if self.full:
            raise RecorderError("Cannot write the match: the disk is full. Free some space.",
                                SaveKind.FULL)
        self.items.append(item)

    def close(self) -> None:
        pass


def reading(values: list[int | None], colour: tuple[int, int, int] = RED) -> FrameReading:
    dice = tuple(
        DieReading((10.0 + 40 * i, 10.0, 40.0 + 40 * i, 40.0), v, 0.4 if v is None else 0.95,
                   colour)
        for i, v in enumerate(values)
    )
    return FrameReading(dice)


def tap(player: int, button: Button, time: float = 0.0) -> Gesture:
    return Gesture(player, GestureKind.TAP, (button,), time)


def chord(player: int, a: Button, b: Button, time: float = 0.0) -> Gesture:
    return Gesture(player, GestureKind.CHORD, (a, b), time)


def controller(names: tuple[str, ...] = ("Ana", "Ben")) -> tuple[TableController, MemoryRecorder]:
    match = Match(Setup.for_variant(EINHORN, list(names), games=10))
    recorder = MemoryRecorder()
    colours = [RED, BLUE, (240, 240, 240), (30, 30, 30), (30, 140, 60), (240, 200, 20)]
    seats = [Seat(name, colours[i]) for i, name in enumerate(names)]
    return TableController(match, recorder, seats), recorder


def players_toml(*players: tuple[str, int, str]) -> str:
    """The ``[[player]]`` tables of a table file: (name, station, dice colour) each."""
    return "".join(f'\n[[player]]\nname = "{name}"\nstation = {station}\ndice = "{dice}"\n'
                   for name, station, dice in players)
