"""The four roll categories of RULES.md section 1."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from enum import StrEnum

from einhorn_table.rules.errors import RuleViolation

Dice = tuple[int, int, int]


class Category(StrEnum):
    """What three dice show. The value is the notation's name for it."""

    UNVERMEIDLICH = "unvermeidlich"
    WUNSCH = "wunsch"
    EINHORN = "einhorn"
    DREIFALTIGKEIT = "dreifaltigkeit"

    @property
    def label(self) -> str:
        """The name the rule book uses, for screens and reports."""
        return _LABELS[self]


_LABELS = {
    Category.UNVERMEIDLICH: "Das Unvermeidliche",
    Category.WUNSCH: "Wunsch",
    Category.EINHORN: "Einhorn",
    Category.DREIFALTIGKEIT: "Dreifaltigkeit",
}


def _category_of(dice: Dice) -> Category:
    distinct = sorted(set(dice))
    if len(distinct) == 1:
        return Category.DREIFALTIGKEIT
    if len(distinct) == 2:
        return Category.WUNSCH
    low, mid, high = distinct
    if mid - low == 1 or high - mid == 1:
        return Category.UNVERMEIDLICH
    return Category.EINHORN


#: Every one of the 216 ordered rolls, in lexicographic order.
ALL_ROLLS: tuple[Dice, ...] = tuple(itertools.product(range(1, 7), repeat=3))  # type: ignore[arg-type]
_TABLE: dict[Dice, Category] = {dice: _category_of(dice) for dice in ALL_ROLLS}

#: How many of the 216 rolls fall in each category (RULES.md: 96/90/24/6).
ROLL_COUNTS: dict[Category, int] = dict(Counter(_TABLE.values()))

#: The chance of each category in one roll of three fair dice.
PROBABILITY: dict[Category, float] = {cat: n / 216 for cat, n in ROLL_COUNTS.items()}


def check_dice(dice: Iterable[object]) -> Dice:
    """Return ``dice`` as a tuple of three faces, or refuse what no die can show."""
    values = tuple(dice)
    if len(values) == 3:
        a, b, c = values
        if type(a) is int and type(b) is int and type(c) is int and (a, b, c) in _TABLE:
            return values  # type: ignore[return-value]
    else:
        raise RuleViolation(f"a roll is three dice, not {len(values)}", rule="1")
    for value in values:
        if type(value) is not int or not 1 <= value <= 6:
            raise RuleViolation(f"a die shows 1 to 6, not {value!r}", rule="1")
    raise AssertionError("unreachable")  # pragma: no cover


def categorize(dice: Iterable[object]) -> Category:
    """The category of three dice, e.g. ``categorize((1, 3, 5)) is Category.EINHORN``."""
    return _TABLE[check_dice(dice)]
