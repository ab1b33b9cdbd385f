"""``einhorn-table play``: the real table, from its configuration file."""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from einhorn_table.cli.arguments import more_than_zero
from einhorn_table.ports import Button, Controls, Gesture
from einhorn_table.table.config import PlayerConfig
from einhorn_table.table.controller import Notice, Seat
from einhorn_table.table.doubt import RGB
from einhorn_table.table.events import CameraBack, CameraLost

#: How often the screen is drawn again while play is stopped (nothing on it moves).
STOPPED_FRAME_SECONDS = 0.5

if TYPE_CHECKING:
    from einhorn_table.adapters.source_base import BaseSource, CameraView
    from einhorn_table.adapters.systemd_notify import FrameWatchdog
    from einhorn_table.calibration.profile import CalibrationProfile
    from einhorn_table.rules import Setup
    from einhorn_table.table.config import TableConfig
    from einhorn_table.table.events import TrayEvent
    from einhorn_table.table.loop import TrayFeed


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="run the table: camera over the tray, button stations, screen",
        description="Runs the companion at the real table as its configuration file says "
        "(players, stations, dice colours, variant, games, camera, calibration).",
    )
    parser.add_argument("config", type=Path, nargs="?", default=Path("table.toml"),
                        help="the table's TOML configuration file (default ./table.toml; "
                        "see docs/table.example.toml)")
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="save a PNG of every new screen in this folder")
    parser.add_argument("--state-dir", default=None,
                        help="where the match history is kept, and the calibration.toml read "
                        "where the config names no calibration (default: the config's "
                        "'state', else EINHORN_STATE_DIR, systemd's STATE_DIRECTORY, "
                        "~/.local/state/einhorn-table)")
    unfinished = parser.add_mutually_exclusive_group()
    unfinished.add_argument("--continue", dest="resume", action="store_true",
                            help="go on with an interrupted match without asking")
    unfinished.add_argument("--new", action="store_true",
                            help="keep an interrupted match as abandoned and start a new one "
                            "without asking")
    unfinished.add_argument("--continue-recent", type=more_than_zero, default=None,
                            metavar="MINUTES",
                            help="go on without asking when the interrupted match's last input "
                            "is at most MINUTES old (a restart after a crash); ask on the "
                            "screen about an older one (the systemd service uses 10)")
    parser.set_defaults(handler=run)


class SeatControls:
    """The stations' gestures with the station number turned into the player's seat."""

    def __init__(self, inner: Controls, seat_of_station: dict[int, int]) -> None:
        self.inner = inner
        self.seat_of_station = seat_of_station
        self.description = inner.description
        self.simulated = inner.simulated

    def poll(self) -> list[Gesture]:
        return [
            replace(g, player=self.seat_of_station[g.player])
            for g in self.inner.poll()
            if g.player in self.seat_of_station
        ]

    def held(self, player: int) -> tuple[Button, ...]:
        stations = [s for s, seat in self.seat_of_station.items() if seat == player]
        return self.inner.held(stations[0]) if stations else ()

    def close(self) -> None:
        self.inner.close()


class WatchedTray:
    """The tray, petting systemd's watchdog while the camera's frames keep coming, and
    while the camera is told lost (the tray reopens it; the players may go on entering
    their dice by hand). A camera read that hangs stops the pets: systemd restarts."""

    def __init__(self, inner: TrayFeed, source: BaseSource, watchdog: FrameWatchdog) -> None:
        self.inner = inner
        self.source = source
        self.watchdog = watchdog
        self.camera_lost = False

    def poll(self) -> list[TrayEvent]:
        events = self.inner.poll()
        for event in events:  # the whole reason, for the journal; the screen says it short
            if isinstance(event, CameraLost):
                self.camera_lost = True
                print(f"einhorn-table: camera lost: {event.reason}", file=sys.stderr)
            elif isinstance(event, CameraBack):
                self.camera_lost = False
                print("einhorn-table: camera back", file=sys.stderr)
        self.watchdog.tick(self.source.frames_read, camera_lost=self.camera_lost)
        return events


