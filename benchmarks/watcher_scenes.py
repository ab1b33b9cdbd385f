"""What the roll watcher makes of the moments of a real table, on synthetic scenes.

Run: ``PYTHONPATH=. python benchmarks/watcher_scenes.py [--seeds N]``. Prints, per
kind of scene, how many scenes the watcher told right:

* rolls thrown into the empty tray, over dice colours, die sizes (15 to 80 px),
  lamp brightness and tray colours: each roll ``settled``, each clearing ``emptied``;
* a lamp switched on or dimmed, or tinted, over the empty tray and over dice lying
  (the Pi camera's exposure is locked, so every pixel changes): no roll, and the
  next roll is seen; the light changing while the dice tumble: a roll;
* the camera knocked on its mount (2 to 16 px, or turned by 1 degree) over dice
  lying, with the tray filling the picture and in the mount guide's view (table
  around the tray, the camera 37 cm above it): no roll, and the next roll is seen;
* dice thrown beside dice left lying: a roll; a die pushed: a nudge, no roll;
* the tray pushed along the table (wood, or a checked tablecloth), with dice in it
  or empty, told by the tray (watcher and reader, reading as ``play`` does): no
  roll, and the next rolls read;
* something lying still at the picture's edge (a forearm resting across a corner, a
  cup, a phone, a shadow; in both views): there when the table starts, coming while
  the dice tumble, over the empty tray, over dice lying, and gone again: each roll
  seen once, nothing else a roll; a hand held still over the dice: nothing told
  until it has gone;
* a room's light: a lamp flickering, the camera's exposure stepping, a person's shadow
  passing over the tray or stopping there, sunlight from a window creeping across it
  (with dice lying and empty): each roll seen once, nothing else a roll; a die rolling
  out of the tray: one roll seen.

Then, per knock (also larger ones, to 32 px and 3 degrees), how the rolls after it
are read in the mount guide's view when the dice lie against the tray's walls
(``einhorn-table play`` reads in the tray outline the calibration found, and a
little past it): with the outline following the knocks the watcher saw, and with it
left where the calibration found it.

Then, per kind of hand held still for 3 to 5 s by a die near the tray's rim (its
fingertips over the die, touching it, or beside it; in both views, read as ``play``
reads): held there as the dice come to rest, or resting there (a hand, or a forearm
leant in the corner) before dice are thrown against it: how many rolls were read
right, asked about, silently wrong (three dice read, not those thrown: the worst
outcome), or not told at all.
"""

from __future__ import annotations

import argparse
import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.replay_source import ReplaySource
from einhorn_table.adapters.vision_tray import VisionTray
from einhorn_table.calibration.tray_finder import find_tray
from einhorn_table.calibration.tray_reading import TrayReader, read_in_tray
from einhorn_table.table.events import NotRolled, Settled
from einhorn_table.vision.knocks import in_frame_pixels
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.vision.synth import (
    DICE_PALETTE,
    DICE_PALETTE_NAMES,
    LIGHT_CHANGES,
    EdgeThing,
    HandPose,
    SynthFrame,
    SynthTable,
    flickering,
    in_patch_of_light,
    knocked,
    mount_guide_view,
)
from einhorn_table.vision.watcher import SMALL_SIZE, EventKind, RollWatcher

Image = npt.NDArray[np.uint8]
FPS = 30.0


KNOCKS = ((2, 1, 0.0), (4, -2, 0.0), (8, 4, 0.0), (16, -8, 0.0), (0, 0, 1.0))
#: The camera's view: the tray filling the picture, as seen from far above; and the
#: mount guide's view (``mount_guide_view``): the camera about as high above the tray
#: as the picture is wide (37 cm over 36 cm), about 2 cm of table around the tray,
#: large dice (40 px).
MOUNT_GUIDE = mount_guide_view()
MOUNTS: dict[str, Mapping[str, object]] = {"tray filling the picture": {},
                                           "the mount guide's view": MOUNT_GUIDE}


def knocked_by(dx: float, dy: float, turn: float = 0.0) -> Callable[[Image], Image]:
    return lambda image: knocked(image, dx, dy, turn)


def told(images: Iterable[Image]) -> list[str]:
    """The watcher's events for the frames, motion starts left out."""
    watcher = RollWatcher()
    kinds = []
    for i, image in enumerate(images):
        kinds += [e.kind.value for e in watcher.feed(image, i / FPS)
                  if e.kind.value != "motion_started"]
    return kinds


