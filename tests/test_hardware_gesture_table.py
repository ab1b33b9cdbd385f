"""The gesture table: every context is covered, lookups work, and the docs print it."""

from __future__ import annotations

from pathlib import Path

from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.stations.gesture_table import (
    GESTURES,
    HELP_CHORD,
    RULES,
    UNDO_CHORD,
    Action,
    Context,
    Intent,
    help_markdown,
    intent_for,
)

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT


def g(kind: GestureKind, *buttons: Button) -> Gesture:
    return Gesture(0, kind, buttons, 0.0)


def test_calls_are_taps_of_the_category_buttons() -> None:
    for button in Button:
        assert intent_for(Context.CALL, g(GestureKind.TAP, button)) == Intent(
            Action.CALL, button=button
        )
    assert intent_for(Context.CALL, g(GestureKind.LONG, W)) is None


def test_numbers_step_by_one_on_a_tap_and_by_five_on_a_long_press() -> None:
    for context in (Context.BID, Context.TOPUP):
        assert intent_for(context, g(GestureKind.TAP, W)) == Intent(Action.MORE, 1)
        assert intent_for(context, g(GestureKind.LONG, W)) == Intent(Action.MORE, 5)
        assert intent_for(context, g(GestureKind.TAP, U)) == Intent(Action.LESS, 1)
        assert intent_for(context, g(GestureKind.LONG, U)) == Intent(Action.LESS, 5)
        assert intent_for(context, g(GestureKind.TAP, E)) == Intent(Action.OK)
        assert intent_for(context, g(GestureKind.TAP, D)) == Intent(Action.NO)


def test_dice_can_be_confirmed_rejected_and_entered_by_hand() -> None:
    assert intent_for(Context.CONFIRM_DICE, g(GestureKind.TAP, E)) == Intent(Action.OK)
    assert intent_for(Context.CONFIRM_DICE, g(GestureKind.TAP, D)) == Intent(Action.NO)
    for button, action in ((U, Action.LESS), (W, Action.MORE), (E, Action.OK), (D, Action.NO)):
        intent = intent_for(Context.ENTER_DICE, g(GestureKind.TAP, button))
        assert intent is not None and intent.action is action


def test_undo_and_help_chords_work_in_every_context() -> None:
    for context in Context:
        assert intent_for(context, g(GestureKind.CHORD, *UNDO_CHORD)) == Intent(Action.UNDO)
        assert intent_for(context, g(GestureKind.CHORD, *HELP_CHORD)) == Intent(Action.HELP)
        assert intent_for(context, g(GestureKind.CHORD, U, W)) is None


def test_no_gesture_means_two_things_in_one_context() -> None:
    for context in Context:
        seen = set()
        for rule in RULES:
            if context in rule.contexts:
                key = (rule.kind, rule.buttons)
                assert key not in seen, (context, key)
                seen.add(key)


def test_every_context_has_help_lines_including_undo() -> None:
    for context in Context:
        assert any("undo" in line.does for line in GESTURES[context]), context


def test_docs_buttons_md_prints_the_gesture_table() -> None:
    doc = Path(__file__).resolve().parents[1] / "docs" / "buttons.md"
    assert help_markdown() in doc.read_text(encoding="utf-8")