def held_buttons_words(held: Sequence[tuple[int, Button]],
                       players: Sequence[PlayerConfig]) -> str:
    """What the screen says of the buttons (station from 0, button) that read pressed as
    the table starts, naming whose station each is; "" for none. A station's buttons are
    named together ("Ben's − and + buttons"); all four of one station are a plug or cable
    to look at, not four buttons to let go."""
    if not held:
        return ""
    from einhorn_table.stations.gesture_table import SIGNS
    from einhorn_table.words import joined

    at = {p.station - 1: p.name for p in players}
    by_station: dict[int, list[Button]] = {}
    for station, button in held:
        by_station.setdefault(station, []).append(button)
    whose = {station: f"{at[station]}'s" if station in at else f"station {station + 1}'s"
             for station in by_station}
    whole = [s for s, buttons in by_station.items() if len(set(buttons)) == len(Button)]
    if whole:
        # ("Ben's station", "station 3": not "station 3's station".)
        place = {s: f"{at[s]}'s station" if s in at else f"station {s + 1}" for s in whole}
        if len(whole) == 1:
            only = whole[0]
            words = (f"All four of {whose[only]} buttons read pressed with nobody touching "
                     f"them: check the plug and cable of {place[only]}.")
        else:  # (not "All four of Ben's and Ana's buttons": four in all, or each four?)
            stations = joined([f"of {place[s]}" for s in whole])
            words = (f"All four buttons {stations} read pressed with nobody touching them: "
                     "check the plug and cable of each of these stations.")
        rest = [(s, b) for s, b in held if s not in whole]
        more = held_buttons_words(rest, players)
        return f"{words} {more}" if more else words
    names = [f"{whose[station]} {joined([SIGNS[b] for b in buttons])}"
             for station, buttons in by_station.items()]
    if len(held) == 1:
        return (f"{names[0]} button reads pressed with nobody touching it: it works once "
                "let go. If it stays pressed, check its wires.")
    together = joined(names) if len(names) == 1 or len(names) == len(held) else \
        f"{', '.join(names[:-1])}, and {names[-1]}"  # ("Ben's − and +, and Ana's OK")
    return (f"{together} buttons read pressed with nobody "
            "touching them: they work once let go. If they stay pressed, check their wires.")


def seats_for(names: Sequence[str], players: Sequence[PlayerConfig],
              measured: Mapping[str, RGB] | None = None) -> tuple[
        tuple[Seat, ...], dict[int, int], str]:
    """The seats of a match's players from the configuration (by name), the map from
    station (0-based) to seat, and why the match cannot be played here ("" if it can).

    A player's dice colour is the one the calibration measured on this table
    (``measured``, by name) where it has one, else the configuration's."""
    configured = {p.name: p for p in players}
    measured = measured or {}
    missing = [name for name in names if name not in configured]
    seats = tuple(Seat(name, measured.get(name, configured[name].dice),
                       configured[name].dice_name)
                  if name in configured else Seat(name) for name in names)
    stations = {p.station - 1: names.index(p.name) for p in players if p.name in names}
    blocked = ""
    if missing:
        blocked = (f"{' and '.join(missing)} {'has' if len(missing) == 1 else 'have'} no "
                   "station in the table's configuration: add them to go on with this match, "
                   "or press X for a new one.")
    return seats, stations, blocked


@dataclass(frozen=True)
class NextMatch:
    """The match after a held OK, as the table's file now says: its ``config`` and
    ``setup``; what the terminal (the service's journal) is told, and what the screen
    says at the match's start ("": nothing)."""

    config: TableConfig
    setup: Setup
    journal: str = ""
    screen: str = ""


#: What the table's file sets that is taken up only at the start (the camera, the
#: screen opened, the pins' buttons, the calibration read, the history's folder), by
#: how the words name it.
SET_AT_START: tuple[tuple[str, Callable[[TableConfig], object]], ...] = (
    ("the camera", lambda c: c.camera),
    ("the screen", lambda c: (c.size, c.fullscreen, c.rotate)),
    ("the calibration", lambda c: c.calibration),
    ("the pins", lambda c: c.pins),
    ("the history's folder", lambda c: c.state),
)

#: How the table is started again where its service runs it.
RESTART = "sudo systemctl restart einhorn-table"