def rolls_into_the_empty_tray(seeds: int) -> tuple[int, int, list[str]]:
    trays = {"felt": None, "black": (40, 40, 40), "slate": (60, 70, 80), "pale": (200, 200, 190)}
    right = total = 0
    missed: list[str] = []
    for (name, body), size, lighting, (tray, colour), seed in itertools.product(
            zip(DICE_PALETTE_NAMES, DICE_PALETTE, strict=True), (15, 24, 40, 80),
            (0.5, 1.0, 1.6), trays.items(), range(seeds)):
        options = {} if colour is None else {"tray_color": colour}
        table = SynthTable(seed, dice_colors=[body], lighting=lighting, die_size=size,
                           **options)  # type: ignore[arg-type]
        images = [table.empty().image for _ in range(5)]
        for values in ([2, 3, 5], [6, 6, 1]):
            images += [f.image for f in table.roll_sequence(values, settle_frames=20)]
            images += [f.image for f in table.clear_sequence(empty_frames=20)]
        total += 1
        if told(images) == ["settled", "emptied", "settled", "emptied"]:
            right += 1
        else:
            missed.append(f"{name} {size} px on {tray} tray, lamp x{lighting}")
    return right, total, missed


def _lying(table: SynthTable) -> list[Image]:
    images = [table.empty().image for _ in range(5)]
    return images + [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=20)]


def _then_a_roll(table: SynthTable, change: Callable[[Image], Image]) -> list[Image]:
    images = [change(f.image) for f in table.clear_sequence(empty_frames=20)]
    return images + [change(f.image) for f in table.roll_sequence([6, 6, 1], settle_frames=20)]


def changed_views(seeds: int) -> list[tuple[str, int, int]]:
    rows = []
    for name, change in LIGHT_CHANGES.items():
        empty = lying = tumbling = 0
        for seed in range(seeds):
            table = SynthTable(100 + seed)
            images = [table.empty().image for _ in range(20)]
            images += [change(table.empty().image) for _ in range(30)]
            images += [change(f.image) for f in table.roll_sequence([4, 4, 2], settle_frames=20)]
            empty += told(images) == ["unchanged", "settled"]
            images = _lying(table) + [change(f.image) for f in table.settled_frames(30)]
            lying += told(images + _then_a_roll(table, change)) == [
                "settled", "unchanged", "emptied", "settled"]
            roll = table.roll_sequence([2, 3, 5], settle_frames=20)
            images = [table.empty().image for _ in range(10)]
            images += [f.image for f in roll[:8]] + [change(f.image) for f in roll[8:]]
            tumbling += told(images) == ["settled"]
        rows.append((f"{name}, over the empty tray: no roll, then the next one", empty, seeds))
        rows.append((f"{name}, over dice lying: no roll, then the next one", lying, seeds))
        rows.append((f"{name}, while the dice tumble: a roll", tumbling, seeds))
    for (dx, dy, turn), (where, options) in itertools.product(KNOCKS, MOUNTS.items()):
        change = knocked_by(dx, dy, turn)
        right = 0
        for seed in range(seeds):
            table = SynthTable(200 + seed, **options)  # type: ignore[arg-type]
            images = _lying(table) + [change(f.image) for f in table.settled_frames(30)]
            kinds = told(images + _then_a_roll(table, change))
            # Taken out, the tray is empty, or a still tray the reader finds empty.
            right += kinds in (["settled", "unchanged", "emptied", "settled"],
                               ["settled", "unchanged", "settled", "settled"])
        rows.append((f"camera {_knock_name(dx, dy, turn)} over dice lying ({where}): no "
                     "roll, then the next one", right, seeds))
    return rows


def dice_left_lying(seeds: int) -> list[tuple[str, int, int]]:
    beside = nudged = 0
    for seed in range(seeds):
        table = SynthTable(300 + seed, players=2)
        images = _lying(table)
        left = table.layout
        new = left
        for _ in range(200):
            new = table.layout_dice([1, 4, 6], colors=[(30, 60, 200)] * 3)
            if all(table.placer.apart(d.look, d.x, d.y, left) for d in new):
                break
        hand = HandPose(tip=(320.0, 240.0), direction=(0.0, -1.0), width=96.0,
                        skin=table.skin)
        throw = [table.render(left, hand=hand).image for _ in range(8)]
        rest = [table.render(tuple(left) + tuple(new)).image for _ in range(20)]
        beside += told(images + throw + rest) == ["settled", "settled"]
        table.layout = left
        push = [f.image for f in table.nudge_sequence(0, settle_frames=20, hand=True)]
        nudged += told(images + push) == ["settled", "nudged"]
    return [("dice thrown beside dice left lying: a roll", beside, seeds),
            ("a die of a roll pushed by a finger: a nudge, no roll", nudged, seeds)]




def _told_same(frames: Iterable[Image]) -> tuple[list[str], list[int]]:
    """The watcher's events for the frames, motion starts left out ("same": a settled
    event with the dice lying as at the last), and the frames they came at."""
    watcher = RollWatcher()
    kinds: list[str] = []
    at: list[int] = []
    for i, image in enumerate(frames):
        for e in watcher.feed(image, i / FPS):
            if e.kind != EventKind.MOTION_STARTED:
                kinds.append("same" if e.same_as_last else e.kind.value)
                at.append(i)
    return kinds, at


