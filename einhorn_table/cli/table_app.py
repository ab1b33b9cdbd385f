"""Putting the companion together for ``demo`` and ``play`` (the composition root).

Not a sub-command itself: ``demo`` and ``play`` build their parts here.
"""

from __future__ import annotations

import contextlib
import math
import random
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from einhorn_table.adapters.history_log import HistoryRecorder
from einhorn_table.history import MatchRow, MatchStore, TableLog, state_lock
from einhorn_table.history.paths import CHOOSE_DEMO_STATE
from einhorn_table.history.state_lock import StateInUse
from einhorn_table.ports import Button, Clock, Controls, Gesture, GestureKind
from einhorn_table.rules import EINHORN, Awaiting, Ledger, Match, Setup, Variant, match_end
from einhorn_table.screen.view_model import (
    GAME_END_SECONDS,
    RESULT_SECONDS,
    REVEAL_SECONDS,
    ScreenKind,
    button_hints,
    entry_hints,
)
from einhorn_table.simulation.strategies import DEFAULT_STRATEGY, make_strategy
from einhorn_table.standings import ending_words, final_places, tie_words
from einhorn_table.stations.gesture_table import Action, Context, HelpLine, intent_for
from einhorn_table.table.bots import BotDriver, Move, Press, Throw
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.loop import ScreenOutput, TableLoop
from einhorn_table.table.notice_time import notice_shown
from einhorn_table.table.resume import Choice
from einhorn_table.table.still_waiting import HANDS_IN, HANDS_IN_WORDS
from einhorn_table.vision.profile import ReaderProfile
from einhorn_table.words import counted, joined, pad, plural, shown_width

if TYPE_CHECKING:
    from einhorn_table.calibration.profile import CalibrationProfile
    from einhorn_table.screen.view_model import ButtonHint, ScreenView

#: Seconds the final standings stay on screen before a headless demo exits.
FINAL_SECONDS = 3.0


@dataclass
class DemoOptions:
    names: list[str]
    #: None: the variant's own number of games.
    games: int | None
    bots: frozenset[int]
    strategy: str
    chance: random.Random
    seed: int
    size: tuple[int, int]
    fullscreen: bool
    screenshots: Path | None
    #: The state directory: the history the demo's matches go into.
    state: Path
    #: The wall clock the history dates its matches by.
    wall: Callable[[], datetime]
    fast: bool
    #: Go on with the demo history's unfinished match instead of starting one.
    resume: bool = False
    #: Keep the demo history's unfinished match as abandoned and start a new one, without
    #: asking (neither: people at the keyboard are asked on the screen).
    new: bool = False
    variant: Variant = EINHORN
    camera_size: tuple[int, int] = (640, 480)
    #: The synthetic camera set up as the mount guide says (table around the tray),
    #: instead of looking from far above at a tray filling the picture.
    mount: bool = False
    #: The table's calibration, read with as ``play`` reads (the dice in its tray
    #: outline, its reader settings); None: the whole frame with the general settings.
    calibration: CalibrationProfile | None = None
    #: Where the calibration was loaded from (its empty-tray picture lies beside it).
    calibration_path: Path | None = None
    #: How the person at the terminal runs the companion, for the lines it prints:
    #: ``./start`` when it started the demo (its .venv's command is on no PATH).
    command: str = "einhorn-table"
    #: Degrees the picture is turned clockwise on the screen (``--rotate``, as the table
    #: file's ``[screen] rotate``); None: not turned.
    rotate: int | None = None
    #: Where the seed was drawn for this run (no ``--seed``, a person at the keyboard): the
    #: line saying it and how to throw the same dice again, printed with the keys as the
    #: demo opens; None: nothing to say.
    same_dice: str | None = None


@dataclass
class DemoResult:
    ledger: Ledger
    standings: str
    #: None: the window was closed at the question whether to go on, or Ctrl-C pressed
    #: before the match's first frame (nothing played).
    loop: TableLoop | None
    match_id: str
    #: False: nobody rolled in the match, so the history does not keep it (see
    #: :func:`forget_unplayed`).
    kept: bool = True


@dataclass
class Started:
    """The match the table plays: new, or an interrupted one continued."""

    recorder: HistoryRecorder
    match: Match
    match_id: str
    resumed: bool


def start_match(log: TableLog, setup: Setup, unfinished: MatchRow | None,
                choice: Choice | None) -> Started:
    """Continue ``unfinished`` (``Choice.CONTINUE``), or keep it as abandoned and begin
    a new match of ``setup``; the history stores every input from here on."""
    if unfinished is not None and choice is Choice.CONTINUE:
        recorder, match = HistoryRecorder.resume(log, unfinished.match_id)
        return Started(recorder, match, unfinished.match_id, True)
    if unfinished is not None:
        log.store.abandon(unfinished.match_id)
    recorder, match_id = HistoryRecorder.begin(log, setup)
    return Started(recorder, Match(setup), match_id, False)


def forget_unplayed(store: MatchStore, match_id: str | None = None) -> bool:
    """Delete the match ``match_id`` (or any) begun but given no input yet; whether one
    went. Where the history cannot be written (a full card) it stays, and is still no
    match to go on with (``unfinished(begun=True)`` passes over it): the table goes on as
    if it went. (``play`` and the demo, at the start and as they stop.)"""
    from einhorn_table.history import HistoryError

    try:
        return bool(store.forget_unplayed(match_id))
    except HistoryError as error:
        print(f"einhorn-table: {error}", file=sys.stderr)
        return match_id is not None and len(store.lines(match_id)) == 1  # (setup alone)


