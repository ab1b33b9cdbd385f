"""The two readers together: the classical reader and the learned one, cross-checked.

Measured on photos the models never saw (``vision_models/README.md``), neither
reader is best everywhere: the classical one rarely errs on white dice from a
fixed camera, the learned one finds and reads small and coloured dice the
classical one misses. Together:

* a die both readers find (their boxes overlap and their centres lie within half a
  die's side, :data:`TWIN_REACH`, so that a rough box reaching over a neighbour's
  centre does not pair a die with its neighbour) gets a value when both read the
  same value, or when one reads a value and the other is unsure; when they read
  different values it gets none (confidence 0), so the table asks; its box is the
  classical reader's, fitted to the pips, unless that reader read no value in a box
  twice the detector's (:data:`GUESSED_BOX`: a die's whole body taken for a lone pip,
  the face around it a guess, which the table's empty-tray check would find mostly
  unchanged and drop). Where the classifier is very sure
  (:data:`SURE_VALUE`) of a value with more pips than the classical reader fitted,
  that reader most likely missed some: the classifier's value stands, in the
  detector's box (the classical one holds only the pips found). A learned 1 in a box
  at most :data:`PIP_OF_FACE` of the face the classical reader found there but
  could not read is one pip of that face (a 2's pip read as a 1): no value;
* a die the classical reader cannot read whose box holds two or more of the learned
  reader's dice, close together (:data:`SLANT_REACH`), is one die seen on a slant,
  its top face and a side face (the detector finds both, and often scores the side
  face higher): it is reported once, with the classical box and no value, since
  which face is on top is not sure;
* a die only the classical reader finds is kept as it read it, but with a value only
  where the classical reader is sure of it beyond doubt (:data:`UNBACKED_CLASSICAL`);
  so too a die the learned reader finds but is far from sure of
  (:data:`FAR_FROM_SURE`). On held-out photos the classical reader alone misread
  4 of the 7 such dice it read less surely (all in the oblique, cluttered
  ``epanemu_dice3``; the other sets had no such die). One it cannot read, less than
  half the size of the dice the detector is sure of (:data:`SPECK_SHARE`), is
  dropped: it is a speck or camera noise, and would only make the table ask; so is
  one left unread where the detector scores under :data:`TEXTURE_HEAT` all over the
  middle of its box (:func:`_texture`): the dots of a speckled floor or a wooden
  frame grouped into "faces", which made one epanemu photo read 96 dice;
* a die the learned reader finds at under half the side of the dice the detector is
  fairly sure of (:data:`PART_SHARE`) is a part of a die, and its value is not taken:
  where dice touch, the detector may find a pip or two of one, which the classifier
  reads as a 1 or a 2;
* a die only the learned reader finds is kept when the detector is fairly sure
  it is a die (:data:`ALONE_SCORE`), or less sure (:data:`LIKELY_SCORE`) and the
  classifier all but certain of its value (:data:`CERTAIN_VALUE`), so stray finds
  do not turn a roll of three into a roll of four. The detector scores a die seen
  on a slant low (its top face looks foreshortened), and the classical reader
  often cannot part its pips from the side faces': there the classifier's
  certain value is what reads it.

To save time the classical reader looks only for the kind of pip (dark or light)
that the dice the detector found surely have, and only where the learned reader
reads every one of them (:func:`likely_pip_polarity`): such a die whose pips it
then misses keeps the learned reader's value, so none goes unread for it. On held-out
photos this reads exactly as many dice right as looking for both kinds every time.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import replace

from einhorn_table.vision.brightness import luminance
from einhorn_table.vision.colours import FaceColours
from einhorn_table.vision.learned import (
    CERTAIN_CONFIDENCE,
    WEAK_DETECTION_THRESHOLD,
    confidence_of,
)
from einhorn_table.vision.regions import HeatMap
from einhorn_table.vision.results import Box, DieReading, FrameReading, box_centre, box_side
from einhorn_table.vision.scoring import same_die

#: A die only the learned reader finds needs at least this detector score, or
#: :data:`LIKELY_SCORE` (any find it reports, down to its weak finds) with a value
#: the classifier is :data:`CERTAIN_VALUE` of (confidence 0.95: a probability of 0.99).
ALONE_SCORE = 0.5
LIKELY_SCORE = WEAK_DETECTION_THRESHOLD
CERTAIN_VALUE = CERTAIN_CONFIDENCE
#: A classifier this sure of a value (a probability of 0.98) overrules a classical
#: reading of fewer pips.
SURE_VALUE = 0.9
#: A value the classical reader gives needs at least this confidence where the learned
#: reader does not back it: finds no die there, or reads one with a confidence below
#: :data:`FAR_FROM_SURE` (its likeliest value has a probability under 0.45).
UNBACKED_CLASSICAL = 0.8
FAR_FROM_SURE = 0.25
#: A die only the classical reader finds, that it cannot read, and less than this share
#: of the side of the dice the detector is fairly sure of, is no die: a speck, a pip
#: alone, camera noise in dim light. It would only make the table ask for a re-roll.
SPECK_SHARE = 0.5
#: A die only the classical reader finds and leaves unread is no die where the detector
#: scores under this everywhere in the middle half of its box. On the development
#: photos this drops 167 such finds (82 of them on one epanemu photo of a speckled
#: floor) and no die read right; 4 labelled dice asked about are then not found.
TEXTURE_HEAT = 0.1
#: A die the learned reader finds at less than this share of the side of the dice the
#: detector is fairly sure of is read as a part of a die (a pip or two), and gets no
#: value: the detector finds such parts where dice touch, and the classifier then
#: reads the part (one pip of a 2 as a 1).
PART_SHARE = 0.5
#: A classical box of no value this many times the detector's side is a guess.
GUESSED_BOX = 2.0
#: A learned 1 whose box is at most this share of the unread classical face it lies
#: in is one pip of that face.
PIP_OF_FACE = 0.625
#: The top and a side face of one die lie within this many die sides of each other.
SLANT_REACH = 1.2
#: The two readers' boxes of one die have centres within this share of the larger
#: box's side of each other (99 % of them within 0.42 on the development photos); a
#: box that merely reaches over a neighbouring die's centre lies 0.56 or more away.
TWIN_REACH = 0.5
#: A die's pips are told from its body (:class:`FaceColours`) surely enough to say
#: which kind of pip it has when the body is at least this share of the middle of
#: its box, and the two differ by at least this much in brightness (luma, 0..255).
SURE_BODY_SHARE = 0.65
SURE_BRIGHTNESS_GAP = 40.0


def likely_pip_polarity(
    learned: Sequence[tuple[DieReading, float]], faces: Sequence[FaceColours]
) -> str:
    """Which pips the classical reader need look for, from the dice the detector is
    fairly sure of (:data:`ALONE_SCORE`): "dark" when all have pips surely darker than
    their bodies, "light" when all have them surely lighter; "both" otherwise, and
    wherever the learned reader cannot read one of them. Looking for one kind of pip
    only about halves the classical reader's work, and spares it the other kind's
    texture."""
    sure = [
        (die, face)
        for (die, score), face in zip(learned, faces, strict=True)
        if score >= ALONE_SCORE
    ]
    if any(die.value is None for die, _ in sure):
        # A die the learned reader cannot read is where the classical reader's full
        # search matters most.
        return "both"
    kinds = {_pip_kind(face) for _, face in sure}
    only = kinds.pop() if len(kinds) == 1 else None
    return only or "both"


def _pip_kind(face: FaceColours) -> str | None:
    if face.pips is None or face.body_share < SURE_BODY_SHARE:
        return None
    gap = luminance(face.body) - luminance(face.pips)
    if abs(gap) < SURE_BRIGHTNESS_GAP:
        return None
    return "dark" if gap > 0 else "light"


def combine(
    learned: Sequence[tuple[DieReading, float]],
    classical: FrameReading,
    heat: HeatMap | None = None,
) -> FrameReading:
    """One reading from both readers' (see the module's rules); ``heat``, the detector's
    score over the frame, drops the classical reader's unread finds where it sees
    nothing die-like."""
    twins_of = [_twins(die.box, classical.dice) for die, _ in learned]
    sharing: dict[int, list[DieReading]] = {}
    for (die, _), twins in zip(learned, twins_of, strict=True):
        for i in twins:
            sharing.setdefault(i, []).append(die)
    slanted = {
        i
        for i, faces in sharing.items()
        if len(faces) >= 2 and classical.dice[i].value is None and _faces_of_one_die(faces)
    }
    dice: list[DieReading] = []
    taken: set[int] = set()
    typical = _typical_side(learned)
    for (found, score), twins in zip(learned, twins_of, strict=True):
        die = _unread_if_part(found, typical)
        faces_of_one_die = [i for i in twins if i in slanted]
        if faces_of_one_die:
            # Top and side face of one die: reported once, as the classical die, unread.
            dice.extend(
                replace(classical.dice[i], value=None, confidence=0.0)
                for i in faces_of_one_die
                if i not in taken
            )
            taken.update(faces_of_one_die)
            continue
        free = [i for i in twins if i not in taken]
        if not free:
            if _found_surely_alone(die, score):
                dice.append(die)
            continue
        taken.add(free[0])
        twin = classical.dice[free[0]]
        if _missed_pips(die, twin):
            # The classical box is fitted to the few pips found; the detector's holds the die.
            dice.append(die)
        elif _guessed_box(twin, die):
            # The classical reader fitted no face here, in a box twice the die's.
            dice.append(_agreed(die, twin))
        elif _pip_of_a_face(die, twin):
            # The detector found one pip of a face the classical reader could not read.
            dice.append(replace(twin, value=None, confidence=0.0))
        else:
            # The classical reader's box is fitted to the pips; the detector's is rougher.
            dice.append(replace(_agreed(die, twin), box=twin.box))
    for i, other in enumerate(classical.dice):
        if i in taken:
            continue
        if i in sharing:
            dice.append(other)
        elif not _speck(other, typical):
            unbacked = _unbacked(other)
            if not _texture(unbacked, heat):
                dice.append(unbacked)
    dice.sort(key=lambda d: (d.box[0], d.box[1]))
    return FrameReading(tuple(dice))


def _twins(box: Box, classical: Sequence[DieReading]) -> list[int]:
    """The classical dice that are the same die as the learned reader's ``box``: the
    boxes overlap (:func:`same_die`) and their centres lie within :data:`TWIN_REACH`;
    nearest first, so that a die takes its own twin before a neighbour's."""
    gaps = [
        (_centre_gap(box, other.box), i)
        for i, other in enumerate(classical)
        if same_die(box, other.box) or same_die(other.box, box)
    ]
    return [i for gap, i in sorted(gaps) if gap <= TWIN_REACH]