def _edge_things(table: SynthTable, seed: int) -> dict[str, HandPose | EdgeThing]:
    """A forearm, a cup, a phone and a shadow at the picture's edge (``seed`` picks
    the corner or side)."""
    width, height = table.size
    corner = seed % 4
    left, top = corner in (0, 3), corner in (2, 3)
    x = 0.04 * width if left else 0.96 * width
    y = 0.08 * height if top else 0.92 * height
    return {
        "a forearm resting across a corner": table.resting_arm(corner),
        "a cup": EdgeThing("cup", (x, y), 0.22 * height),
        "a phone": EdgeThing("phone", (x, -0.02 * height if top else 1.02 * height),
                             0.4 * height, angle=20.0 if left else -20.0,
                             colour=(24, 24, 28)),
        "a shadow": EdgeThing("shadow", (width * (0.3 if left else 0.7),
                                         -0.04 * height if top else 1.04 * height),
                              0.5 * height),
    }


#: What lies at the picture's edge, and when, against what the watcher should tell.
EDGE_SCENES = (
    "there when the table starts, dice thrown beside it: the roll seen",
    "coming as the dice are thrown, lying on: the roll seen",
    "coming over the empty tray, lying on, then a roll: the roll seen",
    "coming over dice lying, lying on, then the next roll: no roll, the next seen",
    "gone again with the dice lying, then the next roll: no roll, the next seen",
)


def _rolls(kinds: list[str]) -> list[str]:
    """The rolls and the trays emptied in the watcher's telling: what is no roll left
    out (the same dice told again, nudged, seen otherwise), and an empty tray told
    empty again."""
    rolls: list[str] = []
    for kind in kinds:
        if kind == "emptied" and rolls[-1:] in ([], ["emptied"]):
            continue
        if kind in ("settled", "emptied"):
            rolls.append(kind)
    return rolls


def _edge_scene(table: SynthTable, thing: HandPose | EdgeThing, scene: int
                ) -> tuple[list[Image], list[str]]:
    """The frames of the ``scene``-th of :data:`EDGE_SCENES` and the rolls and trays
    emptied to be told of them (see :func:`_rolls`)."""

    def now(frames: list[SynthFrame]) -> list[Image]:
        return [f.image for f in frames]
    table.at_edge = (thing,) if scene == 0 else ()
    images = now([table.empty() for _ in range(10)])
    if scene == 0:
        images += now(table.roll_sequence([2, 3, 5], settle_frames=30))
        return images, ["settled"]
    if scene == 1:
        table.at_edge = (thing,)
        images += now(table.roll_sequence([2, 3, 5], settle_frames=90, empty_frames=0))
        return images, ["settled"]
    if scene == 2:
        table.at_edge = (thing,)
        images += now([table.empty() for _ in range(90)])
        images += now(table.roll_sequence([6, 6, 1], settle_frames=30, empty_frames=0))
        return images, ["settled"]
    images += now(table.roll_sequence([2, 3, 5], settle_frames=30, empty_frames=0))
    table.at_edge = (thing,)
    images += now(table.settled_frames(90))
    if scene == 4:
        table.at_edge = ()
        images += now(table.settled_frames(90))
    images += now(table.clear_sequence(empty_frames=20))
    images += now(table.roll_sequence([6, 4, 4], settle_frames=30, empty_frames=0))
    return images, ["settled", "emptied", "settled"]