def unfinished_to_go_on_with(store: MatchStore) -> tuple[bool, MatchRow | None]:
    """As ``play`` and the demo start: whether a match nobody rolled in was forgotten (a
    match begun and left at "Who starts?" is no match to go on with), and the latest
    unfinished match somebody played in, if any."""
    forgot = forget_unplayed(store)
    return forgot, store.unfinished(begun=True)


def not_kept_words(match_id: str, again: str) -> str:
    """What the terminal says as a match nobody rolled in stops: not kept, and ``again``
    (what happens at the next start)."""
    return f"Nobody rolled in match {match_id} yet: it is not kept, and {again}."


def next_match(log: TableLog, setup: Setup, current: Started) -> Started:
    """The match after ``current``, when a player held OK at its final standings: a new
    match of ``setup`` (the same players and settings), a new record in the history.

    ``current`` stays in the history as it is stored: finished (one not over, which the
    final standings never offer, is kept as abandoned rather than left open)."""
    current.recorder.close()
    if not current.match.over:
        log.store.abandon(current.match_id)
    return start_match(log, setup, None, Choice.NEW)


def standings_text(ledger: Ledger, go_on: str = "") -> str:
    """The final standings as lines of text, best first; of a match left unfinished,
    where it stands and ``go_on``, how to go on with it."""
    if match_end(ledger) is None:
        stashes = ", ".join(f"{p.name} {p.stash}" for p in ledger.players)
        return "\n".join(filter(None, [
            f"Match not finished (game {ledger.game} of {ledger.games}); it is kept.",
            f"Stashes so far: {stashes}", go_on]))
    names = [p.name for p in ledger.players]
    winner = names.index(ledger.winner) if ledger.winner else None
    lines = [f"Final standings after {counted(ledger.games_played, 'game')}:"]
    # (Columns as a terminal shows them: a Japanese name's letters take two each.)
    width = max(10, *(shown_width(name) for name in names))
    for place, seat in final_places([p.stash for p in ledger.players], winner):
        stash = ledger.players[seat].stash
        lines.append(f"{place}. {pad(names[seat], width)} {stash:>4} {plural(stash, 'stone')}")
    if ledger.winner:
        lines.append(f"Winner: {ledger.winner}")
    lines.extend(filter(None, [ending_words(ledger), tie_words(ledger)]))
    return "\n".join(lines)


def key_name(player: int, button: Button) -> str:
    """How the demo's notices name ``player``'s ``button``: the key, e.g. ``key 3``."""
    from einhorn_table.adapters.keyboard_controls import button_key

    return f"key {button_key(player, button)}"


def keys_check(names: Sequence[str], players: Sequence[int]) -> str:
    """What the demo's players whose input the table still waits for check: which keys
    are theirs ("Ben, your keys are Q W E R.")."""
    from einhorn_table.adapters.keyboard_controls import row_keys

    if len(players) == 1:
        return f"{names[players[0]]}, your keys are {row_keys(players[0])}."
    rows = ", ".join(f"{names[p]} {row_keys(p)}" for p in players)
    return f"Your keys: {rows}."


def keys_hands_in_check(names: Sequence[str], players: Sequence[int],
                        awaiting: Awaiting) -> str:
    """What the demo's players the table still waits for, whose other keys work, check:
    the key that hands it in ("Ben: key E hands in your bid.")."""
    from einhorn_table.adapters.keyboard_controls import button_key

    one, _ = HANDS_IN_WORDS[awaiting]
    if len(players) == 1:
        return f"{names[players[0]]}: key {button_key(players[0], HANDS_IN)} {one}."
    keys = ", ".join(f"{names[p]} {button_key(p, HANDS_IN)}" for p in players)
    return f"The key that {one}: {keys}."


def direct_performer(controller: TableController, throw: Callable[[int, Sequence[int]], None],
                     clock: Clock) -> Callable[[Move], None]:
    """Bots' moves straight into the controller (gestures) and the synthetic tray (throws)."""

    def perform(move: Move) -> None:
        if isinstance(move, Throw):
            throw(move.player, move.dice)
            return
        assert isinstance(move, Press)
        kind = GestureKind.CHORD if len(move.buttons) == 2 else (
            GestureKind.LONG if move.long else GestureKind.TAP)
        controller.on_gesture(Gesture(move.player, kind, move.buttons, clock.monotonic()))

    return perform


def throw_into(camera: Any) -> Callable[[int, Sequence[int]], None]:
    """A bot's throw as a roll of the synthetic camera (``SynthSource``)."""

    def throw(player: int, dice: Sequence[int]) -> None:
        camera.roll(list(dice), player=player, settle_frames=2)

    return throw


class NoControls:
    description = "no buttons"
    simulated = True

    def poll(self) -> list[Gesture]:
        return []

    def held(self, player: int) -> tuple[Button, ...]:
        return ()

    def close(self) -> None:
        pass


class PeopleOnly:
    """The keyboard's gestures of the seats people play. A bot's keys do nothing while a
    match is on (a person trying Q W E R would undo, call, bid or settle for Ben), but at
    the final standings and over the history anyone's keys work: with ``--bots all``
    holding OK there still starts the next match. A person's keys that mean nothing at
    the moment (a bot's among them) leave a line in ``keys``' note instead of nothing."""

    simulated = True

    def __init__(self, inner: Controls, bots: frozenset[int],
                 playing: Callable[[], TableController | None],
                 keys: DemoKeys | None = None) -> None:
        self.inner = inner
        self.bots = bots
        self.playing = playing
        self.keys = keys
        self.description = inner.description

    def _open_to(self, player: int) -> bool:
        controller = self.playing()
        return player not in self.bots or (controller is not None and controller.context(
            player) in (Context.FINAL, Context.HISTORY))

    def poll(self) -> list[Gesture]:
        gestures = self.inner.poll()
        controller = self.playing()
        if self.keys is not None and controller is not None:
            for gesture in gestures:
                self.keys.check(controller, gesture, open_to=self._open_to(gesture.player))
        return [g for g in gestures if self._open_to(g.player)]

    def held(self, player: int) -> tuple[Button, ...]:
        return self.inner.held(player) if self._open_to(player) else ()

    def close(self) -> None:
        self.inner.close()