def _centre_gap(a: Box, b: Box) -> float:
    """How far apart two boxes' centres lie, in sides of the larger box."""
    side = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])
    gap = math.dist(box_centre(a), box_centre(b))
    return gap / side if side > 0 else 0.0


def _found_surely_alone(die: DieReading, score: float) -> bool:
    """Whether a die only the learned reader finds is surely one (module rules)."""
    if score >= ALONE_SCORE:
        return True
    return score >= LIKELY_SCORE and die.value is not None and die.confidence >= CERTAIN_VALUE


def _typical_side(learned: Sequence[tuple[DieReading, float]]) -> float:
    """The median side of the dice the detector is fairly sure of (:data:`ALONE_SCORE`),
    0 where there is none."""
    sides = [box_side(die.box) for die, score in learned if score >= ALONE_SCORE]
    return statistics.median(sides) if sides else 0.0


def _speck(classical: DieReading, typical: float) -> bool:
    """Whether a die only the classical reader finds is no die: it cannot read it, and
    it is less than :data:`SPECK_SHARE` of the frame's typical die (all lie at about
    one distance from the camera)."""
    return classical.value is None and box_side(classical.box) < SPECK_SHARE * typical


def _texture(classical: DieReading, heat: HeatMap | None) -> bool:
    """Whether a die only the classical reader finds, left unread, lies where the
    detector sees nothing die-like: under :data:`TEXTURE_HEAT` all over the middle half
    of its box."""
    if classical.value is not None or heat is None:
        return False
    return heat.highest_in_middle(classical.box) < TEXTURE_HEAT