def things_at_the_edge(seeds: int) -> list[tuple[str, int, int]]:
    """Something lying still at the picture's edge (both views): each roll seen
    once, nothing else a roll; a hand held still over the dice: nothing told till it
    has gone."""
    rows = []
    for scene, what in enumerate(EDGE_SCENES):
        for name in _edge_things(SynthTable(0), 0):
            right = total = 0
            for seed, (_, options) in itertools.product(range(seeds), MOUNTS.items()):
                table = SynthTable(700 + seed, **options)  # type: ignore[arg-type]
                thing = _edge_things(table, seed)[name]
                images, good = _edge_scene(table, thing, scene)
                total += 1
                right += _rolls(_told_same(images)[0]) == good
            rows.append((f"{name} at the picture's edge, {what}", right, total))
    read = total = 0
    for seed in range(seeds):
        for name in _edge_things(SynthTable(0), 0):
            table = SynthTable(800 + seed, players=2, **MOUNT_GUIDE)
            thing = _edge_things(table, seed)[name]
            images = [table.empty().image for _ in range(10)]
            table.at_edge = (thing,)
            later = table.roll_sequence([2, 3, 5], settle_frames=90, empty_frames=0)
            later += table.clear_sequence(empty_frames=20)
            later += table.roll_sequence([6, 4, 4], player=1, settle_frames=90, empty_frames=0)
            table.at_edge = ()
            later += table.settled_frames(30) + table.clear_sequence(empty_frames=20)
            images += [f.image for f in later]
            total += 1
            read += _tray_told(table, images, anchored=True) == [
                "[2, 3, 5]", "empty", "[4, 4, 6]", "no roll", "empty"]
    rows.append(("each of those coming as a roll is thrown and lying on, then taken away, "
                 "told by the tray (the mount guide's view, read as ``play`` reads): the "
                 "rolls read, its going no roll", read, total))
    held = total = 0
    for seed, (_, options), seconds in itertools.product(range(seeds), MOUNTS.items(),
                                                         (1.0, 3.0)):
        table = SynthTable(720 + seed, **options)  # type: ignore[arg-type]
        images = [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=30)]
        width, height = table.size
        # Fingertips at a die (held a moment), or over the tray's middle (held long).
        die = table.layout[0]
        tip = (die.x, die.y) if seconds < 2 else (width / 2, height / 2)
        reach = (tip[0] - width / 2, tip[1] - height)
        norm = float(np.hypot(*reach))
        pose = HandPose(tip=tip, direction=(reach[0] / norm, reach[1] / norm),
                        width=0.2 * min(width, height), skin=table.skin)
        came = len(images)
        images += [table.render(table.layout, hand=pose).image
                   for _ in range(round(seconds * FPS))]
        left = len(images)
        images += [f.image for f in table.settled_frames(30)]
        kinds, at = _told_same(images)
        total += 1
        held += kinds[:1] == ["settled"] and all(not came <= i < left for i in at)
    rows.append(("a hand held still over the dice (1 s near them, 3 s over the middle): "
                 "nothing told till it has gone", held, total))
    return rows


def _a_roll_lying_then_another(table: SynthTable, lying: Callable[[list[Image]], list[Image]],
                               *, dice: bool = True) -> list[Image]:
    """A roll (with ``dice``; else the tray left empty), ``lying`` making what then
    lies still look otherwise (its frames in, the frames seen out), the dice cleared,
    another roll: all frames."""
    images = [table.empty().image for _ in range(10)]
    if dice:
        images += [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=30)]
    still = [f.image for f in table.settled_frames(20)]
    images += lying(still)
    later = table.clear_sequence(empty_frames=30) if dice else []
    later += table.roll_sequence([6, 6, 1], settle_frames=30, empty_frames=0)
    return images + [f.image for f in later]


def _passing(table: SynthTable, seconds: float, gain: float, *, stops: bool = False
             ) -> Callable[[list[Image]], list[Image]]:
    """A soft patch of light (``gain`` above 1: sunlight) or shadow (below: a person by
    the table) crossing the picture in ``seconds`` (with ``stops``, staying over its
    middle from halfway on), then gone."""
    width, height = table.size
    count = round(seconds * FPS)

    def lying(still: list[Image]) -> list[Image]:
        out = []
        for k in range(count):
            along = min(k / count, 0.5) if stops else k / count
            x = (-0.4 + 1.8 * along) * width
            out.append(in_patch_of_light(still[k % len(still)], (x, 0.5 * height),
                                         0.7 * width, gain))
        return out + still
    return lying


def _flickered(table: SynthTable, *, depth: float, every: int) -> list[Image]:
    return flickering(_a_roll_lying_then_another(table, lambda still: still * 3), depth, every)


def _stepped(table: SynthTable, *, gain: float) -> list[Image]:
    def lying(still: list[Image]) -> list[Image]:
        return [np.asarray(np.clip(image * gain, 0, 255), np.uint8) for image in still * 3]
    return _a_roll_lying_then_another(table, lying)


def _shadowed(table: SynthTable, *, dice: bool, seconds: float, stops: bool) -> list[Image]:
    return _a_roll_lying_then_another(table, _passing(table, seconds, 0.6, stops=stops),
                                      dice=dice)


def _sunlit(table: SynthTable, *, gain: float) -> list[Image]:
    return _a_roll_lying_then_another(table, _passing(table, 40.0, gain))


def _rolled_out(table: SynthTable) -> list[Image]:
    frames = [table.empty() for _ in range(10)]
    return [f.image for f in frames + table.roll_sequence([2, 3, 5], settle_frames=40,
                                                          rolled_out=1)]