#: The moments whose button strip a person at the keyboard answers with their keys:
#: every one with a strip of buttons on the screen but the call (its own row of tiles).
STRIP_CONTEXTS = tuple(context for context in Context
                       if context is not Context.CALL and button_hints(context))


@dataclass
class KeyNote:
    """What the demo's screen says for a while after a key that did nothing."""

    text: str = ""
    time: float = -math.inf

    def say(self, text: str, time: float) -> None:
        self.text, self.time = text, time

    def at(self, now: float) -> str:
        """The line at ``now``: for as long as it takes to read (as the table's notices)."""
        return self.text if notice_shown(self.text, self.time, now) else ""

    def short(self) -> str:
        """The note cut to what the key did: "Ana: key 2 does nothing now.", "Key K is
        not a key of the game."."""
        for mark in ("; ", ": "):
            head, found, _ = self.text.partition(mark)
            if found:
                return f"{head}."
        return self.text


#: About as many letters as the screen's notice box shows (three lines of some 70 at
#: any window size from 800x480 up; it leaves out the lines beyond).
NOTICE_LETTERS = 180


def with_key_note(table: str, said: float | None, note: KeyNote, now: float,
                  taken: float | None = None) -> str:
    """The notice the demo's screen shows: the table's own (``table``, said at ``said``;
    None: one that stands, as the request to keep hands out of view) and the key note,
    both where the box holds both, the table's first (the key note cut to what the key
    did where the whole does not fit); the table's alone where it said it after the key
    was pressed, or where the box holds no more. The key note goes once the table took
    an input after it (at ``taken``), as the table's own answer to a press that did
    nothing: "it is Ana's turn to roll" would stand over Ben's turn."""
    text = "" if taken is not None and taken > note.time else note.at(now)
    if not text:
        return table
    if not table:
        return text
    if said is not None and said >= note.time:
        return table
    ended = table if table.endswith((".", "!", "?", ":")) else f"{table}."
    for added in (text, note.short()):
        if len(ended) + 1 + len(added) <= NOTICE_LETTERS:
            return f"{ended} {added}"
    return table


def keyed(does: str, keys: str) -> str:
    """A button's hint with the key(s) that press it: "key 2: more", "hold key 3: new
    match, same players"."""
    if does.startswith("hold: "):
        return f"hold {keys}: {does.removeprefix('hold: ')}"
    return f"{keys}: {does}"


def keyed_hints(hints: Sequence[ButtonHint], players: Sequence[int]) -> tuple[ButtonHint, ...]:
    """The button strip with each tile's keys for ``players`` (a tile that does nothing
    keeps no key): "key 1: less" for one person, "1/Q: less" for two."""
    from einhorn_table.adapters.keyboard_controls import KEY_ROWS

    def keys(k: int) -> str:
        pressed = "/".join(KEY_ROWS[p][k].upper() for p in players)
        return f"key {pressed}" if len(players) == 1 else pressed

    return tuple(replace(hint, does=keyed(hint.does, keys(k))) if hint.does and players
                 else hint for k, hint in enumerate(hints))


def gesture_words(gesture: Gesture) -> str:
    """The keys of ``gesture`` as pressed: "key 2", "holding key 3", "keys 1 and 2 together"."""
    from einhorn_table.adapters.keyboard_controls import button_key

    keys = [button_key(gesture.player, button) for button in gesture.buttons]
    if gesture.kind is GestureKind.CHORD:
        return f"keys {' and '.join(keys)} together"
    return f"{'holding ' if gesture.kind is GestureKind.LONG else ''}key {keys[0]}"


def nothing_words(gesture: Gesture) -> str:
    """That ``gesture`` does nothing: "key 2 does nothing now", "keys 1 and 2 together
    do nothing now"."""
    verb = "do" if gesture.kind is GestureKind.CHORD else "does"
    return f"{gesture_words(gesture)} {verb} nothing now"


def hints_words(hints: Sequence[ButtonHint], player: int) -> str:
    """What ``player``'s keys do now, from the screen's button hints: "1 less, 2 more",
    "2 history, hold 3: new match, same players"."""
    from einhorn_table.adapters.keyboard_controls import button_key
    from einhorn_table.ports import Button as Buttons

    def said(does: str, key: str) -> str:
        return keyed(does, key) if does.startswith("hold: ") else f"{key} {does}"

    return ", ".join(said(hint.does, button_key(player, button))
                     for hint, button in zip(hints, Buttons, strict=True) if hint.does)


