"""Dice colours: measuring a die's body colour, matching dice to players, alike colours."""

from __future__ import annotations

import itertools
import random

import cv2
import numpy as np
import pytest

from einhorn_table.errors import EinhornError
from einhorn_table.vision.colours import (
    ColourError,
    _hungarian,
    alike_pairs,
    color_difference,
    colors_too_alike,
    delta_e,
    dice_set_color,
    die_color,
    face_colours,
    group_by_colour,
    match_boxes_to_players,
    match_dice_to_players,
    rgb_to_lab,
)
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable

WHITE, RED, BLUE, GREEN, YELLOW, BLACK, PURPLE, ORANGE = DICE_PALETTE


def test_lab_and_ciede2000_match_published_values() -> None:
    assert rgb_to_lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert rgb_to_lab((0, 0, 0)) == pytest.approx((0.0, 0.0, 0.0), abs=0.01)
    # Sharma, Wu & Dalal (2005) CIEDE2000 test pairs 1 and 17 (k_L = 1).
    pair1 = delta_e((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), lightness_weight=1.0)
    pair17 = delta_e((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), lightness_weight=1.0)
    assert pair1 == pytest.approx(2.0425, abs=1e-4)
    assert pair17 == pytest.approx(27.1492, abs=1e-4)


def _drawn_die(body: tuple[int, int, int], pips: tuple[int, int, int]) -> np.ndarray:
    """A flat die: a square of the body colour with six pips, on grey felt (BGR)."""
    image = np.full((100, 100, 3), (90, 80, 70), np.uint8)
    cv2.rectangle(image, (20, 20), (79, 79), body[::-1], -1)
    for x in (35, 64):
        for y in (33, 50, 67):
            cv2.circle(image, (x, y), 6, pips[::-1], -1)
    return image


def test_die_color_ignores_the_pips() -> None:
    white_die = _drawn_die((250, 250, 250), (10, 10, 10))
    assert die_color(white_die, (20, 20, 80, 80)) == (250, 250, 250)
    black_die = _drawn_die((25, 25, 25), (240, 240, 240))
    assert die_color(black_die, (20, 20, 80, 80)) == (25, 25, 25)
    green_die = _drawn_die((30, 120, 40), (235, 210, 40))  # yellow pips on green
    assert die_color(green_die, (20, 20, 80, 80)) == (30, 120, 40)
    # The plain average of the same middle region is pulled far off by the pips.
    mean = white_die[35:65, 35:65].reshape(-1, 3).mean(axis=0)
    assert mean.max() < 215


def test_face_colours_tell_the_pips_from_the_body_and_say_how_surely() -> None:
    red_pips_on_black = face_colours(_drawn_die((25, 25, 25), (200, 30, 35)), (20, 20, 80, 80))
    assert red_pips_on_black.body == (25, 25, 25)
    assert red_pips_on_black.pips == (200, 30, 35)
    assert red_pips_on_black.body_share > 0.7
    plain = np.full((60, 60, 3), 200, np.uint8)
    one_colour = face_colours(plain, (10, 10, 50, 50))
    assert (one_colour.body, one_colour.pips, one_colour.body_share) == ((200, 200, 200), None, 1.0)


@pytest.mark.parametrize("value", [1, 5, 6])
def test_die_color_of_rendered_white_die_with_black_pips_reads_white(value: int) -> None:
    table = SynthTable(seed=value, noise=2.0)
    frame = table.still([value])
    colour = die_color(frame.image, frame.dice[0].box)
    assert color_difference(colour, WHITE) < 8.0
    assert min(colour) > 150 and max(colour) - min(colour) < 15  # light, and not tinted


def _registered(table: SynthTable) -> list[tuple[int, int, int]]:
    """Each player's dice colour as the camera sees it, from a roll of their three dice."""
    colours = []
    for colour in table.player_colors:
        frame = table.still([1, 3, 5], colors=[colour] * 3)
        colours.append(dice_set_color(frame.image, [d.box for d in frame.dice]))
    return colours