def next_match_setup(path: Path, started_with: TableConfig, config: TableConfig,
                     setup: Setup) -> NextMatch:
    """The table's file read again for the match after ``setup`` (a player changed
    between matches needs no restart); ``started_with``: the file as read when the table
    started (whose stations' buttons are open, whose camera and screen are in use),
    ``config``: as the match before had it.

    Where the file no longer reads, or seats a player at a station whose buttons were
    not in use at the start (they are opened at the start only), the next match has the
    players of ``config`` and ``setup`` as before, and the words say why. What the file
    changes that is taken up only at the start (the camera, the screen, ...) is said to
    need a restart."""
    from einhorn_table.errors import EinhornError
    from einhorn_table.rules import Setup, find_variant
    from einhorn_table.table.config import load_config
    from einhorn_table.words import joined

    try:
        again = load_config(path)
        variant = find_variant(again.variant)
    except EinhornError as error:
        return NextMatch(
            config, setup,
            f"einhorn-table: {path} does not read now, so the next match has the same "
            f"players as before; mend it for the one after: {error}",
            f"{path.name} has a mistake, so this match has the same players as before.")
    changed = [what for what, value in SET_AT_START if value(again) != value(started_with)]
    later = "" if not changed else (
        f" {path} changes {joined(changed)}, which only a restart of the table takes up "
        f"({RESTART}).")
    # (The screen's words short enough to be read while they stay, 15 s at most: the
    # journal says the rest.)
    later_shown = "" if not changed else (
        " Restart the table to use the new "
        f"{joined([what.removeprefix('the ') for what in changed])}." if len(changed) < 3
        else f" Restart the table to use the new settings in {path.name}.")
    unopened = sorted(again.stations - started_with.stations)
    if unopened:
        whom = [again.stations.names[k] for k in unopened]
        who = joined([f"{again.stations.names[k]} at station {k + 1}" for k in unopened])
        return NextMatch(
            config, setup,
            f"einhorn-table: {path} now seats {who}, whose buttons were not in use when "
            "the table started: the next match has the same players as before. To play "
            f"with {'them' if len(whom) > 1 else whom[0]}, restart the table ({RESTART})."
            + later.replace(f" ({RESTART})", ""),
            (f"{whom[0]}'s station was" if len(whom) == 1 else
             f"The stations of {joined(whom)} were")
            + " not in use when the table started: same players as before. Restart the "
            f"table to play with {whom[0] if len(whom) == 1 else 'them'}"
            + (" and to use the new settings." if changed else "."))
    names = [p.name for p in again.players]
    told = "" if names == list(setup.players) else (
        f"einhorn-table: the next match as {path} now says: {', '.join(names)}.")
    journal = (told or ("einhorn-table:" if later else "")) + later
    return NextMatch(again, Setup.for_variant(variant, names, games=again.games), journal,
                     later_shown.lstrip())


def dice_colours_note(profile: Path, names: Sequence[str], measured: Mapping[str, RGB]) -> str:
    """Whose dice colours come from the calibration and whose from the table's file."""
    calibrated = [name for name in names if name in measured]
    if not calibrated:
        return (f"Dice colours from the table's file: {profile} has none for "
                f"{', '.join(names)}.")
    rest = [name for name in names if name not in measured]
    note = f"Dice colours as calibrated in {profile}: {', '.join(calibrated)}"
    return note + (f"; from the table's file: {', '.join(rest)}." if rest else ".")


#: How the table's service is stopped before a calibration, and started again after it.
STOP = "stop the table if its service runs (sudo systemctl stop einhorn-table)"
START = "afterwards start the table again (sudo systemctl start einhorn-table)"


@dataclass(frozen=True)
class DiceColoursSaid:
    """What a match's start says of its players' dice colours: the terminal (the
    service's journal) whose are measured and, for those not measured, how to measure
    them; the screen ("": nothing) names the players new since the match before whose
    colour is not measured."""

    journal: str
    screen: str = ""