def room_light(seeds: int) -> list[tuple[str, int, int]]:
    """A lamp flickering, the exposure stepping, a person's shadow, the sun from a
    window, a die rolling out of the tray (both views): each roll seen once, the
    clearing told, nothing else a roll."""
    rows = []
    rolls = ["settled", "emptied", "settled"]
    scenes: list[tuple[str, Callable[[SynthTable], list[Image]], list[str]]] = []
    for depth, every in ((0.03, 1), (0.05, 1), (0.05, 3)):
        scenes.append((f"a lamp flickering by {depth:.0%} either way every {every} "
                       f"frame{'s' if every > 1 else ''}: each roll seen once, the clearing "
                       "told", functools.partial(_flickered, depth=depth, every=every), rolls))
    for gain in (0.9, 1.1):
        scenes.append((f"the camera's exposure stepping by {gain - 1:+.0%} over dice lying: "
                       "no roll, then the next", functools.partial(_stepped, gain=gain), rolls))
    for dice, seconds, stops in ((True, 2.0, False), (False, 2.0, False), (True, 6.0, True),
                                 (False, 6.0, True)):
        what = "over dice lying" if dice else "over the empty tray"
        how = "stopping over the tray for 3 s" if stops else "passing over the tray in 2 s"
        scenes.append((f"a person's shadow {how}, {what}: no roll, then the next",
                       functools.partial(_shadowed, dice=dice, seconds=seconds, stops=stops),
                       rolls if dice else ["settled"]))
    for gain in (0.6, 1.5):
        what = "sunlight" if gain > 1 else "shade"
        scenes.append((f"a patch of {what} from a window creeping across the tray for 40 s "
                       "over dice lying: no roll, then the next",
                       functools.partial(_sunlit, gain=gain), rolls))
    scenes.append(("a die rolling out of the tray: one roll seen (two dice)", _rolled_out,
                   ["settled"]))
    for what, make, good in scenes:
        right = total = 0
        for seed, (_, options) in itertools.product(range(seeds), MOUNTS.items()):
            table = SynthTable(1000 + seed, **options)  # type: ignore[arg-type]
            total += 1
            right += _rolls(_told_same(make(table))[0]) == good
        rows.append((what, right, total))
    return rows


def _knock_name(dx: float, dy: float, turn: float) -> str:
    if turn:
        return f"turned by {turn:g} degree"
    return f"shifted by {dx}, {dy} px" if dx or dy else "not knocked"


#: Knocks after which rolls are read: the watcher's, and larger ones (the watcher
#: follows moves up to 8 % of the picture's shorter side).
READ_KNOCKS = ((0, 0, 0.0), *KNOCKS, (-32, 4, 0.0), (32, -4, 0.0), (6, 32, 0.0), (0, 0, 3.0))
WALLS = ("left", "right", "top", "bottom")


def read_after_a_knock(seeds: int) -> list[tuple[str, int, int, int, int, int]]:
    """Per knock: rolls of dice against the walls after it (a camera at the mount
    guide's height), read right and silently wrong, with the tray's outline following
    the knock and left as calibrated."""
    rows = []
    profile = ReaderProfile()
    for dx, dy, turn in READ_KNOCKS:
        change = knocked_by(dx, dy, turn)
        tally = [0, 0, 0, 0, 0]
        for seed in range(seeds * 4):
            table = SynthTable(400 + seed, **MOUNT_GUIDE)
            rng = np.random.default_rng(seed)
            calibrated = find_tray(table.empty().image)
            values = [int(v) for v in rng.integers(1, 7, 3)]
            images = _lying(table) + [change(f.image) for f in table.settled_frames(30)]
            images += [change(f.image) for f in table.clear_sequence(empty_frames=20)]
            walls = [(WALLS[w], float(rng.uniform(0.2, 0.8))) for w in rng.permutation(4)[:3]]
            still = table.still(values, positions=table.against_walls(walls)).image
            images += [change(still)] * 20
            watcher = RollWatcher()
            settled = [e for i, image in enumerate(images)
                       for e in watcher.feed(image, i / FPS) if e.kind == EventKind.SETTLED]
            frame = settled[-1].frame if len(settled) > 1 else None
            if frame is None:
                continue  # the watcher's miss, counted in the rows above
            follower = TrayReader(profile, calibrated, 40.0)
            follower.camera_moved(in_frame_pixels(
                watcher.camera_warp, SMALL_SIZE, (frame.shape[1], frame.shape[0])))
            tally[0] += 1
            for k, reading in ((1, follower(frame)),
                               (3, read_in_tray(frame, profile, calibrated, 40.0))):
                read = sorted(d.value or 0 for d in reading.dice)
                tally[k] += read == sorted(values)
                tally[k + 1] += read != sorted(values) and 0 not in read and len(read) == 3
        rows.append((_knock_name(dx, dy, turn), tally[0], tally[1], tally[2], tally[3], tally[4]))
    return rows


SLIDES = ((6, 3), (12, -6), (24, 0), (0, -36))
#: On a checked tablecloth (a push of 30 px brings the tray's rim to the picture's
#: edge there: the table waits for it to be pushed back).
CLOTH_SLIDES = ((6, 3), (12, -6), (22, 0), (0, -22))