class DemoKeys:
    """The demo's answer to a key that does nothing at the moment: one line on the
    screen (``note``) saying what the keys do now, or whom the table waits for."""

    def __init__(self, names: Sequence[str], bots: frozenset[int]) -> None:
        self.names = list(names)
        self.bots = bots
        self.note = KeyNote()

    def people_keys(self) -> str:
        """Whose keys are which: "your keys are 1 2 3 4", or each person's row."""
        from einhorn_table.adapters.keyboard_controls import row_keys

        people = [seat for seat in range(len(self.names)) if seat not in self.bots]
        if len(people) == 1:
            return f"{self.names[people[0]]}, your keys are {row_keys(people[0])}"
        return "the players' keys: " + ", ".join(f"{self.names[seat]} {row_keys(seat)}"
                                                  for seat in people)

    def hint_list(self, controller: TableController, player: int) -> str:
        """What ``player``'s keys answer the screen's question with: "1 less, 2 more,
        3 done, 4 from 0" ("" where the screen asks them nothing)."""
        context = controller.context(player)
        if context not in STRIP_CONTEXTS:
            return ""
        entry = controller.entry
        hints = entry_hints(entry.position) if context is Context.ENTER_DICE and entry \
            else button_hints(context)
        return hints_words(hints, player)

    def now_words(self, controller: TableController, player: int) -> str:
        """What ``player``'s keys do now, or whom the table waits for."""
        from einhorn_table.adapters.keyboard_controls import row_keys

        context = controller.context(player)
        if context is Context.CALL:
            return f"it is your turn: tap one of {row_keys(player)} to call, then SPACE throws"
        if context is Context.ROLL:
            return "SPACE throws your dice"
        hints = self.hint_list(controller, player)
        return f"keys now: {hints}" if hints else controller.waiting_words()

    def check(self, controller: TableController, gesture: Gesture, *, open_to: bool) -> None:
        """Note ``gesture`` where it does nothing: a bot's keys, or keys that mean nothing
        at the moment (a help or undo chord always means something)."""
        from einhorn_table.adapters.keyboard_controls import row_keys

        player = gesture.player
        if not 0 <= player < len(self.names):
            return
        if not open_to:
            name = self.names[player]
            self.note.say(f"{row_keys(player)} are {name}'s keys, and {name} is a bot "
                          f"here: {self.people_keys()}.", gesture.time)
            return
        intent = intent_for(controller.context(player), gesture)
        if intent is not None and not (intent.action is Action.ENTER_BY_HAND
                                       and controller.camera_lost is None):
            return  # (a hold of OK while calling enters dice by hand only without a camera)
        self.note.say(f"{self.names[player]}: {nothing_words(gesture)}; "
                      f"{self.now_words(controller, player)}.", gesture.time)

    def stray(self, key_name: str, time: float) -> None:
        """A key that is no player's button (nor SPACE or ESC)."""
        self.note.say(f"{key_name} is not a key of the game: {self.people_keys()} "
                      "(SPACE throws, ESC stops).", time)

    def idle_space(self, controller: TableController | None, time: float) -> None:
        """SPACE where nobody at the keyboard is to throw."""
        if controller is None:
            self.note.say("SPACE throws nothing now: answer the question first.", time)
            return
        roller = controller.roller()
        if roller is not None and roller in self.bots:
            self.note.say(f"SPACE throws nothing now: {self.names[roller]} is a bot and "
                          "throws by itself.", time)
            return
        asked = [f"{self.names[seat]}'s keys now: {hints}"
                 for seat in range(len(self.names)) if seat not in self.bots
                 and (hints := self.hint_list(controller, seat))]
        self.note.say("SPACE throws nothing now: nobody is to roll" +
                      (f". {asked[0]}." if asked else f"; {controller.waiting_words()}."),
                      time)


class ScreenWrapper:
    """A screen that changes the views it shows, then hands them to ``inner``; the
    window's close (``quit_requested``) is the inner screen's."""

    def __init__(self, inner: ScreenOutput) -> None:
        self.inner = inner

    @property
    def quit_requested(self) -> bool:
        return self.inner.quit_requested

    @quit_requested.setter
    def quit_requested(self, value: bool) -> None:
        self.inner.quit_requested = value


class BotsOnlyScreen(ScreenWrapper):
    """The screen of a demo whose every seat a bot plays: its final standings close by
    themselves after ``FINAL_SECONDS``, before a hold of OK could begin a new match
    (the table takes one only ``NEXT_MATCH_AFTER_SECONDS`` after the match's end), so
    they do not offer it."""

    def __init__(self, inner: ScreenOutput) -> None:
        super().__init__(inner)
        self.new_match = button_hints(Context.FINAL)[2]  # OK: "hold: new match, ..."

    def show(self, view: ScreenView, now: float, key: tuple[object, ...] | None = None) -> None:
        if view.kind is ScreenKind.FINAL:
            view = replace(view, buttons=tuple(replace(hint, does="") if hint == self.new_match
                                               else hint for hint in view.buttons))
        self.inner.show(view, now, key)