def _unread_if_part(learned: DieReading, typical: float) -> DieReading:
    """A die the learned reader found at less than :data:`PART_SHARE` of the frame's
    typical die, with no value: the detector found a part of a die (a pip or two of
    one touching its neighbours), and the classifier read only that part."""
    if learned.value is None or box_side(learned.box) >= PART_SHARE * typical:
        return learned
    return replace(learned, value=None, confidence=0.0)


def _guessed_box(classical: DieReading, learned: DieReading) -> bool:
    """Whether the classical reader's box of a die it read no value for is a guess: at
    least :data:`GUESSED_BOX` times the side of the die the detector found (a die's whole
    body taken for a lone pip, and the face around it guessed from that)."""
    return classical.value is None and box_side(classical.box) >= GUESSED_BOX * box_side(
        learned.box
    )


def _faces_of_one_die(faces: Sequence[DieReading]) -> bool:
    """Whether these finds lie close enough together to be faces of one die (their
    centres within :data:`SLANT_REACH` of the larger find's side of each other)."""
    centres = [box_centre(d.box) for d in faces]
    side = max(box_side(d.box) for d in faces)
    return all(math.dist(a, b) <= SLANT_REACH * side for a, b in itertools.combinations(centres, 2))


def _missed_pips(learned: DieReading, classical: DieReading) -> bool:
    """Whether the classical reader read fewer pips than the classifier is very sure of
    (:data:`SURE_VALUE`): it most likely missed some (faint ones, or ones on a marbled
    face), and those it found fit a smaller value (two corners of a 4 or a 6 are a
    perfect 2)."""
    if learned.value is None or classical.value is None:
        return False
    return learned.confidence >= SURE_VALUE and learned.value > classical.value