def _tray_told(table: SynthTable, images: list[Image], *, anchored: bool = False) -> list[str]:
    """What the tray (watcher and reader, reading as ``play`` does) tells the
    controller of ``images``: a roll's values, "empty" or "no roll". With
    ``anchored``, the reader measures the tray's moves from where the tray finder
    found it at calibration (as ``play`` does with the calibration's empty-tray
    picture), else from where it first finds it empty."""
    calibrated = find_tray(table.empty().image)
    reader = TrayReader(ReaderProfile(), calibrated, 40.0,
                        anchor=calibrated if anchored else None)
    clock = FakeClock(0.0)
    times = table.frame_times(len(images))
    tray = VisionTray(ReplaySource(images, times), RollWatcher(), reader, clock,
                      follower=reader)
    told = []
    for t in times:
        clock.now = t
        for event in tray.poll():
            if isinstance(event, Settled):
                told.append(str(sorted(v or 0 for v in event.reading.values))
                            if event.reading.dice else "empty")
            elif isinstance(event, NotRolled):
                told.append("no roll")
    return told


def bumped_trays(seeds: int) -> list[tuple[str, int, int]]:
    """The tray pushed along the table (mount guide's view), with dice in it and empty:
    no roll, and the next rolls read."""
    rows = []
    pushes = [(slide, False) for slide in SLIDES] + [(slide, True) for slide in CLOTH_SLIDES]
    for ((dx, dy), cloth), with_dice in itertools.product(pushes, (True, False)):
        right = 0
        for seed in range(seeds):
            table = SynthTable(500 + seed, players=2, tablecloth=cloth,
                               **MOUNT_GUIDE)
            images = [table.empty().image for _ in range(5)]
            images += [f.image for f in table.roll_sequence([2, 3, 5], settle_frames=30)]
            if not with_dice:
                images += [f.image for f in table.clear_sequence(player=0)]
            later = table.settled_frames(30)
            if with_dice:
                later += table.clear_sequence(player=1)
            later += table.roll_sequence([6, 4, 4], player=1, settle_frames=30)
            later += table.clear_sequence(player=0)
            later += table.roll_sequence([1, 1, 3], settle_frames=30)
            images += [table.slid(f.image, dx, dy) for f in later]
            told = _tray_told(table, images)
            # (The empty tray pushed is no roll, or a still tray found empty.)
            right += told in ([["[2, 3, 5]", "no roll", "empty", "[4, 4, 6]", "empty",
                                "[1, 1, 3]"]] if with_dice else [
                ["[2, 3, 5]", "empty", push, "[4, 4, 6]", "empty", "[1, 1, 3]"]
                for push in ("no roll", "empty")])
        what = "with the dice in it" if with_dice else "empty"
        table_is = "a checked tablecloth" if cloth else "the table"
        rows.append((f"tray pushed by {dx}, {dy} px along {table_is}, {what} (the mount "
                     "guide's view): no roll, then the next rolls read", right, seeds))
    return rows


def _hand_by(table: SynthTable, die: tuple[float, float], wall: str, how: str) -> HandPose:
    """A hand held from the picture's edge beyond ``wall`` by a die lying at ``die``: its
    fingertips over half of it ("over"), touching it ("touching") or a die's width and
    a half beside it ("beside")."""
    s = table.die_size
    inward = {"left": (1.0, 0.0), "right": (-1.0, 0.0), "top": (0.0, 1.0),
              "bottom": (0.0, -1.0)}[wall]
    side = (-inward[1], inward[0])
    back, aside = {"over": (-0.15, 0.0), "touching": (0.6, 0.0), "beside": (0.2, 1.6)}[how]
    tip = (die[0] - back * s * inward[0] + aside * s * side[0],
           die[1] - back * s * inward[1] + aside * s * side[1])
    turn = np.radians(15.0)  # (a little askew)
    direction = (inward[0] * np.cos(turn) - inward[1] * np.sin(turn),
                 inward[0] * np.sin(turn) + inward[1] * np.cos(turn))
    width, height = table.size
    palm = 0.2 * min(width, height) * (1.2 if s > 40 else 1.0)
    return HandPose(tip=tip, direction=(float(direction[0]), float(direction[1])),
                    width=palm, skin=table.skin)


def _told_of_a_roll(told: list[str], values: list[int]) -> int:
    """What the tray told of a roll of ``values``: 0 read right, 1 asked about (fewer
    or more than three dice, or a die unread), 2 silently wrong, 3 nothing."""
    read = [t for t in told if t.startswith("[") and t != "[]"]
    if not read:
        return 3
    if read[0] == str(sorted(values)):
        return 0
    return 1 if read[0].count(",") != 2 or "0" in read[0].strip("[]").split(", ") else 2