@pytest.mark.parametrize(("seed", "lighting"), [(0, 1.0), (1, 0.6), (2, 1.4)])
def test_eighteen_dice_of_six_players_are_given_to_their_players(
    seed: int, lighting: float
) -> None:
    table = SynthTable(seed=seed, players=6, lighting=lighting, die_size=40)
    registered = _registered(table)
    owners = [i // 3 for i in range(18)]
    frame = table.still(
        [(i % 6) + 1 for i in range(18)], colors=[table.player_colors[p] for p in owners]
    )
    assert alike_pairs(registered) == []
    boxes = [d.box for d in frame.dice]
    match = match_boxes_to_players(frame.image, boxes, registered, dice_per_player=3)
    match.require_clear()
    assert list(match.player_of) == owners
    measured = [die_color(frame.image, box) for box in boxes]
    assert match.groups == tuple(tuple(range(3 * p, 3 * p + 3)) for p in range(6))
    # Nearest colour alone gets them right too: these colours are well apart.
    assert list(match_dice_to_players(measured, registered).player_of) == owners
    # And without registered colours the dice still fall into six groups of three.
    assert group_by_colour(measured) == [list(range(3 * p, 3 * p + 3)) for p in range(6)]


def test_palette_colours_work_as_registered_colours_in_normal_light() -> None:
    table = SynthTable(seed=3, players=6)
    owners = [p for p in range(6) for _ in range(3)]
    random.Random(3).shuffle(owners)
    frame = table.still([2] * 18, colors=[table.player_colors[p] for p in owners])
    measured = [die_color(frame.image, d.box) for d in frame.dice]
    match = match_dice_to_players(measured, table.player_colors, dice_per_player=3)
    assert match.clear
    assert list(match.player_of) == owners


def test_too_alike_colours_are_flagged() -> None:
    assert colors_too_alike(RED, (205, 40, 40))
    assert colors_too_alike(WHITE, (250, 250, 245))
    assert colors_too_alike(BLACK, (40, 40, 44))
    for a, b in itertools.combinations(DICE_PALETTE, 2):
        assert not colors_too_alike(a, b), (a, b)
    assert alike_pairs([WHITE, RED, BLUE, (200, 36, 40), (245, 245, 240)]) == [(0, 4), (1, 3)]


def test_ambiguous_dice_are_refused_not_guessed() -> None:
    crimson = (170, 24, 60)
    between = (184, 26, 48)
    match = match_dice_to_players([between, BLUE], [RED, crimson, BLUE])
    assert match.ambiguous == (0,)
    assert match.player_of == (None, 2)
    assert not match.clear
    with pytest.raises(ColourError, match="could belong to two players"):
        match.require_clear()


def test_dice_of_no_players_colour_are_reported() -> None:
    match = match_dice_to_players([ORANGE, RED, WHITE], [WHITE, RED, BLUE])
    assert match.unmatched == (0,)
    assert match.player_of == (None, 1, 0)
    with pytest.raises(EinhornError, match="match no player"):
        match.require_clear()


def test_dice_per_player_settles_a_die_by_the_others() -> None:
    # Four dice nearer red than orange, but red has only three dice: the one most
    # like orange goes to orange.
    reddish = [RED, (198, 30, 34), (194, 32, 38), (214, 58, 30)]
    nearest = match_dice_to_players(reddish, [RED, ORANGE])
    assert nearest.player_of[3] == 0
    match = match_dice_to_players(reddish, [RED, ORANGE], dice_per_player=3)
    assert match.player_of == (0, 0, 0, 1)
    with pytest.raises(ColourError, match="extra dice"):
        match_dice_to_players([RED] * 7, [RED, ORANGE], dice_per_player=3)


def test_hungarian_finds_the_cheapest_assignment() -> None:
    rng = random.Random(5)
    for rows, cols in [(3, 3), (4, 6), (5, 5), (2, 7)]:
        for _ in range(20):
            cost = [[rng.uniform(0, 10) for _ in range(cols)] for _ in range(rows)]
            got = _hungarian(cost)
            assert len(set(got)) == rows
            best = min(
                sum(cost[r][c] for r, c in enumerate(perm))
                for perm in itertools.permutations(range(cols), rows)
            )
            assert sum(cost[r][c] for r, c in enumerate(got)) == pytest.approx(best)


def test_bad_requests_are_refused() -> None:
    image = np.zeros((50, 50, 3), np.uint8)
    with pytest.raises(ColourError, match="box"):
        die_color(image, (60, 60, 90, 90))
    with pytest.raises(ColourError, match="register"):
        match_dice_to_players([RED], [])
    with pytest.raises(ColourError, match="roll"):
        dice_set_color(image, [])


#: Six players' dice of alike colours, each pair still told apart under the lamp.
ALIKE_SIX = [(196, 28, 36), (240, 118, 22), (236, 96, 150),
             (242, 240, 232), (246, 200, 24), (24, 34, 90)]


@pytest.mark.parametrize(("light", "rgb_gain"), [
    ("as registered", (1.0, 1.0, 1.0)), ("warm lamp", (1.1, 0.95, 0.85)),
    ("cool daylight", (0.9, 1.0, 1.12)), ("dimmed", (0.7, 0.7, 0.7))])
def test_alike_colours_under_other_light_are_never_given_to_the_wrong_player(
    light: str, rgb_gain: tuple[float, float, float],
) -> None:
    """Red, orange and pink, white and yellow, dark blue: registered under the lamp,
    18 dice thrown together under other light are each given to their own player, or
    the table refuses to split them (and asks to roll one by one); never another's."""
    from einhorn_table.table.together import rolls_at_once
    from einhorn_table.vision.results import DieReading, FrameReading

    table = SynthTable(seed=4, players=6, dice_colors=ALIKE_SIX, die_size=36)
    registered = _registered(table)
    assert alike_pairs(registered) == []
    owners = [p for p in range(6) for _ in range(3)]
    random.Random(4).shuffle(owners)
    frame = table.still([(i % 6) + 1 for i in range(18)], colors=[ALIKE_SIX[p] for p in owners])
    gain = np.asarray(rgb_gain[::-1], np.float32)  # BGR
    image = np.clip(frame.image.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    dice = tuple(DieReading(d.box, d.value, 1.0, die_color(image, d.box)) for d in frame.dice)
    rolls = rolls_at_once(FrameReading(dice), list(range(6)), registered)
    if rolls is None:
        assert light != "as registered"
        return
    owner_of = {d.box: owners[i] for i, d in enumerate(frame.dice)}
    assert all(owner_of[die.box] == seat for seat, own in rolls for die in own.dice), light
