from collections import Counter
from itertools import product

import pytest

from einhorn_table.rules import ALL_ROLLS, ROLL_COUNTS, Category, RuleViolation, categorize


def test_all_216_rolls_fall_96_90_24_6() -> None:
    rolls = list(product(range(1, 7), repeat=3))
    assert len(rolls) == 216 == len(ALL_ROLLS)
    counts = Counter(categorize(r) for r in rolls)
    assert counts[Category.UNVERMEIDLICH] == 96
    assert counts[Category.WUNSCH] == 90
    assert counts[Category.EINHORN] == 24
    assert counts[Category.DREIFALTIGKEIT] == 6
    assert counts == ROLL_COUNTS


@pytest.mark.parametrize(
    ("dice", "category"),
    [
        ((1, 3, 5), Category.EINHORN),
        ((6, 1, 3), Category.EINHORN),
        ((4, 6, 1), Category.EINHORN),
        ((2, 6, 4), Category.EINHORN),
        ((3, 5, 1), Category.EINHORN),
        ((2, 4, 5), Category.UNVERMEIDLICH),
        ((1, 2, 6), Category.UNVERMEIDLICH),
        ((3, 4, 5), Category.UNVERMEIDLICH),
        ((5, 5, 4), Category.WUNSCH),
        ((1, 6, 1), Category.WUNSCH),
        ((4, 4, 4), Category.DREIFALTIGKEIT),
    ],
)
def test_examples(dice: tuple[int, int, int], category: Category) -> None:
    assert categorize(dice) is category
    assert categorize(list(dice)) is category


def test_the_einhorn_sets_are_exactly_the_four_of_the_rules() -> None:
    sets = {tuple(sorted(r)) for r in ALL_ROLLS if categorize(r) is Category.EINHORN}
    assert sets == {(1, 3, 5), (1, 3, 6), (1, 4, 6), (2, 4, 6)}


@pytest.mark.parametrize(
    "dice", [(1, 2, 7), (0, 1, 2), (1, 2), (1, 2, 3, 4), (1, 2, True), (1, 2, 3.0)]
)
def test_impossible_dice_are_refused(dice: tuple[object, ...]) -> None:
    with pytest.raises(RuleViolation, match="section 1"):
        categorize(dice)


def test_labels_are_the_rule_book_names() -> None:
    assert Category.UNVERMEIDLICH.label == "Das Unvermeidliche"
    assert [c.value for c in Category] == ["unvermeidlich", "wunsch", "einhorn", "dreifaltigkeit"]
