"""After a pulled plug: the table asks whether to go on with the interrupted match.

:class:`ResumePrompt` takes the stations' gestures (any player's: OK goes on with
the match, ✗ keeps it as abandoned and starts a new one, + shows the match
history) until a choice is made; :func:`ask` steps it with the screen and the
clock, as the table loop does for a match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from einhorn_table.ports import Button, Clock, Controls, Gesture
from einhorn_table.rules import Match
from einhorn_table.stations.gesture_table import SIGNS, Action, Context, intent_for
from einhorn_table.table.controller import HelpRequest, HistoryShown, Seat
from einhorn_table.table.notice_time import notice_shown

if TYPE_CHECKING:
    from einhorn_table.history.store import MatchRow
    from einhorn_table.history.view import HistorySummary
    from einhorn_table.table.loop import ScreenOutput


class Choice(StrEnum):
    CONTINUE = "continue"
    NEW = "new"


@dataclass(frozen=True)
class Interrupted:
    """An unfinished match found at start, as the prompt shows it."""

    match_id: str
    #: When it was started, in the table's local time ("2026-11-22 19:40").
    started: str
    #: The match exactly where it stood (replayed from the history).
    match: Match
    #: The seats of its players (dice colours), in the match's seat order.
    seats: tuple[Seat, ...]
    #: Why it cannot be continued at this table ("" when it can).
    blocked: str = ""


@dataclass
class ResumePrompt:
    interrupted: Interrupted
    #: The names of the stations' players (who pressed, for the help's heading).
    names: Sequence[str]
    archive: Callable[[], HistorySummary] | None = None
    choice: Choice | None = None
    help: HelpRequest | None = None
    shown_history: HistoryShown | None = None
    #: A line for the screen after a refused OK ("" when none).
    notice: str = field(default="", init=False)
    #: Whether a press that does nothing here is answered on the screen (the demo's
    #: keyboard answers its own keys, in the keys' words).
    answers_idle_presses: bool = True
    #: The answer to the last press that did nothing here, and when it was pressed.
    answer: tuple[str, float] | None = field(default=None, init=False)

    def context(self) -> Context:
        return Context.HISTORY if self.shown_history is not None else Context.RESUME

    def notice_at(self, now: float) -> str:
        """The line the screen shows at ``now``: the answer to a press that did nothing,
        for as long as it takes to read, else the refused OK's (if any)."""
        if self.answer is not None and notice_shown(*self.answer, now):
            return self.answer[0]
        return self.notice

    def on_gesture(self, gesture: Gesture) -> None:
        context = self.context()
        intent = intent_for(context, gesture)
        if intent is None:
            # (At the stations nothing happened, and nothing said why: the question
            # seemed stuck.)
            if self.answers_idle_presses:
                self.answer = (idle_words(context, self.names, gesture.player), gesture.time)
            return
        self.answer = None  # (the press did something: the screen shows what)
        if intent.action is Action.HELP:
            same = self.help is not None and self.help.player == gesture.player
            self.help = None if same else HelpRequest(gesture.player, context, gesture.time)
            return
        self.help = None
        if context is Context.HISTORY:
            self.shown_history = None  # + or ✗: back to the question
        elif intent.action is Action.HISTORY:
            if self.archive is not None:
                self.shown_history = HistoryShown(gesture.player, gesture.time, self.archive())
        elif intent.action is Action.OK:
            if self.interrupted.blocked:
                self.notice = self.interrupted.blocked
            else:
                self.choice = Choice.CONTINUE
        elif intent.action is Action.NO:
            self.choice = Choice.NEW


def idle_words(context: Context, names: Sequence[str], player: int) -> str:
    """Why ``player``'s press did nothing at the question (``context`` RESUME) or over its
    match history (HISTORY), and which buttons answer."""
    tap = f"{names[player]}: tap" if 0 <= player < len(names) else "Tap"
    if context is Context.HISTORY:
        return f"{tap} {SIGNS[Button.DREIFALTIGKEIT]} to close the match history."
    ok, no, more = (SIGNS[b] for b in (Button.EINHORN, Button.DREIFALTIGKEIT, Button.WUNSCH))
    return (f"{tap} {ok} to go on with this match, {no} to start a new one, {more} for "
            "the match history.")


def ask(prompt: ResumePrompt, controls: Controls, clock: Clock, screen: ScreenOutput | None,
        frame_seconds: float = 1 / 30, alive: Callable[[], object] | None = None,
        ) -> Choice | None:
    """Show the prompt until a player answers; None when the window is closed.

    ``alive`` is called once a frame (the systemd watchdog: the table is up and waits)."""
    from einhorn_table.screen.resume_view import resume_view
    from einhorn_table.table.loop import screen_key

    while prompt.choice is None:
        if screen is not None and screen.quit_requested:
            return None
        started = clock.monotonic()
        for gesture in controls.poll():
            prompt.on_gesture(gesture)
        now = clock.monotonic()
        if screen is not None:
            view = resume_view(prompt, now)
            screen.show(view, now, screen_key(view))
        if alive is not None:
            alive()
        clock.sleep(frame_seconds - (clock.monotonic() - started))
    return prompt.choice


def preset_choice(unfinished: MatchRow | None, *, resume: bool, new: bool,
                  recent_minutes: float | None, now: datetime) -> Choice | None:
    """The choice made without asking: by ``--continue`` / ``--new``, or by
    ``--continue-recent`` for a match whose last input is that young (a restart after
    a crash); None: ask on the screen."""
    if unfinished is None or new:
        return Choice.NEW
    if resume:
        return Choice.CONTINUE
    if recent_minutes is not None:
        age = now - datetime.fromisoformat(unfinished.updated)
        if age <= timedelta(minutes=recent_minutes):
            return Choice.CONTINUE
    return None
