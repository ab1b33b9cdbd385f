"""The roll watcher in a real room's light: a lamp that flickers, a camera's exposure
stepping, a person's shadow or the sun over part of the tray, and a die rolling out of
the tray (synthetic scenes; more of them in ``benchmarks/watcher_scenes.py``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from einhorn_table.vision.relight import same_scene
from einhorn_table.vision.synth import (
    SynthError,
    SynthTable,
    flickering,
    in_patch_of_light,
    mount_guide_view,
)
from einhorn_table.vision.watcher import RollWatcher, WatcherConfig, changed_mask, shrink

Image = npt.NDArray[np.uint8]
FPS = 30.0


def told(images: list[Image]) -> list[str]:
    """The watcher's events, motion starts left out; a settled event showing the dice
    as they lay at the last rest is "same"."""
    watcher = RollWatcher()
    kinds = []
    for i, image in enumerate(images):
        kinds += ["same" if e.same_as_last else e.kind.value
                  for e in watcher.feed(image, i / FPS) if e.kind.value != "motion_started"]
    return kinds


def a_roll_lying_then_another(table: SynthTable) -> list[Image]:
    frames = [table.empty() for _ in range(10)]
    frames += table.roll_sequence([2, 3, 5], settle_frames=60)
    frames += table.settled_frames(60)
    frames += table.clear_sequence(empty_frames=40)
    frames += table.roll_sequence([6, 6, 1], settle_frames=40)
    return [f.image for f in frames]


@pytest.mark.parametrize(("depth", "every"), [(0.03, 1), (0.05, 1), (0.05, 3)])
@pytest.mark.parametrize("view", ["tray filling the picture", "mount guide"])
def test_dice_under_a_flickering_lamp_are_told_once_each(
        depth: float, every: int, view: str) -> None:
    # (Before the flicker was divided out, dice under a lamp flickering by 3 % never
    # lay still for the watcher: no roll was ever read.)
    options = mount_guide_view() if view == "mount guide" else {}
    table = SynthTable(41, **options)  # type: ignore[arg-type]
    images = flickering(a_roll_lying_then_another(table), depth, every)
    assert told(images) == ["settled", "emptied", "settled"]


def test_the_empty_tray_under_a_flickering_lamp_is_no_roll() -> None:
    table = SynthTable(42)
    images = flickering([table.empty().image for _ in range(120)], 0.05)
    assert told(images) == []


def test_the_empty_tray_the_watcher_tells_is_in_the_light_of_the_last_frame() -> None:
    # (The tray compares the frame it reads with it, to leave out dice found where
    # the tray looks empty.) With dice lying the empty tray's picture is not learnt
    # from the frames, so only its relighting can put it in the last frame's light.
    table = SynthTable(45)
    frames = [table.empty() for _ in range(10)] + table.roll_sequence([2, 3, 5],
                                                                       settle_frames=40)
    images = flickering([f.image for f in frames], 0.05)[:-1]
    watcher = RollWatcher()
    for i, image in enumerate(images):
        watcher.feed(image, i / FPS)
    assert watcher.reference is not None
    # An empty frame of the tray's first ten, lit as the last frame is (the flicker
    # goes dark and light by turns).
    lit_alike = 9 - (len(images) - 1 - 9) % 2
    off = changed_mask(shrink(images[lit_alike]), watcher.reference, 6)
    assert np.count_nonzero(off) < 0.05 * off.size


@pytest.mark.parametrize("gain", [0.9, 1.1])
def test_the_exposure_stepping_over_dice_lying_is_no_roll(gain: float) -> None:
    table = SynthTable(44)
    images = a_roll_lying_then_another(table)
    lit = [*images[:120], *(np.asarray(np.clip(im * gain, 0, 255), np.uint8)
                           for im in images[120:])]
    # (A step up makes white dice's pixels full: seen a little otherwise, told as a
    # nudge; no roll either way.)
    assert [k for k in told(lit) if k not in ("same", "unchanged", "nudged")] == [
        "settled", "emptied", "settled"]


def test_flicker_larger_than_the_config_allows_is_other_light() -> None:
    with pytest.raises(SynthError):
        flickering([], 1.5)
    with pytest.raises(ValueError, match="flicker"):
        WatcherConfig(flicker=1.0)


@pytest.mark.parametrize("gain", [0.6, 1.4])
def test_a_shadow_or_sun_over_part_of_the_dice_and_tray_is_the_same_scene(
        gain: float) -> None:
    # (Before soft light over part of the picture was looked for, a shadow or the sun
    # over less than half of the tray was taken for dice that moved.)
    table = SynthTable(45)
    before = table.still([2, 3, 5]).image
    width, height = table.size
    now = in_patch_of_light(before, (0.25 * width, 0.5 * height), 0.4 * width, gain)
    scene = same_scene(shrink(now), shrink(before), threshold=12, tolerance=0.15,
                       most_pixels=23)
    assert scene is not None


def test_dice_thrown_onto_the_empty_tray_are_no_shadow() -> None:
    table = SynthTable(46, tray_color=(200, 200, 190), dice_colors=[(235, 235, 228)])
    empty = shrink(table.empty().image)
    lying = shrink(table.still([1, 1, 1]).image)
    assert same_scene(lying, empty, threshold=12, tolerance=0.15, most_pixels=23) is None


def test_the_sun_creeping_over_dice_lying_is_no_roll() -> None:
    # The sunlit patch from a window moves across the tray over a minute while the
    # dice lie; then they are taken out and thrown again.
    table = SynthTable(5, players=2)
    width, height = table.size
    frames = [table.empty() for _ in range(10)]
    frames += table.roll_sequence([2, 3, 5], settle_frames=30)
    lying = [f.image for f in table.settled_frames(20)]
    seconds = 40
    count = round(seconds * FPS)

    def lit(image: Image, k: int) -> Image:
        x = (-0.3 + 1.6 * min(k / count, 1.0)) * width
        return in_patch_of_light(image, (x, 0.5 * height), 0.7 * width, 0.6)

    images = [f.image for f in frames]
    images += [lit(lying[k % len(lying)], k) for k in range(count)]
    later = table.clear_sequence(empty_frames=30) + table.roll_sequence([6, 6, 1],
                                                                        settle_frames=30)
    images += [lit(f.image, count) for f in later]
    # (No roll: the same dice, seen otherwise. Before the empty tray's picture was
    # learnt anew around the dice at each rest, the dice lying were told settled anew
    # as the patch left over the picture's edge.)
    kinds = [k for k in told(images) if k not in ("same", "unchanged")]
    assert kinds == ["settled", "emptied", "settled"]


def _a_patch_creeping_over_dice_lying(table: SynthTable, gain: float) -> list[Image]:
    """A roll lying while a patch of sunlight (``gain`` above 1) or shade creeps across
    the picture for 40 s and is then gone (its last at the edge going at once), the dice
    taken out, another roll."""
    width, height = table.size
    images = [table.empty().image for _ in range(10)]
    images += [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=30)]
    lying = [f.image for f in table.settled_frames(20)]
    count = round(40 * FPS)
    images += [in_patch_of_light(lying[k % len(lying)],
                                 ((-0.4 + 1.8 * k / count) * width, 0.5 * height),
                                 0.7 * width, gain) for k in range(count)]
    images += lying
    later = table.clear_sequence(empty_frames=30) + table.roll_sequence(
        [6, 6, 1], settle_frames=30, empty_frames=0)
    return images + [f.image for f in later]


@pytest.mark.parametrize(("gain", "view", "seed"), [(1.5, "tray filling the picture", 1000),
                                                    (0.6, "mount guide", 1001)])
def test_a_patch_of_sun_or_shade_creeping_over_dice_lying_is_no_roll(
        gain: float, view: str, seed: int) -> None:
    # (Before, the empty tray's picture was relit at each rest by the change of light
    # since the last, and the errors gathered: dice lying were told settled anew as
    # the light crept, and once they were taken out the tray no longer looked empty;
    # and the last of the patch going at once from the picture's edge, too little of
    # the picture for a shadow, was taken for dice that moved.)
    options = mount_guide_view() if view == "mount guide" else {}
    table = SynthTable(seed, **options)  # type: ignore[arg-type]
    kinds = told(_a_patch_creeping_over_dice_lying(table, gain))
    assert [k for k in kinds if k not in ("same", "unchanged")] == [
        "settled", "emptied", "settled"]


def test_the_last_of_a_shadow_going_from_the_edge_is_the_same_scene() -> None:
    # (Before, soft light over less than a tenth of the picture was taken for dice.)
    table = SynthTable(48)
    now = table.still([2, 3, 5]).image
    width, height = table.size
    before = in_patch_of_light(now, (1.4 * width, 0.5 * height), 0.7 * width, 0.6)
    scene = same_scene(shrink(now), shrink(before), threshold=12, tolerance=0.15,
                       most_pixels=23)
    assert scene is not None


@pytest.mark.parametrize(("tray", "die"), [((200, 200, 190), (235, 235, 228)),
                                           ((40, 40, 40), (30, 90, 200))])
def test_dice_thrown_under_the_edge_of_a_shadow_are_no_shadow(
        tray: tuple[int, int, int], die: tuple[int, int, int]) -> None:
    table = SynthTable(49, tray_color=tray, dice_colors=[die], lighting=0.5)
    width, height = table.size
    empty = in_patch_of_light(table.empty().image, (1.4 * width, 0.5 * height),
                              0.7 * width, 0.6)
    lying = table.still([1, 4, 6]).image
    assert same_scene(shrink(lying), shrink(empty), threshold=12, tolerance=0.15,
                      most_pixels=23) is None


def test_a_die_rolling_out_of_the_tray_is_one_roll_of_two_dice() -> None:
    table = SynthTable(47)
    frames = [table.empty() for _ in range(10)]
    frames += table.roll_sequence([2, 3, 5], settle_frames=40, rolled_out=1)
    assert len(table.layout) == 2
    assert len(frames[-1].dice) == 2
    assert told([f.image for f in frames]) == ["settled"]


def test_a_synthetic_die_cannot_roll_out_more_than_thrown() -> None:
    with pytest.raises(SynthError, match="roll out"):
        SynthTable(48).roll_sequence([1, 2], rolled_out=3)