class KeyboardScreen(ScreenWrapper):
    """The demo's screen where people play at the keyboard. The table's screen speaks of
    buttons and real dice: where a person at the keyboard is to throw, its line under the
    title adds that SPACE throws (and, before the call, which keys call); where it asks
    a person something, each button tile says its key; the help adds which keys are the
    player's buttons; a key that did nothing is answered with a line (``keys``' note)."""

    def __init__(self, inner: ScreenOutput, names: Sequence[str], bots: frozenset[int],
                 playing: Callable[[], TableController | None],
                 thrower: Callable[[], int | None], keys: DemoKeys | None = None) -> None:
        super().__init__(inner)
        self.names = list(names)
        self.bots = bots
        self.playing = playing
        #: The seat SPACE throws for now (None: SPACE does nothing now).
        self.thrower = thrower
        self.keys = keys

    def show(self, view: ScreenView, now: float, key: tuple[object, ...] | None = None) -> None:
        self.inner.show(self.with_keys(view, now), now, key)

    def asked(self, view: ScreenView, controller: TableController | None) -> list[int]:
        """The people whose keys answer the screen's button strip now."""
        people = [seat for seat in range(len(self.names)) if seat not in self.bots]
        if view.kind in (ScreenKind.FINAL, ScreenKind.HISTORY, ScreenKind.RESUME):
            return people  # (anyone's keys answer these)
        if controller is None:
            return []
        return [seat for seat in people if controller.context(seat) in STRIP_CONTEXTS]

    def with_keys(self, view: ScreenView, now: float | None = None) -> ScreenView:
        from einhorn_table.adapters.keyboard_controls import row_keys

        controller = self.playing()
        if view.buttons:
            view = replace(view, buttons=keyed_hints(view.buttons, self.asked(view, controller)))
        if self.keys is not None and now is not None:
            told = None if controller is None else controller.notice
            said = told.time if told is not None and told.text == view.notice else None
            last = None if controller is None else controller.last
            view = replace(view, notice=with_key_note(view.notice, said, self.keys.note, now,
                                                      None if last is None else last.time))
        if controller is None:
            return view
        thrower = self.thrower()
        if view.kind in (ScreenKind.TURN, ScreenKind.START_ROLLS) and view.focus == thrower \
                and thrower is not None and not controller.tray_busy:
            keys = row_keys(thrower)
            calls = view.kind is ScreenKind.TURN and not view.call_locked
            hint = f"keys {keys} call, SPACE throws" if calls else "SPACE throws the dice"
            view = replace(view, subtitle=f"{view.subtitle} ({hint})")
        if view.kind is ScreenKind.TOPUP and view.caller is not None \
                and view.caller == thrower and not controller.tray_busy:
            # (The unicorn owner, done with their top-up, calls above the others' tiles.)
            keys = row_keys(thrower)
            hint = "SPACE throws" if view.call_locked else f"keys {keys} call, SPACE throws"
            view = replace(view, subtitle=f"{view.subtitle} ({self.names[thrower]}: {hint})")
        helped = controller.help
        if view.help and helped is not None and helped.player not in self.bots:
            keys = row_keys(helped.player)
            throws = "; SPACE throws" if helped.context in (Context.CALL, Context.ROLL) else ""
            line = HelpLine(f"keys {keys}",
                            f"{self.names[helped.player]}'s buttons, left to right{throws}")
            keyed_help = tuple(replace(shown, gesture=keyed_gesture(shown.gesture,
                                                                    helped.player))
                               for shown in view.help)
            from einhorn_table.adapters.keyboard_controls import button_key
            from einhorn_table.stations.gesture_table import HELP_CHORD

            middle = (button_key(helped.player, b) for b in HELP_CHORD)
            close = f"Keys {' + '.join(middle)} together: close this help"
            view = replace(view, help=(line, *keyed_help), help_close=close)
            if helped.context is Context.ROLL:  # (no tray before the person: SPACE)
                view = replace(view, help_title=f"{self.names[helped.player]}, it's your "
                               "roll: SPACE throws your three dice")
        return view


def keyed_gesture(gesture: str, player: int) -> str:
    """A help line's gesture with ``player``'s keys for the buttons' names: "press key 1
    + key 4 together" for "press Das Unvermeidliche (-) + Dreifaltigkeit (X) together"
    (a person at the keyboard sees keys, not the stations' buttons)."""
    from einhorn_table.stations.gesture_table import button_words

    for button in Button:
        gesture = gesture.replace(button_words(button), key_name(player, button))
    return gesture


def reader_warning(profile: ReaderProfile | None) -> str | None:
    """A line for the installer where the learned reader's models do not load (the
    classical reader then stands in, reading fewer dice and asking more often), else
    None. ``einhorn-table doctor`` gives the same check."""
    from einhorn_table.doctor.report import Status
    from einhorn_table.doctor.system_checks import check_reader

    if profile is not None and profile.method == "classical":
        return None
    found = check_reader()
    return None if found.status is Status.OK else f"einhorn-table: {found.detail}. {found.todo}"


def demo_caption(names: Sequence[str], bots: frozenset[int]) -> str:
    """The demo window's title: whose keys are which, as the terminal said it once."""
    from einhorn_table.adapters.keyboard_controls import row_keys

    people = [f"{name}: keys {row_keys(seat)}"
              for seat, name in enumerate(names) if seat not in bots]
    return " · ".join(["Einhorn Table demo", *people, *(["SPACE throws the dice"] if people
                                                       else []), "ESC quits"])


def keys_words(names: Sequence[str], bots: frozenset[int]) -> str:
    """What the terminal says as the demo opens: whose keys are which, what they do, and
    how to stop ("" when bots play every seat: nobody needs keys)."""
    from einhorn_table.adapters.keyboard_controls import row_keys

    people = [f"{name}: keys {row_keys(seat)}"
              for seat, name in enumerate(names) if seat not in bots]
    if not people:
        return ""
    robots = [name for seat, name in enumerate(names) if seat in bots]
    signs = ("-", "+", "OK", "X")  # (as the screen's button hints show them)
    buttons = ", ".join(f"{button.label} ({sign})" for button, sign in zip(Button, signs,
                                                                           strict=True))
    return "\n".join(filter(None, [
        f"The demo at the keyboard: {'; '.join(people)}.",
        f"{joined(robots)} {'is a bot' if len(robots) == 1 else 'are bots'}, playing along."
        if robots else "",
        f"Each player's four keys are their buttons, left to right: {buttons}.",
        "On your turn tap a key to call its category (or call nothing), then SPACE throws "
        "the dice; when the screen asks you something, the keys are - + OK X.",
        "The outer two keys together undo the last input; the middle two show the help.",
        "ESC or closing the window stops; the match is kept.",
    ]))


