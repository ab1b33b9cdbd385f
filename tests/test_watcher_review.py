"""The roll watcher at a real table: rolls into a tray where others' dice lie, dice
picked up and thrown again, dice pushed near and far (synthetic scenes)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from einhorn_table.vision.synth import HandPose, PlacedDie, SynthFrame, SynthTable
from einhorn_table.vision.watcher import EventKind, RollWatcher

FPS = 30.0
SIZE = (320, 240)
DIE = 16


def _after_rest(frames: list[SynthFrame]) -> list[EventKind]:
    """What the watcher reports, motion starts left out."""
    watcher = RollWatcher()
    kinds = []
    for i, frame in enumerate(frames):
        kinds += [e.kind for e in watcher.feed(frame.image, i / FPS)
                  if e.kind is not EventKind.MOTION_STARTED]
    return kinds


def _beside(table: SynthTable, values: list[int], colour: tuple[int, int, int],
            lying: tuple[PlacedDie, ...]) -> tuple[PlacedDie, ...]:
    for _ in range(500):
        dice = table.layout_dice(values, colors=[colour] * len(values))
        if all(table.placer.apart(d.look, d.x, d.y, lying) for d in dice):
            return dice
    pytest.fail("no room in the tray")


def _players_dice_lying(seed: int, players: int) -> tuple[SynthTable, tuple[PlacedDie, ...]]:
    """A tray where ``players`` players' three dice each lie, thrown one after another."""
    table = SynthTable(seed=seed, size=SIZE, players=6, die_size=DIE)
    lying: tuple[PlacedDie, ...] = ()
    for player in range(players):
        lying += _beside(table, [1 + player, 4, 2], table.player_colors[player], lying)
    return table, lying


def _throw(table: SynthTable, lying: tuple[PlacedDie, ...],
           after: tuple[PlacedDie, ...]) -> list[SynthFrame]:
    """The empty tray, the dice ``lying`` still, a hand over the tray, then ``after``."""
    hand = HandPose(tip=(160.0, 120.0), direction=(0.0, -1.0), width=48.0, skin=table.skin)
    return ([table.render(()) for _ in range(3)] + [table.render(lying) for _ in range(20)]
            + [table.render(lying, hand=hand) for _ in range(6)]
            + [table.render(after) for _ in range(20)])


@pytest.mark.parametrize("seed", [0, 1])
def test_the_sixth_player_throwing_beside_five_players_dice_is_a_roll(seed: int) -> None:
    """A starting roll, each player throwing beside the dice left lying: before, the
    sixth player's three dice added less than a quarter to what lay in the tray, so
    they were taken for a nudge and the roll was never read."""
    table, lying = _players_dice_lying(seed, 5)
    thrown = _beside(table, [5, 5, 3], table.player_colors[5], lying)
    assert _after_rest(_throw(table, lying, lying + thrown)) == [EventKind.SETTLED] * 2


@pytest.mark.parametrize(("seed", "players"), [(0, 3), (1, 4)])
def test_one_player_throwing_again_among_others_dice_is_a_roll(seed: int, players: int) -> None:
    """A tie-break: one player picks up their own three dice from among the others'
    and throws again. Before, most of the tray still lay as it lay, so it was taken
    for a nudge and the roll was never read."""
    table, lying = _players_dice_lying(seed, players)
    keep = lying[:-3]
    again = _beside(table, [6, 6, 1], table.player_colors[players - 1], keep)
    assert _after_rest(_throw(table, lying, keep + again)) == [EventKind.SETTLED] * 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_dice_thrown_again_landing_near_where_they_lay_is_a_roll(seed: int) -> None:
    """Dice picked up and thrown again that come to lie near their old places (a third
    of a die off, other faces up): before, a nudge, and the roll was never read."""
    table = SynthTable(seed=seed, size=SIZE)
    roll = table.roll_sequence(settle_frames=20)
    rng = random.Random(seed)
    near = []
    for die in table.layout:
        heading = rng.uniform(0.0, 2 * math.pi)
        face = rng.choice([f for f in range(1, 7) if f != die.look.value])
        near.append(PlacedDie(replace(die.look, value=face, angle=rng.uniform(0.0, 360.0)),
                              die.x + 0.35 * table.die_size * math.cos(heading),
                              die.y + 0.35 * table.die_size * math.sin(heading)))
    picked_up = table.clear_sequence(empty_frames=0)[:6]  # the hand over the dice
    thrown = table.roll_sequence([d.look.value for d in near], settle_frames=0, empty_frames=0)
    table.layout = tuple(near)
    frames = roll + picked_up + thrown + table.settled_frames(20)
    assert _after_rest(frames) == [EventKind.SETTLED] * 2


@pytest.mark.parametrize("seed", [0, 1])
def test_one_of_three_dice_pushed_far_is_a_nudge_not_a_roll(seed: int) -> None:
    """One die pushed a die and a half across the tray: the other two lie as they lay.
    Before, the little overlap left made it a new roll (a one-die roll for the next
    player to answer for)."""
    table = SynthTable(seed=seed, size=SIZE, die_size=DIE)
    frames = [table.render(()) for _ in range(3)]
    table.layout = _beside(table, [2, 3, 5], table.player_colors[0], ())
    frames += table.settled_frames(20)
    frames += table.nudge_sequence(2, settle_frames=20, distance=1.6 * DIE, hand=True)
    assert _after_rest(frames) == [EventKind.SETTLED, EventKind.NUDGED]


@pytest.mark.parametrize("players", [1, 3, 5])
@pytest.mark.parametrize("distance", [0.3, 1.0])
def test_a_die_nudged_among_many_is_still_a_nudge(players: int, distance: float) -> None:
    table, lying = _players_dice_lying(players, players)
    frames = [table.render(()) for _ in range(3)] + [table.render(lying) for _ in range(20)]
    table.layout = lying
    frames += table.nudge_sequence(len(lying) - 1, settle_frames=20,
                                   distance=distance * DIE, hand=True)
    assert _after_rest(frames) == [EventKind.SETTLED, EventKind.NUDGED]