#: The hand scenes: a hand held still by a die near the tray's rim as the dice come to
#: rest, and dice thrown against a hand or a forearm already resting at the edge.
HAND_SCENES = (("held after the throw", "over"), ("held after the throw", "touching"),
               ("held after the throw", "beside"), ("a hand resting there", "over"),
               ("a hand resting there", "under half"), ("a hand resting there", "touching"),
               ("a forearm leant in the corner", "over"),
               ("a forearm leant in the corner", "under half"),
               ("a forearm leant in the corner", "touching"))


def _hand_scene(seed: int, options: Mapping[str, object], scene: tuple[str, str],
                held_for: tuple[float, float] = (3.0, 5.0)
                ) -> tuple[SynthTable, list[Image], list[int]]:
    """The frames of a hand ``scene`` (see :data:`HAND_SCENES`), the hand or forearm
    held still for ``held_for`` seconds (drawn between the two), and the dice thrown."""
    table = SynthTable(900 + seed, **options)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    values = [int(v) for v in rng.integers(1, 7, 3)]
    wall = WALLS[seed % 4]
    s = table.die_size
    (fx0, fy0, fx1, fy1), (kind, how) = table.geometry.floor, scene
    if kind == "held after the throw":
        near = table.against_walls([(wall, float(rng.uniform(0.3, 0.7)))])[0]
        pose = _hand_by(table, near, wall, how)
    else:
        if kind == "a forearm leant in the corner":
            pose = table.resting_arm(seed % 4)
        else:
            spot = table.against_walls([(wall, float(rng.uniform(0.3, 0.7)))])[0]
            pose = _hand_by(table, spot, wall, "over")
        # The die's middle: under the fingertips, half under them, or just touching.
        along = {"over": -0.15, "under half": 0.0, "touching": 0.65}[how] * s
        near = (pose.tip[0] + pose.direction[0] * along, pose.tip[1] + pose.direction[1] * along)
    places = [near]
    while len(places) < 3:
        p = (float(rng.uniform(fx0 + s, fx1 - s)), float(rng.uniform(fy0 + s, fy1 - s)))
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 2.5 * s for q in places):
            places.append(p)
    frames = [table.empty() for _ in range(10)]
    if kind != "held after the throw":
        table.at_edge = (pose,)
        frames += [table.empty() for _ in range(90)]
    frames += table.roll_sequence(values, settle_frames=0, empty_frames=0)
    table.still(values, positions=places)
    held = round(float(rng.uniform(*held_for)) * FPS)
    if kind == "held after the throw":
        frames += [table.render(table.layout, hand=pose) for _ in range(held)]
    else:
        frames += table.settled_frames(held)
    table.at_edge = ()
    frames += table.settled_frames(30)
    table.layout = ()
    return table, [f.image for f in frames], values


def hands_resting_by_the_dice(seeds: int) -> list[tuple[str, int, int, int, int, int]]:
    """Per hand scene (both views, read as ``play`` reads): rolls read right, asked
    about, silently wrong, and not told at all.

    (With 2 seeds, 72 rolls: the watcher before the edge rule read all 72 right,
    waiting for the hand to go. With the edge rule as first made, 15 were silently
    wrong, all of dice thrown against a hand or forearm resting there (a 6 half under
    the fingertips read as a 3), 21 right, 36 asked. Now dice touching what was
    taken in are waited for: 52 right, 20 asked (a hand held over, touching or
    beside a die after the throw was taken in with the die, and the table asked about
    two dice), none wrong. Now the tray holds back a roll whose dice touch what was
    taken in during the throw, or of fewer than three dice, until it has gone (at
    most ``HOLD_SECONDS``): all 72 right.

    Held longer (``held_for``; one seed, the three scenes held after the throw, 12
    rolls): held 10 s, 2 right and 10 asked at the limit (the hand's going then no roll,
    the question standing); with a 12 s limit all 12 right, but a cup or phone set down
    by a die and left there asked about 14 s after the dice lay still, not 8 s. Told at
    once (no limit, as if every thing taken in were taken to stay), held 3 to 5 s: 10 of
    the 12 asked about instead of read right. None silently wrong in any of these.)"""
    rows = []
    for scene in HAND_SCENES:
        tally = [0, 0, 0, 0, 0]
        for seed, options in itertools.product(range(seeds * 2), MOUNTS.values()):
            table, images, values = _hand_scene(seed, options, scene)
            tally[0] += 1
            tally[1 + _told_of_a_roll(_tray_told(table, images, anchored=True), values)] += 1
        kind, how = scene
        what = {"over": "over a die", "under half": "over half a die",
                "touching": "touching a die", "beside": "beside a die"}[how]
        rows.append((f"{kind}, {what}", tally[0], tally[1], tally[2], tally[3], tally[4]))
    return rows