def takes_bids_once_shown(controller: TableController) -> None:
    """Make ``controller`` take bids and top-ups only once their own screen shows: a
    button pressed while the game's end or the auction's result is still on the screen
    (OK, to go on) would bid or top up for nothing seen yet. For tables where people
    read the screen before pressing (play, and the demo with a person at the keyboard)."""
    controller.auction_opens_after = GAME_END_SECONDS
    controller.topup_opens_after = REVEAL_SECONDS
    controller.roll_shown_for = RESULT_SECONDS


def people_at(options: DemoOptions) -> bool:
    """Whether anyone plays at the keyboard (else bots play every seat)."""
    return len(options.bots) < len(options.names)


def headless_words(started: Started) -> str:
    """What the terminal says as bots begin a match without a window: nothing else
    shows until its final standings, a minute or more later."""
    ledger = started.match.ledger()
    names = joined(list(started.match.names))
    what = (f"go on with match {started.match_id} of {names} at game {ledger.game} of "
            f"{ledger.games}" if started.resumed else
            f"play a match of {counted(ledger.games, 'game')} for {names}")
    return (f"Without a window, bots {what}; the final standings are printed at its end "
            "(Ctrl-C stops it and keeps the match).")


def demo_command_line(command: str, words: Sequence[str], headless: bool) -> str:
    """A demo command to type: ``command`` (the companion's, see ``command_name``) and
    ``words`` quoted for the shell, headless (``SDL_VIDEODRIVER=dummy`` first) as asked."""
    return " ".join([*(["SDL_VIDEODRIVER=dummy"] if headless else []), command,
                     *(shlex.quote(word) for word in words)])


def go_on_words(options: DemoOptions) -> str:
    """How to go on with a demo match left unfinished: the command again with its bots
    (without ``--bots`` every seat would wait for the keyboard, and a headless run for
    ever) and their strategy, its window and camera, headless again where bots played
    every seat headless."""
    from einhorn_table.adapters.pygame_screen import no_window

    words = ["demo", "--continue", "--state-dir", str(options.state)]
    everyone = len(options.bots) == len(options.names)
    if options.bots:
        words += ["--bots", "all" if everyone else
                  ",".join(options.names[seat] for seat in sorted(options.bots))]
    if options.strategy != DEFAULT_STRATEGY:
        words += ["--strategy", options.strategy]
    # (The same window and the same camera as the match was played with.)
    if options.size != (800, 480):
        words += ["--size", "x".join(map(str, options.size))]
    if options.rotate is not None:
        words += ["--rotate", str(options.rotate)]
    if options.calibration_path is not None:
        words += ["--profile", str(options.calibration_path)]
    words += [switch for switch, on in (("--fullscreen", options.fullscreen),
                                         ("--mount", options.mount)) if on]
    headless = everyone and no_window()
    command = demo_command_line(options.command, words, headless)
    # (Run again, the demo asks only where people play; bots alone start a new match.)
    return f"Go on with it: {command}" + ("" if everyone else
                                           " (or run the demo again: it asks)")


class PromptKeys:
    """The keyboard at the question whether to go on: a key that answers nothing there
    leaves a line in ``keys``' note saying which keys answer."""

    simulated = True

    def __init__(self, inner: Controls, keys: DemoKeys, context: Callable[[], Context]) -> None:
        self.inner = inner
        self.keys = keys
        self.context = context
        self.description = inner.description

    def poll(self) -> list[Gesture]:
        gestures = self.inner.poll()
        for gesture in gestures:
            context = self.context()
            names = self.keys.names
            if intent_for(context, gesture) is None and 0 <= gesture.player < len(names):
                self.keys.note.say(
                    f"{names[gesture.player]}: {nothing_words(gesture)}; "
                    f"keys now: {hints_words(button_hints(context), gesture.player)}.",
                    gesture.time)
        return gestures

    def held(self, player: int) -> tuple[Button, ...]:
        return self.inner.held(player)

    def close(self) -> None:
        self.inner.close()


def ask_to_go_on(store: MatchStore, unfinished: MatchRow,
                 colours: Sequence[tuple[int, int, int]], keyboard: Controls, clock: Clock,
                 screen: ScreenOutput, keys: DemoKeys | None = None) -> Choice | None:
    """The table's question after an interrupted match, at the keyboard: OK (key 3) goes
    on with ``unfinished``, X (key 4) keeps it as abandoned and starts a new match; None
    when the window is closed. With ``keys``, the tiles say their keys and a key that
    answers nothing is answered with a line."""
    from einhorn_table.history.view import history_line, history_summary
    from einhorn_table.table.resume import Interrupted, ResumePrompt, ask
    from einhorn_table.vision.synth import DICE_PALETTE_NAMES

    match = store.resume(unfinished.match_id)
    seats = tuple(Seat(name, colours[i], DICE_PALETTE_NAMES[i])
                  for i, name in enumerate(match.names))
    interrupted = Interrupted(unfinished.match_id, history_line(unfinished).date, match, seats)
    prompt = ResumePrompt(interrupted, match.names, lambda: history_summary(store))
    if keys is not None:
        prompt.answers_idle_presses = False  # (its note answers them, with the keys)
        keyboard = PromptKeys(keyboard, keys, prompt.context)
        screen = KeyboardScreen(screen, keys.names, keys.bots, lambda: None, lambda: None,
                                keys)
    return ask(prompt, keyboard, clock, screen)