def _pip_of_a_face(learned: DieReading, classical: DieReading) -> bool:
    """Whether the learned reader's 1 is one pip of the face the classical reader
    found there but could not read: its box at most :data:`PIP_OF_FACE` of that face's
    side (a 2's pip read as a 1)."""
    return (
        learned.value == 1
        and classical.value is None
        and box_side(learned.box) <= PIP_OF_FACE * box_side(classical.box)
    )


def _agreed(learned: DieReading, classical: DieReading) -> DieReading:
    if learned.value is not None and classical.value is not None:
        if learned.value != classical.value:
            return replace(learned, value=None, confidence=0.0)
        return replace(learned, confidence=max(learned.confidence, classical.confidence))
    if classical.value is not None:
        if learned.confidence < FAR_FROM_SURE and classical.confidence < UNBACKED_CLASSICAL:
            return learned
        return replace(learned, value=classical.value, confidence=classical.confidence)
    return learned


def _unbacked(classical: DieReading) -> DieReading:
    """A die only the classical reader finds: its value only if it is sure beyond doubt.
    Otherwise its confidence is put on the scale where 0.5 is that bar."""
    if classical.value is None or classical.confidence >= UNBACKED_CLASSICAL:
        return classical
    confidence = confidence_of(classical.confidence, bar=UNBACKED_CLASSICAL)
    return replace(classical, value=None, confidence=round(confidence, 3))