#: Where the tray stands on another evening, against where it stood at calibration
#: (mount guide's view, pixels of 640x480: 18 px is about 1 cm).
SET_DOWN = ((0, 0), (20, 0), (-20, 10), (0, 24), (28, -14), (-30, -6), (0, -30), (34, 0))


def set_down_off_its_place(seeds: int) -> list[tuple[str, int, int, int, int, int]]:
    """Per place: the first four rolls, each against three walls, on a tray set down
    off its calibrated place before the table starts, read as ``play`` reads; the
    outline measured from the calibration's finding, and from the first finding."""
    rows = []
    for dx, dy in SET_DOWN:
        tally = [0, 0, 0, 0, 0]
        for seed in range(seeds * 2):
            table = SynthTable(600 + seed, players=2, **MOUNT_GUIDE)
            rng = np.random.default_rng(seed)
            frames = [table.empty() for _ in range(5)]
            thrown = []
            for k in range(4):
                values = [int(v) for v in rng.integers(1, 7, 3)]
                walls = [(WALLS[w], float(rng.uniform(0.2, 0.8))) for w in rng.permutation(4)[:3]]
                thrown.append(str(sorted(values)))
                frames += [table.still(values, positions=table.against_walls(walls))] * 30
                frames += table.clear_sequence(player=k % 2)
            images = [table.slid(f.image, dx, dy) for f in frames]
            tally[0] += len(thrown)
            for k, anchored in ((1, True), (3, False)):
                # Each roll is cleared away, and the tray tells "empty": what it told
                # between two clears is that roll (none where it waited for a hand).
                told = _tray_told(table, images, anchored=anchored)
                between = " ".join(told).split("empty")[:len(thrown)]
                read = {i: part[part.index("["):part.index("]") + 1]
                        for i, part in enumerate(between) if "[" in part}
                tally[k] += sum(read.get(i) == want for i, want in enumerate(thrown))
                # Silently wrong: three values read, not those thrown (fewer dice, or
                # a die unread, and the table asks).
                tally[k + 1] += sum(i in read and read[i] != want and "0" not in read[i]
                                    and read[i].count(",") == 2
                                    for i, want in enumerate(thrown))
        rows.append((f"{dx}, {dy} px", tally[0], tally[1], tally[2], tally[3], tally[4]))
    return rows


def print_table(header: str, rows: Iterable[Sequence[object]]) -> None:
    """A Markdown table of six columns after a blank line: ``header``, then ``rows``."""
    print("\n" + header)
    print("|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(v) for v in row) + " |")


#: The families of scenes, as ``--only`` names them.
FAMILIES = ("told", "knocks", "hands", "set-down")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=2, help="seeds per kind of scene")
    parser.add_argument("--only", choices=FAMILIES, action="append",
                        help="run only this family of scenes (may be given again): "
                             "told (the first table: rolls, light, knocks, dice left "
                             "lying, trays pushed, things at the picture's edge), knocks "
                             "(rolls read after a knock), hands (a hand resting by the "
                             "dice), set-down (a tray set down off its place)")
    args = parser.parse_args()
    only = set(args.only or FAMILIES)
    cv2.setNumThreads(1)
    missed: list[str] = []
    if "told" in only:
        right, total, missed = rolls_into_the_empty_tray(args.seeds)
        rows = [("rolls into the empty tray (8 colours, 4 sizes, 3 lamps, 4 trays): seen, "
                 "then emptied", right, total)]
        rows += changed_views(args.seeds)
        rows += dice_left_lying(args.seeds)
        rows += bumped_trays(args.seeds)
        rows += things_at_the_edge(args.seeds)
        rows += room_light(args.seeds)
        print("| scene | told right | of |")
        print("|---|---|---|")
        for what, good, of in rows:
            print(f"| {what} | {good} | {of} |")
    if "knocks" in only:
        print_table("| camera | rolls against the walls | outline following: right | silently "
                    "wrong | outline as calibrated: right | silently wrong |",
                    read_after_a_knock(args.seeds))
    if "hands" in only:
        print_table("| a hand still for 3 to 5 s by a die near the rim (then gone; both "
                    "views, read as ``play`` reads) | rolls | read right | asked about | "
                    "silently wrong | not told |", hands_resting_by_the_dice(args.seeds))
    if "set-down" in only:
        print_table("| tray set down off its calibrated place by | first rolls against the "
                    "walls | measured from the calibration: right | silently wrong | from "
                    "the first empty tray seen: right | silently wrong |",
                    set_down_off_its_place(args.seeds))
    if missed:
        print("\nrolls into the empty tray not told right (faint dice the watcher cannot "
              "tell from the tray):")
        for line in missed:
            print(f"  {line}")

if __name__ == "__main__":
    main()