def dice_colours_said(table: Path, profile: Path, players: Sequence[PlayerConfig],
                      measured: Mapping[str, RGB], again: str,
                      before: Sequence[str] | None = None) -> DiceColoursSaid:
    """Whose dice colours the calibration (``profile``, its colours ``measured`` by
    name) gives a match's ``players``, and whose come from the table's file (``table``).
    ``again``: the command that calibrates again; ``before``: the players of the match
    before (None for the table's first match, whose screen is left to the doctor: it
    names every player the calibration did not measure)."""
    from einhorn_table.words import joined

    names = [p.name for p in players]
    note = dice_colours_note(profile, names, measured)
    lacking = [p for p in players if p.name not in measured]
    if not lacking:
        return DiceColoursSaid(note)
    whose = (f"{lacking[0].name}'s dice colour" if len(lacking) == 1 else
             f"the dice colours of {joined([p.name for p in lacking])}")
    journal = (f"{note} To measure {whose}, {STOP}, in {Path.cwd()} run {again}, {START}.")
    new = [p for p in lacking if before is not None and p.name not in before]
    if not new:
        return DiceColoursSaid(journal)
    # (Short enough to be read while it stays, with the next match's other words: the
    # journal says how to calibrate.)
    if len(new) == 1 and new[0].dice is None:
        screen = (f"{new[0].name}'s dice colour is neither measured nor named in "
                  f"{table.name}: calibrate the table again.")
    elif len(new) == 1:
        named = f'"{new[0].dice_name}"' if new[0].dice_name else f"{table.name}'s colour"
        screen = (f"{new[0].name}'s dice colour is not measured: the table goes by {named} "
                  "until it is calibrated again.")
    else:
        screen = (f"The dice colours of {joined([p.name for p in new])} are not measured: "
                  f"the table goes by {table.name} until it is calibrated again.")
    return DiceColoursSaid(journal, screen)


def play_command(args: argparse.Namespace, *options: str) -> str:
    """The command line that runs ``play`` as the person ran it (the command as they
    run the companion, the same table's file and state directory), with ``options``
    instead of how it went on with a match left unfinished."""
    import shlex

    from einhorn_table.words import command_name

    words = [command_name(), "play"]
    if Path(args.config) != Path("table.toml"):
        words.append(shlex.quote(str(args.config)))
    if args.state_dir is not None:
        words += ["--state-dir", shlex.quote(str(args.state_dir))]
    if args.screenshots is not None:
        words += ["--screenshots", shlex.quote(str(args.screenshots))]
    return " ".join([*words, *options])


def doctor_command(args: argparse.Namespace, profile: Path | None = None) -> str:
    """The doctor's command line for the table ``play`` runs (its file, its state
    directory), as the person runs the companion. Where its calibration (``profile``)
    lies in the table's service's own state directory, which only the service's user
    may read and write, the doctor runs as that user, told that folder."""
    import shlex

    from einhorn_table.calibration.paths import SERVICE_USER, kept_by_the_service
    from einhorn_table.words import command_name

    words = [command_name(), "doctor"]
    if Path(args.config) != Path("table.toml"):
        words += ["--table", shlex.quote(str(args.config))]
    state = args.state_dir
    if profile is not None and kept_by_the_service(profile):
        words = ["sudo", "-u", SERVICE_USER, *words]
        state = state or profile.parent
    if state is not None:
        words += ["--state-dir", shlex.quote(str(state))]
    return " ".join(words)


def view_warning(calibration: CalibrationProfile, profile_path: Path,
                 view: CameraView | None, again: str, doctor: str) -> str:
    """What ``play`` says where the calibration was made in another camera view than
    the camera's now, or keeps none and may have been ("" where it fits, or where the
    camera tells no view: webcams, recordings, the synthetic table); ``again``: the
    command that makes it again, ``doctor``: the doctor's for this table."""
    from einhorn_table.calibration.camera_view import view_note

    note = view_note(calibration, profile_path, view)
    if note is None or note.fits is True:
        return ""
    if note.fits is False:
        return (f"einhorn-table: {note.text}. Dice will be misread or not read until it is "
                f"made again: {STOP}, in {Path.cwd()} run {again}, {START}.")
    return (f"einhorn-table: {note.text}. To find out, {STOP} and run the doctor in "
            f"{Path.cwd()}: {doctor} tells whether it still fits (its view line) and, where "
            "it does, keeps the camera's view in the calibration, so that this is not said "
            f"again. Where it does not fit, or the dice are misread, run {again}; {START}.")


