"""The calibration screens: from the flow's state to the view the renderer draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from einhorn_table.calibration.advice import advice
from einhorn_table.calibration.flow_state import (
    DICE,
    STEP_NUMBER,
    STEPS,
    FlowSettings,
    FlowState,
    Step,
    check_section,
    may_skip,
    reads_poorly,
    right_at_first,
)
from einhorn_table.calibration.seeing import Image
from einhorn_table.calibration.view import BoxMark, CalibrationView, Hint, Swatch

if TYPE_CHECKING:
    from einhorn_table.vision.results import FrameReading


def build_view(s: FlowState, settings: FlowSettings) -> CalibrationView:
    """What the screen shows now."""
    base = CalibrationView(
        screen=s.step.value,
        step=STEP_NUMBER[s.step],
        steps=STEPS,
        title="",
        image=s.image,
        corners=s.corners,
        help=help_lines(s) if s.help else (),
    )
    view: CalibrationView = {
        Step.TRAY: _tray,
        Step.CORNERS: _corners,
        Step.LIGHT: _light,
        Step.REFERENCE: _reference,
        Step.COLOURS: _colours,
        Step.SIZES: _sizes,
        Step.CHECK: _check,
        Step.ENTER: _enter,
        Step.RESULT: _result,
        Step.SAVED: _saved,
    }[s.step](s, settings, base)
    if s.help:
        view = replace(view, screen=view.screen + "-help")
    return view


def _tray(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    if s.corners is None:
        return replace(
            v, title="Looking for the tray…",
            lines=("Point the camera so that the whole tray is in the picture.",
                   "Take everything out of the tray.",
                   "No tray found yet. ✗: mark its corners by hand."),
            hints=_hints(no="mark it by hand"),
        )
    return replace(
        v, title="Is this the tray?",
        lines=("The yellow line should run along the tray's floor.",),
        hints=_hints(ok="yes, go on", no="move the corners"),
    )


def _corners(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    how = "sideways" if s.sideways else "in and out"
    names = ("top left", "top right", "bottom right", "bottom left")
    lines: tuple[str, ...] = (f"− and + move the marked corner {how} (hold: faster).",)
    if s.by_hand:
        lines = (f"Put the big yellow dot on the {names[s.corner]} corner of the "
                 "tray's floor.", *lines)
    return replace(
        v, screen=f"corners-{s.corner + 1}",
        title=f"Corner {s.corner + 1} of 4: {names[s.corner]}",
        lines=lines, warnings=(s.note,) if s.note else (),
        selected_corner=s.corner,
        hints=_hints(minus="move " + ("back" if s.sideways else "in"),
                     plus="move " + ("on" if s.sideways else "out"),
                     ok="next corner" if s.corner < 3 else "done",
                     no="switch: in/out" if s.sideways else "switch: sideways"),
    )


def _light(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    if s.light is None:
        total = settings.settle_seconds + settings.light_seconds
        return replace(
            v, screen="light-settling", title="The camera gets used to the light…",
            lines=("Keep the tray empty and your hands away.",),
            progress=min(s.light_elapsed / total, 0.99), hints=_hints(),
        )
    report = s.light
    lines = [
        f"Brightness {report.mean:.0f} of 255, glare {100 * report.glare:.1f} %, "
        f"flicker {100 * report.flicker:.1f} %.",
    ]
    if s.lock is not None:
        lines.append(s.lock.message)
    warnings = report.warnings
    return replace(
        v, title="The light is good." if not warnings else "Check the light",
        lines=tuple(lines), warnings=warnings,
        hints=_hints(ok="go on", no="measure again"),
    )


def _reference(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    lines: tuple[str, ...] = ("Take everything out of the tray and keep your hands away, "
                              "then press OK.",)
    if s.tray_moved:
        return replace(v, screen="reference-moved", title="The tray has moved",
                       lines=("Put the tray back inside the yellow line, then press OK.",),
                       warnings=(s.note,),
                       hints=_hints(ok="take the picture", no="find the tray again"))
    if not s.reference_dice and not s.reference_things:
        return replace(v, title="A picture of the empty tray", lines=lines,
                       hints=_hints(ok="take the picture"))
    return replace(
        v, title="A picture of the empty tray",
        lines=(*lines, "Nothing there but a mark on the tray? Press ✗ to take the "
               "picture all the same."),
        warnings=(s.note,), boxes=s.reference_dice + s.reference_things,
        hints=_hints(ok="take the picture",
                     no="only a mark: take it" if s.reference_things else "no dice: take it"),
    )


def _colours(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    name = settings.players[s.player]
    swatches = tuple(Swatch(p.name, p.colour) for p in s.players)
    registration = s.registration
    screen = f"colours-{s.player + 1}"
    if registration is None:
        skip = may_skip(s, settings)
        # (Whether a player not here may be skipped, the ✗ button says.)
        lines: tuple[str, ...] = (
            "Roll your three dice into the tray, then wait (everybody else: take your "
            "dice out first).",
            ALREADY_ROLLED,
        )
        return replace(
            v, screen=screen + "-roll", title=f"{name}: roll your dice",
            lines=lines, swatches=swatches, waiting_for_roll=s.player,
            warnings=_roll_warnings(s),
            hints=_hints(ok=READ_NOW, no="not here: skip" if skip else ""),
        )
    found = marks(registration.reading)
    if registration.mixed:
        # Not this player's dice alone: another's left in, or a stray one (outlined red).
        found = tuple(replace(m, good=False) if k in registration.odd else m
                      for k, m in enumerate(found))
        return replace(
            v, screen=screen + ("-too-many" if registration.too_many else "-mixed"),
            title="Too many dice" if registration.too_many else "Not all one colour",
            lines=_mixed_lines(name, registration.left_in, len(registration.reading.dice),
                               len(registration.odd)),
            boxes=found, swatches=swatches, hints=_hints(no="roll again"),
        )
    if registration.colour is None:
        return replace(
            v, screen=screen + "-none", title="No dice found",
            lines=("Roll again: all dice inside the tray, lying flat.",),
            boxes=found, swatches=swatches, hints=_hints(no="roll again"),
            waiting_for_roll=None,
        )
    swatches += (Swatch(name, registration.colour, registration.clash_with is not None),)
    warnings: tuple[str, ...] = ()
    if registration.like_floor:
        warnings += (like_floor_words((name,)) + " Roll again (✗) with dice of another "
                     "colour, or keep them (OK) and see how the test rolls read.",)
    if registration.clash_with is not None:
        warnings += (
            f"{name}'s dice look too much like {registration.clash_with}'s: the camera "
            "cannot tell them apart. Use dice of another colour and roll again (✗), or "
            "keep them (OK): the table will not ask which of you two rolled them.",
        )
    return replace(
        v, screen=screen, title=f"{name}'s dice",
        lines=_found_lines(len(registration.reading.dice),
                           sum(d.value is None for d in registration.reading.dice)),
        warnings=warnings, boxes=found, swatches=swatches,
        hints=_hints(ok="keep it", no="roll again"),
    )


def _roll_warnings(s: FlowState) -> tuple[str, ...]:
    """The warnings of a screen that waits for a roll: its note, and what lies still
    over the tray where the dice are not read for it (a hand held there)."""
    return ((s.note,) if s.note else ()) + ((HELD_OVER_TRAY,) if s.held else ())


def _mixed_lines(name: str, left_in: str | None, count: int, odd: int) -> tuple[str, ...]:
    """What to do where the ``count`` dice found are not all of one colour (``left_in``:
    the player whose dice colour some of them have; ``odd``: how many are outlined in
    red as not ``name``'s)."""
    if count > DICE:
        first = (f"{count} dice of more than one colour lie in the tray: only {name}'s "
                 "three may.")
    else:
        first = f"The dice in the tray are not all of one colour: only {name}'s may lie there."
    if left_in is not None:
        left = (f"{left_in}'s die (outlined in red) is still in the tray: take it out"
                if odd == 1 else
                f"{left_in}'s dice (outlined in red) are still in the tray: take them out")
        return (first, f"{left}, then press ✗ and roll again.")
    outlined = " (outlined in red)" if odd else ""
    return (first, f"Take out any die that is not {name}'s{outlined}, then press ✗ and roll "
                   "again.")


def _found_lines(count: int, unread: int = 0) -> tuple[str, ...]:
    """What the colour screen says of the ``count`` dice found (``unread`` of them, marked
    "?" in red, without their pips read)."""
    lines: tuple[str, ...] = (
        f"{count} {'die' if count == 1 else 'dice'} found; this is their colour.",
    )
    if count < 3:
        lines += ("A die without a box was not recognised: that is fine for the colour.",)
    if unread:
        lines += ("A die marked ? was found, its pips not read: that is fine for the "
                  "colour.",)
    return lines


def _sizes(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    if s.dice is None:
        return replace(
            v, title="The dice could not be measured",
            lines=("✗ goes back to the last player's roll: roll it again.",),
            warnings=(s.sizes_error[:1].upper() + s.sizes_error[1:],),
            hints=_hints(no="roll again"),
        )
    d = s.dice
    pips = {"dark": "dark pips on light dice", "light": "light pips on dark dice",
            "both": "dark and light pips"}[d.pip_polarity]
    lines = [f"Dice: {d.die_px:.0f} pixels ({d.die_px_min:.0f} to {d.die_px_max:.0f})."]
    if d.pip_px is not None:
        lines.append(f"Pips: {d.pip_px:.0f} pixels, {pips}.")
    lines.append("Next: a few test rolls to check the reading.")
    return replace(
        v, title="Dice measured", lines=tuple(lines),
        swatches=tuple(Swatch(p.name, p.colour) for p in s.players),
        hints=_hints(ok="test rolls", no="back"),
    )


def _check(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    k = len(s.checks) + 1
    n = settings.test_rolls
    if s.current is None:
        return replace(
            v, screen=f"check-{k}-roll", title=f"Test roll {k} of {n}",
            lines=("Anyone: roll three dice into the tray, then wait.", ALREADY_ROLLED),
            warnings=_roll_warnings(s),
            hints=_hints(ok=READ_NOW), waiting_for_roll=(k - 1) % len(settings.players),
        )
    read = s.current.read
    return replace(
        v, screen=f"check-{k}", title=f"Test roll {k} of {n}: are these the dice?",
        lines=_check_lines(len(read)),
        boxes=s.current_boxes, dice=read,
        hints=_hints(minus="roll again", ok="yes, right" if s.current.complete else "",
                     no="no, correct them"),
    )


def _check_lines(found: int) -> tuple[str, ...]:
    """What to do with a test roll the camera found ``found`` dice in."""
    if found < DICE:
        return (f"The camera found {found} of the three dice: press ✗ and enter all "
                "three.",
                "A die fell out or leans on the wall? Press − and roll again.")
    if found > DICE:
        return (f"The camera found {found} dice, not three: press ✗ and enter the three.",
                "More dice in the tray? Take them out, press − and roll again.")
    return ("OK if the camera read every die right, ✗ if not.",
            "A die leaning on the wall? Press − and roll again.")


def _enter(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    k = len(s.checks) + 1
    return replace(
        v, screen=f"check-{k}-enter", title="Which dice lie in the tray?",
        lines=(f"Die {s.marked + 1} of 3: + and − change it, OK goes on.",),
        boxes=s.current_boxes, dice=tuple(s.entry), marked=s.marked,
        hints=_hints(minus="one lower", plus="one higher",
                     ok="next die" if s.marked < 2 else "done",
                     no="back one die"),
    )


def _result(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    check = check_section(s.checks)
    accuracy = check.accuracy or 0.0
    lines = [f"{check.right} of {check.dice} dice read right ({100 * accuracy:.0f} %)."]
    first = right_at_first(s.checks)
    if check.right != first:
        lines = [f"{first} of {check.dice} dice were read right at first; the settings "
                 f"now chosen from these rolls read {check.right} right "
                 f"({100 * accuracy:.0f} %)."]
    tips: tuple[str, ...] = ()
    poor = reads_poorly(s.checks)  # (below flow_state.GOOD_ENOUGH)
    if poor:
        tips = advice(s.light, s.dice, _size(s.image))
        if s.like_floor:  # (first: the likeliest cause)
            tips = (like_floor_words(s.like_floor) + " Line the tray with a cloth of "
                    "another colour, or use other dice.", *tips)
        lines[-1] = (lines[-1].removesuffix(".") + ": the table would misread "
                     + ("some rolls." if accuracy >= 0.5 else "many rolls."))
        lines.append(POOR_RESULT)
    else:
        lines.append("The camera reads this table well.")
    if s.skipped:
        lines.append(skipped_line(s.skipped))
    again = "start again" if poor else ""
    if s.note:  # the save failed: say why first, and that OK tries again
        return replace(
            v, title="Not saved yet",
            lines=("Fix the problem below, then press OK to save again.", *lines),
            warnings=(s.note, *tips),
            hints=_hints(minus=again, ok="save again", no="test again"),
        )
    return replace(
        v, title="Not read well enough" if poor else "Calibration checked",
        lines=tuple(lines), warnings=tips,
        hints=_hints(minus=again, ok="save all the same" if poor else "save",
                     no="test again"),
    )


#: On the result where the test rolls were read poorly: what each button does then.
POOR_RESULT = ("To read better, put right what is said below, then press − to calibrate "
               "again from step 1 (✗: only the test rolls again).")


def like_floor_words(names: Sequence[str]) -> str:
    """That the dice of the players ``names`` look much like the tray's floor."""
    whose = (f"{names[0]}'s dice look" if len(names) == 1 else
             f"{', '.join(names[:-1])} and {names[-1]}'s dice look")
    return f"{whose} much like the tray's floor: the camera may miss them."


def skipped_line(skipped: list[str]) -> str:
    """The players skipped at the colours, and what the table does for them."""
    if len(skipped) == 1:
        return (f"{skipped[0]} was skipped: for {skipped[0]}'s dice the table goes by the "
                "colour in the table's file.")
    return (f"{', '.join(skipped[:-1])} and {skipped[-1]} were skipped: for their dice the "
            "table goes by the colours in the table's file.")


def _saved(s: FlowState, settings: FlowSettings, v: CalibrationView) -> CalibrationView:
    return replace(
        v, title="Calibration saved",
        lines=(settings.saved,),
        hints=_hints(),
    )


def camera_lost_view(view: CalibrationView, reason: str, every: float) -> CalibrationView:
    """The screen while the camera sends no picture (``reason``: its error, which says
    what to check), over the step it was lost at (``view``): what was done so far is
    kept, and calibrating goes on there once pictures come again (tried every
    ``every`` seconds)."""
    # (A webcam's error ends "..., then start again.", as play and the doctor tell it:
    # here there is nothing to start again.)
    reason = reason.removesuffix(", then start again.").rstrip(".") + "."
    return replace(
        view, screen="camera-lost", title="The camera sends no pictures",
        lines=("What was done so far is kept: calibrating goes on at this step once the "
               "camera sends pictures again. No need to start again.",
               f"(The camera is tried again every {every:g} seconds.)"),
        warnings=(reason,), image=None, boxes=(), swatches=(), dice=(), marked=None,
        progress=None, selected_corner=None, help=(), hints=_hints(),
        waiting_for_roll=None,
    )


#: On the screens that wait for a roll, where something has lain still over the tray a
#: while and the dice are not read for it.
HELD_OVER_TRAY = ("Something lies still in the picture that is not dice: a hand, an arm, "
                  "a cup? Take it out of the tray and keep your hands away: the dice are "
                  "read once they lie there alone.")
#: On the screens that wait for a roll: for dice rolled before the screen asked.
ALREADY_ROLLED = "Dice already lying still in the tray? OK reads them."
READ_NOW = "read them now"


def _hints(minus: str = "", plus: str = "", ok: str = "", no: str = "") -> tuple[Hint, ...]:
    return (Hint("-", minus), Hint("+", plus), Hint("OK", ok), Hint("X", no))


def marks(reading: FrameReading) -> tuple[BoxMark, ...]:
    return tuple(
        BoxMark(d.box, "?" if d.value is None else str(d.value), d.value is not None)
        for d in reading.dice
    )


def _size(image: Image | None) -> tuple[int, int]:
    return (0, 0) if image is None else (int(image.shape[1]), int(image.shape[0]))


def help_lines(s: FlowState) -> tuple[str, ...]:
    """The help for the screen shown now."""
    if s.step is Step.TRAY and s.corners is None:
        return TRAY_NOT_FOUND_HELP
    if s.step is Step.REFERENCE and s.tray_moved:
        return REFERENCE_MOVED_HELP
    if s.step is Step.REFERENCE and s.reference_things:
        return REFERENCE_THINGS_HELP
    if s.step is Step.REFERENCE and s.reference_dice:
        return REFERENCE_DICE_HELP
    return HELP_LINES[s.step]


_ALWAYS = (
    "− and ✗ together (the outer two buttons): one step back.",
    "+ and OK together (the middle two buttons): this help; any button closes it.",
)
HELP_LINES: dict[Step, tuple[str, ...]] = {
    Step.TRAY: ("OK: the yellow outline is the tray, go on.",
                "✗: move its corners by hand.", *_ALWAYS),
    Step.CORNERS: ("− / +: move the marked corner (hold for faster).",
                   "✗: switch between in-and-out and sideways.",
                   "OK: next corner; after the fourth, go on.", *_ALWAYS),
    Step.LIGHT: ("Wait while the camera settles, then read the warnings.",
                 "OK: go on. ✗: measure the light again (after fixing it).", *_ALWAYS),
    Step.REFERENCE: ("Empty the tray, hands away, then OK takes its picture.", *_ALWAYS),
    Step.COLOURS: ("The player named rolls their own dice and waits.",
                   "Dice already lying still in the tray? OK reads them as they lie.",
                   "A player not at the table? ✗ skips them (before rolling): the table "
                   "goes by the dice colour in the table's file for them.",
                   "Once the dice are found: OK keeps this colour, ✗: roll again.",
                   *_ALWAYS),
    Step.SIZES: ("OK: start the test rolls. ✗: back to the colours.", *_ALWAYS),
    Step.CHECK: ("Roll three dice and wait for the picture (OK: read dice already "
                 "lying still).",
                 "OK: the dice shown are right. ✗: enter the right ones.",
                 "−: this roll does not count (a die leaning on the wall): roll again.",
                 *_ALWAYS),
    Step.ENTER: ("+ / −: change the marked die (after 6 comes 1).",
                 "OK: next die (after the third: done). ✗: back one die.", *_ALWAYS),
    Step.RESULT: ("OK: save the calibration. ✗: do the test rolls again.",
                  "−, where the dice were not read well enough: calibrate again from step "
                  "1 (the camera, the tray, the lamp or the dice changed).", *_ALWAYS),
    Step.SAVED: _ALWAYS,
}
TRAY_NOT_FOUND_HELP = (
    "No tray found yet: point the camera at the whole tray, and empty it.",
    "✗: mark its four corners by hand instead, starting from a rectangle.",
    *_ALWAYS,
)
REFERENCE_DICE_HELP = (
    "Dice are seen in the tray (outlined): take them out, then OK takes its picture.",
    "✗: what is outlined is no die (a stain, a sticker): take the picture all the same.",
    *_ALWAYS,
)
REFERENCE_THINGS_HELP = (
    "Something is seen in the tray (outlined in red): a hand, an arm, a cup, a die. Take "
    "it out, keep your hands away, then OK takes its picture.",
    "✗: what is outlined is only a mark on the tray (a stain, a sticker, a pattern): take "
    "the picture all the same.",
    *_ALWAYS,
)
REFERENCE_MOVED_HELP = (
    "The tray lies elsewhere than at step 1, where its outline was set.",
    "OK: it is back in its place (inside the yellow line): take the empty tray's picture.",
    "✗: find the tray where it is now (steps 1 and 2 again).",
    *_ALWAYS,
)
