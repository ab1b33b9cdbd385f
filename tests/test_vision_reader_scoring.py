"""The benchmark's scorer on hand-made cases."""

from __future__ import annotations

from einhorn_table.vision.results import DieReading
from einhorn_table.vision.scoring import LabelledDie, SetScore, iou, match, same_die, score_image


def die(
    box: tuple[float, float, float, float], value: int | None, confidence: float = 1.0
) -> DieReading:
    return DieReading(box, value, confidence, (255, 255, 255))


def test_iou_of_known_boxes() -> None:
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == 50 / 150
    assert iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0


def test_same_die_by_overlap_or_by_centre_inside() -> None:
    assert same_die((0, 0, 10, 10), (2, 2, 12, 12))  # IoU 0.47
    # A face box inside a whole-die box: small IoU, but the centre lies inside.
    assert same_die((0, 0, 40, 40), (15, 15, 25, 25))
    assert not same_die((0, 0, 10, 10), (8, 8, 30, 30))


def test_labels_match_the_best_overlapping_die_once() -> None:
    labels = [LabelledDie(3, (0, 0, 10, 10)), LabelledDie(5, (100, 100, 110, 110))]
    dice = [die((1, 1, 11, 11), 3), die((0, 0, 9, 9), 2), die((200, 200, 210, 210), 4)]
    assert match(labels, dice) == [(0, 1)]  # IoU 0.81 beats 0.68


def test_a_crop_label_takes_the_most_confident_die() -> None:
    labels = [LabelledDie(4, None)]
    dice = [die((0, 0, 5, 5), 1, 0.6), die((20, 20, 60, 60), 4, 0.9), die((0, 0, 90, 90), 6, 0.9)]
    # Equal confidence: the larger wins.
    assert match(labels, dice) == [(0, 2)]
    assert match(labels, dice[:2]) == [(0, 1)]
    assert match(labels, []) == []


def test_image_score_counts_right_abstained_wrong_and_the_roll() -> None:
    labels = [
        LabelledDie(1, (0, 0, 10, 10)),
        LabelledDie(2, (20, 0, 30, 10)),
        LabelledDie(3, (40, 0, 50, 10)),
    ]
    right = score_image(
        labels, [die((0, 0, 10, 10), 1), die((20, 0, 30, 10), 2), die((40, 0, 50, 10), 3)]
    )
    assert (right.found, right.right, right.abstained, right.wrong, right.roll) == (
        3,
        3,
        0,
        0,
        "right",
    )
    flagged = score_image(labels, [die((0, 0, 10, 10), 1), die((20, 0, 30, 10), None)])
    assert (flagged.found, flagged.right, flagged.abstained, flagged.wrong) == (2, 1, 1, 0)
    assert flagged.roll == "flagged"
    wrong = score_image(
        labels, [die((0, 0, 10, 10), 1), die((20, 0, 30, 10), 2), die((40, 0, 50, 10), 5)]
    )
    assert (wrong.right, wrong.wrong, wrong.roll) == (2, 1, "wrong")
    # A fourth die (clutter) makes the roll unreadable: flagged, not paid.
    extra = score_image(
        labels, [*[die(b.box, b.value) for b in labels if b.box], die((90, 90, 99, 99), 6)]
    )
    assert extra.roll == "flagged" and extra.read == 4 and extra.right == 3


def test_set_score_rates() -> None:
    total = SetScore()
    labels = [LabelledDie(6, (0, 0, 10, 10)), LabelledDie(2, (20, 0, 30, 10))]
    total.add(
        score_image(
            labels, [die((0, 0, 10, 10), 6), die((20, 0, 30, 10), 3), die((50, 50, 60, 60), None)]
        )
    )
    total.add(score_image([LabelledDie(4, None)], []))
    assert total.labelled == 3 and total.read == 3 and total.found == 2
    assert total.accuracy == 1 / 3
    assert total.silent_error_rate == 1 / 3
    assert total.recall == 2 / 3 and total.precision == 2 / 3
    assert total.abstention_rate == 0.0