def run(args: argparse.Namespace) -> int:
    from einhorn_table.history.paths import state_dir
    from einhorn_table.history.state_lock import PLAY, holding
    from einhorn_table.table.config import load_config

    config = load_config(args.config)
    state = state_dir(args.state_dir or config.state, os.environ, Path.home())
    # One program at a time keeps its matches there (not a demo, nor the table started
    # twice). The kernel lets go of the lock however play ends, a power cut or a crash
    # included: the service started again by systemd is never kept out.
    with holding(state, PLAY, lambda: datetime.now(UTC)) as playing:
        return play_table(args, config, state, playing)


def play_table(args: argparse.Namespace, config: TableConfig, state: Path,
               playing: Callable[[str], None]) -> int:
    """The table, as its file ``config`` says, keeping its matches in ``state`` (held
    for it: ``playing`` writes the match it plays into the lock)."""
    from einhorn_table.adapters.camera_settings import CameraSettings
    from einhorn_table.adapters.clock import SystemClock
    from einhorn_table.adapters.gpio_buttons import ButtonStations
    from einhorn_table.adapters.pygame_screen import PygameScreen
    from einhorn_table.adapters.source_base import CameraLibraryMissing, SourceError
    from einhorn_table.adapters.sources import create_source
    from einhorn_table.adapters.systemd_notify import FrameWatchdog, SystemdNotifier
    from einhorn_table.adapters.vision_tray import VisionTray, make_watcher
    from einhorn_table.calibration.paths import state_profile, unreadable_state_words
    from einhorn_table.calibration.profile import load_profile
    from einhorn_table.calibration.tray_reading import tray_reader_for
    from einhorn_table.cli.doctor import calibrate_again_command
    from einhorn_table.cli.table_app import (
        Started,
        forget_unplayed,
        next_match,
        not_kept_words,
        reader_warning,
        standings_text,
        start_match,
        takes_bids_once_shown,
        unfinished_to_go_on_with,
    )
    from einhorn_table.history import MatchStore, TableLog
    from einhorn_table.history.paths import CHOOSE_TABLE_STATE
    from einhorn_table.history.view import history_line, history_summary
    from einhorn_table.rules import Match, Setup, find_variant
    from einhorn_table.screen.stopped_view import unsaved_view
    from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
    from einhorn_table.table.config import ConfigError
    from einhorn_table.table.controller import TableController
    from einhorn_table.table.loop import TableLoop, screen_key
    from einhorn_table.table.recorder import RecorderError
    from einhorn_table.table.resume import (
        Choice,
        Interrupted,
        ResumePrompt,
        ask,
        preset_choice,
    )

    variant = find_variant(config.variant)
    # The table's calibration (calibrate): named in the config, else the one in the
    # state directory the history goes to (or calibrate's, without a table's file),
    # else the reader's defaults.
    try:
        profile_path = config.calibration or state_profile(args.state_dir or config.state)
    except PermissionError as error:  # (the service's folder, for another user)
        why, todo = unreadable_state_words(error, "play ...")
        raise ConfigError(f"{why}. {todo}") from None
    camera_settings: CameraSettings | None = None
    calibration = None
    measured: dict[str, RGB] = {}
    if profile_path is not None:
        calibration = load_profile(profile_path)
        camera_settings = calibration.camera
        measured = {p.name: p.colour for p in calibration.players}
        print(dice_colours_said(args.config, profile_path, config.players, measured,
                                calibrate_again_command(args.config, profile_path)).journal,
              file=sys.stderr)
    # What reads the dice, in the calibrated tray as the camera sees it.
    reader = tray_reader_for(calibration, profile_path)
    warning = reader_warning(reader.profile)
    if warning:
        print(warning, file=sys.stderr)
    clock = SystemClock()
    camera_line = f"{args.config}: camera = \"{config.camera}\""
    try:
        source = create_source(config.camera, clock=clock, camera_settings=camera_settings)
    except SourceError as error:  # (misspelt)
        raise ConfigError(f"{camera_line}: {error}") from None
    try:
        source.open()  # a camera whose library is missing here stops play before a match
    except CameraLibraryMissing:
        raise
    except SourceError as error:
        if source.simulated:  # (a recording, or the synthetic table: nothing to plug in)
            raise ConfigError(f"{camera_line}: {error}") from None
        # (a loose cable, a webcam unplugged: the screen says so, the table waits)
    if calibration is not None and profile_path is not None:
        warning = view_warning(calibration, profile_path, source.view,
                               calibrate_again_command(args.config, profile_path),
                               doctor_command(args, profile_path))
        if warning:
            print(warning, file=sys.stderr)
    names = [p.name for p in config.players]
    setup = Setup.for_variant(variant, names, games=config.games)
    store = MatchStore(state, now=lambda: datetime.now(UTC), choose=CHOOSE_TABLE_STATE)
    # A match begun and left before anyone rolled to start it (the power went at "Who
    # starts?") is no match to go on with: it goes, and a new one begins as the file says.
    forgot, unfinished = unfinished_to_go_on_with(store)
    if forgot:
        print("einhorn-table: nobody rolled in the match begun last before the table "
              f"stopped: it is not kept, and a new match begins as {args.config} says.",
              file=sys.stderr)
    choice = preset_choice(unfinished, resume=args.resume, new=args.new,
                           recent_minutes=args.continue_recent, now=datetime.now(UTC))
    pin_map = load_pin_map(config.pins or default_pin_map_path())
    # Only the stations players sit at: the others' pins stay free (SPI, the serial port).
    buttons = ButtonStations(pin_map, clock, stations=config.stations)
    # A button that reads pressed before anyone touched it (leant on, stuck, a wire
    # touching GND) does nothing until it is let go: the family is told, not left
    # wondering why a button is dead.
    held = held_buttons_words(buttons.pressed_now(), config.players)
    if held:
        from einhorn_table.words import command_name

        print(f"einhorn-table: {held} (a wire touching GND, or on the wrong pin: "
              f"{command_name()} doctor --buttons checks every button)", file=sys.stderr)
    screen = PygameScreen(config.size, fullscreen=config.fullscreen,
                          screenshots=args.screenshots, rotate=config.rotate)
    # `systemctl stop` and a shutdown send SIGTERM: the table stops as when its window
    # closes, so the match's last photos are written and the history is closed.
    before_term = signal.signal(signal.SIGTERM, lambda *_: stop_asked(screen))
    # Ctrl-C in the terminal too: the match is kept and the terminal says how to go on
    # with it (a second Ctrl-C stops at once, should a frame hang).
    before_int = signal.getsignal(signal.SIGINT)
    if before_int is None:  # (set outside Python: Python's own is put back)
        before_int = signal.default_int_handler

    def ctrl_c(*_: object) -> None:
        stop_asked(screen)
        signal.signal(signal.SIGINT, before_int)

    if before_int is not signal.SIG_IGN:  # (started in the background: left as it is)
        signal.signal(signal.SIGINT, ctrl_c)
    screen.open(clock.monotonic())
    notifier = SystemdNotifier()
    watchdog = FrameWatchdog(notifier, clock)
    tray = None
    try:
        if unfinished is not None and choice is not Choice.NEW:
            match = store.resume(unfinished.match_id)
            seats, _, blocked = seats_for(match.names, config.players, measured)
            if blocked and not args.resume:
                # Going on by itself (--continue-recent, as the service does) cannot
                # work: the screen says why and offers a new match, instead of the
                # service failing at every start.
                choice = None
            if choice is None:
                notifier.ready("asking whether to go on with the interrupted match")
                prompt_frames = itertools.count(1)  # no camera yet: the prompt's frames count
                interrupted = Interrupted(unfinished.match_id, history_line(unfinished).date,
                                          match, seats, blocked)
                prompt = ResumePrompt(interrupted, names, lambda: history_summary(store))
                by_config = {p.station - 1: i for i, p in enumerate(config.players)}
                choice = ask(prompt, SeatControls(buttons, by_config), clock, screen,
                             alive=lambda: watchdog.tick(next(prompt_frames)))
                if choice is None:
                    return 0  # the window was closed: nothing chosen, nothing changed
            elif blocked:
                new = f"keep it as abandoned and start a new one: {play_command(args, '--new')}"
                why = blocked.replace("the table's configuration", str(args.config))
                raise ConfigError(f"match {unfinished.match_id} cannot be continued: "
                                  f"{why.replace('press X for a new one.', new)}")
        log = TableLog(store, background_photos=True)  # (a slow card stalls no frame)
        try:
            started = start_match(log, setup, unfinished, choice)
        except RecorderError as error:  # (a full or read-only card, found at the start)
            print(f"einhorn-table: the match could not be saved: {error}", file=sys.stderr)
            shown = store.replay(unfinished.match_id) if unfinished is not None \
                and choice is Choice.CONTINUE else Match(setup)
            view = unsaved_view(shown, seats_for(shown.names, config.players, measured)[0],
                                error.kind)
            notifier.ready("stopped: the match cannot be saved")
            frames = itertools.count(1)
            while not screen.quit_requested:  # (until the table is restarted)
                screen.show(view, clock.monotonic(), screen_key(view))
                watchdog.tick(next(frames))
                clock.sleep(STOPPED_FRAME_SECONDS)
            return 1
        tray = VisionTray(source, make_watcher(), reader, clock, follower=reader)
        watched = WatchedTray(tray, source, watchdog)

        # What the next match's first screen says: the held buttons (the first match's),
        # the table's file read again (the next one's).
        to_tell: list[str] = [held] if held else []
        started_with = config  # (its stations' buttons open, its camera and screen)

        def play(started: Started) -> TableController:
            """One match, until the window closes or a player holds OK at its end."""
            seats, stations, _ = seats_for(started.match.names, config.players, measured)
            controller = TableController(started.match, started.recorder, seats,
                                         started.recorder,
                                         archive=lambda: history_summary(store))
            takes_bids_once_shown(controller)  # (no bid for a screen not yet shown)
            tray.rollers_at_once = controller.rollers_at_once
            # (After a power cut, dice lying unread in the tray are told to the roller.)
            tray.dice_at_start = controller.looks_at_start
            if to_tell:
                controller.notice = Notice(" ".join(to_tell), clock.monotonic())
                to_tell.clear()
            loop = TableLoop(controller, watched, SeatControls(buttons, stations), clock,
                             screen)
            how = "continued" if started.resumed else "started"
            print(f"einhorn-table: match {started.match_id} {how}; kept in {store.path}",
                  file=sys.stderr)
            notifier.ready(f"match {started.match_id} {how}")
            playing(started.match_id)
            loop.run(lambda: controller.next_match_asked is not None)
            return controller

        try:
            controller = play(started)
            # Held OK at the final standings: the next match, as the table's file says.
            while controller.next_match_asked is not None and not screen.quit_requested:
                after = next_match_setup(args.config, started_with, config, setup)
                before = setup.players
                config, setup = after.config, after.setup
                if after.journal:
                    print(after.journal, file=sys.stderr)
                if after.screen:
                    to_tell.append(after.screen)
                if profile_path is not None and setup.players != before:
                    # As at the start: whose dice colours are measured, and how to
                    # measure a new player's (theirs is the table's file's until then).
                    said = dice_colours_said(
                        args.config, profile_path, config.players, measured,
                        calibrate_again_command(args.config, profile_path), before)
                    print(said.journal, file=sys.stderr)
                    if said.screen:
                        to_tell.append(said.screen)
                started = next_match(log, setup, started)
                controller = play(started)
        finally:
            notifier.stopping()
            started.recorder.close()
        if forget_unplayed(store, started.match_id):
            print(not_kept_words(started.match_id,
                                 "the table begins a new match when it starts again"))
        else:
            print(standings_text(controller.match.ledger(),
                                 "The table offers to go on with it when it starts again."))
    finally:
        if tray is not None:
            tray.close()
        source.close()  # (opened before the match; closing twice does nothing)
        buttons.close()
        screen.close()
        store.close()
        signal.signal(signal.SIGTERM, before_term)
        signal.signal(signal.SIGINT, before_int)
    return 0


def stop_asked(screen: Any) -> None:
    """SIGTERM's handler: the table stops at its next frame, as when its window closes."""
    screen.quit_requested = True
