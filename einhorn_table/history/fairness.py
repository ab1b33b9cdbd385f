"""Are the dice fair? Pearson's chi-square test on face counts, in the standard library."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from einhorn_table.words import joined

#: Below this many rolls (of three dice) the test is not run: too few to tell.
MIN_ROLLS = 60
#: A p-value below this is called a sign of bias. Strict, because every set of dice
#: at the table is tested and one of many would pass 0.05 by chance.
ALPHA = 0.01
#: Between ALPHA and this, the verdict says so without calling it bias: a parent who
#: knows that 0.05 is the usual line would otherwise read "no sign" beside p = 0.04.
WATCH = 0.05
#: From this many rolls, "no sign of bias" means something: one die of a set of three
#: whose 6 comes up twice as often as it should (1 in 3) is caught 4 times in 5 by
#: 300 rolls (a quarter of the time by 100, 60% by 200, nearly always by 600; 4000
#: simulated sets each, ``tests/test_history_review8.py``). Before, the verdict says
#: only that no bias shows yet.
SURE_ROLLS = 300
#: A die only a little off (one face in 1 throw of 4 rather than 1 of 6) shows far
#: later: 17% of such sets are caught by 300 rolls, 3 in 4 by this many.
SLIGHT_ROLLS = 1000
#: From SURE_ROLLS rolls on, a p-value below this says the dice are off, not "roll
#: more": otherwise a loaded set would be told to roll another SURE_ROLLS times after
#: every match, for ever. Fair sets looked at after every match (every 30 rolls, from
#: 300 to 3000 rolls) get here about 1 in 70; a set with one die whose 6 comes up 1
#: throw in 3 does at the first look, at 300 rolls, in about 6 sets of 10, and by 510
#: rolls in 19 of 20 (1000 simulated fair sets, 2000 loaded, looked at every 30 rolls;
#: ``tests/test_numbers_review.py`` checks both).
UNFAIR = 0.001


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with ``df`` degrees of freedom.

    Closed forms of the regularised upper incomplete gamma Q(df/2, x/2):
    even df: exp(-x/2) * sum_{k<df/2} (x/2)^k / k!;
    odd df: erfc(sqrt(x/2)) + exp(-x/2) * sum_{k=1}^{(df-1)/2} (x/2)^(k-1/2) / Gamma(k+1/2).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)  # k = 1: (x/2)^(1/2) / Gamma(3/2)
    for k in range(1, (df - 1) // 2 + 1):
        total += math.exp(-half) * term
        term *= half / (k + 0.5)
    return min(1.0, total)


def faces_off(counts: Sequence[int], odd_faces: Sequence[int], *, verb: bool = True) -> str:
    """The faces furthest from their share in words: "face 6 comes up too often",
    "faces 5 and 6 come up too often", "face 6 comes up too often, face 1 too rarely"
    (without ``verb``, "faces 5 and 6 too often": a chart's title)."""
    thrown = sum(counts)
    often = [f for f in odd_faces if counts[f - 1] * 6 > thrown]
    rarely = [f for f in odd_faces if counts[f - 1] * 6 <= thrown]
    parts: list[str] = []
    for group, how in ((often, "too often"), (rarely, "too rarely")):
        if not group:
            continue
        face = "faces" if len(group) > 1 else "face"
        # The second group shares the first one's verb: "..., face 1 too rarely".
        said = "" if parts or not verb else ("come up " if len(group) > 1 else "comes up ")
        parts.append(f"{face} {joined([str(f) for f in group])} {said}{how}")
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class FairnessVerdict:
    dice: str
    rolls: int
    faces: tuple[int, ...]
    chi_square: float | None
    p_value: float | None
    #: The face furthest from its fair share (of several as far, one that comes up too
    #: often, as a family would look for a loaded face; ``None`` when none is off).
    odd_face: int | None
    #: The verdict, with the p-value for ``history stats`` (which says what p is).
    verdict: str
    #: The verdict in a family's words, without the p-value: the table's screen.
    words: str
    #: What to do about it, when the verdict alone would mislead (``None``: nothing).
    advice: str | None = None
    #: Every face as far from its fair share as ``odd_face`` (two or more on a tie;
    #: none when every face came up exactly its share).
    odd_faces: tuple[int, ...] = ()

    @property
    def biased(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA


def judge(dice: str, rolls: int, faces: Sequence[int]) -> FairnessVerdict:
    """The chi-square test (5 degrees of freedom) on the faces 1..6 of ``rolls`` rolls."""
    counts = tuple(faces)
    if len(counts) != 6:
        raise ValueError("face counts are six numbers, faces 1 to 6")
    if rolls < MIN_ROLLS:
        few = f"too few rolls to tell ({rolls}; needs {MIN_ROLLS})"
        return FairnessVerdict(dice, rolls, counts, None, None, None, few, few)
    thrown = sum(counts)
    expected = thrown / 6
    chi = sum((c - expected) ** 2 / expected for c in counts)
    p = chi_square_sf(chi, 5)
    # In whole numbers (6 times each distance), so that a tie is a tie.
    distance = [abs(6 * c - thrown) for c in counts]
    odd_faces = tuple(f for f in range(1, 7) if distance[f - 1] == max(distance) > 0)
    face = next((f for f in odd_faces if counts[f - 1] * 6 > thrown),
                odd_faces[0] if odd_faces else None)
    advice: str | None = None
    if p < ALPHA:
        off = faces_off(counts, odd_faces)
        shown = "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
        text = f"{off}: {shown} ({rolls} rolls)"
        short = faces_off(counts, odd_faces, verb=False)
        if p < UNFAIR and rolls >= SURE_ROLLS:
            # Enough rolls, and far too uneven for fair dice: say so, and what to do.
            words = f"{short}: likely unfair"
            advice = (f"fair dice almost never come out this uneven in {rolls} rolls, "
                      "less than 1 time in 1000: play with another set of dice")
        else:
            # Short, to fit a line of the screen, and no blame before more rolls tell.
            words = f"{short}: roll more to be sure"
            # Looked at after every match, fair dice cross the line now and then.
            advice = (f"fair dice do this by chance now and then: roll these another "
                      f"{SURE_ROLLS} times before blaming them")
    elif p < WATCH:
        text = f"no clear sign of bias yet in {rolls} rolls (p = {p:.3f})"
        words = f"no clear sign of bias yet in {rolls} rolls"
        advice = f"keep playing with them: another {SURE_ROLLS} rolls will tell"
    elif rolls < SURE_ROLLS:
        # (Not "no strong bias": a die whose 6 comes up twice as often passes 120
        # rolls two times in three.)
        text = f"no bias shows yet in {rolls} rolls (p = {p:.2f})"
        words = f"no bias shows yet in {rolls} rolls"
        advice = (f"too few rolls to be sure: a face twice as likely as it should be "
                  f"shows by about {SURE_ROLLS} rolls, a smaller bias by about {SLIGHT_ROLLS}")
    else:
        text = f"no sign of bias in {rolls} rolls (p = {p:.2f})"
        words = f"no sign of bias in {rolls} rolls"
        if rolls < SLIGHT_ROLLS:
            advice = (f"a smaller bias, a face in 1 throw of 4 rather than 1 of 6, shows "
                      f"only by about {SLIGHT_ROLLS} rolls")
    return FairnessVerdict(dice, rolls, counts, chi, p, face, text, words, advice, odd_faces)