def stray_key(event: Any, pg: Any) -> str | None:
    """How to name a key pressed that is none of the game's (``"Key K"``, ``"Enter"``);
    None for keys better left unanswered: Shift, Ctrl and the like, shortcuts with them,
    function keys."""
    if event.type != pg.KEYDOWN or event.key in (pg.K_SPACE, pg.K_ESCAPE) or \
            getattr(event, "mod", 0) & (pg.KMOD_CTRL | pg.KMOD_ALT | pg.KMOD_META | pg.KMOD_GUI):
        return None
    text = getattr(event, "unicode", "") or ""
    if len(text) == 1 and text.isprintable() and not text.isspace():
        return f"Key {text.upper()}"
    return {pg.K_RETURN: "Enter", pg.K_KP_ENTER: "Enter", pg.K_BACKSPACE: "Backspace",
            pg.K_TAB: "Tab", pg.K_UP: "The arrow keys", pg.K_DOWN: "The arrow keys",
            pg.K_LEFT: "The arrow keys", pg.K_RIGHT: "The arrow keys"}.get(event.key)


def run_demo(options: DemoOptions) -> DemoResult:
    from einhorn_table.adapters.clock import FakeClock, SystemClock
    from einhorn_table.adapters.keyboard_controls import KeyboardControls
    from einhorn_table.adapters.pygame_screen import PygameScreen, no_window
    from einhorn_table.adapters.synth_source import SynthSource
    from einhorn_table.adapters.vision_tray import VisionTray, make_watcher
    from einhorn_table.calibration.tray_reading import tray_reader_for
    from einhorn_table.history.view import history_summary
    from einhorn_table.vision.synth import DICE_PALETTE_NAMES

    # (An unknown strategy stops the demo here, before a match is begun and kept.)
    strategies = [make_strategy(options.strategy) for _ in options.names]
    screen = PygameScreen(options.size, fullscreen=options.fullscreen,  # makes the folder
                          screenshots=options.screenshots, rotate=options.rotate,
                          turn="run the demo with --rotate 90 (or --rotate 270)",
                          caption=demo_caption(options.names, options.bots), must_open=True)
    clock: FakeClock | SystemClock = FakeClock(0.0) if options.fast else SystemClock()
    screen.open(clock.monotonic())  # no display: the demo stops here, before a match is kept
    hold = contextlib.ExitStack()  # (this demo's hold on its state directory)
    try:  # the window closes on every way out, a failed set-up included
        store = MatchStore(options.state, now=options.wall, choose=CHOOSE_DEMO_STATE)
        try:  # (before the unfinished match is looked at: it may be another demo's)
            playing = hold.enter_context(
                state_lock.holding(options.state, state_lock.DEMO, options.wall))
        except StateInUse:
            store.close()
            raise
        setup = Setup.for_variant(options.variant, options.names, games=options.games)
        log = TableLog(store, background_photos=True)  # (a slow disk stalls no frame)
        forgot, unfinished = unfinished_to_go_on_with(store)
        if forgot:
            print("Nobody rolled in the match left last time: it is not kept, and a new "
                  "match begins.", file=sys.stderr)
        # (The players of a match gone on with are those of --continue's match.)
        players = len(options.names)
        camera = SynthSource(clock, seed=options.seed, players=players, size=options.camera_size,
                             mount=options.mount)
        camera.open()
        colours = camera.table.player_colors
        loops: list[TableLoop] = []  # each match's, the last the one at the table now
        keyboard: KeyboardControls | None
        try:
            keyboard = KeyboardControls(clock, players=players, read_event_queue=False)
            screen.listeners.append(keyboard.handle)
        except Exception:  # no keyboard without a display: bots only
            keyboard = None
        if keyboard is not None and (words := keys_words(options.names, options.bots)):
            print(words, file=sys.stderr)
        # (People at the keyboard: a key that does nothing is answered on the screen.)
        keys = DemoKeys(options.names, options.bots) if keyboard is not None and \
            len(options.bots) < players else None

        # The faces a person's SPACE throws: from the seed alone, in the order thrown. (The
        # synthetic tray's own stream is drawn by every frame it shows, so its faces
        # would hang on how long the person waited: not the dice ``--seed`` throws again.)
        faces = random.Random(f"{options.seed}: the people's dice")

        def people_faces() -> list[int]:
            return [faces.randint(1, 6) for _ in range(3)]

        def thrower() -> int | None:
            """The person whose dice SPACE throws now (None: SPACE does nothing now)."""
            roller = loops[-1].controller.roller() if loops else None
            if roller is None or camera.frames_queued or roller in options.bots:
                return None
            return roller

        def other_keys(event: Any) -> None:
            """SPACE throws; other keys that are no player's buttons are answered."""
            pg = screen.pg
            if event.type != pg.KEYDOWN or keyboard is None or \
                    keyboard.button_of(event) is not None:
                return
            if event.key == pg.K_SPACE and (roller := thrower()) is not None:
                camera.roll(people_faces(), player=roller, settle_frames=2)
            elif keys is None:
                return
            elif event.key == pg.K_SPACE and not camera.frames_queued:
                keys.idle_space(loops[-1].controller if loops else None, clock.monotonic())
            elif (name := stray_key(event, pg)) is not None:
                keys.stray(name, clock.monotonic())

        screen.listeners.append(other_keys)
        choice = Choice.CONTINUE if options.resume else Choice.NEW
        if unfinished is not None and not options.resume and not options.new:
            if keyboard is not None and len(options.bots) < players \
                    and unfinished.players == tuple(options.names):  # (people to ask)
                try:
                    asked = ask_to_go_on(store, unfinished, colours, keyboard, clock, screen,
                                         keys)
                except KeyboardInterrupt:  # (Ctrl-C in the terminal: as the window closed)
                    asked = None
                if asked is None:  # the window was closed at the question: nothing changes
                    ledger = store.replay(unfinished.match_id).ledger()
                    camera.close()
                    store.close()
                    return DemoResult(ledger, standings_text(ledger, go_on_words(options)),
                                      None, unfinished.match_id)
                choice = asked
            else:  # (other players, or bots alone: nobody to ask)
                print(f"Match {unfinished.match_id} ({joined(list(unfinished.players))}) was "
                      "not finished; it is kept in the history as abandoned.",
                      file=sys.stderr)
        if options.same_dice and keyboard is not None and choice is Choice.NEW:
            # (Once a new match is chosen: the seed throws a new match's dice again, not
            # those of a match gone on with.)
            print(options.same_dice, file=sys.stderr)
        reader = tray_reader_for(options.calibration, options.calibration_path)
        tray = VisionTray(camera, make_watcher(), reader, clock, follower=reader)
        started = start_match(log, setup, unfinished, choice)
        playing(started.match_id)
        last: TableLoop | None = None  # the loop of the match at the table when it stops
        try:
            names = list(started.match.names)
            if not people_at(options) and no_window():
                print(headless_words(started), file=sys.stderr)
            # Held OK at the final standings: the next match, the same players and settings
            # as this one (a match gone on with keeps its own variant and games, not the
            # options'; not its "started", which the history writes anew).
            again = replace(started.match.setup, extra={})
            seats = [Seat(name, colours[i], DICE_PALETTE_NAMES[i])
                     for i, name in enumerate(names)]
            for seat in options.bots:
                strategies[seat].prepare(started.match.state.variant, players)
            controls: Controls = NoControls() if keyboard is None else PeopleOnly(
                keyboard, options.bots, lambda: loops[-1].controller if loops else None, keys)
            # (Bots alone: the final standings go by themselves, offering no new match.)
            shown: ScreenOutput = BotsOnlyScreen(screen) if options.bots == frozenset(
                range(players)) else KeyboardScreen(
                    screen, names, options.bots, lambda: loops[-1].controller if loops else None,
                    thrower, keys)

            def play(started: Started) -> TableLoop:
                """One match, until the bots' demo is over, ESC, or a hold of OK at its end."""
                match, recorder = started.match, started.recorder
                controller = TableController(match, recorder, seats, recorder,
                                             archive=lambda: history_summary(store))
                # (SPACE throws for whoever is next, and the bots throw in turn: the screen
                # does not offer the starting rolls all together.)
                controller.throws_at_once = False
                if keyboard is not None:
                    # The notices name the key a person presses ("hold key 3 again"),
                    # as the button tiles do, not the station's sign.
                    controller.button_name = key_name
                    controller.answers_idle_presses = False  # (the keyboard answers its keys)
                    controller.controls_check = keys_check  # (no plug: which keys)
                    controller.button_check = keys_hands_in_check
                watched = people_at(options)  # (someone reads the screen before pressing)
                if watched:
                    takes_bids_once_shown(controller)
                tray.rollers_at_once = controller.rollers_at_once
                tray.dice_at_start = controller.looks_at_start
                bots = BotDriver(options.bots, strategies, options.chance,
                                 pace=0.0 if options.fast else 0.8,
                                 # (a game's end and the auction's bids stay up as long as
                                 # the screen shows them, a moment more for the game's end;
                                 # where people play, on a fast clock too: the table takes
                                 # no bid or top-up before)
                                 linger=GAME_END_SECONDS + 0.5 if watched or not options.fast
                                 else 0.0,
                                 reveal=REVEAL_SECONDS if watched or not options.fast else 0.0,
                                 # (and each roll's result, before the next bot throws)
                                 result=RESULT_SECONDS if watched or not options.fast
                                 else 0.0)
                loop = TableLoop(controller, tray, controls, clock, shown, bots,
                                 direct_performer(controller, throw_into(camera), clock),
                                 tray_idle=lambda: not camera.frames_queued)
                ended: list[float] = []

                def done() -> bool:
                    if controller.next_match_asked is not None:
                        return True
                    # Counted from when the final standings are on the screen: the roll that
                    # ended the match is shown first (a few seconds), as any other.
                    if not match.over or loop.view is None or \
                            loop.view.kind is not ScreenKind.FINAL:
                        return False
                    if not ended:
                        ended.append(clock.monotonic())
                    return clock.monotonic() - ended[0] > FINAL_SECONDS and \
                        options.bots == frozenset(range(players))

                loops.append(loop)
                loop.run(done)
                return loop

            last = play(started)
            while last.controller.next_match_asked is not None and not screen.quit_requested:
                started = next_match(log, again, started)
                playing(started.match_id)
                last = play(started)
        except KeyboardInterrupt:
            # Ctrl-C in the terminal stops the demo as ESC does: the match is kept and
            # the terminal says how to go on with it (also one begun a moment before,
            # whose first frame was not drawn yet).
            last = loops[-1] if loops else None
        finally:
            started.recorder.close()
            try:  # (a match nobody rolled in is not kept: none to go on with)
                kept = not forget_unplayed(store, started.match_id)
            finally:
                store.close()
                tray.close()
        ledger = started.match.ledger()
        said = standings_text(ledger, go_on_words(options)) if kept else \
            not_kept_words(started.match_id, "the next demo begins a new match")
        return DemoResult(ledger, said, last, started.match_id, kept)
    finally:
        hold.close()
        screen.close()

