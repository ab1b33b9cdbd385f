"""Are the dice fair? Pearson's chi-square test on face counts, in the standard library."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class FairnessVerdict:
    dice: str
    rolls: int
    faces: tuple[int, ...]
    chi_square: float | None
    p_value: float | None
    #: The face furthest from its fair share, and whether it came up too often.
    odd_face: int | None
    verdict: str
    #: What to do about it, when the verdict alone would mislead (``None``: nothing).
    advice: str | None = None

    @property
    def biased(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA


def judge(dice: str, rolls: int, faces: Sequence[int]) -> FairnessVerdict:
    """The chi-square test (5 degrees of freedom) on the faces 1..6 of ``rolls`` rolls."""
    counts = tuple(faces)
    if len(counts) != 6:
        raise ValueError("face counts are six numbers, faces 1 to 6")
    if rolls < MIN_ROLLS:
        return FairnessVerdict(dice, rolls, counts, None, None, None,
                               f"too few rolls to tell ({rolls}; needs {MIN_ROLLS})")
    thrown = sum(counts)
    expected = thrown / 6
    chi = sum((c - expected) ** 2 / expected for c in counts)
    p = chi_square_sf(chi, 5)
    face = max(range(6), key=lambda i: abs(counts[i] - expected)) + 1
    advice: str | None = None
    if p < ALPHA:
        how = "too often" if counts[face - 1] > expected else "too rarely"
        shown = "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
        text = f"face {face} comes up {how}: {shown} ({rolls} rolls)"
        # Looked at after every match, fair dice cross the line now and then.
        advice = (f"fair dice do this by chance now and then: roll these another "
                  f"{SURE_ROLLS} times before blaming them")
    elif p < WATCH:
        text = f"no clear sign of bias yet in {rolls} rolls (p = {p:.3f})"
        advice = f"keep playing with them: another {SURE_ROLLS} rolls will tell"
    elif rolls < SURE_ROLLS:
        # (Not "no strong bias": a die whose 6 comes up twice as often passes 120
        # rolls two times in three.)
        text = f"no bias shows yet in {rolls} rolls (p = {p:.2f})"
        advice = (f"too few rolls to be sure: a face twice as likely as it should be "
                  f"shows by about {SURE_ROLLS} rolls, a smaller bias by about {SLIGHT_ROLLS}")
    else:
        text = f"no sign of bias in {rolls} rolls (p = {p:.2f})"
        if rolls < SLIGHT_ROLLS:
            advice = (f"a smaller bias, a face in 1 throw of 4 rather than 1 of 6, shows "
                      f"only by about {SLIGHT_ROLLS} rolls")
    return FairnessVerdict(dice, rolls, counts, chi, p, face, text, advice)
