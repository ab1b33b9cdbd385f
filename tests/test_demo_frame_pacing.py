"""The bots' demo in a window: the frames come at the display's pace (16 ms, 33 ms, a
slow 100 ms, now and then a whole second while the tray reads a roll), not as fast as
SDL's dummy driver draws them. Bots act on the table's state and its clock, never on how
many frames were drawn: every game and every auction ends, and the same seed plays the
same match (the same calls, dice, bids, top-ups and tie-breaks) at every frame pace."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pytest.importorskip("pygame")

from einhorn_table.adapters import clock as clocks
from einhorn_table.cli.table_app import DemoOptions, run_demo
from einhorn_table.rules import Bid, Input, TiebreakRoll, Topup, get_variant
from einhorn_table.screen.view_model import ScreenKind

#: Einhorn with two game stones each: a game is over after a few rolls.
QUICK = replace(get_variant("einhorn"), name="quick", deal=2)


@dataclass
class FramePacedClock:
    """The window's clock as the demo's loop sees it: each frame takes ``frame`` seconds
    whatever the loop asks to sleep, every ``slow_every``-th a whole second (0: never)."""

    frame: float
    slow_every: int = 0
    now: float = 1000.0
    frames: int = 0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.frames += 1
        slow = self.slow_every and self.frames % self.slow_every == 0
        self.now += 1.0 if slow else self.frame


def what_happened(item: Input) -> tuple[object, ...]:
    """An input as the rules see it: who, what, which dice (in any order), not when."""
    dice = getattr(item, "dice", None)
    return (type(item).__name__, getattr(item, "player", None),
            None if dice is None else tuple(sorted(dice)),
            getattr(item, "call", None), getattr(item, "stones", None),
            getattr(item, "party", None))


def bots_in_a_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     frame: float, slow_every: int) -> list[tuple[object, ...]]:
    clock = FramePacedClock(frame, slow_every)
    # (The demo with a window runs on the system clock; here it is the frames' own.)
    monkeypatch.setattr(clocks, "SystemClock", lambda: clock)
    options = DemoOptions(
        names=["Ana", "Ben", "Cem"], games=3, variant=QUICK, bots=frozenset({0, 1, 2}),
        strategy="bidder", chance=random.Random(11), seed=11, size=(400, 240),
        fullscreen=False, screenshots=None, state=tmp_path / f"state-{frame}-{slow_every}",
        wall=lambda: datetime(2026, 1, 1, tzinfo=UTC), fast=False, camera_size=(320, 240))
    result = run_demo(options)
    assert result.loop is not None
    match = result.loop.controller.match
    assert match.over, f"at {frame} s a frame the match never ended"
    assert result.loop.view is not None and result.loop.view.kind is ScreenKind.FINAL
    return [what_happened(item) for item in match.inputs]


def test_the_same_seed_plays_the_same_match_at_every_frame_pace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paces = [(1 / 30, 0), (0.016, 0), (0.1, 0), (1 / 30, 7)]
    matches = [bots_in_a_window(tmp_path, monkeypatch, frame, slow) for frame, slow in paces]
    kinds = {entry[0] for entry in matches[0]}
    # (The match goes through auctions, top-ups and a tie's deciding rolls.)
    assert {Bid.__name__, Topup.__name__, TiebreakRoll.__name__} <= kinds
    for (frame, slow), match in zip(paces[1:], matches[1:], strict=True):
        slow_words = f", every {slow}th frame 1 s" if slow else ""
        assert match == matches[0], f"frames of {frame:.3f} s{slow_words} played another match"
